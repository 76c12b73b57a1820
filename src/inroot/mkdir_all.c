/*
 * inroot_mkdir_all: every missing directory of a path, as `mkdir -p`
 * makes them inside a chroot to the root.
 *
 * Each prefix of the path is opened inside the root, and made where it
 * is missing, by the same operations as any other path here: its parent
 * walked inside the root, mkdirat on the name in the directory held. So
 * a rename or a swapped link at any moment can only make the call fail,
 * never make a directory outside the root. Nothing is trusted from one
 * prefix to the next: a directory another process removes or replaces
 * meanwhile is looked up again by the next prefix.
 *
 * Each prefix costs one walk of its own: a kernel's openat2 walks it in
 * one call; the library's walk (openat2 refused) costs a call per
 * component, so a path of n missing components costs about n * n / 2.
 */
#define _GNU_SOURCE /* O_PATH */
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../exports.h"
#include "in_root.h"
#include "inroot.h"
#include "../sys.h"

#define DIRECTORY_FLAGS (O_PATH | O_DIRECTORY | O_CLOEXEC)

/* mkdirat of prefix's last name in its parent, held inside the root. */
static int make_directory(int root, const char *prefix, mode_t mode)
{
	struct held_parent p;
	int r = libexecveat_hold_parent(root, prefix, &p);

	if (r == 0) {
		r = call_result(mkdirat(p.fd, p.name, mode));
		libexecveat_release_parent(&p);
	}
	return r;
}

/*
 * prefix opened as a directory, made first where it is missing. Made by
 * another process meanwhile (EEXIST) is found. EEXIST where the name is
 * there but leads nowhere (a dangling link: mkdirat's answer for it).
 */
static int open_or_make(int root, const char *prefix, mode_t mode)
{
	int fd = libexecveat_inroot_open(root, prefix, DIRECTORY_FLAGS, 0);
	int made;

	if (fd != -ENOENT)
		return fd;
	made = make_directory(root, prefix, mode);
	if (made != 0 && made != -EEXIST)
		return made;
	fd = libexecveat_inroot_open(root, prefix, DIRECTORY_FLAGS, 0);
	return fd == -ENOENT && made == -EEXIST ? -EEXIST : fd;
}

/* The end of the component that starts at or after pos (slashes
 * skipped), or 0 where none is left. */
static size_t next_component_end(const char *text, size_t pos)
{
	while (text[pos] == '/')
		pos++;
	if (text[pos] == '\0')
		return 0;
	while (text[pos] != '\0' && text[pos] != '/')
		pos++;
	return pos;
}

static int make_all(int root, char *text, mode_t mode)
{
	int fd = libexecveat_inroot_open(root, text, DIRECTORY_FLAGS, 0);
	size_t end = 0;

	if (fd != -ENOENT)
		return fd;
	while ((end = next_component_end(text, end)) != 0) {
		char saved = text[end];

		if (fd >= 0)
			sys_close(fd);
		text[end] = '\0';
		fd = open_or_make(root, text, mode);
		text[end] = saved;
		if (fd < 0)
			return fd;
	}
	return fd;
}

EXECVEAT_EXPORT int inroot_mkdir_all(int root, const char *path, mode_t mode)
{
	char text[PATH_MAX];
	int r = libexecveat_check_path(path);

	if (r != 0)
		return answer(r);
	strcpy(text, path);
	return answer(make_all(root, text, mode));
}
