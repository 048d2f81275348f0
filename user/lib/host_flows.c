// SPDX-License-Identifier: GPL-2.0-only
/*
 * The flow table (spritz_flows, include/spritz/flowtab.h) from userspace:
 * mapped into the process (the array is BPF_F_MMAPABLE), scanned for the
 * slots in use, a slot cleared; and the random keys of its hash, drawn
 * into a datapath object before it is loaded.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include <spritz/flowtab.h>

#include "spritz_host.h"

/* the kernel lays an array's values out every round_up(value_size, 8) bytes */
_Static_assert(sizeof(struct spritz_flow) % 8 == 0, "slots are 8-byte multiples");

int spritz_flowtab_open(int fd, bool writable, struct spritz_flowtab *t)
{
	struct bpf_map_info info;
	uint32_t len = sizeof(info);
	void *p;

	memset(t, 0, sizeof(*t));
	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -errno;
	if (info.type != BPF_MAP_TYPE_ARRAY || info.value_size != sizeof(struct spritz_flow) ||
	    info.max_entries != SPRITZ_FLOWS_MAX || !(info.map_flags & BPF_F_MMAPABLE))
		return -EPROTO; /* a datapath of another build */
	t->len = (size_t)info.max_entries * sizeof(struct spritz_flow);
	p = mmap(NULL, t->len, PROT_READ | (writable ? PROT_WRITE : 0), MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	t->slot = p;
	t->n = info.max_entries;
	return 0;
}

void spritz_flowtab_close(struct spritz_flowtab *t)
{
	if (t->slot)
		munmap(t->slot, t->len);
	memset(t, 0, sizeof(*t));
}

/* Copy slot @i into @f if it holds a flow (a copy: the datapath writes on). */
bool spritz_flowtab_get(const struct spritz_flowtab *t, size_t i, struct spritz_flow *f)
{
	if (i >= t->n || !spritz_flow_used(&t->slot[i]))
		return false;
	memcpy(f, &t->slot[i], sizeof(*f));
	return spritz_flow_used(f);
}

long spritz_flowtab_find(const struct spritz_flowtab *t, const struct spritz_flow_key *key,
			 const volatile struct spritz_flow_hashkey *hk)
{
	uint32_t i = spritz_flow_set(key, hk), w;

	for (w = 0; w < SPRITZ_FLOW_WAYS; w++, i++)
		if (i < t->n && spritz_flow_used(&t->slot[i]) &&
		    spritz_flow_key_eq(&t->slot[i].key, key))
			return (long)i;
	return -ENOENT;
}

void spritz_flowtab_clear(struct spritz_flowtab *t, size_t i)
{
	if (i < t->n)
		memset(&t->slot[i], 0, sizeof(t->slot[i]));
}

/* The offset and size of global @name in section @sec of @obj's BTF. */
static int datasec_var(struct bpf_object *obj, const char *sec, const char *name, uint32_t *off,
		       uint32_t *size)
{
	const struct btf *btf = bpf_object__btf(obj);
	const struct btf_var_secinfo *vs;
	const struct btf_type *t;
	int id, i;

	if (!btf)
		return -ENOENT;
	id = btf__find_by_name_kind(btf, sec, BTF_KIND_DATASEC);
	if (id < 0)
		return -ENOENT;
	t = btf__type_by_id(btf, id);
	vs = btf_var_secinfos(t);
	for (i = 0; i < btf_vlen(t); i++, vs++) {
		const struct btf_type *v = btf__type_by_id(btf, vs->type);

		if (v && !strcmp(btf__name_by_offset(btf, v->name_off), name)) {
			*off = vs->offset;
			*size = vs->size;
			return 0;
		}
	}
	return -ENOENT;
}

int spritz_flowtab_seed(struct bpf_object *obj)
{
	struct spritz_flow_hashkey hk;
	const void *init;
	struct bpf_map *m;
	uint32_t off, size;
	size_t len;
	char *data;
	int err;

	err = datasec_var(obj, ".rodata", "spritz_flow_hashkey", &off, &size);
	if (err)
		return err;
	bpf_object__for_each_map(m, obj) {
		const char *n = bpf_map__name(m);
		size_t l = strlen(n);

		if (l >= 7 && !strcmp(n + l - 7, ".rodata"))
			break;
	}
	if (!m || size != sizeof(hk))
		return -EPROTO;
	init = bpf_map__initial_value(m, &len);
	if (!init || off + size > len)
		return -EPROTO;
	if (getrandom(&hk, sizeof(hk), 0) != (ssize_t)sizeof(hk))
		return errno ? -errno : -EIO;
	data = malloc(len);
	if (!data)
		return -ENOMEM;
	memcpy(data, init, len);
	memcpy(data + off, &hk, sizeof(hk));
	err = bpf_map__set_initial_value(m, data, len);
	free(data);
	return err;
}
