// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ordered steps with undo (user/lib/spritz_steps.c) and the knob table
 * with the read-only files (user/lib/spritz_knobs.c).  Steps: a table of four steps that each record
 * "do" and "undo" in a log; each row makes one step fail (before changing
 * anything, or half way: it recorded a change first) and gives the log it
 * must leave: every step before it undone, last first, the failed one
 * undone as far as it went, none after it run.
 */
#include <errno.h>
#include <string.h>

#include <spritz/abi.h>
#include <spritz/knobs.h>

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
	{ "knob_table", test_knob_table },
	{ "knob_values", test_knob_values },
	{ "ro_files", test_ro_files },
};

TEST_MAIN(cases)
