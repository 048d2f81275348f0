// SPDX-License-Identifier: GPL-2.0-only
/*
 * spritzctl: the operator's command for Spritz (Documentation/spritzctl.8).
 *
 *	spritzctl [-j] [-p] [-n NETNS] COMMAND [ARGS...]
 *
 * main() parses the global options, then dispatches on the command table
 * below; adding a command is one line there plus its cmd_*.c file.  This
 * file also holds the helpers every command shares (spritzctl.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spritz_err.h"
#include "spritz_host.h"
#include "spritzctl.h"

bool opt_json;
bool opt_pretty;

static const struct cmd cmds[] = {
	{ "topo", cmd_topo, "TOPO [-j] [--speed GBPS] [--local-ns NS] [--global-ns NS]" },
	{ "paths", cmd_paths, "TOPO --switch N [--dst M] [--w-scale W] [--uniform] [-j]" },
	{ "memory", cmd_memory, "TOPO [--switch N | --all-switches] [-j]\n"
				"       spritzctl memory --sweep dragonfly|slimfly|all "
				"[--max-endpoints N] [--plot FILE.png] [-j]" },
	{ "up", cmd_up, "--dev IFACE --topo TOPO --switch N (--addr-plan PREFIX/L | --hosts FILE)\n"
			"       [--algorithm A] [--per-packet] [--tcp-dupthresh N] [LINK-MODEL]" },
	{ "down", cmd_down, "[--dev IFACE]" },
	{ "reload", cmd_reload, "[--dev IFACE] --topo TOPO [--switch N] "
				"[--addr-plan PREFIX/L | --hosts FILE]\n"
				"       [--algorithm A] [LINK-MODEL]" },
	{ "set", cmd_set, "KNOB VALUE" },
	{ "get", cmd_get, "KNOB [-j]" },
	{ "show", cmd_show, "[config | paths [--switch N] [--dst M] | flows | peers | stats] [-j]" },
};

#define NCMDS (ARRAY_SIZE(cmds))

/* "spritzctl: " + message + newline on stderr. */
void ctl_err(const char *fmt, ...)
{
	va_list ap;

	fputs("spritzctl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: spritzctl [-j|--json] [-p|--pretty] [-n|--netns NAME] COMMAND [ARGS]\n"
		   "       spritzctl -h|--help | -V|--version\n"
		   "       spritzctl COMMAND --help\n\n"
		   "TOPO: dragonfly:p=P,a=A,h=H | slimfly:q=Q,p=P | file:PATH\n\ncommands:\n");
	for (i = 0; i < NCMDS; i++)
		fprintf(f, "  spritzctl %s %s\n", cmds[i].name, cmds[i].help);
	fprintf(f, "\nlink model (topo, paths): --speed GBPS --local-ns NS --global-ns NS "
		   "--packet BYTES\nSee spritzctl(8).\n");
}

/* Print "usage: spritzctl CMD ARGS" for a command. */
bool ctl_need_root(const char *what)
{
	if (geteuid() == 0)
		return true;
	ctl_err("failed to %s: permission denied (must be root)", what);
	return false;
}

void ctl_cmd_usage(const char *cmd, FILE *f)
{
	size_t i;

	for (i = 0; i < NCMDS; i++)
		if (!strcmp(cmds[i].name, cmd))
			fprintf(f, "usage: spritzctl %s %s\n", cmd, cmds[i].help);
	if (f == stdout)
		fprintf(f, "exit status: 0 ok, 1 failure, 2 usage error; see spritzctl(8)\n");
}

/* Print and free a JSON value according to -p. */
int ctl_json_print(json_t *j)
{
	size_t flags = JSON_REAL_PRECISION(12) | JSON_PRESERVE_ORDER;
	int ret;

	if (!j) {
		ctl_err("failed to build JSON output: out of memory");
		return EXIT_FAIL;
	}
	flags |= opt_pretty ? JSON_INDENT(2) : JSON_COMPACT;
	ret = json_dumpf(j, stdout, flags);
	json_decref(j);
	if (ret) {
		ctl_err("failed to write JSON output: %s", strerror(errno));
		return EXIT_FAIL;
	}
	putchar('\n');
	return EXIT_OK;
}

/* Picoseconds as a JSON real in nanoseconds. */
json_t *ctl_json_ns(uint64_t ps)
{
	return json_real(ps / 1000.0);
}

/* Parse a non-negative integer argument, digits only (no blank, no sign); -1 on error. */
long ctl_parse_long(const char *s, long max)
{
	return spritz_parse_dec(s, max);
}

void ctl_link_opts_init(struct ctl_link_opts *lo)
{
	lo->speed_mbps = lo->local_ps = lo->global_ps = lo->packet_bytes = -1;
}

char **ctl_argv;

/* The option getopt_long() refused: "-x" or the whole "--word". */
static const char *bad_option(char *buf, size_t len)
{
	const char *a = optind > 0 ? ctl_argv[optind - 1] : NULL;

	if (a && !strncmp(a, "--", 2))
		return a;
	snprintf(buf, len, "-%c", optopt > 0 && optopt < 128 ? optopt : '?');
	return buf;
}

/* Handle a shared option or getopt's error: 1 handled, 0 not shared, -1 bad. */
int ctl_common_opt(int opt, const char *arg, struct ctl_link_opts *lo, const char *cmd)
{
	char buf[8];
	long v;

	switch (opt) {
	case '?':
		ctl_err("failed to parse %s arguments: unknown option \"%s\" (try spritzctl %s "
			"--help)",
			cmd, bad_option(buf, sizeof(buf)), cmd);
		return -1;
	case ':':
		ctl_err("failed to parse %s arguments: option \"%s\" needs a value", cmd,
			bad_option(buf, sizeof(buf)));
		return -1;
	case OPT_JSON:
		opt_json = true;
		return 1;
	case OPT_PRETTY:
		opt_json = opt_pretty = true;
		return 1;
	case OPT_HELP:
		ctl_cmd_usage(cmd, stdout);
		exit(EXIT_OK);
	case OPT_SPEED:
		v = spritz_parse_milli(arg, SPRITZ_MAX_SPEED_MBPS);
		if (v <= 0) {
			ctl_err("failed to parse --speed \"%s\": expected Gb/s, e.g. 400, at most %u",
				arg, SPRITZ_MAX_SPEED_MBPS / 1000);
			return -1;
		}
		lo->speed_mbps = v;
		return 1;
	case OPT_LOCAL_NS:
	case OPT_GLOBAL_NS:
		v = spritz_parse_milli(arg, SPRITZ_MAX_CABLE_PS);
		if (v <= 0) {
			ctl_err("failed to parse --%s \"%s\": expected positive ns, e.g. 25, at most %u",
				opt == OPT_LOCAL_NS ? "local-ns" : "global-ns", arg,
				SPRITZ_MAX_CABLE_PS / 1000);
			return -1;
		}
		*(opt == OPT_LOCAL_NS ? &lo->local_ps : &lo->global_ps) = v;
		return 1;
	case OPT_PACKET:
		v = ctl_parse_long(arg, SPRITZ_MAX_PACKET_BYTES);
		if (v <= 0) {
			ctl_err("failed to parse --packet \"%s\": expected bytes, e.g. 4160, at most %u",
				arg, SPRITZ_MAX_PACKET_BYTES);
			return -1;
		}
		lo->packet_bytes = v;
		return 1;
	}
	return 0;
}

/* Parse TOPO, build it and apply link options. */
int ctl_load_topo(const char *spec, const struct ctl_link_opts *lo, struct spritz_topo **out)
{
	struct spritz_topo *t;
	char err[512] = "";
	int ret;

	ret = spritz_topo_parse(spec, &t, err, sizeof(err));
	if (ret) {
		if (!strncmp(spec, "file:", 5) && spec[5]) {
			ctl_err("failed to load fabric: %s", err[0] ? err : strerror(-ret));
			return EXIT_FAIL;
		}
		ctl_err("failed to parse topology \"%s\": %s", spec, err[0] ? err : strerror(-ret));
		return EXIT_USAGE;
	}
	if (lo) {
		struct spritz_link_model m = t->model;

		if (lo->speed_mbps > 0)
			m.speed_mbps = (uint32_t)lo->speed_mbps;
		if (lo->local_ps > 0)
			m.cable_ps[SPRITZ_LINK_LOCAL] = (uint32_t)lo->local_ps;
		if (lo->global_ps > 0)
			m.cable_ps[SPRITZ_LINK_GLOBAL] = (uint32_t)lo->global_ps;
		if (lo->packet_bytes > 0)
			m.packet_bytes = (uint32_t)lo->packet_bytes;
		spritz_topo_set_model(t, &m);
	}
	*out = t;
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "netns", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	const char *netns = NULL;
	size_t i;
	int opt;

	opterr = 0; /* getopt errors are reported as ours */
	ctl_argv = argv;
	while ((opt = getopt_long(argc, argv, "+:jphVn:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'n':
			netns = optarg;
			break;
		case 'j':
			opt_json = true;
			break;
		case 'p':
			opt_json = opt_pretty = true;
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case 'V':
			printf("spritzctl %s (ABI %d)\n", SPRITZ_VERSION, SPRITZ_ABI_VERSION);
			return EXIT_OK;
		case ':':
			ctl_common_opt(opt, NULL, NULL, "spritzctl");
			return EXIT_USAGE;
		default: {
			char buf[8];

			ctl_err("failed to parse arguments: unknown option \"%s\" (try spritzctl "
				"--help)",
				bad_option(buf, sizeof(buf)));
			return EXIT_USAGE;
		}
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	/* as ip -n: the whole command runs in /run/netns/NAME */
	if (netns) {
		int err = spritz_netns_enter(netns);

		if (err) {
			ctl_err("failed to enter network namespace \"%s\": %s", netns,
				strerror(-err));
			return EXIT_FAIL;
		}
	}
	for (i = 0; i < NCMDS; i++) {
		if (strcmp(argv[optind], cmds[i].name))
			continue;
		argc -= optind;
		argv += optind;
		ctl_argv = argv;
		optind = 0; /* full getopt reset: commands permute options (GNU) */
		return cmds[i].fn(argc, argv);
	}
	if (!strcmp(argv[optind], "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	ctl_err("failed to parse arguments: unknown command \"%s\" (try spritzctl --help)",
		argv[optind]);
	return EXIT_USAGE;
}
