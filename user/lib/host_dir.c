// SPDX-License-Identifier: GPL-2.0-only
/*
 * The host directory map, flow resync and the datapath barrier (spritz_host.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include <spritz/flowtab.h>
#include <spritz/maps.h>

#include "spritz_err.h"
#include "spritz_host.h"

static void to_key(const struct spritz_dir_entry *e, struct spritz_dir_key *k)
{
	memset(k, 0, sizeof(*k));
	k->prefixlen = e->prefixlen;
	memcpy(k->addr, e->addr, 16);
}

int spritz_dirmap_conflict(int fd, const struct spritz_dir_list *l, char *why, size_t len)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		struct spritz_dir_key k;
		struct spritz_dir_val v;
		char pfx[64];

		to_key(&l->e[i], &k);
		if (bpf_map_lookup_elem(fd, &k, &v)) {
			if (errno == ENOENT)
				continue;
			return -errno;
		}
		if (v.dst_switch == l->e[i].sw)
			continue;
		spritz_dir_format(k.addr, k.prefixlen, pfx, sizeof(pfx));
		snprintf(why, len, "%s is switch %u in the directory, %u here", pfx, v.dst_switch,
			 l->e[i].sw);
		return 1;
	}
	return 0;
}

int spritz_dirmap_add_missing(int fd, const struct spritz_dir_list *l,
			      struct spritz_dir_list *added)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		struct spritz_dir_val v = { .dst_switch = l->e[i].sw };
		struct spritz_dir_key k;

		to_key(&l->e[i], &k);
		if (bpf_map_update_elem(fd, &k, &v, BPF_NOEXIST)) {
			if (errno == EEXIST)
				continue;
			return -errno;
		}
		if (spritz_dir_list_push(added, &l->e[i])) {
			bpf_map_delete_elem(fd, &k);
			return -ENOMEM;
		}
	}
	return 0;
}

void spritz_dirmap_remove(int fd, const struct spritz_dir_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		struct spritz_dir_key k;

		to_key(&l->e[i], &k);
		bpf_map_delete_elem(fd, &k);
	}
}

int spritz_dirmap_read(int fd, struct spritz_dir_list *out)
{
	struct spritz_dir_key k, next;
	struct spritz_dir_val v;
	void *prev = NULL;
	int err = 0;

	out->n = 0;
	while (!err && !bpf_map_get_next_key(fd, prev, &next)) {
		struct spritz_dir_entry e = { .prefixlen = next.prefixlen };

		k = next;
		prev = &k;
		if (bpf_map_lookup_elem(fd, &k, &v))
			continue;
		memcpy(e.addr, k.addr, sizeof(e.addr));
		e.sw = v.dst_switch;
		err = spritz_dir_list_push(out, &e);
	}
	spritz_dir_sort(out); /* for spritz_dir_find() */
	return err;
}

int spritz_dirmap_replace(int fd, const struct spritz_dir_list *l)
{
	struct spritz_dir_list stale = { 0 };
	struct spritz_dir_key k;
	size_t i;
	int err;

	/* first the entries the new directory does not have */
	err = spritz_dirmap_read(fd, &stale);
	for (i = 0; !err && i < stale.n; i++) {
		if (spritz_dir_find(l, stale.e[i].addr, stale.e[i].prefixlen))
			continue;
		to_key(&stale.e[i], &k);
		if (bpf_map_delete_elem(fd, &k) && errno != ENOENT)
			err = -errno;
	}
	spritz_dir_free(&stale);
	if (!err)
		err = spritz_fault("directory/mid", -ENOSPC);
	for (i = 0; !err && i < l->n; i++) {
		struct spritz_dir_val v = { .dst_switch = l->e[i].sw };

		to_key(&l->e[i], &k);
		if (bpf_map_update_elem(fd, &k, &v, BPF_ANY))
			err = -errno;
	}
	return err;
}

/* Does one of @stale mark the pair (@src, @dst)? */
static bool pair_stale(const struct spritz_stale *stale, size_t nstale, uint32_t src, uint32_t dst)
{
	size_t i;

	for (i = 0; i < nstale; i++)
		if (stale[i].src == src && dst < stale[i].nsw && stale[i].dst[dst])
			return true;
	return false;
}

int spritz_flows_resync(int dir_fd, long src, const struct spritz_stale *stale, size_t nstale)
{
	struct spritz_flowtab t;
	struct spritz_flow f;
	int fd, err, n = 0;
	size_t i;

	fd = spritz_dp_pin_get(SPRITZ_MAP_FLOWS);
	if (fd < 0)
		return fd;
	err = spritz_flowtab_open(fd, true, &t);
	close(fd);
	if (err)
		return err;
	for (i = 0; i < t.n; i++) {
		struct spritz_dir_key dk = { .prefixlen = 128 };
		struct spritz_dir_val dv;

		if (!spritz_flowtab_get(&t, i, &f))
			continue;
		memcpy(dk.addr, f.key.daddr, sizeof(dk.addr));
		/* an LPM lookup with a full-length key: the longest match */
		if (!bpf_map_lookup_elem(dir_fd, &dk, &dv) && dv.dst_switch == f.dst_switch &&
		    (src < 0 || f.src_switch != (uint32_t)src) &&
		    !pair_stale(stale, nstale, f.src_switch, f.dst_switch))
			continue;
		/* unless the datapath gave the slot to another flow meanwhile */
		if (spritz_flow_key_eq(&t.slot[i].key, &f.key)) {
			spritz_flowtab_clear(&t, i);
			n++;
		}
	}
	spritz_flowtab_close(&t);
	return n;
}

/*
 * An update of a map-in-map returns only after an RCU grace period
 * (the kernel's maybe_wait_bpf_programs(), there so that userspace knows
 * every program now sees the new value), and tc programs run inside RCU
 * read-side sections: a throwaway one is the datapath barrier.
 */
int spritz_dp_sync(void)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts);
	int inner, outer, err = 0;
	uint32_t zero = 0;

	inner = bpf_map_create(BPF_MAP_TYPE_ARRAY, "spritz_sync_in", 4, 4, 1, NULL);
	if (inner < 0)
		return -errno;
	opts.inner_map_fd = inner;
	outer = bpf_map_create(BPF_MAP_TYPE_ARRAY_OF_MAPS, "spritz_sync", 4, 4, 1, &opts);
	if (outer < 0) {
		err = -errno;
		goto close_inner;
	}
	if (bpf_map_update_elem(outer, &zero, &inner, BPF_ANY))
		err = -errno;
	close(outer);
close_inner:
	close(inner);
	return err;
}

long spritz_dirmap_max_switch(int fd)
{
	struct spritz_dir_key k, next;
	struct spritz_dir_val v;
	void *prev = NULL;
	long max = -1;

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		k = next;
		prev = &k;
		if (!bpf_map_lookup_elem(fd, &k, &v) && (long)v.dst_switch > max)
			max = v.dst_switch;
	}
	return max;
}

