/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * spritzctl internals: the command table, global options and helpers that
 * every command shares (JSON output, TOPO loading, link-model options).
 * Output habits follow iproute2/bpftool: human tables by default, -j JSON,
 * -p pretty JSON.  Exit status: 0 ok, 1 runtime failure, 2 usage error.
 */
#ifndef _SPRITZCTL_H
#define _SPRITZCTL_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "paths.h"
#include "topo.h"

#define EXIT_OK 0
#define EXIT_FAIL 1
#define EXIT_USAGE 2

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;          /* one-line synopsis of the arguments */
};

/* Global options (may also be given after the command). */
extern bool opt_json;
extern bool opt_pretty;

/* "spritzctl: " + message + newline on stderr. */
void ctl_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* geteuid() == 0, else "failed to WHAT: permission denied (must be root)". */
bool ctl_need_root(const char *what);

/* Print and free a JSON value according to -p. Returns EXIT_OK or EXIT_FAIL. */
int ctl_json_print(json_t *j);

/* Link-model options shared by commands that compute latencies. */
struct ctl_link_opts {
	long speed_mbps, local_ps, global_ps, packet_bytes; /* -1 = not given */
};

/* getopt_long ids of the shared options (above any short option). */
enum {
	OPT_JSON = 'j',
	OPT_PRETTY = 'p',
	OPT_HELP = 'h',
	OPT_SPEED = 1000,
	OPT_LOCAL_NS,
	OPT_GLOBAL_NS,
	OPT_PACKET,
	OPT_FIRST_CMD = 1100,      /* command-specific long options start here */
};

/* The options every command takes. */
#define CTL_GENERIC_LONGOPTS                         \
	{ "json", no_argument, NULL, OPT_JSON },     \
	{ "pretty", no_argument, NULL, OPT_PRETTY }, \
	{ "help", no_argument, NULL, OPT_HELP }

/* ... and the link model, for the commands that compute latencies. */
#define CTL_COMMON_LONGOPTS                                      \
	CTL_GENERIC_LONGOPTS,                                    \
	{ "speed", required_argument, NULL, OPT_SPEED },         \
	{ "local-ns", required_argument, NULL, OPT_LOCAL_NS },   \
	{ "global-ns", required_argument, NULL, OPT_GLOBAL_NS }, \
	{ "packet", required_argument, NULL, OPT_PACKET }

/* The leading ':' makes getopt return ':' for a missing value, silently. */
#define CTL_COMMON_SHORTOPTS ":jph"

/* The command's argv as its getopt_long() sees it (for error messages). */
extern char **ctl_argv;

void ctl_link_opts_init(struct ctl_link_opts *lo);

/*
 * Handle a shared option.  Returns 1 if handled, 0 if not one of them,
 * -1 on a bad value, an unknown option or a missing value (message
 * printed).  -h prints the command's help.
 */
int ctl_common_opt(int opt, const char *arg, struct ctl_link_opts *lo, const char *cmd);

/* Print "usage: spritzctl CMD ARGS" for a command (stream: stdout or stderr). */
void ctl_cmd_usage(const char *cmd, FILE *f);

/*
 * Parse TOPO, build it and apply link options.  Returns EXIT_OK, or prints
 * the error and returns EXIT_USAGE for a bad TOPO string, EXIT_FAIL when a
 * fabric file cannot be loaded.
 */
int ctl_load_topo(const char *spec, const struct ctl_link_opts *lo, struct spritz_topo **out);

/* Parse a non-negative integer argument; -1 on error. */
long ctl_parse_long(const char *s, long max);

/* Picoseconds as a JSON real in nanoseconds. */
json_t *ctl_json_ns(uint64_t ps);

int cmd_topo(int argc, char **argv);
int cmd_paths(int argc, char **argv);
int cmd_memory(int argc, char **argv);
int cmd_up(int argc, char **argv);
int cmd_down(int argc, char **argv);
int cmd_set(int argc, char **argv);
int cmd_get(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_reload(int argc, char **argv);

/* show config (cmd_knobs.c), for cmd_show. */
int ctl_show_config(void);

#endif /* _SPRITZCTL_H */
