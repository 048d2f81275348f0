// SPDX-License-Identifier: GPL-2.0-only
/*
 * spritzctl set KNOB VALUE | get KNOB | show config: the runtime knobs of
 * spritz.ko (/sys/kernel/spritz, Documentation/ABI/testing/sysfs-kernel-spritz).
 *
 * Names, defaults and ranges come from SPRITZ_KNOBS() (include/spritz/knobs.h)
 * through libspritz's knob table and I/O (spritz_knobs.h),
 * the same table the module validates against, so a value refused here would
 * be refused by the kernel and the error can name the valid range before
 * anything is written.  "algorithm" takes a name of SPRITZ_ALGO_NAMES; the
 * read-only files (spritz_ro_files: tables, paths, floor_enables, staging,
 * staging_bytes, version) can be read with get.
 *
 * Options are scanned by hand rather than with getopt so that a negative
 * VALUE ("set w_scale -1") is reported as out of range, not as an option.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <spritz/abi.h>

#include "spritz_knobs.h"

#include "spritzctl.h"

/* "algorithm, weighted, ..." (every writable knob) into buf. */
static const char *knob_list(char *buf, size_t len)
{
	size_t i, off;

	off = (size_t)snprintf(buf, len, "algorithm");
	for (i = 0; i < spritz_nknobs && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, ", %s", spritz_knobs[i].name);
	return buf;
}

/* @names, comma-separated, into @buf. */
static const char *name_list(const char *const *names, size_t n, char *buf, size_t len)
{
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? ", " : "", names[i]);
	return buf;
}

static const char *ro_list(char *buf, size_t len)
{
	return name_list(spritz_ro_files, spritz_nro_files, buf, len);
}

static const char *algo_list(char *buf, size_t len)
{
	return name_list(spritz_algo_names, spritz_nalgos, buf, len);
}

/* Why a sysfs access failed, in operator terms. */
static const char *access_reason(int err)
{
	switch (-err) {
	case ENOENT:
		return "spritz module not loaded (no " SPRITZ_SYSFS_DIR "; "
		       "run spritzctl up or modprobe spritz)";
	case EACCES:
	case EPERM:
		return "permission denied (must be root)";
	default:
		return strerror(-err);
	}
}

/* Module loaded?  Prints the error for VERB OBJECT if not. */
static bool module_present(const char *verb, const char *obj)
{
	if (access(SPRITZ_SYSFS_DIR, F_OK) == 0)
		return true;
	ctl_err("failed to %s %s: %s", verb, obj, access_reason(-ENOENT));
	return false;
}

/* -j/-p/-h and positional arguments; returns -1 (usage) or the count. */
static int scan_args(const char *cmd, int argc, char **argv, char **pos, int maxpos)
{
	int i, n = 0;
	bool dashdash = false;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!dashdash && (!strcmp(a, "-j") || !strcmp(a, "--json"))) {
			opt_json = true;
		} else if (!dashdash && (!strcmp(a, "-p") || !strcmp(a, "--pretty"))) {
			opt_json = opt_pretty = true;
		} else if (!dashdash && (!strcmp(a, "-h") || !strcmp(a, "--help"))) {
			ctl_cmd_usage(cmd, stdout);
			exit(EXIT_OK);
		} else if (!dashdash && !strcmp(a, "--")) {
			dashdash = true;
		} else if (!dashdash && a[0] == '-' && a[1] == '-') {
			ctl_err("failed to parse %s arguments: unknown option \"%s\"", cmd, a);
			ctl_cmd_usage(cmd, stderr);
			return -1;
		} else {
			if (n == maxpos) {
				ctl_err("failed to parse %s arguments: unexpected \"%s\"", cmd, a);
				ctl_cmd_usage(cmd, stderr);
				return -1;
			}
			pos[n++] = argv[i];
		}
	}
	return n;
}

int cmd_set(int argc, char **argv)
{
	char *pos[2], list[512], val[32];
	const struct spritz_knob *k;
	int n, err;

	n = scan_args("set", argc, argv, pos, 2);
	if (n < 0)
		return EXIT_USAGE;
	if (n != 2) {
		ctl_err("failed to parse set arguments: expected KNOB VALUE");
		ctl_cmd_usage("set", stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(pos[0], "algorithm")) {
		size_t i;

		for (i = 0; i < spritz_nalgos; i++)
			if (!strcmp(pos[1], spritz_algo_names[i]))
				break;
		if (i == spritz_nalgos) {
			ctl_err("failed to set algorithm: invalid value \"%s\": valid values are %s",
				pos[1], algo_list(list, sizeof(list)));
			return EXIT_USAGE;
		}
		snprintf(val, sizeof(val), "%s", spritz_algo_names[i]);
	} else {
		long long v;

		k = spritz_knob_find(pos[0]);
		if (!k) {
			ctl_err("failed to set %s: %s", pos[0],
				spritz_knob_is_ro(pos[0]) ? "read-only value" : "unknown knob");
			fprintf(stderr, "knobs: %s\n", knob_list(list, sizeof(list)));
			return EXIT_USAGE;
		}
		v = spritz_knob_parse(pos[1]);
		if (v < (long long)k->min || v > (long long)k->max) {
			ctl_err("failed to set %s: invalid value \"%s\": valid range is %lu..%lu",
				k->name, pos[1], k->min, k->max);
			return EXIT_USAGE;
		}
		snprintf(val, sizeof(val), "%lld", v);
	}
	if (!module_present("set", pos[0]))
		return EXIT_FAIL;
	if (geteuid() != 0) {
		ctl_err("failed to set %s: %s", pos[0], access_reason(-EPERM));
		return EXIT_FAIL;
	}
	err = spritz_sysfs_write(pos[0], val);
	if (err) {
		ctl_err("failed to set %s: %s", pos[0], access_reason(err));
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/* A sysfs value as JSON: integer when it is one, else a string. */
static json_t *json_value(const char *s)
{
	long long v = spritz_knob_parse(s);

	return v >= 0 ? json_integer(v) : json_string(s);
}

int cmd_get(int argc, char **argv)
{
	char *pos[1], buf[128], list[512], ro[128];
	json_t *j;
	int n, err;

	n = scan_args("get", argc, argv, pos, 1);
	if (n < 0)
		return EXIT_USAGE;
	if (n != 1) {
		ctl_err("failed to parse get arguments: expected KNOB");
		ctl_cmd_usage("get", stderr);
		return EXIT_USAGE;
	}
	if (strcmp(pos[0], "algorithm") && !spritz_knob_find(pos[0]) && !spritz_knob_is_ro(pos[0])) {
		ctl_err("failed to get %s: unknown knob", pos[0]);
		fprintf(stderr, "knobs: %s; read-only: %s\n", knob_list(list, sizeof(list)),
			ro_list(ro, sizeof(ro)));
		return EXIT_USAGE;
	}
	if (!module_present("get", pos[0]))
		return EXIT_FAIL;
	err = spritz_sysfs_read(pos[0], buf, sizeof(buf));
	if (err) {
		ctl_err("failed to get %s: %s", pos[0], access_reason(err));
		return EXIT_FAIL;
	}
	if (!opt_json) {
		printf("%s\n", buf);
		return EXIT_OK;
	}
	j = json_pack("{s:s, s:o}", "knob", pos[0], "value", json_value(buf));
	return ctl_json_print(j);
}

/* show config (cmd_show.c): every knob with its default and range, and the module's counters. */
int ctl_show_config(void)
{
	char buf[128], algo[128], ver[128], tables[32], paths[32];
	long long vals[spritz_nknobs];
	json_t *j = NULL, *arr = NULL;
	size_t i;
	int err;

	if (!module_present("show", "config"))
		return EXIT_FAIL;
	err = spritz_sysfs_read("version", ver, sizeof(ver));
	if (!err)
		err = spritz_sysfs_read("algorithm", algo, sizeof(algo));
	if (!err)
		err = spritz_sysfs_read("tables", tables, sizeof(tables));
	if (!err)
		err = spritz_sysfs_read("paths", paths, sizeof(paths));
	for (i = 0; !err && i < spritz_nknobs; i++) {
		err = spritz_sysfs_read(spritz_knobs[i].name, buf, sizeof(buf));
		vals[i] = err ? -1 : spritz_knob_parse(buf);
	}
	if (err) {
		ctl_err("failed to show config: %s", access_reason(err));
		return EXIT_FAIL;
	}
	if (!opt_json) {
		printf("version    %s\nalgorithm  %s\ntables     %s destinations, %s paths\n\n",
		       ver, algo, tables, paths);
		printf("%-18s %10s %10s  %s\n", "KNOB", "VALUE", "DEFAULT", "RANGE");
		for (i = 0; i < spritz_nknobs; i++)
			printf("%-18s %10lld %10lu  %lu..%lu\n", spritz_knobs[i].name, vals[i],
			       spritz_knobs[i].def, spritz_knobs[i].min, spritz_knobs[i].max);
		return EXIT_OK;
	}
	arr = json_array();
	for (i = 0; arr && i < spritz_nknobs; i++) {
		json_t *k = json_pack("{s:s, s:I, s:I, s:I, s:I}", "name", spritz_knobs[i].name,
				      "value", (json_int_t)vals[i],
				      "default", (json_int_t)spritz_knobs[i].def,
				      "min", (json_int_t)spritz_knobs[i].min,
				      "max", (json_int_t)spritz_knobs[i].max);
		if (!k || json_array_append_new(arr, k)) {
			json_decref(arr);
			arr = NULL;
		}
	}
	if (arr)
		j = json_pack("{s:s, s:s, s:o, s:o, s:o}", "version", ver, "algorithm", algo,
			      "tables", json_value(tables), "paths", json_value(paths),
			      "knobs", arr);
	return ctl_json_print(j);
}
