// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ordered steps with undo (user/lib/spritz_steps.c), the arguments
 * spritz_host_up() and _reload() refuse before any step (host_ops.c), and
 * the knob table with the read-only files (user/lib/spritz_knobs.c).  Steps: a table of four steps that each record
 * "do" and "undo" in a log; each row makes one step fail (before changing
 * anything, or half way: it recorded a change first) and gives the log it
 * must leave: every step before it undone, last first, the failed one
 * undone as far as it went, none after it run.
 */
#include <errno.h>
#include <grp.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <spritz/abi.h>
#include <spritz/knobs.h>

#include "spritz_host.h"
#include "spritz_knobs.h"
#include "spritz_steps.h"
#include "test.h"

struct log {
	char s[128];
	int fail_at, fail_half; /* step index, or -1 */
	int changed[4];
};

static void step_log(struct log *l, const char *what, int i)
{
	size_t n = strlen(l->s);

	snprintf(l->s + n, sizeof(l->s) - n, "%s%d ", what, i);
}

static int step_do(struct log *l, int i, char *err, size_t errlen)
{
	step_log(l, "d", i);
	if (l->fail_half == i) {
		l->changed[i] = 1; /* changed something, then failed */
		snprintf(err, errlen, "failed to do %d: half way", i);
		return -ENOSPC;
	}
	if (l->fail_at == i) {
		snprintf(err, errlen, "failed to do %d", i);
		return -EIO;
	}
	l->changed[i] = 1;
	return 0;
}

static void step_undo(struct log *l, int i)
{
	if (!l->changed[i])
		return; /* undo puts back what the context records as done */
	l->changed[i] = 0;
	step_log(l, "u", i);
}

#define STEP(i)                                                             \
	static int do##i(void *c, char *e, size_t n)                        \
	{                                                                   \
		return step_do(c, i, e, n);                                 \
	}                                                                   \
	static void __attribute__((unused)) undo##i(void *c)                                      \
	{                                                                   \
		step_undo(c, i);                                            \
	}
STEP(0)
STEP(1)
STEP(2)
STEP(3)

static const struct spritz_step steps[] = {
	{ "zero", do0, undo0 },
	{ "one", do1, undo1 },
	{ "two", do2, NULL }, /* changes nothing that outlives the run */
	{ "three", do3, undo3 },
};

static const struct {
	const char *name;
	int fail_at, fail_half, ret;
	const char *log, *err;
} rows[] = {
	{ "all succeed", -1, -1, 0, "d0 d1 d2 d3 ", "" },
	{ "first fails", 0, -1, -EIO, "d0 ", "failed to do 0" },
	{ "second fails", 1, -1, -EIO, "d0 d1 u0 ", "failed to do 1" },
	{ "second half way", -1, 1, -ENOSPC, "d0 d1 u1 u0 ", "failed to do 1: half way" },
	{ "step without undo", 3, -1, -EIO, "d0 d1 d2 d3 u1 u0 ", "failed to do 3" },
	{ "last half way", -1, 3, -ENOSPC, "d0 d1 d2 d3 u3 u1 u0 ", "failed to do 3: half way" },
};

static int failed_at(int at, int half)
{
	return at >= 0 ? at : half;
}

static void test_steps_table(void)
{
	size_t k;

	for (k = 0; k < ARRAY_SIZE(rows); k++) {
		struct log l = { .fail_at = rows[k].fail_at, .fail_half = rows[k].fail_half };
		char err[64] = "";
		int i;

		ASSERT_EQ(spritz_steps_run(steps, ARRAY_SIZE(steps), &l, err, sizeof(err)),
			  rows[k].ret, rows[k].name);
		ASSERT_STREQ(l.s, rows[k].log, rows[k].name);
		ASSERT_STREQ(err, rows[k].err, rows[k].name);
		/* on failure, nothing left changed but by the step without undo */
		for (i = 0; rows[k].ret && i < 4; i++)
			ASSERT_EQ(l.changed[i], i == 2 && failed_at(rows[k].fail_at,
								  rows[k].fail_half) > 2,
				  rows[k].name);
	}
}

struct host_row {
	const char *name;
	bool reload;
	long sw;       /* -1: none (reload) */
	long dir_sw;   /* the directory's one entry fd00:<dir_sw>::/64, -1: none */
	const char *err;
};

/*
 * One row in a child without privileges: the refusal comes before the
 * lock, so it needs none; were it missing, the call would fail there (no
 * lock, no module, no pins) instead of changing this host.  The return
 * and the message come back through a pipe.
 */
static int host_call(const struct host_row *r, struct spritz_topo *t, char *err, size_t errlen)
{
	struct spritz_dir_entry e = { .prefixlen = 64, .sw = (uint32_t)r->dir_sw };
	struct spritz_dir_list dir = { .e = &e, .n = 1, .cap = 1 };
	int fd[2], ret = -ECHILD, st;
	pid_t pid;

	e.addr[0] = 0xfd;
	e.addr[2] = (uint8_t)(r->dir_sw >> 8);
	e.addr[3] = (uint8_t)r->dir_sw;
	if (pipe(fd))
		return -errno;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		const struct spritz_dir_list *d = r->dir_sw >= 0 ? &dir : NULL;

		close(fd[0]);
		if (!geteuid() && (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
				   setresuid(65534, 65534, 65534)))
			_exit(2);
		if (r->reload) {
			struct spritz_reload_cfg c = { .t = t, .topo = "TOPO", .sw = r->sw, .dir = d };

			ret = spritz_host_reload(&c, err, errlen);
		} else {
			struct spritz_up_cfg c = { .dev = "none", .t = t, .topo = "TOPO",
						   .sw = (uint32_t)r->sw, .dir = d };

			ret = spritz_host_up(&c, err, errlen);
		}
		if (write(fd[1], &ret, sizeof(ret)) != sizeof(ret) ||
		    write(fd[1], err, errlen) != (ssize_t)errlen)
			_exit(3);
		_exit(0);
	}
	close(fd[1]);
	if (read(fd[0], &ret, sizeof(ret)) != sizeof(ret) ||
	    read(fd[0], err, errlen) != (ssize_t)errlen)
		ret = -ECHILD;
	close(fd[0]);
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		ret = -ECHILD;
	err[errlen - 1] = '\0';
	return ret;
}

/*
 * spritz_host.h: -EDOM for a switch out of range or a directory entry of a
 * switch the topology lacks, from libspritz itself (spritzctl relies on
 * it), with spritzctl's message.
 */
static void test_host_args(void)
{
	static const struct host_row rows[] = {
		{ "up: switch out of range", false, 36, -1,
		  "failed to bring up switch 36: switch id out of range (topology has 36 switches, "
		  "0..35)" },
		{ "up: directory entry out of range", false, 3, 36,
		  "failed to bring up spritz: the directory maps fd00:24::/64 to switch 36, not in "
		  "TOPO (0..35)" },
		{ "reload: switch out of range", true, 40, -1,
		  "failed to reload switch 40: switch id out of range (topology has 36 switches, "
		  "0..35)" },
		{ "reload: directory entry out of range", true, -1, 1000,
		  "failed to reload spritz: the directory maps fd00:3e8::/64 to switch 1000, not in "
		  "TOPO (0..35)" },
	};
	struct spritz_topo *t = NULL;
	char err[256];
	size_t k;

	if (!ASSERT_OK(spritz_topo_parse("dragonfly:p=2,a=4,h=2", &t, err, sizeof(err)), "topo"))
		return;
	for (k = 0; k < ARRAY_SIZE(rows); k++) {
		memset(err, 0, sizeof(err));
		ASSERT_EQ(host_call(&rows[k], t, err, sizeof(err)), -EDOM, rows[k].name);
		ASSERT_STREQ(err, rows[k].err, rows[k].name);
	}
	spritz_topo_free(t);
}

/* Every knob of SPRITZ_KNOBS() in the table, in order, with its range. */
static void test_knob_table(void)
{
	static const struct spritz_knob want[] = {
#define X(name, def, min, max) { #name, (def), (min), (max) },
		SPRITZ_KNOBS(X)
#undef X
	};
	static const char *const algos[] = SPRITZ_ALGO_NAMES;
	size_t i;

	ASSERT_EQ(spritz_nknobs, ARRAY_SIZE(want), "knobs");
	for (i = 0; i < ARRAY_SIZE(want) && i < spritz_nknobs; i++) {
		ASSERT_STREQ(spritz_knobs[i].name, want[i].name, "name");
		ASSERT_EQ(spritz_knob_find(want[i].name), &spritz_knobs[i], want[i].name);
		ASSERT_EQ(spritz_knobs[i].min, want[i].min, want[i].name);
		ASSERT_EQ(spritz_knobs[i].max, want[i].max, want[i].name);
	}
	for (i = 0; i < ARRAY_SIZE(algos); i++)
		ASSERT_EQ(spritz_algo_index(algos[i]), i, algos[i]);
	ASSERT_EQ(spritz_algo_index("bogus"), -1, "unknown algorithm");
	ASSERT_NULL(spritz_knob_find("algorithm"), "algorithm is not numeric");
}

/*
 * The read-only files get reads: each row a name and whether it is one;
 * then every __ATTR_RO() file of kmod/sysfs.c must be in the table (get
 * staging once failed "unknown knob").
 */
static void test_ro_files(void)
{
	static const struct {
		const char *name;
		bool ro;
	} rows[] = {
		{ "tables", true },	   { "paths", true },	  { "staging", true },
		{ "staging_bytes", true }, { "version", true },	  { "w_scale", false },
		{ "floor_enables", true },
		{ "algorithm", false },	   { "staging_", false }, { "", false },
	};
	const char *top = getenv("SPRITZ_TOP");
	char path[512], line[256];
	size_t k;
	FILE *f;
	int n = 0;

	for (k = 0; k < ARRAY_SIZE(rows); k++)
		ASSERT_EQ(spritz_knob_is_ro(rows[k].name), rows[k].ro, rows[k].name);
	snprintf(path, sizeof(path), "%s%skmod/sysfs.c", top ? top : "", top ? "/" : "");
	f = fopen(path, "r");
	if (!ASSERT_OK_PTR(f, path))
		return;
	while (fgets(line, sizeof(line), f)) {
		char *a = strstr(line, "__ATTR_RO("), *e;

		if (!a || !(e = strchr(a, ')')))
			continue;
		a += strlen("__ATTR_RO(");
		*e = '\0';
		if (!ASSERT_TRUE(spritz_knob_is_ro(a), "kmod/sysfs.c's read-only file in the table"))
			printf("# %s\n", a);
		n++;
	}
	fclose(f);
	ASSERT_EQ(n, spritz_nro_files, "as many read-only files as kmod/sysfs.c has");
}

/* Decimal values as the module accepts them; a value out of range writes nothing. */
static void test_knob_values(void)
{
	static const struct {
		const char *s;
		long long v;
	} vals[] = {
		{ "0", 0 }, { "42", 42 }, { "1073741824", 1073741824 }, { "", -1 }, { "-1", -1 },
		{ "1x", -1 }, { " 1", -1 }, { "0x10", -1 }, { "1234567890123", -1 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(vals); i++)
		ASSERT_EQ(spritz_knob_parse(vals[i].s), vals[i].v, vals[i].s);
	ASSERT_EQ(spritz_knob_set("w_scale", 0), -ERANGE, "below range");
	ASSERT_EQ(spritz_knob_set("weighted", 2), -ERANGE, "above range");
	ASSERT_EQ(spritz_sysfs_write("../x", "1"), -EINVAL, "name with a slash");
}

static const struct test_case cases[] = {
	{ "steps_table", test_steps_table },
	{ "host_args", test_host_args },
	{ "knob_table", test_knob_table },
	{ "knob_values", test_knob_values },
	{ "ro_files", test_ro_files },
};

TEST_MAIN(cases)
