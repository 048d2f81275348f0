// SPDX-License-Identifier: GPL-2.0-only
/*
 * spritzctl paths TOPO --switch N [--dst M]: the EV entry lists of one
 * source switch (paper §III-C), one per destination switch, sorted as the
 * endpoint uses them (minimal first, then by latency), with EV, hops,
 * latency (Table I model) and Eq. 1 weight.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spritzctl.h"

enum { OPT_SWITCH = OPT_FIRST_CMD, OPT_DST, OPT_W_SCALE, OPT_UNIFORM };

struct paths_opts {
	long src, dst, w_scale;
	bool uniform;
};

/* One path as a JSON object (fields documented in spritzctl.8). */
static json_t *path_json(struct spritz_topo *t, int src, int dst, const struct spritz_path *p,
			 double w, bool minimal)
{
	json_t *o = json_object(), *seq = json_array();
	int hop1, hop2, sw[SPRITZ_PATH_MAX_HOPS + 2], n, i;

	spritz_path_hops(t, src, p->ev, &hop1, &hop2);
	n = spritz_ev_route(t, src, dst, p->ev, sw, SPRITZ_PATH_MAX_HOPS + 2);
	for (i = 0; i < n; i++)
		json_array_append_new(seq, json_integer(sw[i]));
	json_object_set_new(o, "dst", json_integer(dst));
	json_object_set_new(o, "ev", json_integer(p->ev));
	json_object_set_new(o, "ev1", json_integer(SPRITZ_EV1(p->ev)));
	json_object_set_new(o, "ev2", json_integer(SPRITZ_EV2(p->ev)));
	json_object_set_new(o, "hop1", json_integer(hop1));
	json_object_set_new(o, "hop2", json_integer(hop2));
	json_object_set_new(o, "local_hops", json_integer(p->local_hops));
	json_object_set_new(o, "global_hops", json_integer(p->global_hops));
	json_object_set_new(o, "hops", json_integer(p->local_hops + p->global_hops));
	json_object_set_new(o, "latency_ns", ctl_json_ns(p->latency_ps));
	json_object_set_new(o, "weight", json_real(w));
	json_object_set_new(o, "class", json_integer(p->lat_class));
	json_object_set_new(o, "minimal", json_boolean(minimal));
	json_object_set_new(o, "switches", seq);
	return o;
}

/* One path as a table row. */
static void path_row(struct spritz_topo *t, int src, int dst, int idx,
		     const struct spritz_path *p, double w, bool minimal)
{
	int hop1, hop2, sw[SPRITZ_PATH_MAX_HOPS + 2], n, i;
	char ev2[8];

	spritz_path_hops(t, src, p->ev, &hop1, &hop2);
	if (SPRITZ_EV2(p->ev) == SPRITZ_EV2_UNUSED)
		snprintf(ev2, sizeof(ev2), "-");
	else
		snprintf(ev2, sizeof(ev2), "%u", SPRITZ_EV2(p->ev));
	printf("%5d %4d 0x%04x %4u %4s %6d %6d %2d/%-2d %9.1f %8.3f %3u%s ", dst, idx, p->ev,
	       SPRITZ_EV1(p->ev), ev2, hop1, hop2, p->local_hops, p->global_hops,
	       p->latency_ps / 1000.0, w, p->lat_class, minimal ? "*" : " ");
	n = spritz_ev_route(t, src, dst, p->ev, sw, SPRITZ_PATH_MAX_HOPS + 2);
	for (i = 0; i < n; i++)
		printf("%s%d", i ? "-" : "", sw[i]);
	putchar('\n');
}

/* Options and the TOPO argument's index; EXIT_USAGE (said) on bad ones. */
static int paths_parse(int argc, char **argv, struct paths_opts *o, struct ctl_link_opts *lo)
{
	static const struct option longopts[] = {
		CTL_COMMON_LONGOPTS,
		{ "switch", required_argument, NULL, OPT_SWITCH },
		{ "dst", required_argument, NULL, OPT_DST },
		{ "w-scale", required_argument, NULL, OPT_W_SCALE },
		{ "uniform", no_argument, NULL, OPT_UNIFORM },
		{ NULL, 0, NULL, 0 },
	};
	int opt, ret;

	while ((opt = getopt_long(argc, argv, CTL_COMMON_SHORTOPTS, longopts, NULL)) != -1) {
		switch (opt) {
		case OPT_SWITCH:
		case OPT_DST:
			*(opt == OPT_SWITCH ? &o->src : &o->dst) = ctl_parse_long(optarg, 1 << 30);
			if ((opt == OPT_SWITCH ? o->src : o->dst) < 0) {
				ctl_err("failed to parse --%s \"%s\": expected a switch id",
					opt == OPT_SWITCH ? "switch" : "dst", optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_W_SCALE:
			o->w_scale = ctl_parse_long(optarg, 1000000);
			if (o->w_scale < 1) {
				ctl_err("failed to parse --w-scale \"%s\": expected an integer "
					">= 1", optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_UNIFORM:
			o->uniform = true;
			break;
		default:
			ret = ctl_common_opt(opt, optarg, lo, "paths");
			if (ret <= 0) {
				if (!ret)
					ctl_cmd_usage("paths", stderr);
				return EXIT_USAGE;
			}
		}
	}
	if (optind != argc - 1 || o->src < 0) {
		if (o->src < 0 && optind == argc - 1)
			ctl_err("failed to list paths: --switch N is required");
		ctl_cmd_usage("paths", stderr);
		return EXIT_USAGE;
	}
	return 0;
}

/* The listing's head: a JSON object for "paths" to join, or the table's header. */
static json_t *paths_head(const struct spritz_topo *t, const struct paths_opts *o)
{
	json_t *j;

	if (!opt_json) {
		printf("# %s, source switch %ld, w_scale %ld%s; * = minimal\n", t->name, o->src,
		       o->w_scale, o->uniform ? " (uniform)" : "");
		printf("#  dst  idx     ev  ev1  ev2   hop1   hop2   L/G   lat(ns)   weight cls"
		       "  switches\n");
		return NULL;
	}
	j = json_object();
	json_object_set_new(j, "topology", json_string(t->name));
	json_object_set_new(j, "switch", json_integer(o->src));
	json_object_set_new(j, "dst", o->dst >= 0 ? json_integer(o->dst) : json_null());
	json_object_set_new(j, "w_scale", json_integer(o->w_scale));
	json_object_set_new(j, "uniform", json_boolean(o->uniform));
	json_object_set_new(j, "ev2_unused", json_integer(SPRITZ_EV2_UNUSED));
	return j;
}

/* Every path from o->src to @d, as rows or appended to @arr. */
static int paths_of(struct spritz_topo *t, const struct paths_opts *o, int d,
		    struct spritz_path *list, int cap, json_t *arr)
{
	int n = spritz_paths_list(t, (int)o->src, d, list, cap), i;
	uint64_t longest;

	if (n < 0) {
		ctl_err("failed to list paths from %ld to %d: %s", o->src, d, strerror(-n));
		return EXIT_FAIL;
	}
	longest = spritz_paths_longest(list, n);
	for (i = 0; i < n; i++) {
		double w = o->uniform ? 1.0
				      : spritz_weight(list[i].latency_ps, longest,
						      (unsigned int)o->w_scale);
		bool minimal = spritz_path_minimal(t, (int)o->src, d, &list[i]);

		if (arr)
			json_array_append_new(arr, path_json(t, (int)o->src, d, &list[i], w,
							     minimal));
		else
			path_row(t, (int)o->src, d, i, &list[i], w, minimal);
	}
	return EXIT_OK;
}

int cmd_paths(int argc, char **argv)
{
	struct paths_opts o = { -1, -1, SPRITZ_DEF_W_SCALE, false };
	struct spritz_path *list = NULL;
	struct ctl_link_opts lo;
	struct spritz_topo *t;
	json_t *j, *arr = NULL;
	int ret, d, d0, d1, cap;

	ctl_link_opts_init(&lo);
	ret = paths_parse(argc, argv, &o, &lo);
	if (ret)
		return ret;
	ret = ctl_load_topo(argv[optind], &lo, &t);
	if (ret)
		return ret;
	if (o.src >= t->nsw || o.dst >= t->nsw) {
		ctl_err("failed to list paths: switch %ld does not exist (0..%d)",
			o.src >= t->nsw ? o.src : o.dst, t->nsw - 1);
		spritz_topo_free(t);
		return EXIT_USAGE;
	}
	cap = spritz_paths_cap(t, (int)o.src);
	list = malloc(sizeof(*list) * (cap ? cap : 1));
	if (!list) {
		ctl_err("failed to list paths: out of memory");
		spritz_topo_free(t);
		return EXIT_FAIL;
	}
	d0 = o.dst >= 0 ? (int)o.dst : 0;
	d1 = o.dst >= 0 ? (int)o.dst + 1 : t->nsw;
	j = paths_head(t, &o);
	if (j)
		arr = json_array();
	ret = EXIT_OK;
	for (d = d0; d < d1 && ret == EXIT_OK; d++)
		ret = paths_of(t, &o, d, list, cap, arr);
	if (j) {
		json_object_set_new(j, "paths", arr);
		if (ret == EXIT_OK)
			ret = ctl_json_print(j);
		else
			json_decref(j);
	}
	free(list);
	spritz_topo_free(t);
	return ret;
}
