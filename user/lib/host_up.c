// SPDX-License-Identifier: GPL-2.0-only
/*
 * spritz_host_up(): bring the datapath up on one device (spritz_host.h).
 *
 * Checks first (nothing changes): switch and directory within the fabric
 * (-EDOM, before the lock: no privilege needed); the device's record, if
 * any, agrees; the table is built.  Then the steps, each undone in reverse if a later one
 * fails (spritz_steps.h):
 *   module     spritz.ko, unless loaded;
 *   table      the endpoint table of the device's switch, unless the live
 *              one is already this one (another device on the switch);
 *              the live table it replaces is kept aside for undo; one that
 *              cannot be read (netlink error) refuses: it may be another
 *              device's;
 *   algorithm  the algorithm knob (all knobs saved for undo);
 *   object     the first device only: the BPF object loaded and pinned;
 *   directory  the entries the map lacks (a conflicting one refuses);
 *   offload    with --per-packet, TSO and GSO off (the record keeps what
 *              they were; down restores them); up again after the hooks
 *              went keeps what the record found, as the tcp step does;
 *   tcp        with --tcp-dupthresh, the namespace's TCP loss detection
 *              (host_tcp.c; the record keeps what it was);
 *   device     the spritz_devs entry and the state record;
 *   attach     spritz_egress and spritz_ingress.
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

struct up_ctx {
	const struct spritz_up_cfg *c;
	struct spritz_dp dp;
	struct spritz_dp_dev *devs; /* the other live devices */
	size_t ndevs;
	struct spritz_nl *nl;
	struct spritz_ktable tb, old_tb; /* new; live one replaced (nd 0: none) */
	struct spritz_knob_snapshot knobs;
	struct spritz_dir_list added;
	struct spritz_dev_val old_dv;
	struct spritz_ctl_state rec, old_rec;
	bool reuse, loaded, pushed, algo_set, created, offload_set, tcp_set, recorded;
	bool had_dv, had_rec, att[2];
	bool tso, gso; /* before this up turned them off */
};

static int up_module(void *arg, char *err, size_t errlen)
{
	struct up_ctx *x = arg;
	int ret = spritz_module_load(err, errlen);

	x->loaded = ret == 1;
	return ret < 0 ? ret : 0;
}

static void up_module_undo(void *arg)
{
	struct up_ctx *x = arg;

	if (x->loaded)
		spritz_module_unload();
}

static int up_table(void *arg, char *err, size_t errlen)
{
	struct up_ctx *x = arg;
	const struct spritz_up_cfg *c = x->c;
	char msg[256] = "";
	int ret, live;

	ret = spritz_nl_open_init(&x->nl, msg, sizeof(msg));
	if (ret) {
		spritz_seterr(err, errlen, "failed to load table of switch %u into spritz.ko: %s",
			      c->sw, msg[0] ? msg : strerror(-ret));
		return ret;
	}
	live = spritz_fault("table/live", -EINTR);
	if (!live)
		live = spritz_ktable_live(x->nl, &x->tb);
	if (live == 1)
		return 0;
	if (live < 0 && live != -ENOENT) {
		/* unknown whether a table is live, and whose: change nothing */
		spritz_seterr(err, errlen, "failed to read live table of switch %u: %s", c->sw,
			      strerror(-live));
		return live;
	}
	if (live == 0 && host_switch_used(x->devs, x->ndevs, c->sw)) {
		spritz_seterr(err, errlen,
			      "failed to bring up spritz on %s: the live table of switch %u "
			      "differs from the one of %s, and another device uses it (spritzctl "
			      "reload to change it)",
			      c->dev, c->sw, c->topo);
		return -EBUSY;
	}
	if (live == 0) {
		ret = spritz_ktable_dump(x->nl, c->sw, &x->old_tb);
		if (ret) {
			spritz_seterr(err, errlen, "failed to read live table of switch %u: %s",
				      c->sw, strerror(-ret));
			return ret;
		}
	}
	ret = spritz_ktable_push(x->nl, &x->tb, err, errlen);
	x->pushed = !ret;
	return ret;
}

static void up_table_undo(void *arg)
{
	struct up_ctx *x = arg;

	if (x->pushed && x->old_tb.nd)
		spritz_ktable_push(x->nl, &x->old_tb, NULL, 0);
	else if (x->pushed)
		spritz_nl_flush(x->nl, x->c->sw, NULL, 0);
	spritz_nl_close(x->nl);
	x->nl = NULL;
}

static int up_algorithm(void *arg, char *err, size_t errlen)
{
	struct up_ctx *x = arg;
	int ret;

	if (!x->c->algo)
		return 0;
	ret = spritz_knobs_save(&x->knobs);
	if (!ret)
		ret = spritz_sysfs_write("algorithm", x->c->algo);
	x->algo_set = true; /* restore whatever part was written */
	if (ret)
		spritz_seterr(err, errlen, "failed to set algorithm: %s", strerror(-ret));
	return ret;
}

static void up_algorithm_undo(void *arg)
{
	struct up_ctx *x = arg;

	if (x->algo_set)
		spritz_knobs_restore(&x->knobs);
}

static int up_object(void *arg, char *err, size_t errlen)
{
	struct up_ctx *x = arg;
	int ret;

	if (x->reuse)
		return 0;
	ret = spritz_dp_create(&x->dp, x->loaded ? SPRITZ_CTL_HOST_LOADED_MODULE : 0, err,
			       errlen);
	x->created = !ret;
	return ret;
}

static void up_object_undo(void *arg)
{
	struct up_ctx *x = arg;

	if (!x->created)
		return;
	spritz_dp_close(&x->dp);
	spritz_dp_unpin();
}

static int up_directory(void *arg, char *err, size_t errlen)
{
	struct up_ctx *x = arg;
	char why[256];
	int ret = spritz_dirmap_conflict(x->dp.dir, x->c->dir, why, sizeof(why));

	if (ret > 0) {
		spritz_seterr(err, errlen,
			      "failed to bring up spritz on %s: directory conflict: %s (up with "
			      "the same plan or hosts file, or spritzctl reload)",
			      x->c->dev, why);
		return -EEXIST;
	}
	if (!ret)
		ret = spritz_dirmap_add_missing(x->dp.dir, x->c->dir, &x->added);
	if (ret)
		spritz_seterr(err, errlen, "failed to fill host directory: %s", strerror(-ret));
	return ret;
}

static void up_directory_undo(void *arg)
{
	struct up_ctx *x = arg;

	spritz_dirmap_remove(x->dp.dir, &x->added);
}

#define OFFLOAD_FLAGS \
	(SPRITZ_CTL_DEV_PER_PACKET | SPRITZ_CTL_DEV_TSO_WAS_ON | SPRITZ_CTL_DEV_GSO_WAS_ON)

static int up_offload(void *arg, char *err, size_t errlen)
{
	struct up_ctx *x = arg;
	uint32_t ifindex = x->c->ifindex;
	int ret;

	x->rec = (struct spritz_ctl_state){ .netns = spritz_netns_self(),
					    .netns_ino = spritz_netns_self_ino(),
					    .src_switch = x->c->sw };
	/*
	 * up again on a device whose hooks went (its record kept): what an
	 * earlier --per-packet found stays this device's to put back, with
	 * or without --per-packet now; TSO/GSO are off since then
	 */
	if (x->had_rec)
		x->rec.flags |= x->old_rec.flags & OFFLOAD_FLAGS;
	if (!x->c->per_packet)
		return 0;
	ret = spritz_offload_get(ifindex, &x->tso, &x->gso);
	if (!ret) {
		ret = spritz_offload_set(ifindex, false, false);
		if (ret)
			spritz_offload_set(ifindex, x->tso, x->gso); /* as it was */
	}
	if (ret) {
		spritz_seterr(err, errlen, "failed to turn off TSO/GSO of %s: %s", x->c->dev,
			      strerror(-ret));
		return ret;
	}
	if (!(x->rec.flags & SPRITZ_CTL_DEV_PER_PACKET))
		x->rec.flags |= SPRITZ_CTL_DEV_PER_PACKET |
				(x->tso ? SPRITZ_CTL_DEV_TSO_WAS_ON : 0) |
				(x->gso ? SPRITZ_CTL_DEV_GSO_WAS_ON : 0);
	x->offload_set = true;
	return 0;
}

/* TSO/GSO as this up found them (an earlier up may have turned them off). */
static void up_offload_undo(void *arg)
{
	struct up_ctx *x = arg;

	if (x->offload_set)
		spritz_offload_set(x->c->ifindex, x->tso, x->gso);
}

static int up_tcp(void *arg, char *err, size_t errlen)
{
	struct up_ctx *x = arg;
	const struct spritz_ctl_state *sharer;

	sharer = host_tcp_sharer(x->devs, x->ndevs, x->rec.netns);
	if (!sharer && x->had_rec && (x->old_rec.flags & SPRITZ_CTL_DEV_TCP_DUPTHRESH))
		sharer = &x->old_rec; /* its own record of an earlier up */
	if (!x->c->tcp_dupthresh) {
		/* an earlier up's values stay this device's to put back */
		if (sharer == &x->old_rec)
			host_tcp_claim(&x->rec, sharer->tcp_reordering, sharer, &x->tcp_set, NULL, 0);
		return 0;
	}
	return host_tcp_claim(&x->rec, x->c->tcp_dupthresh, sharer, &x->tcp_set, err, errlen);
}

static void up_tcp_undo(void *arg)
{
	struct up_ctx *x = arg;

	if (x->tcp_set)
		host_tcp_set(&x->rec, false);
}

static int up_device(void *arg, char *err, size_t errlen)
{
	struct up_ctx *x = arg;
	struct spritz_dev_key dk = { .ifindex = x->c->ifindex };
	struct spritz_dev_val dv = { .src_switch = x->c->sw };
	uint32_t ifindex = x->c->ifindex;

	x->recorded = true; /* undo puts both back, whichever was written */
	if (bpf_map_update_elem(x->dp.devs, &dk, &dv, BPF_ANY) ||
	    bpf_map_update_elem(x->dp.state, &ifindex, &x->rec, BPF_ANY)) {
		int ret = -errno;

		spritz_seterr(err, errlen, "failed to add %s to %s: %s", x->c->dev,
			      SPRITZ_MAP_DEVS, strerror(-ret));
		return ret;
	}
	return 0;
}

static void up_device_undo(void *arg)
{
	struct up_ctx *x = arg;
	struct spritz_dev_key dk = { .ifindex = x->c->ifindex };
	uint32_t ifindex = x->c->ifindex;

	if (!x->recorded)
		return;
	if (x->had_dv)
		bpf_map_update_elem(x->dp.devs, &dk, &x->old_dv, BPF_ANY);
	else
		bpf_map_delete_elem(x->dp.devs, &dk);
	if (x->had_rec)
		bpf_map_update_elem(x->dp.state, &ifindex, &x->old_rec, BPF_ANY);
	else
		bpf_map_delete_elem(x->dp.state, &ifindex);
}

static int up_attach(void *arg, char *err, size_t errlen)
{
	struct up_ctx *x = arg;

	return host_attach(&x->dp, x->c->ifindex, x->c->dev, x->att, err, errlen);
}

static void up_attach_undo(void *arg)
{
	struct up_ctx *x = arg;

	host_detach(x->c->ifindex, x->att);
}

static const struct spritz_step up_steps[] = {
	{ "module", up_module, up_module_undo },
	{ "table", up_table, up_table_undo },
	{ "algorithm", up_algorithm, up_algorithm_undo },
	{ "object", up_object, up_object_undo },
	{ "directory", up_directory, up_directory_undo },
	{ "offload", up_offload, up_offload_undo },
	{ "tcp", up_tcp, up_tcp_undo },
	{ "device", up_device, up_device_undo },
	{ "attach", up_attach, up_attach_undo },
};

/*
 * The device's record, if any, against @c: 1 already up, 0 go on, -errno.
 * A record of a device gone with its namespace is forgotten.
 */
static int up_check(struct up_ctx *x, char *err, size_t errlen)
{
	const struct spritz_up_cfg *c = x->c;
	struct spritz_dev_key dk = { .ifindex = c->ifindex };
	uint32_t ifindex = c->ifindex;
	struct spritz_ctl_state *r = &x->old_rec;

	x->had_dv = x->reuse && !bpf_map_lookup_elem(x->dp.devs, &dk, &x->old_dv);
	x->had_rec = x->reuse && !bpf_map_lookup_elem(x->dp.state, &ifindex, r);
	if (x->had_rec && r->netns != spritz_netns_self() &&
	    !spritz_dp_dev_alive(&(struct spritz_dp_dev){ .ifindex = ifindex, .v = *r })) {
		host_forget_dev(&x->dp, ifindex);
		host_drop_link_pins(ifindex);
		x->had_dv = x->had_rec = false;
	}
	if (x->had_rec && r->netns != spritz_netns_self()) {
		spritz_seterr(err, errlen,
			      "failed to bring up spritz on %s: ifindex %u is already up in "
			      "another network namespace (devices sharing %s need distinct "
			      "ifindexes)",
			      c->dev, ifindex, SPRITZ_PIN_DIR);
		return -EEXIST;
	}
	if (x->had_rec && r->src_switch != c->sw) {
		spritz_seterr(err, errlen,
			      "failed to bring up spritz on %s: already up with switch %u "
			      "(spritzctl reload --dev %s --switch %u, or down first)",
			      c->dev, r->src_switch, c->dev, c->sw);
		return -EEXIST;
	}
	if (x->had_rec && spritz_attached((int)ifindex, SPRITZ_HOOK_EGRESS, SPRITZ_PIN_DIR) &&
	    spritz_attached((int)ifindex, SPRITZ_HOOK_INGRESS, SPRITZ_PIN_DIR))
		return 1;
	if (x->reuse && host_live_devices(&x->dp, ifindex, &x->devs, &x->ndevs)) {
		int ret = -errno;

		spritz_seterr(err, errlen, "failed to read device records: %s", strerror(-ret));
		return ret;
	}
	return 0;
}

int spritz_host_up(const struct spritz_up_cfg *c, char *err, size_t errlen)
{
	struct up_ctx x = { .c = c };
	int lock, ret;

	spritz_dp_init(&x.dp);
	ret = host_check_args(c->t, c->topo, c->sw, c->dir, "bring up", err, errlen);
	if (ret)
		return ret;
	lock = host_lock(err, errlen);
	if (lock < 0)
		return lock;
	ret = host_open(&x.dp, "bring up spritz", err, errlen);
	x.reuse = !ret;
	if (ret == -ENOENT) {
		ret = 0; /* the first device: up creates the object */
		spritz_seterr(err, errlen, "%s", "");
	}
	if (!ret)
		ret = up_check(&x, err, errlen);
	if (!ret)
		ret = spritz_ktable_build(c->t, c->sw, &x.tb, err, errlen);
	if (!ret)
		ret = spritz_steps_run(up_steps, ARRAY_SIZE(up_steps), &x, err,
				       errlen);
	spritz_nl_close(x.nl);
	close(lock);
	free(x.devs);
	spritz_dir_free(&x.added);
	spritz_ktable_free(&x.tb);
	spritz_ktable_free(&x.old_tb);
	spritz_dp_close(&x.dp);
	return ret;
}
