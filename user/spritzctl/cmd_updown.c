// SPDX-License-Identifier: GPL-2.0-only
/*
 * spritzctl up / down / reload: bring the host datapath up on a device,
 * take it down again, swap tables while traffic flows
 * (Documentation/spritzctl.8, Documentation/deployment.rst).
 *
 * Every device of the host, in whatever network namespace, shares one
 * pinned object under SPRITZ_PIN_DIR (datapath.h).  up on a device, each
 * step undone in reverse if a later one fails:
 *   1. spritz.ko, unless loaded ("modprobe spritz", else $SPRITZ_KO or
 *      kmod/$(uname -r)/spritz.ko next to the binary);
 *   2. the endpoint table of the device's switch N, unless the live table
 *      of N is already this one (another device on N);
 *   3. --algorithm;
 *   4. the first device only: the BPF object (libbpf skeleton, or the file
 *      $SPRITZ_BPF_OBJ) loaded and pinned, with the state map;
 *   5. the directory entries (--addr-plan or --hosts) the map lacks; an
 *      entry that maps a prefix to another switch is refused;
 *   6. with --per-packet, TSO and GSO off (the record keeps what they
 *      were; down restores them); the device's spritz_devs entry and
 *      state record;
 *   7. spritz_egress and spritz_ingress attached (spritz_attach.h).
 * down undoes one device (--dev) or all; the table of a switch no device
 * uses any more is flushed; after the last device everything is unpinned
 * and spritz.ko unloaded if up loaded it.  reload swaps tables (one
 * BEGIN/SET/COMMIT transaction each) and refreshes the directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <spritz/knobs.h>
#include <spritz/maps.h>
#include <spritz/netlink.h>

#include "datapath.h"
#include "spritzctl.h"

static int quiet_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

/* The algorithm knob; 0 or -1 with errno set. */
static int read_algorithm(char *buf, size_t len)
{
	int fd = open(SPRITZ_SYSFS_DIR "/algorithm", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int write_algorithm(const char *name)
{
	int fd = open(SPRITZ_SYSFS_DIR "/algorithm", O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, name, strlen(name));
	close(fd);
	return n < 0 ? -1 : 0;
}

/* ------------------------------------------------------------- arguments */

enum {
	OPT_DEV = OPT_FIRST_CMD,
	OPT_TOPO,
	OPT_SWITCH,
	OPT_ADDR_PLAN,
	OPT_HOSTS,
	OPT_ALGORITHM,
	OPT_PER_PACKET,
};

struct dp_args {
	const char *dev, *topo, *plan, *hosts, *algo;
	long sw; /* -1: not given */
	bool per_packet; /* up: TSO and GSO off */
	struct spritz_topo *t;
	struct spritz_dir_list dir; /* from plan or hosts, if given */
};

static void dp_args_free(struct dp_args *a)
{
	spritz_topo_free(a->t);
	spritz_dir_free(&a->dir);
}

/*
 * Options of up and reload, the topology and the directory source.
 * EXIT_OK, or the message is printed and EXIT_USAGE / EXIT_FAIL returned.
 */
static int dp_args_parse(const char *cmd, int argc, char **argv, struct dp_args *a)
{
	static const struct option longopts[] = {
		CTL_COMMON_LONGOPTS,
		{ "dev", required_argument, NULL, OPT_DEV },
		{ "topo", required_argument, NULL, OPT_TOPO },
		{ "switch", required_argument, NULL, OPT_SWITCH },
		{ "addr-plan", required_argument, NULL, OPT_ADDR_PLAN },
		{ "hosts", required_argument, NULL, OPT_HOSTS },
		{ "algorithm", required_argument, NULL, OPT_ALGORITHM },
		{ "per-packet", no_argument, NULL, OPT_PER_PACKET },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const algos[] = SPRITZ_ALGO_NAMES;
	bool up = !strcmp(cmd, "up");
	struct ctl_link_opts lo;
	size_t i;
	int opt, ret;

	memset(a, 0, sizeof(*a));
	a->sw = -1;
	ctl_link_opts_init(&lo);
	while ((opt = getopt_long(argc, argv, CTL_COMMON_SHORTOPTS, longopts, NULL)) != -1) {
		int r = ctl_common_opt(opt, optarg, &lo, cmd);

		if (r < 0)
			return EXIT_USAGE;
		if (r)
			continue;
		switch (opt) {
		case OPT_DEV:
			a->dev = optarg;
			break;
		case OPT_TOPO:
			a->topo = optarg;
			break;
		case OPT_SWITCH:
			a->sw = ctl_parse_long(optarg, 1 << 30);
			if (a->sw < 0) {
				ctl_err("failed to parse --switch \"%s\": expected a switch id",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_ADDR_PLAN:
			a->plan = optarg;
			break;
		case OPT_HOSTS:
			a->hosts = optarg;
			break;
		case OPT_ALGORITHM:
			a->algo = optarg;
			break;
		case OPT_PER_PACKET:
			if (!up) {
				ctl_err("failed to parse %s arguments: --per-packet is an option of up",
					cmd);
				return EXIT_USAGE;
			}
			a->per_packet = true;
			break;
		default:
			ctl_cmd_usage(cmd, stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		ctl_err("failed to parse %s arguments: unexpected \"%s\"", cmd, argv[optind]);
		ctl_cmd_usage(cmd, stderr);
		return EXIT_USAGE;
	}
	if (up && (!a->dev || !a->topo || a->sw < 0 || (!a->plan && !a->hosts))) {
		ctl_err("failed to parse up arguments: --dev, --topo, --switch and "
			"--addr-plan or --hosts are required");
		ctl_cmd_usage(cmd, stderr);
		return EXIT_USAGE;
	}
	if (!up && !a->topo) {
		ctl_err("failed to parse reload arguments: --topo is required");
		ctl_cmd_usage(cmd, stderr);
		return EXIT_USAGE;
	}
	if (a->plan && a->hosts) {
		ctl_err("failed to parse %s arguments: --addr-plan and --hosts exclude each other",
			cmd);
		return EXIT_USAGE;
	}
	if (a->algo) {
		for (i = 0; i < sizeof(algos) / sizeof(algos[0]); i++)
			if (!strcmp(a->algo, algos[i]))
				break;
		if (i == sizeof(algos) / sizeof(algos[0])) {
			ctl_err("failed to parse --algorithm \"%s\": expected scout, spray, ops, "
				"ecmp or flicr",
				a->algo);
			return EXIT_USAGE;
		}
	}
	ret = ctl_load_topo(a->topo, &lo, &a->t);
	if (ret)
		return ret;
	if (a->sw >= a->t->nsw) {
		ctl_err("failed to %s switch %ld: switch id out of range (topology has "
			"%d switches, 0..%d)",
			up ? "bring up" : "reload", a->sw, a->t->nsw, a->t->nsw - 1);
		return EXIT_USAGE;
	}
	if (a->plan || a->hosts)
		return ctl_dir_source(a->plan, a->hosts, (uint32_t)a->t->nsw, &a->dir);
	return EXIT_OK;
}

/* ------------------------------------------------------------ device ops */

/* What up --per-packet changed on a device, back as it was. */
static int restore_offload(uint32_t ifindex, uint32_t flags)
{
	char name[IF_NAMESIZE] = "?";
	int err;

	if (!(flags & SPRITZ_CTL_DEV_PER_PACKET))
		return 0;
	err = ctl_offload_set(ifindex, flags & SPRITZ_CTL_DEV_TSO_WAS_ON,
			      flags & SPRITZ_CTL_DEV_GSO_WAS_ON);
	if (err) {
		if_indextoname(ifindex, name);
		ctl_err("failed to restore TSO/GSO of %s: %s", name, strerror(-err));
	}
	return err;
}

/* Detach both hooks of a device of the current namespace (struct ctl_dev). */
static int release_dev(void *arg)
{
	const struct ctl_dev *d = arg;
	uint32_t ifindex = d->ifindex;
	int h, err, ret = 0;

	for (h = SPRITZ_HOOK_INGRESS; h <= SPRITZ_HOOK_EGRESS; h++) {
		err = spritz_detach((int)ifindex, h, SPRITZ_PIN_DIR);
		if (err) {
			char name[IF_NAMESIZE] = "?";

			if_indextoname(ifindex, name);
			ctl_err("failed to detach %s program from %s: %s", spritz_hook_name(h),
				name, strerror(-err));
			ret = ret ?: err;
		}
	}
	err = restore_offload(ifindex, d->v.flags);
	return ret ?: err;
}

/* The tcx link pins of a device that is gone (its links are defunct). */
static void drop_link_pins(uint32_t ifindex)
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

static void forget_dev(const struct ctl_dp *dp, uint32_t ifindex)
{
	struct spritz_dev_key k = { .ifindex = ifindex };

	bpf_map_delete_elem(dp->devs, &k);
	bpf_map_delete_elem(dp->state, &ifindex);
}

/*
 * The device records still alive, except @skip (0: none).  Records of
 * devices that are gone (namespace deleted, device removed) are dropped
 * with their spritz_devs entry and link pins.
 */
static int live_devices(const struct ctl_dp *dp, uint32_t skip, struct ctl_dev **out, size_t *n)
{
	struct ctl_dev *v;
	size_t i, k = 0;
	int err = ctl_devices(dp, &v, n);

	if (err)
		return err;
	for (i = 0; i < *n; i++) {
		if (v[i].ifindex == skip)
			continue;
		if (!ctl_dev_alive(&v[i])) {
			forget_dev(dp, v[i].ifindex);
			drop_link_pins(v[i].ifindex);
			continue;
		}
		v[k++] = v[i];
	}
	*out = v;
	*n = k;
	return 0;
}

static bool switch_used(const struct ctl_dev *v, size_t n, uint32_t sw)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i].v.src_switch == sw)
			return true;
	return false;
}

/* Everything unpinned, every table flushed, spritz.ko unloaded if up loaded it. */
static int teardown(struct ctl_dp *dp)
{
	uint32_t flags = 0;
	int err;

	if (dp->state >= 0)
		ctl_host_flags(dp, &flags);
	ctl_dp_close(dp);
	err = ctl_dp_unpin();
	if (err) {
		ctl_err("failed to unpin datapath under %s: %s", SPRITZ_PIN_DIR, strerror(-err));
		return EXIT_FAIL;
	}
	if (!ctl_module_loaded())
		return EXIT_OK;
	ctl_table_flush(SPRITZ_NL_ALL);
	if (!(flags & SPRITZ_CTL_HOST_LOADED_MODULE))
		return EXIT_OK;
	err = ctl_module_unload();
	if (err) {
		ctl_err("failed to unload module spritz: %s", strerror(-err));
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

static int open_pinned(struct ctl_dp *dp, const char *what, bool quiet_enoent)
{
	int err = ctl_dp_open(dp);

	if (!err || (err == -ENOENT && quiet_enoent))
		return err;
	if (err == -ENOENT)
		ctl_err("failed to %s: spritz is not up (nothing pinned under %s; spritzctl up "
			"first)",
			what, SPRITZ_PIN_DIR);
	else if (err == -ESTALE)
		ctl_err("failed to %s: incomplete datapath pinned under %s (spritzctl down "
			"removes it)",
			what, SPRITZ_PIN_DIR);
	else
		ctl_err("failed to %s: cannot open %s: %s", what, SPRITZ_PIN_DIR, strerror(-err));
	return err;
}

/* -------------------------------------------------------------------- up */

int cmd_up(int argc, char **argv)
{
	struct spritz_dir_list added = { 0 };
	struct spritz_ctl_state rec, old_rec;
	struct spritz_dev_val dv, old_dv;
	struct ctl_dev *devs = NULL;
	struct spritz_nl *nl = NULL;
	struct ctl_table tb = { 0 };
	struct spritz_dev_key dk;
	struct ctl_dp dp;
	struct dp_args a;
	char prev_algo[32], err_msg[256] = "", why[256];
	bool reuse, created = false, pushed = false, algo_set = false, had_dv, had_rec;
	bool att[2] = { false, false };
	int ret, err, lock = -1, loaded = 0, h, live;
	uint32_t ifindex, sw;
	size_t ndevs = 0;

	ctl_dp_init(&dp);
	ret = dp_args_parse("up", argc, argv, &a);
	if (ret)
		goto free_args;
	ret = EXIT_FAIL;
	sw = (uint32_t)a.sw;
	if (!ctl_need_root("bring up spritz"))
		goto free_args;
	ifindex = if_nametoindex(a.dev);
	if (!ifindex) {
		ctl_err("failed to find device %s: %s", a.dev, strerror(errno));
		goto free_args;
	}
	lock = ctl_lock();
	if (lock < 0) {
		ctl_err("failed to lock %s: %s", CTL_LOCK_PATH, strerror(-lock));
		goto free_args;
	}
	libbpf_set_print(quiet_print);
	err = open_pinned(&dp, "bring up spritz", true);
	if (err && err != -ENOENT)
		goto unlock;
	reuse = !err;
	dk.ifindex = ifindex;
	had_dv = reuse && !bpf_map_lookup_elem(dp.devs, &dk, &old_dv);
	had_rec = reuse && !bpf_map_lookup_elem(dp.state, &ifindex, &old_rec);
	if (had_rec && old_rec.netns != ctl_netns_self() &&
	    !ctl_dev_alive(&(struct ctl_dev){ .ifindex = ifindex, .v = old_rec })) {
		/* that device is gone with its namespace: forget it */
		forget_dev(&dp, ifindex);
		drop_link_pins(ifindex);
		had_dv = had_rec = false;
	}
	if (had_rec && old_rec.netns != ctl_netns_self()) {
		ctl_err("failed to bring up spritz on %s: ifindex %u is already up in another "
			"network namespace (devices sharing %s need distinct ifindexes)",
			a.dev, ifindex, SPRITZ_PIN_DIR);
		goto unlock;
	}
	if (had_rec && old_rec.src_switch != sw) {
		ctl_err("failed to bring up spritz on %s: already up with switch %u (spritzctl "
			"reload --dev %s --switch %u, or down first)",
			a.dev, old_rec.src_switch, a.dev, sw);
		goto unlock;
	}
	if (had_rec && spritz_attached((int)ifindex, SPRITZ_HOOK_EGRESS, SPRITZ_PIN_DIR) &&
	    spritz_attached((int)ifindex, SPRITZ_HOOK_INGRESS, SPRITZ_PIN_DIR)) {
		printf("spritz is already up on %s\n", a.dev);
		ret = EXIT_OK;
		goto unlock;
	}
	if (reuse && live_devices(&dp, ifindex, &devs, &ndevs)) {
		ctl_err("failed to read device records: %s", strerror(errno));
		goto unlock;
	}

	/* 1. module */
	loaded = ctl_module_load();
	if (loaded < 0) {
		loaded = 0;
		goto unlock;
	}
	/* 2. table */
	if (ctl_table_build(a.t, sw, &tb))
		goto unload_module;
	err = ctl_nl_open(&nl, err_msg, sizeof(err_msg));
	if (err) {
		ctl_err("failed to load table of switch %u into spritz.ko: %s", sw,
			err_msg[0] ? err_msg : strerror(-err));
		goto unload_module;
	}
	live = ctl_table_live(nl, &tb);
	if (live == 0 && switch_used(devs, ndevs, sw)) {
		ctl_err("failed to bring up spritz on %s: the live table of switch %u differs "
			"from the one of %s, and another device uses it (spritzctl reload to "
			"change it)",
			a.dev, sw, a.topo);
		goto unload_module;
	}
	if (live != 1) {
		if (ctl_table_push(nl, &tb))
			goto unload_module;
		pushed = true;
	}
	/* 3. algorithm */
	if (a.algo) {
		if (read_algorithm(prev_algo, sizeof(prev_algo)) || write_algorithm(a.algo)) {
			ctl_err("failed to set algorithm: %s", strerror(errno));
			goto flush_table;
		}
		algo_set = true;
	}
	/* 4. object */
	if (!reuse) {
		if (ctl_dp_create(&dp, loaded ? SPRITZ_CTL_HOST_LOADED_MODULE : 0))
			goto restore_algorithm;
		created = true;
	}
	/* 5. directory */
	err = ctl_dir_conflict(dp.dir, &a.dir, why, sizeof(why));
	if (err) {
		if (err > 0)
			ctl_err("failed to bring up spritz on %s: directory conflict: %s (up with "
				"the same plan or hosts file, or spritzctl reload)",
				a.dev, why);
		else
			ctl_err("failed to read host directory: %s", strerror(-err));
		goto unpin;
	}
	err = ctl_dir_add_missing(dp.dir, &a.dir, &added);
	if (err) {
		ctl_err("failed to fill host directory: %s", strerror(-err));
		goto remove_dir_entries;
	}
	/* 6. device entry and record */
	dv = (struct spritz_dev_val){ .src_switch = sw };
	rec = (struct spritz_ctl_state){ .netns = ctl_netns_self(),
				      .netns_ino = ctl_netns_self_ino(),
				      .src_switch = sw };
	if (a.per_packet) {
		bool tso, gso;

		err = ctl_offload_get(ifindex, &tso, &gso);
		if (!err) {
			err = ctl_offload_set(ifindex, false, false);
			if (err)
				ctl_offload_set(ifindex, tso, gso); /* as it was */
		}
		if (err) {
			ctl_err("failed to turn off TSO/GSO of %s: %s", a.dev, strerror(-err));
			goto remove_dev;
		}
		rec.flags |= SPRITZ_CTL_DEV_PER_PACKET | (tso ? SPRITZ_CTL_DEV_TSO_WAS_ON : 0) |
			     (gso ? SPRITZ_CTL_DEV_GSO_WAS_ON : 0);
	}
	if (bpf_map_update_elem(dp.devs, &dk, &dv, BPF_ANY) ||
	    bpf_map_update_elem(dp.state, &ifindex, &rec, BPF_ANY)) {
		ctl_err("failed to add %s to %s: %s", a.dev, SPRITZ_MAP_DEVS, strerror(errno));
		goto restore_offload;
	}
	/* 7. attach */
	for (h = SPRITZ_HOOK_EGRESS; h >= SPRITZ_HOOK_INGRESS; h--) {
		if (spritz_attached((int)ifindex, h, SPRITZ_PIN_DIR))
			continue;
		err = spritz_attach(dp.prog[h], (int)ifindex, h, SPRITZ_PIN_DIR, NULL);
		if (err) {
			ctl_err("failed to attach %s program to %s: %s", spritz_hook_name(h), a.dev,
				strerror(-err));
			goto detach;
		}
		att[h] = true;
	}
	ret = EXIT_OK;
	goto close_nl;

detach:
	for (h = SPRITZ_HOOK_INGRESS; h <= SPRITZ_HOOK_EGRESS; h++)
		if (att[h])
			spritz_detach((int)ifindex, h, SPRITZ_PIN_DIR);
restore_offload:
	restore_offload(ifindex, rec.flags);
remove_dev:
	if (had_dv)
		bpf_map_update_elem(dp.devs, &dk, &old_dv, BPF_ANY);
	else
		bpf_map_delete_elem(dp.devs, &dk);
	if (had_rec)
		bpf_map_update_elem(dp.state, &ifindex, &old_rec, BPF_ANY);
	else
		bpf_map_delete_elem(dp.state, &ifindex);
remove_dir_entries:
	ctl_dir_remove(dp.dir, &added);
unpin:
	if (created) {
		ctl_dp_close(&dp);
		ctl_dp_unpin();
	}
restore_algorithm:
	if (algo_set)
		write_algorithm(prev_algo);
flush_table:
	if (pushed)
		spritz_nl_flush(nl, sw, NULL, 0);
unload_module:
	spritz_nl_close(nl);
	nl = NULL;
	if (loaded)
		ctl_module_unload();
close_nl:
	spritz_nl_close(nl);
unlock:
	close(lock);
free_args:
	free(devs);
	spritz_dir_free(&added);
	ctl_table_free(&tb);
	ctl_dp_close(&dp);
	dp_args_free(&a);
	return ret;
}

/* ------------------------------------------------------------------ down */

/* Detach whatever spritz attached in this namespace (dev, or every device). */
static int detach_here(const char *dev)
{
	struct if_nameindex *ifs, *p;
	int ret = 0;

	ifs = if_nameindex();
	for (p = ifs; p && p->if_index; p++) {
		struct ctl_dev d = { .ifindex = p->if_index };

		if (dev && strcmp(dev, p->if_name))
			continue;
		if (release_dev(&d))
			ret = -EIO;
	}
	if (ifs)
		if_freenameindex(ifs);
	return ret;
}

static int down_dev(struct ctl_dp *dp, const char *dev, uint32_t ifindex)
{
	struct spritz_ctl_state rec;
	struct ctl_dev *devs = NULL;
	size_t n = 0;

	if (bpf_map_lookup_elem(dp->state, &ifindex, &rec)) {
		/* not up here: at most a leftover attachment */
		return detach_here(dev) ? EXIT_FAIL : EXIT_OK;
	}
	if (rec.netns != ctl_netns_self())
		return EXIT_OK; /* that ifindex is another namespace's device */
	if (release_dev(&(struct ctl_dev){ .ifindex = ifindex, .v = rec }))
		return EXIT_FAIL;
	forget_dev(dp, ifindex);
	if (live_devices(dp, 0, &devs, &n)) {
		ctl_err("failed to read device records: %s", strerror(errno));
		return EXIT_FAIL;
	}
	if (!switch_used(devs, n, rec.src_switch))
		ctl_table_flush(rec.src_switch);
	free(devs);
	return n ? EXIT_OK : teardown(dp);
}

static int down_all(struct ctl_dp *dp)
{
	struct ctl_dev *devs = NULL;
	size_t i, n = 0;
	int ret = EXIT_OK, err;

	if (ctl_devices(dp, &devs, &n)) {
		ctl_err("failed to read device records: %s", strerror(errno));
		return EXIT_FAIL;
	}
	for (i = 0; i < n; i++) {
		err = ctl_in_netns(&devs[i].v, release_dev, &devs[i]);
		if (err == -ENOENT)
			drop_link_pins(devs[i].ifindex); /* namespace gone */
		else if (err)
			ret = EXIT_FAIL;
		else
			forget_dev(dp, devs[i].ifindex);
	}
	free(devs);
	if (detach_here(NULL))
		ret = EXIT_FAIL;
	return ret ? ret : teardown(dp);
}

int cmd_down(int argc, char **argv)
{
	static const struct option longopts[] = {
		CTL_GENERIC_LONGOPTS,
		{ "dev", required_argument, NULL, OPT_DEV },
		{ NULL, 0, NULL, 0 },
	};
	struct ctl_link_opts lo;
	const char *dev = NULL;
	uint32_t ifindex = 0;
	struct ctl_dp dp;
	int opt, ret, err, lock;

	ctl_link_opts_init(&lo);
	while ((opt = getopt_long(argc, argv, CTL_COMMON_SHORTOPTS, longopts, NULL)) != -1) {
		int r = ctl_common_opt(opt, optarg, &lo, "down");

		if (r < 0)
			return EXIT_USAGE;
		if (r)
			continue;
		if (opt == OPT_DEV) {
			dev = optarg;
			continue;
		}
		ctl_cmd_usage("down", stderr);
		return EXIT_USAGE;
	}
	if (optind < argc) {
		ctl_err("failed to parse down arguments: unexpected \"%s\"", argv[optind]);
		return EXIT_USAGE;
	}
	if (!ctl_need_root("take spritz down"))
		return EXIT_FAIL;
	if (dev) {
		ifindex = if_nametoindex(dev);
		if (!ifindex) {
			ctl_err("failed to find device %s: %s", dev, strerror(errno));
			return EXIT_FAIL;
		}
	}
	lock = ctl_lock();
	if (lock < 0) {
		ctl_err("failed to lock %s: %s", CTL_LOCK_PATH, strerror(-lock));
		return EXIT_FAIL;
	}
	libbpf_set_print(quiet_print);
	err = ctl_dp_open(&dp);
	if (err == -ENOENT || err == -ESTALE) {
		/* nothing (complete) pinned: leftovers only, tables and module kept */
		ret = detach_here(dev) ? EXIT_FAIL : EXIT_OK;
		err = !dev && !ret ? ctl_dp_unpin() : 0;
		if (err) {
			ctl_err("failed to unpin datapath under %s: %s", SPRITZ_PIN_DIR,
				strerror(-err));
			ret = EXIT_FAIL;
		}
	} else if (err) {
		ctl_err("failed to take spritz down: cannot open %s: %s", SPRITZ_PIN_DIR,
			strerror(-err));
		ret = EXIT_FAIL;
	} else {
		ret = dev ? down_dev(&dp, dev, ifindex) : down_all(&dp);
	}
	ctl_dp_close(&dp);
	close(lock);
	return ret;
}

/* ---------------------------------------------------------------- reload */

int cmd_reload(int argc, char **argv)
{
	struct ctl_table *tbs = NULL;
	struct ctl_stale *stale = NULL;
	struct ctl_dev *devs = NULL;
	struct spritz_nl *nl = NULL;
	struct spritz_ctl_state rec;
	uint32_t *sws = NULL, ifindex = 0, old_sw = 0;
	size_t i, k, ndevs = 0, nsw = 0;
	char err_msg[256] = "";
	struct ctl_dp dp;
	struct dp_args a;
	int ret, err, lock = -1;
	long max;

	ctl_dp_init(&dp);
	ret = dp_args_parse("reload", argc, argv, &a);
	if (ret)
		goto free_args;
	ret = EXIT_FAIL;
	if (!ctl_need_root("reload spritz"))
		goto free_args;
	if (a.dev) {
		ifindex = if_nametoindex(a.dev);
		if (!ifindex) {
			ctl_err("failed to find device %s: %s", a.dev, strerror(errno));
			goto free_args;
		}
	}
	lock = ctl_lock();
	if (lock < 0) {
		ctl_err("failed to lock %s: %s", CTL_LOCK_PATH, strerror(-lock));
		goto free_args;
	}
	libbpf_set_print(quiet_print);
	if (open_pinned(&dp, "reload spritz", false))
		goto unlock;
	if (live_devices(&dp, 0, &devs, &ndevs)) {
		ctl_err("failed to read device records: %s", strerror(errno));
		goto unlock;
	}
	sws = calloc(ndevs + 1, sizeof(*sws));
	if (!sws) {
		ctl_err("failed to reload spritz: out of memory");
		goto unlock;
	}
	/* the tables to swap */
	if (a.dev) {
		if (bpf_map_lookup_elem(dp.state, &ifindex, &rec) ||
		    rec.netns != ctl_netns_self()) {
			ctl_err("failed to reload spritz on %s: not up on %s", a.dev, a.dev);
			goto unlock;
		}
		old_sw = rec.src_switch;
		sws[nsw++] = a.sw >= 0 ? (uint32_t)a.sw : old_sw;
	} else if (a.sw >= 0) {
		if (!switch_used(devs, ndevs, (uint32_t)a.sw)) {
			ctl_err("failed to reload switch %ld: no device is up with switch %ld",
				a.sw, a.sw);
			goto unlock;
		}
		sws[nsw++] = (uint32_t)a.sw;
	} else {
		for (i = 0; i < ndevs; i++) {
			for (k = 0; k < nsw && sws[k] != devs[i].v.src_switch; k++)
				;
			if (k == nsw)
				sws[nsw++] = devs[i].v.src_switch;
		}
		if (!nsw) {
			ctl_err("failed to reload spritz: no device is up");
			goto unlock;
		}
	}
	for (i = 0; i < nsw; i++) {
		if (sws[i] >= (uint32_t)a.t->nsw) {
			ctl_err("failed to reload switch %u: switch id out of range (topology has "
				"%d switches, 0..%d)",
				sws[i], a.t->nsw, a.t->nsw - 1);
			ret = EXIT_USAGE;
			goto unlock;
		}
	}
	if (!a.plan && !a.hosts) {
		max = ctl_dir_max_switch(dp.dir);
		if (max >= a.t->nsw) {
			ctl_err("failed to reload spritz: the directory maps a prefix to switch %ld, "
				"not in %s (0..%d); give --addr-plan or --hosts",
				max, a.topo, a.t->nsw - 1);
			ret = EXIT_USAGE;
			goto unlock;
		}
	}
	/* everything computed before the first change */
	tbs = calloc(nsw, sizeof(*tbs));
	if (!tbs) {
		ctl_err("failed to reload spritz: out of memory");
		goto unlock;
	}
	for (i = 0; i < nsw; i++)
		if (ctl_table_build(a.t, sws[i], &tbs[i]))
			goto free_tables;
	err = ctl_nl_open(&nl, err_msg, sizeof(err_msg));
	if (err) {
		ctl_err("failed to reload spritz: %s", err_msg[0] ? err_msg : strerror(-err));
		goto free_tables;
	}
	/* which destinations' EV lists the swap replaces, before it */
	stale = calloc(nsw, sizeof(*stale));
	if (!stale) {
		ctl_err("failed to reload spritz: out of memory");
		goto close_nl;
	}
	for (i = 0; i < nsw; i++) {
		uint8_t *changed = malloc(tbs[i].nsw);

		stale[i] = (struct ctl_stale){ .src = tbs[i].src, .nsw = tbs[i].nsw,
					       .dst = changed };
		err = changed ? ctl_table_diff(nl, &tbs[i], changed) : -ENOMEM;
		if (err) {
			ctl_err("failed to compare table of switch %u with the live one: %s",
				tbs[i].src, strerror(-err));
			goto free_stale;
		}
	}
	for (i = 0; i < nsw; i++) {
		if (ctl_table_push(nl, &tbs[i])) {
			if (i)
				ctl_err("failed to reload every table: %zu of %zu swapped, the "
					"others unchanged",
					i, nsw);
			goto free_stale;
		}
	}
	if (a.dev && sws[0] != old_sw) {
		struct spritz_dev_key dk = { .ifindex = ifindex };
		struct spritz_dev_val dv = { .src_switch = sws[0] };

		rec.src_switch = sws[0];
		if (bpf_map_update_elem(dp.devs, &dk, &dv, BPF_EXIST) ||
		    bpf_map_update_elem(dp.state, &ifindex, &rec, BPF_EXIST)) {
			ctl_err("failed to move %s to switch %u: %s", a.dev, sws[0],
				strerror(errno));
			goto free_stale;
		}
		for (i = 0; i < ndevs; i++)
			if (devs[i].ifindex == ifindex)
				devs[i].v.src_switch = sws[0];
		if (!switch_used(devs, ndevs, old_sw))
			spritz_nl_flush(nl, old_sw, NULL, 0);
	}
	if (a.plan || a.hosts) {
		err = ctl_dir_replace(dp.dir, &a.dir);
		if (err) {
			ctl_err("failed to refresh host directory: %s", strerror(-err));
			goto free_stale;
		}
	}
	/*
	 * Flows that now go elsewhere, left a moved device's old switch, or
	 * hold EVs of a replaced list; then wait until no program still
	 * runs on what was dropped: from here on no packet leaves with an
	 * EV of the old tables.
	 */
	err = ctl_flows_resync(dp.dir, a.dev && sws[0] != old_sw ? (long)old_sw : -1, stale, nsw);
	if (err < 0) {
		ctl_err("failed to drop outdated flow states: %s", strerror(-err));
		goto free_stale;
	}
	err = ctl_dp_sync();
	if (err) {
		ctl_err("failed to wait for the datapath: %s", strerror(-err));
		goto free_stale;
	}
	if (a.algo && write_algorithm(a.algo)) {
		ctl_err("failed to set algorithm: %s", strerror(errno));
		goto free_stale;
	}
	ret = EXIT_OK;
free_stale:
	for (i = 0; stale && i < nsw; i++)
		free((void *)stale[i].dst);
	free(stale);
close_nl:
	spritz_nl_close(nl);
free_tables:
	for (i = 0; tbs && i < nsw; i++)
		ctl_table_free(&tbs[i]);
	free(tbs);
unlock:
	close(lock);
free_args:
	free(sws);
	free(devs);
	ctl_dp_close(&dp);
	dp_args_free(&a);
	return ret;
}
