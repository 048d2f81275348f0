// SPDX-License-Identifier: GPL-2.0-only
/*
 * Whole-map reads (spritz_host.h): arrays in batches, since one lookup
 * syscall per entry takes seconds for tens of thousands of entries in an
 * emulated guest.
 */
#include <errno.h>

#include <bpf/bpf.h>

#include "spritz_host.h"

int spritz_map_read_array(int fd, uint32_t n, size_t vsz, uint32_t *keys, void *vals)
{
	uint32_t got = 0, next = 0, count;
	char *v = vals;
	int err;

	while (got < n) {
		count = n - got;
		err = bpf_map_lookup_batch(fd, got ? &next : NULL, &next, keys + got,
					   v + (size_t)got * vsz, &count, NULL);
		got += count;
		if (err && errno == ENOENT) /* the last batch */
			break;
		if (err)
			return -errno;
	}
	return (int)got;
}
