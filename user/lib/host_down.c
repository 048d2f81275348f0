// SPDX-License-Identifier: GPL-2.0-only
/*
 * spritz_host_down(): take the datapath down (spritz_host.h).
 *
 * One device, as steps undone in reverse if a later one fails
 * (spritz_steps.h):
 *   detach     both hooks detached;
 *   offload    TSO/GSO as they were before up --per-packet;
 *   tcp        the namespace's TCP loss detection as it was before up
 *              --tcp-dupthresh, unless another device of it asked for it
 *              too (host_tcp.c);
 *   device     the spritz_devs entry and state record removed;
 *   table      the table of its switch flushed if no device uses it any
 *              more (kept aside for undo);
 *   teardown   whether it was the last device (no undo: changes nothing).
 * Then, after the last device, the teardown itself: everything unpinned,
 * every table flushed, spritz.ko unloaded if up loaded it.  It runs after
 * the steps, so that a failure of it (the module busy) cannot undo them:
 * it closes and unpins the object the undos would need, and they would
 * turn TSO/GSO and RACK off again with no record left for a later down to
 * put them back.  It is reported; what the steps did stays done.
 * Every device (no --dev) is a teardown: it goes on past a device that
 * fails so as to remove as much as it can, and reports the first failure;
 * a second down removes what is left.
 */
#include <errno.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include <spritz/abi.h>

#include "host_ops.h"
#include "spritz_err.h"
#include "spritz_steps.h"

struct down_ctx {
	struct spritz_dp dp;
	uint32_t ifindex;
	const char *dev;
	struct spritz_ctl_state rec;
	struct spritz_dev_val dv;
	bool had_dv, detached[2], offload_restored, tcp_shared, tcp_restored, forgotten, flushed;
	bool last; /* no device left: teardown() after the steps */
	struct spritz_ktable old_tb;
};

/* Detach both hooks of @ifindex (this namespace); @det[h]: detached now. */
static int detach_dev(uint32_t ifindex, bool det[2], char *err, size_t errlen)
{
	int h, ret = 0, e;

	for (h = SPRITZ_HOOK_INGRESS; h <= SPRITZ_HOOK_EGRESS; h++) {
		bool was = det && spritz_attached((int)ifindex, h, SPRITZ_PIN_DIR);

		/* also without an attachment: a leftover clsact qdisc goes */
		e = spritz_detach((int)ifindex, h, SPRITZ_PIN_DIR);
		if (e && !ret) {
			char name[IF_NAMESIZE] = "?";

			if_indextoname(ifindex, name);
			spritz_seterr(err, errlen, "failed to detach %s program from %s: %s",
				      spritz_hook_name(h), name, strerror(-e));
			ret = e;
		}
		if (!e && was)
			det[h] = true;
	}
	return ret;
}

static int down_detach(void *arg, char *err, size_t errlen)
{
	struct down_ctx *x = arg;

	return detach_dev(x->ifindex, x->detached, err, errlen);
}

static void down_detach_undo(void *arg)
{
	struct down_ctx *x = arg;
	int h;

	for (h = SPRITZ_HOOK_EGRESS; h >= SPRITZ_HOOK_INGRESS; h--)
		if (x->detached[h])
			spritz_attach(x->dp.prog[h], (int)x->ifindex, h, SPRITZ_PIN_DIR, NULL);
}

static int down_offload(void *arg, char *err, size_t errlen)
{
	struct down_ctx *x = arg;
	int ret = host_restore_offload(x->ifindex, x->rec.flags, err, errlen);

	x->offload_restored = !ret;
	return ret;
}

static void down_offload_undo(void *arg)
{
	struct down_ctx *x = arg;

	if (x->offload_restored && (x->rec.flags & SPRITZ_CTL_DEV_PER_PACKET))
		spritz_offload_set(x->ifindex, false, false);
}

static int down_tcp(void *arg, char *err, size_t errlen)
{
	struct down_ctx *x = arg;
	struct spritz_dp_dev *devs = NULL;
	size_t n = 0;
	int ret;

	if (!(x->rec.flags & SPRITZ_CTL_DEV_TCP_DUPTHRESH))
		return 0;
	ret = host_live_devices(&x->dp, x->ifindex, &devs, &n);
	if (ret) {
		spritz_seterr(err, errlen, "failed to read device records: %s", strerror(-ret));
		return ret;
	}
	x->tcp_shared = host_tcp_sharer(devs, n, x->rec.netns);
	free(devs);
	if (x->tcp_shared)
		return 0;
	ret = host_tcp_restore(&x->rec, err, errlen);
	x->tcp_restored = ret == 1;
	return ret < 0 ? ret : 0;
}

static void down_tcp_undo(void *arg)
{
	struct down_ctx *x = arg;

	if (x->tcp_restored)
		host_tcp_set(&x->rec, true);
}

static int down_device(void *arg, char *err, size_t errlen)
{
	struct down_ctx *x = arg;

	host_forget_dev(&x->dp, x->ifindex);
	x->forgotten = true;
	return 0;
}

static void down_device_undo(void *arg)
{
	struct down_ctx *x = arg;
	struct spritz_dev_key dk = { .ifindex = x->ifindex };

	if (!x->forgotten)
		return;
	if (x->had_dv)
		bpf_map_update_elem(x->dp.devs, &dk, &x->dv, BPF_ANY);
	bpf_map_update_elem(x->dp.state, &x->ifindex, &x->rec, BPF_ANY);
}

/* Everything unpinned, every table flushed, spritz.ko unloaded if up loaded it. */
static int teardown(struct spritz_dp *dp, char *err, size_t errlen)
{
	uint32_t flags = 0;
	int ret;

	if (dp->state >= 0)
		spritz_dp_host_flags(dp, &flags);
	spritz_dp_close(dp);
	ret = spritz_dp_unpin();
	if (ret) {
		spritz_seterr(err, errlen, "failed to unpin datapath under %s: %s",
			      SPRITZ_PIN_DIR, strerror(-ret));
		return ret;
	}
	if (!spritz_module_loaded())
		return 0;
	spritz_ktable_flush(SPRITZ_NL_ALL);
	if (!(flags & SPRITZ_CTL_HOST_LOADED_MODULE))
		return 0;
	ret = spritz_fault("teardown/unload", -EBUSY);
	if (!ret)
		ret = spritz_module_unload();
	if (ret)
		spritz_seterr(err, errlen,
			      "failed to unload module spritz: %s (spritz is down; rmmod spritz "
			      "unloads it)",
			      strerror(-ret));
	return ret;
}

/* The table of the device's switch if no other device uses it; teardown if none is left. */
static int down_table(void *arg, char *err, size_t errlen)
{
	struct down_ctx *x = arg;
	struct spritz_dp_dev *devs = NULL;
	struct spritz_nl *nl = NULL;
	size_t n = 0;
	int ret;

	ret = host_live_devices(&x->dp, 0, &devs, &n);
	if (ret) {
		spritz_seterr(err, errlen, "failed to read device records: %s", strerror(-ret));
		return ret;
	}
	if (!n || host_switch_used(devs, n, x->rec.src_switch)) {
		free(devs);
		return 0;
	}
	free(devs);
	ret = spritz_nl_open_init(&nl, NULL, 0);
	if (!ret) {
		ret = spritz_ktable_dump(nl, x->rec.src_switch, &x->old_tb);
		if (ret == -ENOENT)
			ret = 0;
	}
	if (!ret)
		ret = spritz_nl_flush(nl, x->rec.src_switch, NULL, 0);
	x->flushed = !ret;
	spritz_nl_close(nl);
	if (ret)
		spritz_seterr(err, errlen, "failed to flush table of switch %u: %s",
			      x->rec.src_switch, strerror(-ret));
	return ret;
}

static void down_table_undo(void *arg)
{
	struct down_ctx *x = arg;
	struct spritz_nl *nl;

	if (!x->flushed || !x->old_tb.nd || spritz_nl_open_init(&nl, NULL, 0))
		return;
	spritz_ktable_push(nl, &x->old_tb, NULL, 0);
	spritz_nl_close(nl);
}

/* Was it the last device?  The teardown itself comes after the steps. */
static int down_teardown(void *arg, char *err, size_t errlen)
{
	struct down_ctx *x = arg;
	struct spritz_dp_dev *devs = NULL;
	size_t n = 0;
	int ret = spritz_dp_devices(&x->dp, &devs, &n);

	free(devs);
	if (ret) {
		spritz_seterr(err, errlen, "failed to read device records: %s", strerror(-ret));
		return ret;
	}
	x->last = !n;
	return 0;
}

static const struct spritz_step down_steps[] = {
	{ "detach", down_detach, down_detach_undo },
	{ "offload", down_offload, down_offload_undo },
	{ "tcp", down_tcp, down_tcp_undo },
	{ "device", down_device, down_device_undo },
	{ "table", down_table, down_table_undo },
	{ "teardown", down_teardown, NULL },
};

/* Detach whatever spritz attached in this namespace (@dev, or every device). */
static int detach_here(const char *dev, char *err, size_t errlen)
{
	struct if_nameindex *ifs, *p;
	int ret = 0, e;

	ifs = if_nameindex();
	for (p = ifs; p && p->if_index; p++) {
		if (dev && strcmp(dev, p->if_name))
			continue;
		e = detach_dev(p->if_index, NULL, ret ? NULL : err, errlen);
		ret = ret ?: e;
	}
	if (ifs)
		if_freenameindex(ifs);
	return ret;
}

static int down_one(struct down_ctx *x, char *err, size_t errlen)
{
	struct spritz_dev_key dk = { .ifindex = x->ifindex };
	int ret;

	if (bpf_map_lookup_elem(x->dp.state, &x->ifindex, &x->rec))
		return detach_here(x->dev, err, errlen); /* not up: leftovers only */
	if (x->rec.netns != spritz_netns_self())
		return 0; /* that ifindex is another namespace's device */
	x->had_dv = !bpf_map_lookup_elem(x->dp.devs, &dk, &x->dv);
	ret = spritz_steps_run(down_steps, ARRAY_SIZE(down_steps), x, err, errlen);
	/* not a step: nothing is undone if it fails (see the top) */
	if (!ret && x->last)
		ret = teardown(&x->dp, err, errlen);
	return ret;
}

/* Release one record's device in its namespace (struct down_ctx). */
static int release_cb(void *arg)
{
	struct down_ctx *x = arg;
	int ret = detach_dev(x->ifindex, NULL, NULL, 0), e;

	ret = host_restore_offload(x->ifindex, x->rec.flags, NULL, 0) ?: ret;
	e = x->tcp_shared ? 0 : host_tcp_restore(&x->rec, NULL, 0);
	return e < 0 ? e : ret;
}

static int down_all(struct spritz_dp *dp, char *err, size_t errlen)
{
	struct spritz_dp_dev *devs = NULL;
	size_t i, n = 0;
	int ret, e;

	ret = spritz_dp_devices(dp, &devs, &n);
	if (ret) {
		spritz_seterr(err, errlen, "failed to read device records: %s", strerror(-ret));
		return ret;
	}
	for (i = 0; i < n; i++) {
		struct down_ctx x = { .ifindex = devs[i].ifindex, .rec = devs[i].v };

		/* the namespace's TCP goes back with the last of its devices */
		x.tcp_shared = host_tcp_sharer(devs + i + 1, n - i - 1, devs[i].v.netns);

		e = spritz_in_netns(&devs[i].v, release_cb, &x);
		if (e == -ENOENT) {
			host_drop_link_pins(devs[i].ifindex); /* namespace gone */
		} else if (e) {
			if (!ret)
				spritz_seterr(err, errlen, "failed to release device %u: %s",
					      devs[i].ifindex, strerror(-e));
			ret = ret ?: e;
		} else {
			host_forget_dev(dp, devs[i].ifindex);
		}
	}
	free(devs);
	e = detach_here(NULL, ret ? NULL : err, errlen);
	ret = ret ?: e;
	return ret ? ret : teardown(dp, err, errlen);
}

int spritz_host_down(uint32_t ifindex, const char *dev, char *err, size_t errlen)
{
	struct down_ctx x = { .ifindex = ifindex, .dev = dev };
	int lock, ret;

	spritz_dp_init(&x.dp);
	lock = host_lock(err, errlen);
	if (lock < 0)
		return lock;
	ret = spritz_dp_open(&x.dp);
	if (ret == -ENOENT || ret == -ESTALE) {
		/* nothing (complete) pinned: leftovers only, tables and module kept */
		ret = detach_here(dev, err, errlen);
		if (!dev && !ret) {
			ret = spritz_dp_unpin();
			if (ret)
				spritz_seterr(err, errlen, "failed to unpin datapath under %s: %s",
					      SPRITZ_PIN_DIR, strerror(-ret));
		}
	} else if (ret) {
		spritz_seterr(err, errlen, "failed to take spritz down: cannot open %s: %s",
			      SPRITZ_PIN_DIR, strerror(-ret));
	} else {
		ret = ifindex ? down_one(&x, err, errlen) : down_all(&x.dp, err, errlen);
	}
	spritz_ktable_free(&x.old_tb);
	spritz_dp_close(&x.dp);
	close(lock);
	return ret;
}
