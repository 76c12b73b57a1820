#define _GNU_SOURCE
#include "fresh_image.h"

#include <link.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

struct touch_request {
	const char *name_part;
	uintptr_t page_size;
	int pages;
};

/* The loader makes [start of RELRO, end of RELRO rounded down) read-only;
 * the writable part of a segment begins where that ends. */
static uintptr_t relro_end(const struct dl_phdr_info *info)
{
	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_GNU_RELRO)
			return info->dlpi_addr + info->dlpi_phdr[i].p_vaddr +
			       info->dlpi_phdr[i].p_memsz;
	return 0;
}

static int touch_pages(struct touch_request *req, uintptr_t from, uintptr_t to)
{
	int pages = 0;

	for (uintptr_t a = from; a < to;
	     a = (a & ~(req->page_size - 1)) + req->page_size) {
		volatile unsigned char *byte = (volatile unsigned char *)a;

		*byte = *byte;
		pages++;
	}
	return pages;
}

static int touch_object(struct dl_phdr_info *info, size_t size, void *data)
{
	struct touch_request *req = data;
	uintptr_t relro = relro_end(info);

	(void)size;
	if (info->dlpi_name == NULL ||
	    strstr(info->dlpi_name, req->name_part) == NULL)
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + ph->p_vaddr;
		uintptr_t end = start + ph->p_memsz;

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W))
			continue;
		if (relro > start && relro <= end)
			start = relro;
		req->pages += touch_pages(req, start, end);
	}
	return 0;
}

int make_data_pages_private(const char *name_part)
{
	struct touch_request req = { name_part,
				     (uintptr_t)sysconf(_SC_PAGESIZE), 0 };

	dl_iterate_phdr(touch_object, &req);
	return req.pages;
}
