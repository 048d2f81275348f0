// SPDX-License-Identifier: GPL-2.0-only
/*
 * Pieces that up, down and reload share (host_ops.h).
 */
#include <errno.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "host_ops.h"
#include "spritz_err.h"

int host_lock(char *err, size_t errlen)
{
	int fd = spritz_dp_lock();

	if (fd < 0)
		spritz_seterr(err, errlen, "failed to lock %s: %s", SPRITZ_LOCK_PATH,
			      strerror(-fd));
	return fd;
}

int host_check_args(const struct spritz_topo *t, const char *topo, long sw,
		    const struct spritz_dir_list *dir, const char *what, char *err, size_t errlen)
{
	char pfx[64];
	size_t i;

	if (sw >= t->nsw) {
		spritz_seterr(err, errlen,
			      "failed to %s switch %ld: switch id out of range (topology has %d "
			      "switches, 0..%d)",
			      what, sw, t->nsw, t->nsw - 1);
		return -EDOM;
	}
	for (i = 0; dir && i < dir->n; i++) {
		if (dir->e[i].sw < (uint32_t)t->nsw)
			continue;
		spritz_dir_format(dir->e[i].addr, dir->e[i].prefixlen, pfx, sizeof(pfx));
		spritz_seterr(err, errlen,
			      "failed to %s spritz: the directory maps %s to switch %u, not in %s "
			      "(0..%d)",
			      what, pfx, dir->e[i].sw, topo, t->nsw - 1);
		return -EDOM;
	}
	return 0;
}

int host_open(struct spritz_dp *dp, const char *what, char *err, size_t errlen)
{
	int ret = spritz_dp_open(dp);

	if (ret == -ENOENT)
		spritz_seterr(err, errlen,
			      "failed to %s: spritz is not up (nothing pinned under %s; spritzctl "
			      "up first)",
			      what, SPRITZ_PIN_DIR);
	else if (ret == -ESTALE)
		spritz_seterr(err, errlen,
			      "failed to %s: incomplete datapath pinned under %s (spritzctl down "
			      "removes it)",
			      what, SPRITZ_PIN_DIR);
	else if (ret)
		spritz_seterr(err, errlen, "failed to %s: cannot open %s: %s", what,
			      SPRITZ_PIN_DIR, strerror(-ret));
	return ret;
}

void host_drop_link_pins(uint32_t ifindex)
{
	char path[256];
	int h, fd;

	for (h = SPRITZ_HOOK_INGRESS; h <= SPRITZ_HOOK_EGRESS; h++) {
		if (spritz_link_pin_path(path, sizeof(path), SPRITZ_PIN_DIR, (int)ifindex, h))
			continue;
		fd = bpf_obj_get(path);
		if (fd >= 0) {
			bpf_link_detach(fd);
			close(fd);
		}
		unlink(path);
	}
}

void host_forget_dev(const struct spritz_dp *dp, uint32_t ifindex)
{
	struct spritz_dev_key k = { .ifindex = ifindex };

	bpf_map_delete_elem(dp->devs, &k);
	bpf_map_delete_elem(dp->state, &ifindex);
}

int host_live_devices(const struct spritz_dp *dp, uint32_t skip, struct spritz_dp_dev **out,
		      size_t *n)
{
	struct spritz_dp_dev *v;
	size_t i, k = 0;
	int err = spritz_dp_devices(dp, &v, n);

	if (err)
		return err;
	for (i = 0; i < *n; i++) {
		if (v[i].ifindex == skip)
			continue;
		if (!spritz_dp_dev_alive(&v[i])) {
			host_forget_dev(dp, v[i].ifindex);
			host_drop_link_pins(v[i].ifindex);
			continue;
		}
		v[k++] = v[i];
	}
	*out = v;
	*n = k;
	return 0;
}

bool host_switch_used(const struct spritz_dp_dev *v, size_t n, uint32_t sw)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i].v.src_switch == sw)
			return true;
	return false;
}

int host_restore_offload(uint32_t ifindex, uint32_t flags, char *err, size_t errlen)
{
	char name[IF_NAMESIZE] = "?";
	int ret;

	if (!(flags & SPRITZ_CTL_DEV_PER_PACKET))
		return 0;
	ret = spritz_offload_set(ifindex, flags & SPRITZ_CTL_DEV_TSO_WAS_ON,
				 flags & SPRITZ_CTL_DEV_GSO_WAS_ON);
	if (ret) {
		if_indextoname(ifindex, name);
		spritz_seterr(err, errlen, "failed to restore TSO/GSO of %s: %s", name,
			      strerror(-ret));
	}
	return ret;
}

int host_attach(const struct spritz_dp *dp, uint32_t ifindex, const char *dev, bool att[2],
		char *err, size_t errlen)
{
	int h, ret;

	for (h = SPRITZ_HOOK_EGRESS; h >= SPRITZ_HOOK_INGRESS; h--) {
		if (spritz_attached((int)ifindex, h, SPRITZ_PIN_DIR))
			continue;
		ret = spritz_attach(dp->prog[h], (int)ifindex, h, SPRITZ_PIN_DIR, NULL);
		if (ret) {
			spritz_seterr(err, errlen, "failed to attach %s program to %s: %s",
				      spritz_hook_name(h), dev, strerror(-ret));
			return ret;
		}
		att[h] = true;
	}
	return 0;
}

void host_detach(uint32_t ifindex, const bool att[2])
{
	int h;

	for (h = SPRITZ_HOOK_INGRESS; h <= SPRITZ_HOOK_EGRESS; h++)
		if (att[h])
			spritz_detach((int)ifindex, h, SPRITZ_PIN_DIR);
}
