// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fabric file tests: good files load with the port orders, latencies,
 * hosts and bound they give; a Dragonfly and a Slim Fly written out as
 * fabric files (generated independently of libspritz) give exactly the
 * built-in families' path lists; bad files are rejected with
 * "FILE:LINE: problem" and nothing is built.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>

#include "paths.h"
#include "spritz_err.h"
#include "test.h"

#define FIXTURES "selftests/user/fabrics/"

/* Fixtures are found relative to the checkout (tests run from the top). */
static const char *fixture(const char *name)
{
	static char path[512];
	const char *top = getenv("SPRITZ_TOP");

	snprintf(path, sizeof(path), "%s%s" FIXTURES "%s", top ? top : "", top ? "/" : "", name);
	return path;
}

static struct spritz_topo *load_file(const char *name)
{
	struct spritz_topo *t = NULL;
	char err[512] = "";
	int ret = spritz_fabric_load(fixture(name), &t, err, sizeof(err));

	if (!ASSERT_OK(ret, name))
		printf("# %s\n", err);
	return ret ? NULL : t;
}

static void test_tiny(void)
{
	struct spritz_topo *t = load_file("tiny.fabric");
	struct spritz_path buf[64];
	int n, i;

	if (!t)
		return;
	ASSERT_EQ(t->nsw, 5, "switches");
	ASSERT_EQ(t->kind, SPRITZ_TOPO_FILE, "kind");
	ASSERT_EQ(t->nhosts, 2 * 4 + 7, "hosts");
	ASSERT_EQ(t->ngroups, 2, "groups = local components");
	ASSERT_EQ(t->group[3], t->group[4], "group of 3 and 4");
	ASSERT_NEQ(t->group[0], t->group[3], "two groups");
	ASSERT_EQ(t->diameter, 2, "diameter");
	ASSERT_EQ(t->bound.max_hops, 4, "bound");
	/* explicit order at 0, link order elsewhere */
	ASSERT_EQ(spritz_topo_port_nbr(t, 0, 0), 4, "port 0 of 0");
	ASSERT_EQ(spritz_topo_port_nbr(t, 0, 1), 2, "port 1 of 0");
	ASSERT_EQ(spritz_topo_port_nbr(t, 0, 2), 1, "port 2 of 0");
	ASSERT_EQ(spritz_topo_port_nbr(t, 2, 0), 1, "port 0 of 2 (link order)");
	ASSERT_EQ(spritz_topo_port_nbr(t, 2, 1), 0, "port 1 of 2");
	ASSERT_EQ(spritz_topo_port_nbr(t, 2, 2), 3, "port 2 of 2");
	/* 200 Gb/s: 166.4 ns serialization; cable per link or per type */
	ASSERT_EQ(spritz_topo_hop_ps(t, 0, 2), 10000 + 166400, "0-1 local default");
	ASSERT_EQ(spritz_topo_hop_ps(t, 0, 1), 30000 + 166400, "0-2 latency=30");
	ASSERT_EQ(spritz_topo_hop_ps(t, 2, 1), 30000 + 166400, "2-0 same link");
	ASSERT_EQ(spritz_topo_hop_ps(t, 0, 0), 1000500 + 83200, "0-4 speed=400");
	ASSERT_EQ(spritz_topo_hop_ps(t, 2, 2), 1000500 + 166400, "2-3 global default");
	/* 0 -> 3: minimal 0-2-3 and 0-4-3 (2 hops); default route: lowest port = via 4 */
	ASSERT_EQ(spritz_topo_next_hop(t, 0, 3), 4, "tie-break lowest port index");
	n = spritz_paths_list(t, 0, 3, buf, 64);
	ASSERT_GE(n, 2, "paths 0 -> 3");
	for (i = 0; i < n; i++) {
		int seq[8], len = spritz_ev_route(t, 0, 3, buf[i].ev, seq, 8);

		ASSERT_GE(len, 3, "route");
		ASSERT_LE(len - 1, 4, "bound");
	}
	spritz_topo_free(t);
}

/* Same lists (EV, latency, hops, order) for a file and a built-in family. */
static void compare(const char *file, const char *spec)
{
	struct spritz_topo *a = load_file(file), *b = NULL;
	struct spritz_path *pa, *pb;
	char err[256];
	int s, d, cap;

	if (!a)
		return;
	if (!ASSERT_OK(spritz_topo_parse(spec, &b, err, sizeof(err)), spec)) {
		spritz_topo_free(a);
		return;
	}
	ASSERT_EQ(a->nsw, b->nsw, "switches");
	ASSERT_EQ(a->nhosts, b->nhosts, "hosts");
	ASSERT_EQ(a->ngroups, b->ngroups, "groups");
	ASSERT_EQ(a->diameter, b->diameter, "diameter");
	cap = b->max_degree * (b->max_degree + 1);
	pa = malloc(sizeof(*pa) * cap);
	pb = malloc(sizeof(*pb) * cap);
	for (s = 0; s < a->nsw; s++) {
		int i;

		if (!ASSERT_EQ(spritz_topo_degree(a, s), spritz_topo_degree(b, s), "degree"))
			goto out;
		for (i = 0; i < spritz_topo_degree(a, s); i++)
			if (!ASSERT_EQ(spritz_topo_port_nbr(a, s, i), spritz_topo_port_nbr(b, s, i),
				       "port order") ||
			    !ASSERT_EQ(spritz_topo_port_type(a, s, i),
				       spritz_topo_port_type(b, s, i), "link type"))
				goto out;
		for (d = 0; d < a->nsw; d++) {
			int na = spritz_paths_list(a, s, d, pa, cap);
			int nb = spritz_paths_list(b, s, d, pb, cap);

			if (!ASSERT_EQ(na, nb, "list length") ||
			    !ASSERT_MEMEQ(pa, pb, sizeof(*pa) * (na > 0 ? na : 0), "lists")) {
				printf("# %s vs %s: %d -> %d\n", file, spec, s, d);
				goto out;
			}
		}
	}
out:
	free(pa);
	free(pb);
	spritz_topo_free(a);
	spritz_topo_free(b);
}

static void test_dragonfly_file(void)
{
	compare("df_p2_a4_h2.fabric", "dragonfly:p=2,a=4,h=2");
}

static void test_slimfly_file(void)
{
	compare("sf_q5.fabric", "slimfly:q=5,p=4");
}

/* Bad fixture files: error names the file, the line and the problem. */
static void test_bad_files(void)
{
	static const struct {
		const char *file;
		int line;          /* 0: whole-file problem, no line */
		const char *what;  /* substring of the message */
	} bad[] = {
		{ "bad_directive.fabric", 4, "unknown directive \"frobnicate\"" },
		{ "bad_selfloop.fabric", 4, "to itself" },
		{ "bad_duplicate.fabric", 5, "first on line 3" },
		{ "bad_id.fabric", 4, "bad switch id \"3\"" },
		{ "bad_type.fabric", 3, "\"medium\"" },
		{ "bad_ports.fabric", 5, "lists 0 twice" },
		{ "bad_ports_missing.fabric", 5, "no link to 2" },
		{ "bad_disconnected.fabric", 0, "not connected" },
		{ "bad_latency.fabric", 3, "bad latency \"fast\"" },
		{ "bad_order.fabric", 2, "must come before" },
		{ "bad_noswitches.fabric", 0, "no \"switches N\"" },
		{ "bad_df_nolink.fabric", 0, "not linked to every other group" },
	};
	size_t k;

	for (k = 0; k < ARRAY_SIZE(bad); k++) {
		struct spritz_topo *t = NULL;
		char err[512] = "", want[600];
		const char *path = fixture(bad[k].file);

		ASSERT_ERR(spritz_fabric_load(path, &t, err, sizeof(err)), bad[k].file);
		ASSERT_NULL(t, "nothing loaded");
		if (bad[k].line)
			snprintf(want, sizeof(want), "%s:%d: ", path, bad[k].line);
		else
			snprintf(want, sizeof(want), "%s: ", path);
		if (!ASSERT_TRUE(!strncmp(err, want, strlen(want)), "FILE:LINE: prefix") ||
		    !ASSERT_OK_PTR(strstr(err, bad[k].what), "problem named"))
			printf("# %s: got \"%s\"\n", bad[k].file, err);
	}
}

/* Inline bad texts: every directive's checks. */
static void test_bad_text(void)
{
	static const struct {
		const char *text;
		int line;
	} bad[] = {
		{ "switches 0\n", 1 },
		{ "switches 2\nswitches 2\n", 2 },
		{ "switches x\n", 1 },
		{ "switches 2\nhosts -1\n", 2 },
		{ "switches 2\nswitch 2 hosts=1\n", 2 },
		{ "switches 2\nswitch 1 cores=4\n", 2 },
		{ "switches 2\nspeed 0\n", 2 },
		{ "switches 2\nspeed 1.2345\n", 2 },
		{ "switches 2\nlatency remote 5\n", 2 },
		{ "switches 2\npacket 0\n", 2 },
		{ "switches 2\nlink 0 1\n", 2 },
		{ "switches 2\nlink 0 1 local speed=\n", 2 },
		{ "switches 2\nlink 0 1 local colour=red\n", 2 },
		{ "switches 2\nlink 0 1 local\nports 0 1\nports 0 1\n", 4 },
		{ "switches 2\nlink 0 1 local\nports 0 1 1\n", 3 },
		{ "switches 2\nbound hops\n", 2 },
		{ "switches 2\nbound far=3\n", 2 },
		{ "switches 2\nrouting valiant\n", 2 },
		{ "switches 2\nlink 0 01x local\n", 2 },
		/* digits only: blanks that are no field separators, then a sign */
		{ "switches \v1\n", 1 },
		{ "switches 1\nhosts \v4\n", 2 },
		{ "switches 2\nswitch 1 hosts=\f+1\nlink 0 1 local\n", 2 },
		{ "switches 2\nlink 0 \v1 local\n", 2 },
		{ "switches 2\nlink 0 1 local\nbound hops=\v+3\n", 3 },
		{ "switches 2\nlink 0 1 local\npacket \f100\n", 3 },
	};
	size_t k;

	for (k = 0; k < ARRAY_SIZE(bad); k++) {
		struct spritz_topo *t = NULL;
		char err[512] = "", want[64];

		snprintf(want, sizeof(want), "inline:%d: ", bad[k].line);
		if (!ASSERT_ERR(spritz_fabric_parse(bad[k].text, "inline", &t, err, sizeof(err)),
				"rejected"))
			printf("# accepted: %s", bad[k].text);
		ASSERT_NULL(t, "nothing loaded");
		if (!ASSERT_TRUE(!strncmp(err, want, strlen(want)), "line named"))
			printf("# case %zu: got \"%s\"\n", k, err);
	}
}

/*
 * Repeats: every directive but link and ports comes once (switch once per
 * switch, latency once per type), every attribute once per line, as TOPO
 * strings refuse a key given twice; a repeat once silently won over the
 * first value.  Each row: the text (connected, so that the repeat is all
 * that is wrong with it), and for a refusal the line and the message.
 */
#define L2 "link 0 1 local\n"
#define L4 "link 0 1 local\nlink 1 2 local\nlink 2 3 local\n"
static void test_repeats(void)
{
	static const struct {
		const char *text;
		int line; /* 0: accepted */
		const char *err;
	} rows[] = {
		{ "switches 2\nswitches 2\n", 2, "\"switches\" given twice (first on line 1)" },
		{ "switches 2\nhosts 1\nhosts 9\n" L2, 3, "\"hosts\" given twice (first on line 2)" },
		{ "switches 4\nswitch 3 hosts=1 hosts=9\n" L4, 2, "attribute \"hosts=\" given twice" },
		{ "switches 4\nswitch 3 hosts=1\n\nswitch 3 hosts=9\n" L4, 4,
		  "switch 3 already given on line 2" },
		{ "switches 2\nspeed 100\nspeed 200\n" L2, 3, "\"speed\" given twice (first on line 2)" },
		{ "switches 2\nlatency local 10\nlatency local 20\n" L2, 3,
		  "\"latency local\" given twice (first on line 2)" },
		{ "switches 2\nlatency global 10\nlatency local 5\nlatency global 20\n" L2, 4,
		  "\"latency global\" given twice (first on line 2)" },
		{ "switches 2\npacket 100\npacket 200\n" L2, 3, "\"packet\" given twice (first on line 2)" },
		{ "switches 2\nlink 0 1 local latency=10 latency=20\n", 2,
		  "attribute \"latency=\" given twice" },
		{ "switches 2\nlink 0 1 local speed=10 latency=5 speed=20\n", 2,
		  "attribute \"speed=\" given twice" },
		{ "switches 2\nbound hops=3 hops=5\n" L2, 2, "attribute \"hops=\" given twice" },
		{ "switches 2\nbound local=3 global=1 local=2\n" L2, 2, "attribute \"local=\" given twice" },
		{ "switches 2\nbound hops=3\nbound hops=5\n" L2, 3, "\"bound\" given twice (first on line 2)" },
		{ "switches 2\nrouting generic\nrouting dragonfly\n" L2, 3,
		  "\"routing\" given twice (first on line 2)" },
		{ "switches 2\nlink 0 1 local\nports 0 1\nports 0 1\n", 4,
		  "port order of switch 0 already given on line 3" },
		/* each key once: accepted */
		{ "switches 2\nhosts 1\nswitch 0 hosts=2\nswitch 1 hosts=3\nspeed 100\n"
		  "latency local 10\nlatency global 20\npacket 100\n"
		  "link 0 1 local latency=5 speed=200\nbound hops=3 local=2 global=1\n"
		  "routing generic\nports 0 1\nports 1 0\n", 0, "" },
	};
	size_t k;

	for (k = 0; k < ARRAY_SIZE(rows); k++) {
		struct spritz_topo *t = NULL;
		char err[512] = "", want[64];
		int ret = spritz_fabric_parse(rows[k].text, "inline", &t, err, sizeof(err));

		if (!rows[k].line) {
			if (ASSERT_OK(ret, rows[k].text))
				ASSERT_EQ(t->nhosts, 5, "hosts");
			else
				printf("# %s\n", err);
			spritz_topo_free(t);
			continue;
		}
		snprintf(want, sizeof(want), "inline:%d: ", rows[k].line);
		if (!ASSERT_EQ(ret, -EINVAL, rows[k].text) ||
		    !ASSERT_TRUE(!strncmp(err, want, strlen(want)), "line named") ||
		    !ASSERT_OK_PTR(strstr(err, rows[k].err), "repeat named"))
			printf("# case %zu: got \"%s\"\n", k, err);
		ASSERT_NULL(t, "nothing loaded");
		spritz_topo_free(t);
	}
}
#undef L2
#undef L4

/* Too many ports on one switch. */
static void test_too_many_ports(void)
{
	size_t len = 0, cap = 300 * 32;
	char *text = malloc(cap), err[512] = "";
	struct spritz_topo *t = NULL;
	int i;

	len += snprintf(text + len, cap - len, "switches 300\n");
	for (i = 1; i < 300; i++)
		len += snprintf(text + len, cap - len, "link 0 %d global\n", i);
	ASSERT_ERR(spritz_fabric_parse(text, "star", &t, err, sizeof(err)), "257 ports");
	ASSERT_OK_PTR(strstr(err, "star:257: switch 0 gets more than 255"), "line of port 256");
	ASSERT_NULL(t, "nothing loaded");
	free(text);
}

/*
 * Many links: the link array grows by doubling from 256, and 2^21 + 1
 * links once asked for 2^22 > MAX_LINKS (4000000) slots and were refused
 * as "more than 4000000 links".  Each row: that many distinct links among
 * 20000 switches, then the first one again, so that the parse must get to
 * the end and the build stops at once on the parallel link; or more links
 * than MAX_LINKS, refused on the first one too many.
 */
static void test_many_links(void)
{
	static const struct {
		const char *name;
		long links;  /* distinct links */
		bool repeat; /* then link 0-1 again */
		const char *err;
	} rows[] = {
		{ "2^21 + 1 links", (1L << 21) + 1, true,
		  "big:2097155: second link between switches 0 and 1 (first on line 2)" },
		{ "4000001 links", 4000001, false, "big:4000002: more than 4000000 links" },
	};
	size_t k;

	for (k = 0; k < ARRAY_SIZE(rows); k++) {
		size_t cap = (size_t)(rows[k].links + 2) * 24, len = 0;
		char *text = malloc(cap), err[512] = "";
		struct spritz_topo *t = NULL;
		long n = 0;
		int a, b;

		if (!ASSERT_OK_PTR(text, "text"))
			return;
		len += snprintf(text, cap, "switches 20000\n");
		for (a = 0; a < 20000 && n < rows[k].links; a++)
			for (b = a + 1; b < 20000 && n < rows[k].links; b++, n++)
				len += snprintf(text + len, cap - len, "link %d %d local\n", a, b);
		if (rows[k].repeat)
			len += snprintf(text + len, cap - len, "link 0 1 local\n");
		ASSERT_EQ(spritz_fabric_parse(text, "big", &t, err, sizeof(err)), -EINVAL,
			  rows[k].name);
		ASSERT_NULL(t, "nothing loaded");
		if (!ASSERT_STREQ(err, rows[k].err, rows[k].name))
			printf("# %s: got \"%s\"\n", rows[k].name, err);
		free(text);
	}
}

/*
 * Link model limits: each row is a fabric, the verdict, and for accepted
 * fabrics the hop latency of link 0-1 as the model defines it (cable plus
 * serialization, computed here from the row's numbers).  Speeds past
 * 1 Pb/s once truncated to 32-bit Mb/s (100000000 Gb/s became
 * 1215752192 Mb/s) and serialization times past 4.29 ms to 32-bit ps.
 */
static void test_link_limits(void)
{
	static const struct {
		const char *name;
		const char *text;
		int ret;
		uint64_t cable_ps, packet, speed_mbps; /* accepted: the model of link 0-1 */
	} rows[] = {
		{ "1 Pb/s", "switches 2\nspeed 1000000\npacket 125\nlink 0 1 local\n", 0,
		  SPRITZ_DEF_LOCAL_CABLE_PS, 125, 1000000000ULL },
		{ "1 Pb/s per link", "switches 2\npacket 250\nlink 0 1 local speed=1000000\n", 0,
		  SPRITZ_DEF_LOCAL_CABLE_PS, 250, 1000000000ULL },
		{ "1 Mb/s, 10^6 B: 8 s serialization",
		  "switches 2\nspeed 0.001\npacket 1000000\nlink 0 1 local latency=4000000\n", 0,
		  4000000000ULL, 1000000, 1 },
		{ "4160 B at 1 Mb/s per link", "switches 2\nlink 0 1 global speed=0.001\n", 0,
		  SPRITZ_DEF_GLOBAL_CABLE_PS, SPRITZ_DEF_PACKET_BYTES, 1 },
		{ "4 ms default cable", "switches 2\nlatency local 4000000\nlink 0 1 local\n", 0,
		  4000000000ULL, SPRITZ_DEF_PACKET_BYTES, SPRITZ_DEF_LINK_SPEED_MBPS },
		{ "speed past 1 Pb/s", "switches 2\nspeed 1000000.001\n", -EINVAL, 0, 0, 0 },
		{ "speed 10^8 Gb/s", "switches 2\nspeed 100000000\n", -EINVAL, 0, 0, 0 },
		{ "link speed 2^32 Mb/s", "switches 2\nlink 0 1 local speed=4294967.296\n", -EINVAL, 0, 0, 0 },
		{ "cable past 4 ms", "switches 2\nlatency global 4000000.001\n", -EINVAL, 0, 0, 0 },
		{ "link cable past 4 ms", "switches 2\nlink 0 1 local latency=4000001\n", -EINVAL, 0, 0, 0 },
		{ "packet past 10^6 B", "switches 2\npacket 1000001\n", -EINVAL, 0, 0, 0 },
		{ "digits past the limit", "switches 2\nspeed 99999999999999999999\n", -EINVAL, 0, 0, 0 },
	};
	size_t k;

	for (k = 0; k < ARRAY_SIZE(rows); k++) {
		struct spritz_topo *t = NULL;
		char err[512] = "";
		uint64_t bits, want;
		int ret = spritz_fabric_parse(rows[k].text, "inline", &t, err, sizeof(err));

		if (!ASSERT_EQ(ret, rows[k].ret, rows[k].name)) {
			printf("# %s: %s\n", rows[k].name, err);
			spritz_topo_free(t);
			continue;
		}
		if (ret) {
			ASSERT_NULL(t, "nothing loaded");
			if (!ASSERT_TRUE(!strncmp(err, "inline:2: ", 10) ||
						 !strncmp(err, "inline:3: ", 10),
					 "line named"))
				printf("# %s: %s\n", rows[k].name, err);
			continue;
		}
		bits = rows[k].packet * 8;
		ASSERT_EQ(bits * 1000000 % rows[k].speed_mbps, 0, "row divides exactly");
		want = rows[k].cable_ps + bits * 1000000 / rows[k].speed_mbps;
		ASSERT_EQ(spritz_topo_hop_ps(t, 0, 0), want, rows[k].name);
		ASSERT_EQ(spritz_topo_hop_ps(t, 1, 0), want, rows[k].name);
		spritz_topo_free(t);
	}
}

/*
 * Fabrics without a single link: one switch is a fabric, several are not
 * connected.  The parser once passed the NULL link array to memcpy()
 * (UBSan: null pointer passed as argument 2).
 */
/* spritz_parse_milli(): "D[.DDD]" in thousandths, up to a maximum, or -1. */
static void test_parse_milli(void)
{
	static const struct {
		const char *s;
		long max, want;
	} rows[] = {
		{ "400", 1000000, 400000 },
		{ "0.5", 1000000, 500 },
		{ ".5", 1000000, 500 },
		{ "1.234", 1000000, 1234 },
		{ "007", 1000000, 7000 },
		{ "1", 1000, 1000 },
		{ "1.001", 1000, -1 },
		{ "1000000.001", 1000000000, -1 },
		{ "1.2345", 1000000, -1 },
		{ "1.", 1000000, -1 },
		{ ".", 1000000, -1 },
		{ "", 1000000, -1 },
		{ NULL, 1000000, -1 },
		{ "-1", 1000000, -1 },
		{ "+1", 1000000, -1 },
		{ " 1", 1000000, -1 },
		{ "1 ", 1000000, -1 },
		{ "1e3", 1000000, -1 },
		{ "1..2", 1000000, -1 },
		{ "1.2.3", 1000000, -1 },
		{ "9223372036854775807", LONG_MAX, -1 },
		{ "9223372036854775.807", LONG_MAX, LONG_MAX },
		{ "9223372036854775.808", LONG_MAX, -1 },
		{ "99999999999999999999", LONG_MAX, -1 },
	};
	char what[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		snprintf(what, sizeof(what), "\"%s\" max %ld", rows[i].s ? rows[i].s : "(null)",
			 rows[i].max);
		ASSERT_EQ(spritz_parse_milli(rows[i].s, rows[i].max), rows[i].want, what);
	}
}

static void test_linkless(void)
{
	static const struct {
		const char *text;
		int ret;
		const char *err;
	} rows[] = {
		{ "switches 1\n", 0, "" },
		{ "switches 1\nhosts 4\n# no link\n", 0, "" },
		{ "switches 3\n", -ENOTCONN, "inline: fabric is not connected" },
		{ "switches 2\nspeed 100\n", -ENOTCONN, "inline: fabric is not connected" },
	};
	size_t k;

	for (k = 0; k < ARRAY_SIZE(rows); k++) {
		struct spritz_topo *t = NULL;
		char err[512] = "";

		ASSERT_EQ(spritz_fabric_parse(rows[k].text, "inline", &t, err, sizeof(err)),
			  rows[k].ret, rows[k].text);
		if (!ASSERT_STREQ(err, rows[k].err, rows[k].text))
			continue;
		if (rows[k].ret) {
			ASSERT_NULL(t, "nothing loaded");
			continue;
		}
		if (ASSERT_OK_PTR(t, rows[k].text))
			ASSERT_EQ(t->nsw, 1, "one switch");
		spritz_topo_free(t);
	}
}

static const struct test_case cases[] = {
	{ "tiny", test_tiny },
	{ "dragonfly_file", test_dragonfly_file },
	{ "slimfly_file", test_slimfly_file },
	{ "bad_files", test_bad_files },
	{ "bad_text", test_bad_text },
	{ "repeats", test_repeats },
	{ "too_many_ports", test_too_many_ports },
	{ "many_links", test_many_links },
	{ "link_limits", test_link_limits },
	{ "linkless", test_linkless },
	{ "parse_milli", test_parse_milli },
};

TEST_MAIN(cases)
