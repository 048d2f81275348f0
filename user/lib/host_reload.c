// SPDX-License-Identifier: GPL-2.0-only
/*
 * spritz_host_reload(): swap tables, directory and algorithm while traffic
 * flows (spritz_host.h).
 *
 * Arguments the fabric refuses (a switch, a directory entry past it) are
 * refused first, before the lock (-EDOM).  Everything is computed aside
 * before the first change: the new tables,
 * which destinations' EV lists they replace (spritz_ktable_diff()), and,
 * for undo, the live tables, the directory and the knobs.  Then the steps,
 * each undone in reverse if a later one fails (spritz_steps.h):
 *   tables     one BEGIN/SET/COMMIT transaction per source switch; undo
 *              commits the saved tables back (or flushes one that was not
 *              live) and drops the flow states that may hold EVs of the
 *              swapped-in lists, the same resync as below;
 *   device     --dev with another --switch: its spritz_devs entry and
 *              record moved;
 *   directory  the map made to hold exactly the new list, deleting stale
 *              entries before inserting (so a renumbering near the map's
 *              capacity fits); undo writes the saved list back;
 *   algorithm  the algorithm knob;
 *   resync     the flow states now outdated dropped (spritz_flows_resync());
 *              a flow state is a cache of the tables and the directory: the
 *              next packet of a dropped flow starts a new one from what is
 *              live, so this step needs no undo;
 *   sync       an RCU grace period: no packet leaves with an EV of the old
 *              tables after it.
 * Then the table of a switch that a moved device left, if no device uses
 * it any more, is flushed.
 *
 * The disabled state of paths (timeouts, spritz.ko) belongs to the live
 * table: a COMMIT builds a new table, and a path of it starts enabled even
 * if the same EV was disabled in the old one.  Keeping it would need the
 * module to carry (destination, EV) state across COMMIT; a path forgotten
 * as disabled is found out again by its next timeout (at most disable_ms
 * of the default 1 s early).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "host_ops.h"
#include "spritz_err.h"
#include "spritz_knobs.h"
#include "spritz_steps.h"

struct reload_ctx {
	const struct spritz_reload_cfg *c;
	struct spritz_dp dp;
	struct spritz_dp_dev *devs;
	size_t ndevs, nsw, npushed;
	uint32_t *sws, old_sw;
	struct spritz_ctl_state rec;
	struct spritz_nl *nl;
	struct spritz_ktable *tbs, *old_tbs; /* new; live before (nd 0: none) */
	struct spritz_stale *stale;
	struct spritz_dir_list old_dir;
	struct spritz_knob_snapshot knobs;
	bool moved, dir_set, algo_set;
};

/* Drop the flow states that the live tables and directory outdated. */
static int resync(struct reload_ctx *x, long src)
{
	int ret = spritz_flows_resync(x->dp.dir, src, x->stale, x->nsw);

	return ret < 0 ? ret : 0;
}

static int rl_tables(void *arg, char *err, size_t errlen)
{
	struct reload_ctx *x = arg;
	size_t i;
	int ret = 0;

	for (i = 0; i < x->nsw; i++) {
		ret = spritz_ktable_push(x->nl, &x->tbs[i], err, errlen);
		if (ret)
			break;
		x->npushed++;
		/* a netlink error in the next transaction, one table swapped */
		ret = i ? 0 : spritz_fault("tables/mid", -EIO);
		if (ret) {
			spritz_seterr(err, errlen,
				      "failed to load table after switch %u: injected fault",
				      x->tbs[i].src);
			break;
		}
	}
	return ret;
}

static void rl_tables_undo(void *arg)
{
	struct reload_ctx *x = arg;
	size_t i;

	for (i = 0; i < x->npushed; i++) {
		if (x->old_tbs[i].nd)
			spritz_ktable_push(x->nl, &x->old_tbs[i], NULL, 0);
		else
			spritz_nl_flush(x->nl, x->tbs[i].src, NULL, 0);
	}
	if (x->npushed) {
		/* flows of a moved device's new switch, too: the device is back */
		resync(x, x->moved ? (long)x->sws[0] : -1);
		spritz_dp_sync();
	}
}

static int rl_device(void *arg, char *err, size_t errlen)
{
	struct reload_ctx *x = arg;
	struct spritz_dev_key dk = { .ifindex = x->c->ifindex };
	struct spritz_dev_val dv = { .src_switch = x->sws[0] };
	struct spritz_ctl_state rec = x->rec;
	uint32_t ifindex = x->c->ifindex;

	if (!x->c->ifindex || x->sws[0] == x->old_sw)
		return 0;
	rec.src_switch = x->sws[0];
	x->moved = true;
	if (bpf_map_update_elem(x->dp.devs, &dk, &dv, BPF_EXIST) ||
	    bpf_map_update_elem(x->dp.state, &ifindex, &rec, BPF_EXIST)) {
		int ret = -errno;

		spritz_seterr(err, errlen, "failed to move %s to switch %u: %s", x->c->dev,
			      x->sws[0], strerror(-ret));
		return ret;
	}
	return 0;
}

static void rl_device_undo(void *arg)
{
	struct reload_ctx *x = arg;
	struct spritz_dev_key dk = { .ifindex = x->c->ifindex };
	struct spritz_dev_val dv = { .src_switch = x->old_sw };
	uint32_t ifindex = x->c->ifindex;

	if (!x->moved)
		return;
	bpf_map_update_elem(x->dp.devs, &dk, &dv, BPF_ANY);
	bpf_map_update_elem(x->dp.state, &ifindex, &x->rec, BPF_ANY);
}

static int rl_directory(void *arg, char *err, size_t errlen)
{
	struct reload_ctx *x = arg;
	int ret;

	if (!x->c->dir)
		return 0;
	ret = spritz_dirmap_replace(x->dp.dir, x->c->dir);
	if (ret) {
		spritz_seterr(err, errlen, "failed to refresh host directory: %s", strerror(-ret));
		/* the runner undoes the steps before this one: its own part here */
		spritz_dirmap_replace(x->dp.dir, &x->old_dir);
		return ret;
	}
	x->dir_set = true;
	return 0;
}

static void rl_directory_undo(void *arg)
{
	struct reload_ctx *x = arg;

	if (x->dir_set)
		spritz_dirmap_replace(x->dp.dir, &x->old_dir);
}

static int rl_algorithm(void *arg, char *err, size_t errlen)
{
	struct reload_ctx *x = arg;
	int ret;

	if (!x->c->algo)
		return 0;
	x->algo_set = true;
	ret = spritz_sysfs_write("algorithm", x->c->algo);
	if (ret)
		spritz_seterr(err, errlen, "failed to set algorithm: %s", strerror(-ret));
	return ret;
}

static void rl_algorithm_undo(void *arg)
{
	struct reload_ctx *x = arg;

	if (x->algo_set)
		spritz_knobs_restore(&x->knobs);
}

static int rl_resync(void *arg, char *err, size_t errlen)
{
	struct reload_ctx *x = arg;
	int ret = resync(x, x->moved ? (long)x->old_sw : -1);

	if (ret)
		spritz_seterr(err, errlen, "failed to drop outdated flow states: %s",
			      strerror(-ret));
	return ret;
}

static int rl_sync(void *arg, char *err, size_t errlen)
{
	int ret = spritz_dp_sync();

	if (ret)
		spritz_seterr(err, errlen, "failed to wait for the datapath: %s", strerror(-ret));
	return ret;
}

static const struct spritz_step reload_steps[] = {
	{ "tables", rl_tables, rl_tables_undo },
	{ "device", rl_device, rl_device_undo },
	{ "directory", rl_directory, rl_directory_undo },
	{ "algorithm", rl_algorithm, rl_algorithm_undo },
	{ "resync", rl_resync, NULL },
	{ "sync", rl_sync, NULL },
};

/* The source switches whose tables to swap, into x->sws. */
static int rl_switches(struct reload_ctx *x, char *err, size_t errlen)
{
	const struct spritz_reload_cfg *c = x->c;
	size_t i, k;

	x->sws = calloc(x->ndevs + 1, sizeof(*x->sws));
	if (!x->sws)
		return -ENOMEM;
	if (c->ifindex) {
		if (bpf_map_lookup_elem(x->dp.state, &c->ifindex, &x->rec) ||
		    x->rec.netns != spritz_netns_self()) {
			spritz_seterr(err, errlen, "failed to reload spritz on %s: not up on %s",
				      c->dev, c->dev);
			return -ENODEV;
		}
		x->old_sw = x->rec.src_switch;
		x->sws[x->nsw++] = c->sw >= 0 ? (uint32_t)c->sw : x->old_sw;
	} else if (c->sw >= 0) {
		if (!host_switch_used(x->devs, x->ndevs, (uint32_t)c->sw)) {
			spritz_seterr(err, errlen,
				      "failed to reload switch %ld: no device is up with switch %ld",
				      c->sw, c->sw);
			return -ENODEV;
		}
		x->sws[x->nsw++] = (uint32_t)c->sw;
	} else {
		for (i = 0; i < x->ndevs; i++) {
			for (k = 0; k < x->nsw && x->sws[k] != x->devs[i].v.src_switch; k++)
				;
			if (k == x->nsw)
				x->sws[x->nsw++] = x->devs[i].v.src_switch;
		}
		if (!x->nsw) {
			spritz_seterr(err, errlen, "failed to reload spritz: no device is up");
			return -ENODEV;
		}
	}
	/* the switches of the devices too: a smaller fabric may lack them */
	for (i = 0; i < x->nsw; i++)
		if (host_check_args(c->t, c->topo, x->sws[i], NULL, "reload", err, errlen))
			return -EDOM;
	return 0;
}

/* New tables, the destinations they replace, the live ones for undo. */
static int rl_prepare_tables(struct reload_ctx *x, char *err, size_t errlen)
{
	char msg[256] = "";
	size_t i;
	int ret;

	x->tbs = calloc(x->nsw, sizeof(*x->tbs));
	x->old_tbs = calloc(x->nsw, sizeof(*x->old_tbs));
	x->stale = calloc(x->nsw, sizeof(*x->stale));
	if (!x->tbs || !x->old_tbs || !x->stale)
		return -ENOMEM;
	for (i = 0; i < x->nsw; i++) {
		ret = spritz_ktable_build(x->c->t, x->sws[i], &x->tbs[i], err, errlen);
		if (ret)
			return ret;
	}
	ret = spritz_nl_open_init(&x->nl, msg, sizeof(msg));
	if (ret) {
		spritz_seterr(err, errlen, "failed to reload spritz: %s",
			      msg[0] ? msg : strerror(-ret));
		return ret;
	}
	for (i = 0; i < x->nsw; i++) {
		uint8_t *changed = malloc(x->tbs[i].nsw);

		x->stale[i] = (struct spritz_stale){ .src = x->tbs[i].src, .nsw = x->tbs[i].nsw,
						     .dst = changed };
		ret = changed ? spritz_ktable_diff(x->nl, &x->tbs[i], changed) : -ENOMEM;
		if (!ret) {
			ret = spritz_ktable_dump(x->nl, x->tbs[i].src, &x->old_tbs[i]);
			ret = ret == -ENOENT ? 0 : ret;
		}
		if (ret) {
			spritz_seterr(err, errlen,
				      "failed to compare table of switch %u with the live one: %s",
				      x->tbs[i].src, strerror(-ret));
			return ret;
		}
	}
	return 0;
}

/* Everything before the first change: checks, new state, saved state. */
static int rl_prepare(struct reload_ctx *x, char *err, size_t errlen)
{
	const struct spritz_reload_cfg *c = x->c;
	int ret;
	long max;

	ret = host_open(&x->dp, "reload spritz", err, errlen);
	if (ret)
		return ret;
	ret = host_live_devices(&x->dp, 0, &x->devs, &x->ndevs);
	if (ret) {
		spritz_seterr(err, errlen, "failed to read device records: %s", strerror(-ret));
		return ret;
	}
	ret = rl_switches(x, err, errlen);
	if (ret)
		return ret;
	if (!c->dir) {
		max = spritz_dirmap_max_switch(x->dp.dir);
		if (max >= c->t->nsw) {
			spritz_seterr(err, errlen,
				      "failed to reload spritz: the directory maps a prefix to "
				      "switch %ld, not in %s (0..%d); give --addr-plan or --hosts",
				      max, c->topo, c->t->nsw - 1);
			return -EDOM;
		}
	}
	ret = rl_prepare_tables(x, err, errlen);
	if (!ret && c->dir)
		ret = spritz_dirmap_read(x->dp.dir, &x->old_dir);
	if (!ret && c->algo)
		ret = spritz_knobs_save(&x->knobs);
	if (ret && ret != -ENOMEM && !(err && *err))
		spritz_seterr(err, errlen, "failed to save the state to restore: %s",
			      strerror(-ret));
	if (ret == -ENOMEM)
		spritz_seterr(err, errlen, "failed to reload spritz: out of memory");
	return ret;
}

static void rl_free(struct reload_ctx *x)
{
	size_t i;

	for (i = 0; i < x->nsw; i++) {
		if (x->tbs)
			spritz_ktable_free(&x->tbs[i]);
		if (x->old_tbs)
			spritz_ktable_free(&x->old_tbs[i]);
		if (x->stale)
			free((void *)x->stale[i].dst);
	}
	free(x->tbs);
	free(x->old_tbs);
	free(x->stale);
	free(x->sws);
	free(x->devs);
	spritz_dir_free(&x->old_dir);
	spritz_nl_close(x->nl);
	spritz_dp_close(&x->dp);
}

int spritz_host_reload(const struct spritz_reload_cfg *c, char *err, size_t errlen)
{
	struct reload_ctx x = { .c = c };
	size_t i;
	int lock, ret;

	spritz_dp_init(&x.dp);
	if (err && errlen)
		err[0] = '\0';
	ret = host_check_args(c->t, c->topo, c->sw, c->dir, "reload", err, errlen);
	if (ret)
		return ret;
	lock = host_lock(err, errlen);
	if (lock < 0)
		return lock;
	ret = rl_prepare(&x, err, errlen);
	if (!ret)
		ret = spritz_steps_run(reload_steps, ARRAY_SIZE(reload_steps),
				       &x, err, errlen);
	if (!ret && x.moved) {
		for (i = 0; i < x.ndevs; i++)
			if (x.devs[i].ifindex == c->ifindex)
				x.devs[i].v.src_switch = x.sws[0];
		if (!host_switch_used(x.devs, x.ndevs, x.old_sw))
			spritz_nl_flush(x.nl, x.old_sw, NULL, 0);
	}
	rl_free(&x);
	close(lock);
	return ret;
}
