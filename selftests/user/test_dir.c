// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host directory sources (user/lib/spritz_dir.c): tables of hosts files and
 * address plans, each with the verdict, the entries or the message it must
 * give.  A rejected input leaves the caller's list or plan exactly as it
 * was (the tests fill it beforehand and compare).
 */
#include <arpa/inet.h>
#include <errno.h>

#include <spritz/maps.h>

#include "spritz_dir.h"
#include "test.h"

#define NSW 8 /* switches of the fabric the hosts files are checked against */

struct host_want {
	const char *prefix; /* as spritz_dir_format() prints it */
	uint32_t sw;
	uint32_t line;
};

struct hosts_case {
	const char *name;
	const char *text;
	int ret;
	const char *err; /* substring of the message (errors) */
	struct host_want want[4]; /* entries in sorted order (success) */
	size_t n;
};

/* an accepted file: its entries; a rejected one: errno and message */
#define GOOD(name_, text_, n_, ...)                                                  \
	{                                                                            \
		.name = (name_), .text = (text_), .n = (n_), .want = { __VA_ARGS__ } \
	}
#define BAD(name_, text_, ret_, err_)                                          \
	{                                                                      \
		.name = (name_), .text = (text_), .ret = (ret_), .err = (err_) \
	}

static const struct hosts_case hosts_cases[] = {
	/* sorted by (prefix length, address): the v4-mapped /120 comes second */
	GOOD("v4 and v6", "10.0.3.0/24 3\nfd00:3::/64 3\n", 2, { "fd00:3::/64", 3, 2 },
	     { "10.0.3.0/24", 3, 1 }),
	GOOD("host routes", "10.0.0.7 1\nfd00::7 2\n", 2, { "10.0.0.7/32", 1, 1 },
	     { "fd00::7/128", 2, 2 }),
	GOOD("comments, blanks, CRLF", "# hosts\n\n  \t\r\n10.1.0.0/16 7 # rack 7\r\n", 1,
	     { "10.1.0.0/16", 7, 4 }),
	GOOD("no newline at the end", "10.2.0.0/16 0", 1, { "10.2.0.0/16", 0, 1 }),
	/* the tokenizer once read tok[3] past its array on these */
	BAD("three tokens", "10.0.0.0/24 1 2\n", -EINVAL,
	    ":1: expected \"ADDRESS[/PREFIXLEN] SWITCH\""),
	BAD("many tokens", "10.0.0.0/24 1 2 3 4 5 6\n", -EINVAL, ":1: expected"),
	BAD("one token", "10.0.0.0/24\n", -EINVAL, ":1: expected"),
	BAD("bad v4", "10.0.0.256/24 1\n", -EINVAL, "invalid IPv4 address \"10.0.0.256\""),
	BAD("bad v6", "fd00:::1 1\n", -EINVAL, "invalid IPv6 address"),
	BAD("v4 prefix > 32", "10.0.0.0/33 1\n", -EINVAL, "out of range for IPv4"),
	BAD("prefix > 128", "fd00::/129 1\n", -EINVAL, "invalid prefix length \"129\""),
	BAD("host bits set", "10.0.0.1/24 1\n", -EINVAL, "bits set past the prefix length"),
	BAD("switch out of range", "10.0.0.0/24 8\n", -EINVAL, "switch 8 out of range"),
	BAD("switch not a number", "10.0.0.0/24 x1\n", -EINVAL, "invalid switch id \"x1\""),
	BAD("negative switch", "10.0.0.0/24 -1\n", -EINVAL, "invalid switch id"),
	BAD("duplicate", "10.0.0.0/24 1\n\n10.0.0.0/24 2\n", -EINVAL, ":3: duplicate of line 1"),
	BAD("only comments", "# nothing\n\n", -EINVAL, "no entries"),
	BAD("empty", "", -EINVAL, "no entries"),
	BAD("NUL byte", "10.0.0.0/24 1\n10.0.1.0/24\0 2\n", -EINVAL, ":2: NUL byte"),
};

/* The text of a case: its string, plus the NUL of "NUL byte" cases. */
static size_t case_len(const struct hosts_case *c)
{
	size_t n = strlen(c->text);

	if (strstr(c->name, "NUL"))
		n += 1 + strlen(c->text + n + 1);
	return n;
}

/* A list holding one entry that no case produces. */
static void sentinel(struct spritz_dir_list *l)
{
	static const struct spritz_dir_entry e = {
		.addr = { 0xfe, 0x80 }, .prefixlen = 10, .sw = 5, .line = 99
	};

	memset(l, 0, sizeof(*l));
	l->e = malloc(sizeof(e));
	if (l->e) {
		l->e[0] = e;
		l->n = l->cap = 1;
	}
}

static bool is_sentinel(const struct spritz_dir_list *l)
{
	return l->n == 1 && l->e[0].prefixlen == 10 && l->e[0].sw == 5 && l->e[0].line == 99 &&
	       l->e[0].addr[0] == 0xfe && l->e[0].addr[1] == 0x80;
}

static void test_hosts_table(void)
{
	size_t i, k;

	for (i = 0; i < ARRAY_SIZE(hosts_cases); i++) {
		const struct hosts_case *c = &hosts_cases[i];
		struct spritz_dir_list l;
		char err[256] = "";
		int ret;

		sentinel(&l);
		if (!ASSERT_OK_PTR(l.e, "sentinel"))
			return;
		ret = spritz_hosts_parse(c->text, case_len(c), "hosts", NSW, &l, err, sizeof(err));
		if (!ASSERT_EQ(ret, c->ret, c->name)) {
			printf("# %s: %s\n", c->name, err);
		} else if (c->ret) {
			if (!ASSERT_TRUE(strstr(err, c->err) != NULL, c->name))
				printf("# %s: message \"%s\", expected \"%s\"\n", c->name, err,
				       c->err);
			ASSERT_TRUE(!strncmp(err, "hosts:", 6), "message names the file");
			ASSERT_TRUE(is_sentinel(&l), "a rejected file changes nothing");
		} else if (ASSERT_EQ(l.n, c->n, c->name)) {
			for (k = 0; k < c->n; k++) {
				char buf[64];

				spritz_dir_format(l.e[k].addr, l.e[k].prefixlen, buf, sizeof(buf));
				ASSERT_STREQ(buf, c->want[k].prefix, c->name);
				ASSERT_EQ(l.e[k].sw, c->want[k].sw, c->name);
				ASSERT_EQ(l.e[k].line, c->want[k].line, c->name);
				ASSERT_TRUE(spritz_dir_find(&l, l.e[k].addr, l.e[k].prefixlen) ==
						    &l.e[k],
					    "found by spritz_dir_find");
			}
		}
		spritz_dir_free(&l);
	}
}

/* Lines of 512 characters pass, 513 do not; SPRITZ_DIR_MAX entries pass, one more does not. */
static void test_hosts_limits(void)
{
	static const struct {
		const char *name;
		size_t width;
		int ret;
	} widths[] = {
		{ "512 characters", 512, 0 },
		{ "513 characters", 513, -EINVAL },
	};
	static const struct {
		const char *name;
		size_t entries;
		int ret;
	} counts[] = {
		{ "SPRITZ_DIR_MAX entries", SPRITZ_DIR_MAX, 0 },
		{ "SPRITZ_DIR_MAX + 1 entries", SPRITZ_DIR_MAX + 1, -EINVAL },
	};
	struct spritz_dir_list l = { 0 };
	char err[256], too_many[64], *text;
	size_t i, k, len;

	snprintf(too_many, sizeof(too_many), "more than %d entries", SPRITZ_DIR_MAX);
	text = malloc((SPRITZ_DIR_MAX + 1) * 32 + 600);
	if (!ASSERT_OK_PTR(text, "malloc"))
		return;
	for (i = 0; i < ARRAY_SIZE(widths); i++) {
		/* "10.0.0.0/24 1" padded with blanks before the comment */
		len = (size_t)sprintf(text, "10.0.0.0/24 1");
		while (len < widths[i].width - 1)
			text[len++] = ' ';
		text[len++] = '#';
		text[len++] = '\n';
		ASSERT_EQ(spritz_hosts_parse(text, len, "hosts", NSW, &l, err, sizeof(err)),
			  widths[i].ret, widths[i].name);
		if (widths[i].ret)
			ASSERT_TRUE(strstr(err, "hosts:1: line longer than 512") != NULL,
				    widths[i].name);
	}
	for (i = 0; i < ARRAY_SIZE(counts); i++) {
		for (k = 0, len = 0; k < counts[i].entries; k++)
			len += (size_t)sprintf(text + len, "fd00:%zx:%zx::/64 %zu\n", k >> 16,
					       k & 0xffff, k % NSW);
		ASSERT_EQ(spritz_hosts_parse(text, len, "hosts", NSW, &l, err, sizeof(err)),
			  counts[i].ret, counts[i].name);
		if (!counts[i].ret)
			ASSERT_EQ(l.n, counts[i].entries, counts[i].name);
		else
			ASSERT_TRUE(strstr(err, too_many) != NULL, counts[i].name);
	}
	free(text);
	spritz_dir_free(&l);
}

/* A missing file: -ENOENT and the path in the message. */
static void test_hosts_missing(void)
{
	struct spritz_dir_list l;
	char err[256] = "";

	sentinel(&l);
	if (!ASSERT_OK_PTR(l.e, "sentinel"))
		return;
	ASSERT_EQ(spritz_hosts_load("/nonexistent/hosts", NSW, &l, err, sizeof(err)), -ENOENT,
		  "missing file");
	ASSERT_TRUE(strstr(err, "/nonexistent/hosts: ") == err, "message names the file");
	ASSERT_TRUE(is_sentinel(&l), "a missing file changes nothing");
	spritz_dir_free(&l);
}

struct plan_case {
	const char *name;
	const char *text;
	int ret;
	int plen;
	const char *first; /* switch 0's /64 */
	const char *last; /* switch NSW-1's /64 */
	const char *err; /* the message (errors) */
};

#define PLAN(name_, text_, plen_, first_, last_)                                      \
	{                                                                             \
		.name = (name_), .text = (text_), .plen = (plen_), .first = (first_), \
		.last = (last_)                                                       \
	}
#define NOPLAN(name_, text_, err_)                                            \
	{                                                                     \
		.name = (name_), .text = (text_), .ret = -EINVAL, .err = (err_) \
	}
#define SYNTAX "expected an IPv6 PREFIX/L with L <= 48, e.g. fd00::/16"

static const struct plan_case plan_cases[] = {
	PLAN("/16", "fd00::/16", 16, "fd00::/64", "fd00:7::/64"),
	PLAN("/48", "fd00:1:2::/48", 48, "fd00:1:2::/64", "fd00:1:2:7::/64"),
	PLAN("/0", "::/0", 0, "::/64", "7::/64"),
	PLAN("/32, bits up to 32", "fd00:1::/32", 32, "fd00:1::/64", "fd00:1:7::/64"),
	NOPLAN("/49", "fd00::/49", SYNTAX),
	NOPLAN("no length", "fd00::", SYNTAX),
	NOPLAN("empty length", "fd00::/", SYNTAX),
	NOPLAN("signed length", "fd00::/+16", SYNTAX),
	NOPLAN("IPv4", "10.0.0.0/8", SYNTAX),
	NOPLAN("garbage", "fd00::x/16", SYNTAX),
	NOPLAN("too long", "fd00:0000:0000:0000:0000:0000:0000:0000:0000:0000:0000/16", SYNTAX),
	/* a hosts file refuses these too: the bits past L were dropped */
	NOPLAN("bits past /16", "fd00:1::/16", "bits set past the prefix length (fd00::/16 has none)"),
	NOPLAN("bits past /48", "fd00:1:2:3::/48",
	       "bits set past the prefix length (fd00:1:2::/48 has none)"),
	NOPLAN("bits past /0", "::1/0", "bits set past the prefix length (::/0 has none)"),
};

static void test_plan_table(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(plan_cases); i++) {
		const struct plan_case *c = &plan_cases[i];
		struct spritz_plan p = { .prefix = { 0xab }, .plen = 77 };
		struct spritz_dir_list l;
		char buf[64], err[256] = "";

		if (!ASSERT_EQ(spritz_plan_parse(c->text, &p, err, sizeof(err)), c->ret, c->name))
			continue;
		if (c->ret) {
			ASSERT_TRUE(p.plen == 77 && p.prefix[0] == 0xab,
				    "a rejected plan changes nothing");
			ASSERT_STREQ(err, c->err, c->name);
			continue;
		}
		ASSERT_EQ(p.plen, c->plen, c->name);
		sentinel(&l);
		if (!ASSERT_OK(spritz_plan_entries(&p, NSW, &l), c->name) ||
		    !ASSERT_EQ(l.n, NSW, c->name)) {
			spritz_dir_free(&l);
			continue;
		}
		spritz_dir_format(l.e[0].addr, l.e[0].prefixlen, buf, sizeof(buf));
		ASSERT_STREQ(buf, c->first, c->name);
		ASSERT_EQ(l.e[0].sw, 0, c->name);
		spritz_dir_format(l.e[NSW - 1].addr, l.e[NSW - 1].prefixlen, buf, sizeof(buf));
		ASSERT_STREQ(buf, c->last, c->name);
		ASSERT_EQ(l.e[NSW - 1].sw, NSW - 1, c->name);
		spritz_dir_free(&l);
	}
}
#undef SYNTAX

/* Plans for more switches than the directory holds change nothing. */
static void test_plan_range(void)
{
	struct spritz_plan p;
	struct spritz_dir_list l;

	if (!ASSERT_OK(spritz_plan_parse("fd00::/16", &p, NULL, 0), "parse"))
		return;
	sentinel(&l);
	if (!ASSERT_OK_PTR(l.e, "sentinel"))
		return;
	ASSERT_EQ(spritz_plan_entries(&p, SPRITZ_DIR_MAX + 1, &l), -ERANGE, "too many switches");
	ASSERT_TRUE(is_sentinel(&l), "unchanged");
	p.plen = 49;
	ASSERT_EQ(spritz_plan_entries(&p, NSW, &l), -ERANGE, "length past 48");
	ASSERT_TRUE(is_sentinel(&l), "unchanged");
	spritz_dir_free(&l);
}

static const struct test_case cases[] = {
	{ "hosts_table", test_hosts_table },	 { "hosts_limits", test_hosts_limits },
	{ "hosts_missing", test_hosts_missing }, { "plan_table", test_plan_table },
	{ "plan_range", test_plan_range },
};

TEST_MAIN(cases)
