// SPDX-License-Identifier: GPL-2.0-only
/*
 * spritzctl up / down / reload: parse the arguments, call libspritz
 * (spritz_host_up(), _down(), _reload(): user/lib/spritz_host.h, where the
 * steps and their undo are), print the result
 * (Documentation/spritzctl.8, Documentation/deployment.rst).
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

#include "spritz_host.h"
#include "spritz_knobs.h"
#include "spritzctl.h"

static int quiet_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
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
	OPT_TCP_DUPTHRESH,
};

struct dp_args {
	const char *dev, *topo, *plan, *hosts, *algo;
	long sw; /* -1: not given */
	bool per_packet; /* up: TSO and GSO off */
	long dupthresh;  /* up: --tcp-dupthresh, 0 if not given */
	struct spritz_topo *t;
	struct spritz_dir_list dir; /* from plan or hosts, if given */
};

static void dp_args_free(struct dp_args *a)
{
	spritz_topo_free(a->t);
	spritz_dir_free(&a->dir);
}

/*
 * The directory requested by --addr-plan or --hosts (exactly one non-NULL),
 * for a fabric of @nsw switches.  Prints the error and returns EXIT_USAGE
 * (bad plan or hosts line) or EXIT_FAIL (unreadable file).
 */
static int dir_source(const char *plan, const char *hosts, uint32_t nsw, struct spritz_dir_list *out)
{
	char err[512] = "";
	struct spritz_plan p;
	int ret;

	if (plan) {
		if (spritz_plan_parse(plan, &p, err, sizeof(err))) {
			ctl_err("failed to parse --addr-plan \"%s\": %s", plan, err);
			return EXIT_USAGE;
		}
		if (nsw > SPRITZ_DIR_MAX) {
			ctl_err("failed to apply --addr-plan: %u switches do not fit in 16 bits",
				nsw);
			return EXIT_USAGE;
		}
		if (spritz_plan_entries(&p, nsw, out)) {
			ctl_err("failed to apply --addr-plan: out of memory");
			return EXIT_FAIL;
		}
		return EXIT_OK;
	}
	ret = spritz_hosts_load(hosts, nsw, out, err, sizeof(err));
	if (ret) {
		ctl_err("failed to %s hosts file %s", ret == -EINVAL ? "parse" : "read", err);
		return ret == -EINVAL ? EXIT_USAGE : EXIT_FAIL;
	}
	return EXIT_OK;
}


/* One option of up or reload (not a common one) into @a: EXIT_OK or EXIT_USAGE. */
static int dp_opt(const char *cmd, bool up, int opt, struct dp_args *a)
{
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
			ctl_err("failed to parse --switch \"%s\": expected a switch id", optarg);
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
			ctl_err("failed to parse %s arguments: --per-packet is an option of up", cmd);
			return EXIT_USAGE;
		}
		a->per_packet = true;
		break;
	case OPT_TCP_DUPTHRESH:
		if (!up) {
			ctl_err("failed to parse %s arguments: --tcp-dupthresh is an option of up",
				cmd);
			return EXIT_USAGE;
		}
		a->dupthresh = ctl_parse_long(optarg, SPRITZ_TCP_DUPTHRESH_MAX);
		if (a->dupthresh < SPRITZ_TCP_DUPTHRESH_MIN) {
			ctl_err("failed to parse --tcp-dupthresh \"%s\": expected a number of "
				"packets, %d..%d",
				optarg, SPRITZ_TCP_DUPTHRESH_MIN, SPRITZ_TCP_DUPTHRESH_MAX);
			return EXIT_USAGE;
		}
		break;
	default:
		ctl_cmd_usage(cmd, stderr);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* The options' combination after parsing: EXIT_OK or EXIT_USAGE, printed. */
static int dp_args_check(const char *cmd, bool up, int argc, char **argv,
			 const struct dp_args *a)
{
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
	if (a->algo && spritz_algo_index(a->algo) < 0) {
		ctl_err("failed to parse --algorithm \"%s\": expected scout, spray, ops, "
			"ecmp or flicr",
			a->algo);
		return EXIT_USAGE;
	}
	return EXIT_OK;
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
		{ "tcp-dupthresh", required_argument, NULL, OPT_TCP_DUPTHRESH },
		{ NULL, 0, NULL, 0 },
	};
	bool up = !strcmp(cmd, "up");
	struct ctl_link_opts lo;
	int opt, ret;

	memset(a, 0, sizeof(*a));
	a->sw = -1;
	ctl_link_opts_init(&lo);
	while ((opt = getopt_long(argc, argv, CTL_COMMON_SHORTOPTS, longopts, NULL)) != -1) {
		int r = ctl_common_opt(opt, optarg, &lo, cmd);

		if (r < 0)
			return EXIT_USAGE;
		if (!r && dp_opt(cmd, up, opt, a))
			return EXIT_USAGE;
	}
	ret = dp_args_check(cmd, up, argc, argv, a);
	if (ret)
		return ret;
	ret = ctl_load_topo(a->topo, &lo, &a->t);
	if (ret)
		return ret;
	/* a switch out of range: spritz_host_up() and _reload() refuse it (-EDOM) */
	if (a->plan || a->hosts)
		return dir_source(a->plan, a->hosts, (uint32_t)a->t->nsw, &a->dir);
	return EXIT_OK;
}


/* A libspritz failure: its message, and the exit status it calls for. */
static int host_fail(int ret, const char *err)
{
	if (err[0])
		ctl_err("%s", err);
	else
		ctl_err("failed: %s", strerror(-ret));
	return ret == -EDOM ? EXIT_USAGE : EXIT_FAIL;
}

/* The ifindex of @dev (0 with the message printed). */
static uint32_t dev_index(const char *dev)
{
	uint32_t ifindex = if_nametoindex(dev);

	if (!ifindex)
		ctl_err("failed to find device %s: %s", dev, strerror(errno));
	return ifindex;
}

int cmd_up(int argc, char **argv)
{
	struct spritz_up_cfg c;
	char err[512] = "";
	struct dp_args a;
	int ret;

	ret = dp_args_parse("up", argc, argv, &a);
	if (ret)
		goto free_args;
	ret = EXIT_FAIL;
	if (!ctl_need_root("bring up spritz"))
		goto free_args;
	c = (struct spritz_up_cfg){ .dev = a.dev, .ifindex = dev_index(a.dev), .t = a.t,
				    .topo = a.topo, .sw = (uint32_t)a.sw, .dir = &a.dir,
				    .algo = a.algo, .per_packet = a.per_packet,
				    .tcp_dupthresh = (uint32_t)a.dupthresh };
	if (!c.ifindex)
		goto free_args;
	libbpf_set_print(quiet_print);
	ret = spritz_host_up(&c, err, sizeof(err));
	if (ret == 1)
		printf("spritz is already up on %s\n", a.dev);
	ret = ret < 0 ? host_fail(ret, err) : EXIT_OK;
free_args:
	dp_args_free(&a);
	return ret;
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
	char err[512] = "";
	int opt, ret;

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
	if (dev && !(ifindex = dev_index(dev)))
		return EXIT_FAIL;
	libbpf_set_print(quiet_print);
	ret = spritz_host_down(ifindex, dev, err, sizeof(err));
	return ret ? host_fail(ret, err) : EXIT_OK;
}

int cmd_reload(int argc, char **argv)
{
	struct spritz_reload_cfg c;
	char err[512] = "";
	struct dp_args a;
	int ret;

	ret = dp_args_parse("reload", argc, argv, &a);
	if (ret)
		goto free_args;
	ret = EXIT_FAIL;
	if (!ctl_need_root("reload spritz"))
		goto free_args;
	c = (struct spritz_reload_cfg){ .dev = a.dev, .t = a.t, .topo = a.topo, .sw = a.sw,
					.dir = a.plan || a.hosts ? &a.dir : NULL,
					.algo = a.algo };
	if (a.dev && !(c.ifindex = dev_index(a.dev)))
		goto free_args;
	libbpf_set_print(quiet_print);
	ret = spritz_host_reload(&c, err, sizeof(err));
	ret = ret ? host_fail(ret, err) : EXIT_OK;
free_args:
	dp_args_free(&a);
	return ret;
}
