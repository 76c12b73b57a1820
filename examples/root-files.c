/*
 * root-files ROOT HOSTNAME: the files a container runtime makes ready in
 * an image's root file system before it starts the container, with
 * 2.0's functions of <inroot.h>: make the mount points, write
 * /etc/hostname, empty /run. Every path is resolved inside ROOT as in a
 * chroot to it, so a link the image holds (dev ->
 * ../../../../var/lib/secret, which from outside ROOT leads to the
 * machine's /var/lib/secret) leads to ROOT's own files
 * (ROOT/var/lib/secret), never the machine's, even while another process
 * renames what is inside ROOT. (prepare-root/ goes on with 2.1's
 * functions: device nodes checked, the mounts themselves.)
 *
 * It works where /proc is hidden and where a seccomp policy refuses
 * openat2: the library then walks each path itself.
 *
 *   cc -o root-files root-files.c $(pkg-config --cflags --libs execveat)
 *   ./root-files /var/lib/machines/box box
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <inroot.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *const mount_points[] = { "/proc", "/sys", "/dev/pts",
					    "/dev/shm", "/etc" };

static int failed(const char *what, const char *path)
{
	perror(path);
	fprintf(stderr, "root-files: could not %s %s\n", what, path);
	return 1;
}

int main(int argc, char **argv)
{
	int root, fd;
	size_t len;

	if (argc != 3) {
		fprintf(stderr, "usage: root-files ROOT HOSTNAME\n");
		return 2;
	}
	root = open(argv[1], O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root < 0)
		return failed("open", argv[1]);

	/* mkdir -p, inside ROOT: an fd of the directory made or found. */
	for (size_t i = 0; i < sizeof(mount_points) / sizeof(*mount_points);
	     i++) {
		fd = inroot_mkdir_all(root, mount_points[i], 0755);
		if (fd < 0)
			return failed("make", mount_points[i]);
		close(fd);
	}

	/* rm -rf /run, then a fresh, empty /run. */
	if (inroot_remove_all(root, "/run") != 0)
		return failed("remove", "/run");
	if (inroot_mkdir(root, "/run", 0755) != 0)
		return failed("make", "/run");

	/* The new file's fd, close-on-exec like every fd inroot returns. */
	fd = inroot_creat(root, "/etc/hostname", O_WRONLY | O_TRUNC, 0644);
	if (fd < 0)
		return failed("write", "/etc/hostname");
	len = strlen(argv[2]);
	if (write(fd, argv[2], len) != (ssize_t)len || write(fd, "\n", 1) != 1)
		return failed("write", "/etc/hostname");
	close(fd);
	printf("prepared %s for %s\n", argv[1], argv[2]);
	return 0;
}
