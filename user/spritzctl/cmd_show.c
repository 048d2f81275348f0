// SPDX-License-Identifier: GPL-2.0-only
/*
 * spritzctl show [config | paths [--dst M] [--switch N] | flows | peers | stats]:
 *
 *   config  the module's knobs (cmd_knobs.c)
 *   paths   the live endpoint tables with each path's state, from the
 *           netlink dump (TABLE_GET), one table per source switch
 *   flows   the pinned spritz_flows map: 5-tuple, switches, last EV,
 *           counters, the good-path buffer
 *   peers   the pinned spritz_peers map: per peer address, the host-wide
 *           path disables its flows made and how long ago the first of
 *           them was (knob peer_disables, spritz_fb_disable_ok())
 *   stats   the pinned spritz_stats counters summed over CPUs; their names
 *           come from the map's BTF (struct spritz_stats), so a counter
 *           added to the datapath shows up without a change here
 *
 * Human tables by default, -j JSON (schema in spritzctl.8).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include <spritz/flowtab.h>
#include <spritz/knobs.h>
#include <spritz/maps.h>
#include <spritz/netlink.h>

#include "spritz_host.h"
#include "spritz_knobs.h"
#include "spritzctl.h"

enum { OPT_DST = OPT_FIRST_CMD, OPT_SWITCH };


/* "3:7", or "3:-" when EV2 is unused. */
static void ev_str(uint16_t ev, char *buf, size_t len)
{
	if (SPRITZ_EV2(ev) == SPRITZ_EV2_UNUSED)
		snprintf(buf, len, "%u:-", SPRITZ_EV1(ev));
	else
		snprintf(buf, len, "%u:%u", SPRITZ_EV1(ev), SPRITZ_EV2(ev));
}

static double weight_real(uint32_t w)
{
	return (double)w / SPRITZ_WEIGHT_ONE;
}

/* ----------------------------------------------------------------- paths */

struct paths_ctx {
	long dst; /* -1: all */
	bool have; /* a table started */
	int ntables;
	uint32_t src; /* of the current table */
	json_t *tables; /* -j */
	json_t *dests; /* -j: of the current table */
};

static json_t *path_json(const struct spritz_nl_path *p)
{
	return json_pack("{s:i, s:i, s:i, s:i, s:f, s:f, s:I, s:I, s:I, s:I}", "ev", p->ev, "ev1",
			 SPRITZ_EV1(p->ev), "ev2", SPRITZ_EV2(p->ev), "lat_class", p->lat_class,
			 "base_weight", weight_real(p->base_weight), "weight",
			 weight_real(p->weight), "disabled_ms", (json_int_t)p->disabled_ms, "picks",
			 (json_int_t)p->picks, "timeouts", (json_int_t)p->timeouts, "disables",
			 (json_int_t)p->disables);
}

static int paths_cb(const struct spritz_nl_dest *d, void *arg)
{
	struct paths_ctx *c = arg;
	uint32_t i;

	if (c->dst >= 0 && d->dst != (uint32_t)c->dst)
		return 0;
	if (!c->have || d->src_switch != c->src) {
		c->have = true;
		c->src = d->src_switch;
		if (opt_json) {
			json_t *t;

			c->dests = json_array();
			t = json_pack("{s:i, s:I, s:i, s:o}", "src_switch",
				      (json_int_t)d->src_switch, "generation",
				      (json_int_t)d->generation, "num_switches",
				      (json_int_t)d->num_switches, "destinations", c->dests);
			if (!t || json_array_append_new(c->tables, t))
				return -ENOMEM;
		} else {
			printf("%stable of switch %u: generation %u, %u switches\n",
			       c->ntables++ ? "\n" : "", d->src_switch, d->generation,
			       d->num_switches);
			printf("%5s %7s %5s %11s %9s %11s %12s %9s %9s\n", "dst", "ev", "class",
			       "base_weight", "weight", "disabled_ms", "picks", "timeouts",
			       "disables");
		}
	}
	if (opt_json) {
		json_t *paths = json_array(), *o;

		for (i = 0; paths && i < d->npaths; i++)
			if (json_array_append_new(paths, path_json(&d->paths[i])))
				break;
		o = json_pack("{s:i, s:o}", "dst", (json_int_t)d->dst, "paths", paths);
		if (!paths || i < d->npaths || !o || json_array_append_new(c->dests, o))
			return -ENOMEM;
		return 0;
	}
	for (i = 0; i < d->npaths; i++) {
		const struct spritz_nl_path *p = &d->paths[i];
		char ev[16];

		ev_str(p->ev, ev, sizeof(ev));
		printf("%5u %7s %5u %11.3f %9.3f %11u %12llu %9llu %9llu\n", d->dst, ev,
		       p->lat_class, weight_real(p->base_weight), weight_real(p->weight),
		       p->disabled_ms, (unsigned long long)p->picks,
		       (unsigned long long)p->timeouts, (unsigned long long)p->disables);
	}
	return 0;
}

static int show_paths(long sw, long dst)
{
	struct paths_ctx c = { .dst = dst };
	struct spritz_nl *nl;
	char err[256] = "";
	int ret;

	if (!spritz_module_loaded()) {
		ctl_err("failed to show paths: spritz module not loaded (no %s; run spritzctl up "
			"or modprobe spritz)",
			SPRITZ_SYSFS_DIR);
		return EXIT_FAIL;
	}
	ret = spritz_nl_open_init(&nl, err, sizeof(err));
	if (ret) {
		ctl_err("failed to show paths: %s", err[0] ? err : strerror(-ret));
		return EXIT_FAIL;
	}
	if (opt_json)
		c.tables = json_array();
	ret = c.tables || !opt_json ? 0 : -ENOMEM;
	if (!ret)
		ret = spritz_nl_dump(nl, sw >= 0 ? (uint32_t)sw : SPRITZ_NL_ALL, paths_cb, &c, err,
				     sizeof(err));
	spritz_nl_close(nl);
	if (ret) {
		ctl_err("failed to show paths: %s", err[0] ? err : strerror(-ret));
		json_decref(c.tables);
		return EXIT_FAIL;
	}
	if (!opt_json)
		return EXIT_OK;
	return ctl_json_print(json_pack("{s:o}", "tables", c.tables));
}

/* ------------------------------------------------------------ pinned maps */

/* A pinned datapath map; prints why not and returns -errno. */
static int open_map(const char *name, const char *what)
{
	int fd = spritz_dp_pin_get(name);

	if (fd >= 0)
		return fd;
	if (fd == -ENOENT)
		ctl_err("failed to show %s: spritz is not up (no %s/%s)", what, SPRITZ_PIN_DIR,
			name);
	else if (fd == -EACCES || fd == -EPERM)
		ctl_err("failed to show %s: permission denied (must be root)", what);
	else
		ctl_err("failed to show %s: cannot open %s/%s: %s", what, SPRITZ_PIN_DIR, name,
			strerror(-fd));
	return fd;
}

/* Value size of map @fd must be @want (spritzctl and datapath of one build). */
static int check_value_size(int fd, uint32_t want, const char *what, struct bpf_map_info *info)
{
	uint32_t len = sizeof(*info);

	memset(info, 0, sizeof(*info));
	if (bpf_obj_get_info_by_fd(fd, info, &len)) {
		ctl_err("failed to show %s: %s", what, strerror(errno));
		return -errno;
	}
	if (want && info->value_size != want) {
		ctl_err("failed to show %s: value size %u, spritzctl expects %u (datapath and "
			"spritzctl of different builds)",
			what, info->value_size, want);
		return -EPROTO;
	}
	return 0;
}

/* ----------------------------------------------------------------- flows */

static void addr_str(const uint8_t a[16], char *buf, size_t len)
{
	static const uint8_t v4[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	if (!memcmp(a, v4, sizeof(v4)))
		inet_ntop(AF_INET, a + 12, buf, (socklen_t)len);
	else
		inet_ntop(AF_INET6, a, buf, (socklen_t)len);
}

static const char *proto_name(uint8_t p)
{
	return p == 6 ? "tcp" : p == 17 ? "udp" : "other";
}

static int flow_pending(const struct spritz_flow *f)
{
	int i, n = 0;

	for (i = 0; i < SPRITZ_RING_SIZE; i++)
		n += f->fb.ring[i].state == SPRITZ_IF_PENDING;
	return n;
}

static json_t *flow_json(const struct spritz_flow_key *k, const struct spritz_flow *f)
{
	char sa[INET6_ADDRSTRLEN], da[INET6_ADDRSTRLEN];
	bool have_ev = f->flags & SPRITZ_FLOW_F_HAVE_EV;
	json_t *buf = json_array(), *o;
	int i, n = f->lb.len < SPRITZ_BUF_MAX ? f->lb.len : SPRITZ_BUF_MAX;

	for (i = 0; buf && i < n; i++)
		json_array_append_new(buf, json_pack("{s:i, s:i, s:i}", "ev", f->lb.buf[i].ev,
						     "lat_class", f->lb.buf[i].lat_class,
						     "ecn_count", f->lb.buf[i].ecn_count));
	addr_str(k->saddr, sa, sizeof(sa));
	addr_str(k->daddr, da, sizeof(da));
	o = json_pack("{s:s, s:s, s:i, s:s, s:i, s:I, s:I, s:o, s:o, s:I, s:I, s:s, s:o, s:i}",
		      "proto", proto_name(k->proto), "saddr", sa, "sport", k->sport, "daddr", da,
		      "dport", k->dport, "src_switch", (json_int_t)f->src_switch, "dst_switch",
		      (json_int_t)f->dst_switch, "last_ev",
		      have_ev ? json_integer(f->last_ev) : json_null(), "last_lat_class",
		      have_ev ? json_integer(f->last_lat_class) : json_null(), "packets",
		      (json_int_t)f->packets, "bytes", (json_int_t)f->bytes_sent, "algorithm",
		      f->lb.algo < spritz_nalgos ? spritz_algo_names[f->lb.algo] : "?", "buffer", buf, "inflight",
		      flow_pending(f));
	return o;
}

static void flow_row(const struct spritz_flow_key *k, const struct spritz_flow *f)
{
	char sa[INET6_ADDRSTRLEN], da[INET6_ADDRSTRLEN], src[64], dst[64], sw[32], ev[16];
	char buf[SPRITZ_BUF_MAX * 16 + 1] = "", e[16];
	int i, n = f->lb.len < SPRITZ_BUF_MAX ? f->lb.len : SPRITZ_BUF_MAX;
	size_t off = 0;

	addr_str(k->saddr, sa, sizeof(sa));
	addr_str(k->daddr, da, sizeof(da));
	snprintf(src, sizeof(src), strchr(sa, ':') ? "[%s]:%u" : "%s:%u", sa, k->sport);
	snprintf(dst, sizeof(dst), strchr(da, ':') ? "[%s]:%u" : "%s:%u", da, k->dport);
	snprintf(sw, sizeof(sw), "%u>%u", f->src_switch, f->dst_switch);
	if (f->flags & SPRITZ_FLOW_F_HAVE_EV)
		ev_str(f->last_ev, ev, sizeof(ev));
	else
		snprintf(ev, sizeof(ev), "-");
	for (i = 0; i < n && off < sizeof(buf); i++) {
		ev_str(f->lb.buf[i].ev, e, sizeof(e));
		off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s%s/%u", i ? "," : "", e,
					f->lb.buf[i].ecn_count);
	}
	printf("%-5s %-46s %-46s %-11s %-7s %10llu %12llu  %s\n", proto_name(k->proto), src, dst,
	       sw, ev, (unsigned long long)f->packets, (unsigned long long)f->bytes_sent,
	       n ? buf : "-");
}

static int show_flows(void)
{
	struct spritz_flowtab t;
	struct spritz_flow f;
	json_t *arr = NULL, *o;
	int fd, err;
	size_t i;

	fd = open_map(SPRITZ_MAP_FLOWS, "flows");
	if (fd < 0)
		return EXIT_FAIL;
	err = spritz_flowtab_open(fd, false, &t);
	close(fd);
	if (err) {
		ctl_err("failed to show flows: %s", err == -EPROTO ?
			"not this build's flow table (datapath and spritzctl of different builds)" :
			strerror(-err));
		return EXIT_FAIL;
	}
	if (opt_json) {
		arr = json_array();
		if (!arr) {
			spritz_flowtab_close(&t);
			return ctl_json_print(NULL);
		}
	} else {
		printf("%-5s %-46s %-46s %-11s %-7s %10s %12s  %s\n", "proto", "source",
		       "destination", "switches", "last_ev", "packets", "bytes", "buffer (ev/ecn)");
	}
	for (i = 0; i < t.n; i++) {
		if (!spritz_flowtab_get(&t, i, &f))
			continue;
		if (!opt_json) {
			flow_row(&f.key, &f);
			continue;
		}
		o = flow_json(&f.key, &f);
		if (o && json_object_set_new(o, "slot", json_integer((json_int_t)i))) {
			json_decref(o);
			o = NULL;
		}
		if (!o || json_array_append_new(arr, o)) {
			json_decref(arr);
			spritz_flowtab_close(&t);
			return ctl_json_print(NULL);
		}
	}
	spritz_flowtab_close(&t);
	return opt_json ? ctl_json_print(json_pack("{s:o}", "flows", arr)) : EXIT_OK;
}

/* ----------------------------------------------------------------- peers */

/* Milliseconds from @ns to now on the datapath's clock (CLOCK_MONOTONIC). */
static long long ms_since(uint64_t ns)
{
	struct timespec ts;
	uint64_t now;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	return now >= ns ? (long long)((now - ns) / 1000000) : 0;
}

static int show_peers(void)
{
	struct spritz_peer_key k, next, *prev = NULL;
	struct bpf_map_info info;
	struct spritz_peer v;
	char a[INET6_ADDRSTRLEN];
	json_t *arr = NULL, *o;
	int fd, n, ret = EXIT_FAIL;

	fd = open_map(SPRITZ_MAP_PEERS, "peers");
	if (fd < 0)
		return EXIT_FAIL;
	if (check_value_size(fd, sizeof(v), "peers", &info))
		goto close_map;
	if (opt_json && !(arr = json_array())) {
		ret = ctl_json_print(NULL);
		goto close_map;
	}
	if (!opt_json)
		printf("%-40s %8s %12s\n", "peer", "disables", "first_ms_ago");
	/* bounded: a key evicted under the walk restarts it from the first */
	for (n = 0; n < SPRITZ_PEERS_MAX && !bpf_map_get_next_key(fd, prev, &next); n++) {
		k = next;
		prev = &k;
		if (bpf_map_lookup_elem(fd, &k, &v))
			continue; /* evicted meanwhile */
		addr_str(k.addr, a, sizeof(a));
		if (!opt_json) {
			printf("%-40s %8u %12lld\n", a, v.disables, ms_since(v.disables_ns));
			continue;
		}
		o = json_pack("{s:s, s:i, s:I}", "addr", a, "disables", v.disables,
			      "first_ms_ago", (json_int_t)ms_since(v.disables_ns));
		if (!o || json_array_append_new(arr, o)) {
			json_decref(arr);
			ret = ctl_json_print(NULL);
			goto close_map;
		}
	}
	ret = opt_json ? ctl_json_print(json_pack("{s:o}", "peers", arr)) : EXIT_OK;
close_map:
	close(fd);
	return ret;
}

/* ----------------------------------------------------------------- stats */

static int show_stats(void)
{
	const struct btf_type *t;
	struct bpf_map_info info;
	struct btf *btf = NULL;
	const struct btf_member *m;
	json_t *counters = NULL;
	uint32_t key = 0, vsz;
	int fd, ncpu, i, c, n, id, ret = EXIT_FAIL;
	uint8_t *vals = NULL;

	fd = open_map(SPRITZ_MAP_STATS, "stats");
	if (fd < 0)
		return EXIT_FAIL;
	if (check_value_size(fd, 0, "stats", &info))
		goto close_map;
	btf = info.btf_id ? btf__load_from_kernel_by_id(info.btf_id) : NULL;
	id = btf ? btf__resolve_type(btf, info.btf_value_type_id) : -1;
	t = id > 0 ? btf__type_by_id(btf, (uint32_t)id) : NULL;
	if (!t || !btf_is_struct(t)) {
		ctl_err("failed to show stats: %s has no BTF struct for its values",
			SPRITZ_MAP_STATS);
		goto free_btf;
	}
	ncpu = libbpf_num_possible_cpus();
	vsz = (info.value_size + 7) & ~7U;
	vals = ncpu > 0 ? calloc((size_t)ncpu, vsz) : NULL;
	if (!vals || bpf_map_lookup_elem(fd, &key, vals)) {
		ctl_err("failed to show stats: %s", vals ? strerror(errno) : "out of memory");
		goto free_vals;
	}
	if (opt_json)
		counters = json_object();
	n = btf_vlen(t);
	for (i = 0, m = btf_members(t); i < n; i++, m++) {
		const char *name = btf__name_by_offset(btf, m->name_off);
		uint32_t off = btf_member_bit_offset(t, (uint32_t)i) / 8;
		unsigned long long sum = 0;

		if (btf__resolve_size(btf, m->type) != 8 || off + 8 > info.value_size)
			continue; /* every counter is a __u64 */
		for (c = 0; c < ncpu; c++) {
			uint64_t v;

			memcpy(&v, vals + (size_t)c * vsz + off, sizeof(v));
			sum += v;
		}
		if (!opt_json)
			printf("%-20s %llu\n", name, sum);
		else if (json_object_set_new(counters, name, json_integer((json_int_t)sum)))
			break;
	}
	if (opt_json)
		ret = ctl_json_print(json_pack("{s:i, s:o}", "cpus", ncpu, "counters", counters));
	else
		ret = EXIT_OK;
free_vals:
	free(vals);
free_btf:
	btf__free(btf);
close_map:
	close(fd);
	return ret;
}

/* ------------------------------------------------------------------ show */

int cmd_show(int argc, char **argv)
{
	static const struct option longopts[] = {
		CTL_GENERIC_LONGOPTS,
		{ "dst", required_argument, NULL, OPT_DST },
		{ "switch", required_argument, NULL, OPT_SWITCH },
		{ NULL, 0, NULL, 0 },
	};
	struct ctl_link_opts lo;
	long sw = -1, dst = -1;
	const char *obj = "config";
	int opt;

	ctl_link_opts_init(&lo);
	while ((opt = getopt_long(argc, argv, CTL_COMMON_SHORTOPTS, longopts, NULL)) != -1) {
		int r;

		if (opt == OPT_DST || opt == OPT_SWITCH) {
			long v = ctl_parse_long(optarg, SPRITZ_MAX_SWITCHES - 1);

			if (v < 0) {
				ctl_err("failed to parse --%s \"%s\": expected a switch id",
					opt == OPT_DST ? "dst" : "switch", optarg);
				return EXIT_USAGE;
			}
			*(opt == OPT_DST ? &dst : &sw) = v;
			continue;
		}
		r = ctl_common_opt(opt, optarg, &lo, "show");
		if (r < 0)
			return EXIT_USAGE;
		if (!r) {
			ctl_cmd_usage("show", stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc)
		obj = argv[optind++];
	if (optind < argc) {
		ctl_err("failed to parse show arguments: unexpected \"%s\"", argv[optind]);
		ctl_cmd_usage("show", stderr);
		return EXIT_USAGE;
	}
	if ((sw >= 0 || dst >= 0) && strcmp(obj, "paths")) {
		ctl_err("failed to show %s: --switch and --dst apply to paths only", obj);
		return EXIT_USAGE;
	}
	if (!strcmp(obj, "config"))
		return ctl_show_config();
	if (!strcmp(obj, "paths"))
		return show_paths(sw, dst);
	if (!strcmp(obj, "flows"))
		return show_flows();
	if (!strcmp(obj, "peers"))
		return show_peers();
	if (!strcmp(obj, "stats"))
		return show_stats();
	ctl_err("failed to show %s: unknown object (supported: config, paths, flows, peers, stats)",
		obj);
	ctl_cmd_usage("show", stderr);
	return EXIT_USAGE;
}
