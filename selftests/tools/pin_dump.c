// SPDX-License-Identifier: GPL-2.0-only
/*
 * pin_dump - every entry of the maps pinned as DIR/MAP, as lines "MAP KEY
 * VALUE" (hex bytes), for the tests that compare the whole pinned state
 * before and after a command (spritzctl-updown.sh's whole_state).  A map
 * not pinned prints nothing.  Lines are sorted (bytewise), as a hash map's
 * or a refilled LPM trie's order is not its content.  Entries of arrays
 * that are all zero are left out: they are the array's initial state, and a change to
 * or from zero still shows as a line that appears or goes.
 *
 * Arrays are read in batches: spritz_udp has 65 536 entries, and one
 * lookup syscall each (bpftool map dump) takes seconds in an emulated
 * guest; a memory-mapped array (spritz_flows, 45 MB) is read where it
 * lies, as copying it out took 1.5 s there.  Other maps (hash, LRU, LPM
 * trie) are walked key by key.
 *
 * Usage: pin_dump DIR MAP...
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "spritz_host.h"

/* every line goes here first, to be sorted */
static FILE *out;

static void hex(const unsigned char *p, size_t n)
{
	size_t i;

	fputc(' ', out);
	for (i = 0; i < n; i++)
		fprintf(out, "%02x", p[i]);
}

/* The value @v of a map like @info's: value_size bytes, per CPU for per-CPU maps. */
static void hex_value(const struct bpf_map_info *info, const unsigned char *v, size_t vb)
{
	size_t slot = (info->value_size + 7) & ~7U, off;

	if (vb == info->value_size) {
		hex(v, vb);
		return;
	}
	for (off = 0; off < vb; off += slot)
		hex(v + off, info->value_size);
}

/* All @n bytes at @p zero?  (memcmp: its vector loop, not a byte loop, over 45 MB) */
static bool zero(const unsigned char *p, size_t n)
{
	static const unsigned char z[4096];
	size_t k;

	for (; n; p += k, n -= k) {
		k = n < sizeof(z) ? n : sizeof(z);
		if (memcmp(p, z, k))
			return false;
	}
	return true;
}

/* One value's bytes: value_size, or one 8-byte-aligned slot per CPU. */
static size_t value_bytes(const struct bpf_map_info *info)
{
	switch (info->type) {
	case BPF_MAP_TYPE_PERCPU_ARRAY:
	case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_LRU_PERCPU_HASH:
		return ((info->value_size + 7) & ~7U) * libbpf_num_possible_cpus();
	default:
		return info->value_size;
	}
}

/* An array, in batches; zero entries left out. */
static int dump_array(int fd, const char *name, const struct bpf_map_info *info)
{
	size_t vb = value_bytes(info);
	__u32 n = info->max_entries, i;
	__u32 *keys = calloc(n, sizeof(*keys));
	unsigned char *vals = calloc(n, vb);
	int got, err;

	if (!keys || !vals) {
		err = -ENOMEM;
		goto out;
	}
	got = spritz_map_read_array(fd, n, vb, keys, vals);
	if (got < 0) {
		err = got;
		goto out;
	}
	for (i = 0; i < (__u32)got; i++) {
		if (zero(vals + (size_t)i * vb, vb))
			continue;
		fprintf(out, "%s", name);
		hex((unsigned char *)&keys[i], sizeof(keys[i]));
		hex_value(info, vals + (size_t)i * vb, vb);
		fputc('\n', out);
	}
	err = 0;
out:
	free(keys);
	free(vals);
	return err;
}

/* A memory-mapped array, read in place; zero entries left out. */
static int dump_mmap(int fd, const char *name, const struct bpf_map_info *info)
{
	size_t len = (size_t)info->max_entries * info->value_size, pg = sysconf(_SC_PAGESIZE);
	const unsigned char *m;
	__u32 i;

	len = (len + pg - 1) / pg * pg;
	m = mmap(NULL, len, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
	if (m == MAP_FAILED)
		return -errno;
	for (i = 0; i < info->max_entries; i++) {
		const unsigned char *v = m + (size_t)i * info->value_size;

		if (zero(v, info->value_size))
			continue;
		fprintf(out, "%s", name);
		hex((const unsigned char *)&i, sizeof(i));
		hex(v, info->value_size);
		fputc('\n', out);
	}
	munmap((void *)m, len);
	return 0;
}

/* Any other map, key by key. */
static int dump_keys(int fd, const char *name, const struct bpf_map_info *info)
{
	size_t vb = value_bytes(info);
	unsigned char *key = calloc(1, info->key_size), *next = calloc(1, info->key_size);
	unsigned char *val = calloc(1, vb);
	bool first = true;
	int err = 0;

	if (!key || !next || !val) {
		err = -ENOMEM;
		goto out;
	}
	while (!bpf_map_get_next_key(fd, first ? NULL : key, next)) {
		first = false;
		memcpy(key, next, info->key_size);
		if (bpf_map_lookup_elem(fd, key, val))
			continue; /* deleted meanwhile */
		fprintf(out, "%s", name);
		hex(key, info->key_size);
		hex_value(info, val, vb);
		fputc('\n', out);
	}
	if (errno != ENOENT)
		err = -errno;
out:
	free(key);
	free(next);
	free(val);
	return err;
}

static int dump_pin(const char *dir, const char *name)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	char path[4096];
	int fd, err;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = bpf_obj_get(path);
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len)) {
		err = -errno;
		goto out;
	}
	if (info.type == BPF_MAP_TYPE_ARRAY && (info.map_flags & BPF_F_MMAPABLE))
		err = dump_mmap(fd, name, &info);
	else if (info.type == BPF_MAP_TYPE_ARRAY || info.type == BPF_MAP_TYPE_PERCPU_ARRAY)
		err = dump_array(fd, name, &info);
	else
		err = dump_keys(fd, name, &info);
out:
	if (fd >= 0)
		close(fd);
	if (err)
		fprintf(stderr, "pin_dump: failed to read %s: %s\n", path, strerror(-err));
	return err;
}

static int line_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The @len bytes of lines at @buf, sorted, to stdout: 0, or -ENOMEM. */
static int print_sorted(char *buf, size_t len)
{
	size_t n = 0, i;
	char **lines, *p;

	for (i = 0; i < len; i++)
		n += buf[i] == '\n';
	lines = calloc(n ? n : 1, sizeof(*lines));
	if (!lines)
		return -ENOMEM;
	for (i = 0, p = buf; i < n; i++) {
		lines[i] = p;
		p = strchr(p, '\n');
		*p++ = '\0';
	}
	qsort(lines, n, sizeof(*lines), line_cmp);
	for (i = 0; i < n; i++)
		puts(lines[i]);
	free(lines);
	return 0;
}

int main(int argc, char **argv)
{
	size_t len = 0;
	char *buf = NULL;
	int i, e, rc = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: pin_dump DIR MAP...\n");
		return 2;
	}
	out = open_memstream(&buf, &len);
	if (!out) {
		fprintf(stderr, "pin_dump: failed to open a memory stream: %s\n", strerror(errno));
		return 1;
	}
	for (i = 2; i < argc; i++)
		if (dump_pin(argv[1], argv[i]))
			rc = 1;
	if (fclose(out)) {
		fprintf(stderr, "pin_dump: failed to close the memory stream: %s\n", strerror(errno));
		rc = 1;
	} else if ((e = print_sorted(buf, len))) {
		fprintf(stderr, "pin_dump: failed to sort the entries: %s\n", strerror(-e));
		rc = 1;
	}
	free(buf);
	return rc;
}
