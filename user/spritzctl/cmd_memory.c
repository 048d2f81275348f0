// SPDX-License-Identifier: GPL-2.0-only
/*
 * spritzctl memory: endpoint-table memory (paper §III-C and its memory
 * figure).  For one fabric: max/avg/min paths per destination switch, EV
 * entries, bytes and MiB per endpoint, from the real path enumeration of
 * the source switches used (listed in the output).  With --sweep: the same
 * for a family of fabrics up to --max-endpoints, the table behind the
 * paper's figure; --plot draws it with gnuplot.
 *
 * Sweep points (Documentation/paths.rst): Dragonfly balanced a = 2h = 2p
 * for h = 1, 2, ... (h = 10 is the paper's a = 20, h = 10, p = 10 point);
 * Slim Fly every allowed prime power q with p = ceil(k/2) (the paper's
 * q = 9, p = 7 and q = 29, p = 22).  A point is kept if its endpoint count
 * is at most --max-endpoints plus 1 %, because the paper calls its
 * 40 200-endpoint Dragonfly "40k", and it fits the model's limits (255
 * network ports, SPRITZ_TOPO_MAX_SWITCHES switches): the largest Dragonfly
 * point is h = 25 (62 550 switches), the largest Slim Fly q = 169.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "spritzctl.h"

enum { OPT_SWITCH = OPT_FIRST_CMD, OPT_ALL, OPT_SWEEP, OPT_MAX_EP, OPT_PLOT };

#define MAX_POINTS 128

struct point {
	char spec[64];
	int family;                /* 0 dragonfly, 1 slimfly */
	long endpoints;
	int switches;
	struct spritz_mem_stats st;
};

static json_t *stats_json(const struct spritz_mem_stats *st)
{
	return json_pack("{s:i,s:i,s:i,s:f,s:i,s:I,s:i,s:I,s:f}", "sources", st->nsources,
			 "destinations", st->ndst, "max_paths", st->max_paths, "avg_paths",
			 st->avg_paths, "min_paths", st->min_paths, "entries",
			 (json_int_t)st->entries, "entry_bytes", SPRITZ_EV_ENTRY_BYTES, "bytes",
			 (json_int_t)st->bytes, "mib", st->mib);
}

/* Memory of one fabric. */
static int memory_one(const char *spec, long src, bool all)
{
	struct spritz_mem_stats st;
	struct spritz_topo *t;
	int *srcs, n, ret, i;

	ret = ctl_load_topo(spec, NULL, &t);
	if (ret)
		return ret;
	if (src >= t->nsw) {
		ctl_err("failed to compute memory: switch %ld does not exist (0..%d)", src,
			t->nsw - 1);
		spritz_topo_free(t);
		return EXIT_USAGE;
	}
	srcs = malloc(sizeof(int) * t->nsw);
	if (!srcs) {
		spritz_topo_free(t);
		return EXIT_FAIL;
	}
	if (src >= 0) {
		srcs[0] = (int)src;
		n = 1;
	} else if (all) {
		for (n = 0; n < t->nsw; n++)
			srcs[n] = n;
	} else {
		n = spritz_memory_default_sources(t, srcs, t->nsw);
	}
	ret = spritz_memory(t, srcs, n, &st);
	if (ret) {
		ctl_err("failed to compute memory: %s", strerror(-ret));
		free(srcs);
		spritz_topo_free(t);
		return EXIT_FAIL;
	}
	if (opt_json) {
		json_t *j = stats_json(&st), *sl = json_array();

		for (i = 0; i < n; i++)
			json_array_append_new(sl, json_integer(srcs[i]));
		json_object_set_new(j, "topology", json_string(t->name));
		json_object_set_new(j, "endpoints", json_integer(t->nhosts));
		json_object_set_new(j, "switches", json_integer(t->nsw));
		json_object_set_new(j, "source_switches", sl);
		ret = ctl_json_print(j);
	} else {
		printf("topology      %s\n", t->name);
		printf("endpoints     %ld on %d switches\n", t->nhosts, t->nsw);
		printf("sources       %d switch%s", n, n == 1 ? "" : "es");
		for (i = 0; i < n && i < 8; i++)
			printf("%s%d", i ? "," : " (", srcs[i]);
		printf("%s\n", n > 8 ? ",...)" : ")");
		printf("destinations  %d switches per source\n", st.ndst);
		printf("paths/dst     max %d, avg %.2f, min %d\n", st.max_paths, st.avg_paths,
		       st.min_paths);
		printf("per endpoint  %llu entries x %d B = %llu B = %.2f MiB\n",
		       (unsigned long long)st.entries, SPRITZ_EV_ENTRY_BYTES,
		       (unsigned long long)st.bytes, st.mib);
		ret = EXIT_OK;
	}
	free(srcs);
	spritz_topo_free(t);
	return ret;
}

/* Parameter sets of one family up to max endpoints (+1 %). */
static int sweep_points(int family, long max_ep, struct point *pts, int n)
{
	long lim = max_ep + max_ep / 100;
	int h, q;

	if (family == 0) {
		for (h = 1; n < MAX_POINTS; h++) {
			long a = 2 * h, nsw = a * (a * h + 1), ep = h * nsw;

			if (ep > lim || a - 1 + h > SPRITZ_MAX_NET_PORTS ||
			    nsw > SPRITZ_TOPO_MAX_SWITCHES)
				break;
			snprintf(pts[n].spec, sizeof(pts[n].spec), "dragonfly:p=%d,a=%ld,h=%d", h,
				 a, h);
			pts[n].family = 0;
			pts[n++].endpoints = ep;
		}
	} else {
		for (q = 3; q < 256 && n < MAX_POINTS; q++) {
			int k = spritz_slimfly_degree(q), p;
			long ep;

			if (k < 0)
				continue;
			p = (k + 1) / 2;
			ep = 2L * q * q * p;
			if (ep > lim || 2L * q * q > SPRITZ_TOPO_MAX_SWITCHES)
				break;
			snprintf(pts[n].spec, sizeof(pts[n].spec), "slimfly:q=%d,p=%d", q, p);
			pts[n].family = 1;
			pts[n++].endpoints = ep;
		}
	}
	return n;
}

/* Draw MiB per endpoint over endpoints with gnuplot. */
static int plot(const char *file, const struct point *pts, int n, long max_ep)
{
	FILE *g = popen("gnuplot", "w");
	bool has[2];
	int f, i, ret, nf;

	if (!g) {
		ctl_err("failed to run gnuplot: %s", strerror(errno));
		return EXIT_FAIL;
	}
	fprintf(g, "set terminal pngcairo size 900,560\nset output '%s'\n", file);
	fprintf(g, "set title 'Endpoint table per endpoint (3 B per EV entry); labels: max paths "
		   "per destination'\n"
		   "set xlabel 'endpoints'\nset ylabel 'MiB per endpoint'\n"
		   "set key top left\nset grid\nset offsets 0, 4000, 1, 0\n");
	for (f = 0, nf = 0; f < 2; f++) {
		for (i = 0; i < n && pts[i].family != f; i++)
			;
		has[f] = i < n;
		if (!has[f])
			continue;
		fprintf(g, "%s '-' using 1:2 with linespoints lw 2 pt %d title '%s', "
			"'-' using 1:2:3 with labels offset 0,1 notitle", nf++ ? "," : "plot",
			f ? 5 : 7, f ? "Slim Fly" : "Dragonfly");
	}
	fprintf(g, "\n");
	for (f = 0; f < 2; f++) {
		int rep;

		for (rep = 0; has[f] && rep < 2; rep++) {
			for (i = 0; i < n; i++) {
				if (pts[i].family != f)
					continue;
				if (rep && pts[i].endpoints * 10 < max_ep)
					continue; /* small fabrics: labels would overlap */
				if (rep)
					fprintf(g, "%ld %f \"%d\"\n", pts[i].endpoints,
						pts[i].st.mib, pts[i].st.max_paths);
				else
					fprintf(g, "%ld %f\n", pts[i].endpoints, pts[i].st.mib);
			}
			fprintf(g, "e\n");
		}
	}
	ret = pclose(g);
	if (ret) {
		ctl_err("failed to plot %s: gnuplot exited with status %d", file,
			WIFEXITED(ret) ? WEXITSTATUS(ret) : ret);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/* The table behind the paper's memory figure. */
static int memory_sweep(const char *fam, long max_ep, const char *plotfile)
{
	struct point *pts = calloc(MAX_POINTS * 2, sizeof(*pts));
	int n = 0, i, ret = EXIT_OK;

	if (!pts)
		return EXIT_FAIL;
	if (!strcmp(fam, "dragonfly") || !strcmp(fam, "all"))
		n = sweep_points(0, max_ep, pts, n);
	if (!strcmp(fam, "slimfly") || !strcmp(fam, "all"))
		n = sweep_points(1, max_ep, pts, n);
	if (!opt_json)
		printf("# %-26s %9s %8s %9s %9s %9s %11s %8s %7s\n", "topology", "endpoints",
		       "switches", "max_paths", "avg_paths", "min_paths", "bytes", "MiB",
		       "sources");
	for (i = 0; i < n; i++) {
		struct spritz_topo *t;
		int srcs[4], ns;

		ret = ctl_load_topo(pts[i].spec, NULL, &t);
		if (ret)
			break;
		ns = spritz_memory_default_sources(t, srcs, 4);
		if (spritz_memory(t, srcs, ns, &pts[i].st)) {
			ctl_err("failed to compute memory of %s", pts[i].spec);
			spritz_topo_free(t);
			ret = EXIT_FAIL;
			break;
		}
		pts[i].switches = t->nsw;
		pts[i].endpoints = t->nhosts;
		spritz_topo_free(t);
		if (!opt_json)
			printf("%-28s %9ld %8d %9d %9.2f %9d %11llu %8.3f %7d\n", pts[i].spec,
			       pts[i].endpoints, pts[i].switches, pts[i].st.max_paths,
			       pts[i].st.avg_paths, pts[i].st.min_paths,
			       (unsigned long long)pts[i].st.bytes, pts[i].st.mib,
			       pts[i].st.nsources);
	}
	if (ret == EXIT_OK && opt_json) {
		json_t *j = json_object(), *arr = json_array();

		json_object_set_new(j, "family", json_string(fam));
		json_object_set_new(j, "max_endpoints", json_integer(max_ep));
		for (i = 0; i < n; i++) {
			json_t *o = stats_json(&pts[i].st);

			json_object_set_new(o, "topology", json_string(pts[i].spec));
			json_object_set_new(o, "endpoints", json_integer(pts[i].endpoints));
			json_object_set_new(o, "switches", json_integer(pts[i].switches));
			json_array_append_new(arr, o);
		}
		json_object_set_new(j, "points", arr);
		ret = ctl_json_print(j);
	}
	if (ret == EXIT_OK && plotfile)
		ret = plot(plotfile, pts, n, max_ep);
	free(pts);
	return ret;
}

int cmd_memory(int argc, char **argv)
{
	static const struct option longopts[] = {
		CTL_COMMON_LONGOPTS,
		{ "switch", required_argument, NULL, OPT_SWITCH },
		{ "all-switches", no_argument, NULL, OPT_ALL },
		{ "sweep", required_argument, NULL, OPT_SWEEP },
		{ "max-endpoints", required_argument, NULL, OPT_MAX_EP },
		{ "plot", required_argument, NULL, OPT_PLOT },
		{ NULL, 0, NULL, 0 },
	};
	struct ctl_link_opts lo;
	const char *sweep = NULL, *plotfile = NULL;
	long src = -1, max_ep = 40000;
	bool all = false;
	int opt, ret;

	ctl_link_opts_init(&lo);
	while ((opt = getopt_long(argc, argv, CTL_COMMON_SHORTOPTS, longopts, NULL)) != -1) {
		switch (opt) {
		case OPT_SWITCH:
			src = ctl_parse_long(optarg, 1 << 30);
			if (src < 0) {
				ctl_err("failed to parse --switch \"%s\": expected a switch id",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_ALL:
			all = true;
			break;
		case OPT_SWEEP:
			if (strcmp(optarg, "dragonfly") && strcmp(optarg, "slimfly") &&
			    strcmp(optarg, "all")) {
				ctl_err("failed to parse --sweep \"%s\": expected dragonfly, "
					"slimfly or all", optarg);
				return EXIT_USAGE;
			}
			sweep = optarg;
			break;
		case OPT_MAX_EP:
			max_ep = ctl_parse_long(optarg, 10000000);
			if (max_ep < 1) {
				ctl_err("failed to parse --max-endpoints \"%s\"", optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_PLOT:
			plotfile = optarg;
			break;
		default:
			ret = ctl_common_opt(opt, optarg, &lo, "memory");
			if (ret <= 0) {
				if (!ret)
					ctl_cmd_usage("memory", stderr);
				return EXIT_USAGE;
			}
		}
	}
	if (sweep) {
		if (optind != argc) {
			ctl_err("failed to parse arguments: --sweep takes no TOPO");
			return EXIT_USAGE;
		}
		return memory_sweep(sweep, max_ep, plotfile);
	}
	if (optind != argc - 1 || plotfile || (all && src >= 0)) {
		ctl_cmd_usage("memory", stderr);
		return EXIT_USAGE;
	}
	return memory_one(argv[optind], src, all);
}
