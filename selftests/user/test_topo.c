// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fabric model tests: Dragonfly and Slim Fly construction (degrees,
 * diameter, palmtree global links, port order), GF(q) arithmetic, the
 * default routing table (minimal, documented tie-break), the link latency
 * model, TOPO string parsing and the size limits (switches, ports).
 */
#include <errno.h>

#include <spritz/maps.h>

#include "test.h"
#include "topo.h"
#include "topo_util.h"

/* Every switch: a-1 local ports in ascending id, then h global ports. */
static void test_df_degrees(void)
{
	static const int params[][3] = { { 4, 8, 4 }, { 2, 4, 2 }, { 1, 1, 1 }, { 3, 5, 3 } };
	size_t k;

	for (k = 0; k < ARRAY_SIZE(params); k++) {
		int p = params[k][0], a = params[k][1], h = params[k][2], s, i;
		struct spritz_topo *t;
		char spec[64];

		snprintf(spec, sizeof(spec), "dragonfly:p=%d,a=%d,h=%d", p, a, h);
		t = load(spec);
		if (!t)
			return;
		ASSERT_EQ(t->nsw, (a * h + 1) * a, "switches");
		ASSERT_EQ(t->ngroups, a * h + 1, "groups");
		ASSERT_EQ(t->nhosts, (long)p * t->nsw, "endpoints");
		for (s = 0; s < t->nsw; s++) {
			int G = s / a, idx = s % a;

			if (!ASSERT_EQ(spritz_topo_degree(t, s), a - 1 + h, "degree"))
				break;
			ASSERT_EQ(t->group[s], G, "group = id / a");
			for (i = 0; i < a - 1; i++) {
				ASSERT_EQ(spritz_topo_port_type(t, s, i), SPRITZ_LINK_LOCAL,
					  "local");
				ASSERT_EQ(spritz_topo_port_nbr(t, s, i), G * a + i + (i >= idx),
					  "local ascending");
			}
			for (i = 0; i < h; i++) {
				int n = spritz_topo_port_nbr(t, s, a - 1 + i);

				ASSERT_EQ(spritz_topo_port_type(t, s, a - 1 + i),
					  SPRITZ_LINK_GLOBAL, "global");
				ASSERT_EQ(n / a, (G + idx * h + i + 1) % (a * h + 1),
					  "palmtree group");
				ASSERT_EQ(n % a, a - 1 - idx, "palmtree landing index");
			}
			for (i = 0; i < a - 1 + h; i++)
				ASSERT_EQ(spritz_topo_port_of(t, s, spritz_topo_port_nbr(t, s, i)),
					  i, "port_of inverts port_nbr");
		}
		spritz_topo_free(t);
	}
}

/* Every pair of groups is joined by exactly one global link. */
static void test_df_global_links(void)
{
	struct spritz_topo *t = load("dragonfly:p=4,a=8,h=4");
	int *cnt, s, i, G1, G2;

	if (!t)
		return;
	cnt = calloc((size_t)t->ngroups * t->ngroups, sizeof(int));
	for (s = 0; s < t->nsw; s++)
		for (i = 0; i < spritz_topo_degree(t, s); i++) {
			int n = spritz_topo_port_nbr(t, s, i);

			if (spritz_topo_port_type(t, s, i) == SPRITZ_LINK_GLOBAL)
				cnt[t->group[s] * t->ngroups + t->group[n]]++;
			else
				ASSERT_EQ(t->group[n], t->group[s], "local link stays in group");
		}
	for (G1 = 0; G1 < t->ngroups; G1++)
		for (G2 = 0; G2 < t->ngroups; G2++)
			if (!ASSERT_EQ(cnt[G1 * t->ngroups + G2], G1 != G2, "one link per pair"))
				goto out;
out:
	free(cnt);
	spritz_topo_free(t);
}

static void test_df_diameter(void)
{
	struct spritz_topo *t = load("dragonfly:p=4,a=8,h=4");

	if (t)
		ASSERT_EQ(t->diameter, 3, "dragonfly diameter");
	spritz_topo_free(t);
	t = load("dragonfly:p=10,a=20,h=10");
	if (t) {
		ASSERT_EQ(t->nsw, 4020, "paper's large dragonfly switches");
		ASSERT_EQ(t->nhosts, 40200, "paper's large dragonfly endpoints");
		ASSERT_EQ(t->diameter, 3, "dragonfly diameter");
	}
	spritz_topo_free(t);
}

/*
 * Dragonfly limits, TOPO string to build: each row the verdict and a
 * substring of the message.  The reach bitsets grow with the square of the
 * switch count (dragonfly:a=64,h=128 would need tens of GB), so a fabric
 * past SPRITZ_TOPO_MAX_SWITCHES is refused before anything is allocated;
 * a - 1 + h past 255 ports is refused as such, whatever a and h are.
 */
static void test_df_limits(void)
{
	static const struct {
		const char *spec;
		int ret;
		const char *err;
	} rows[] = {
		{ "dragonfly:a=4,h=2", 0, "" },
		{ "dragonfly:a=64,h=128", -E2BIG,
		  "dragonfly with a = 64, h = 128 has 524352 switches, at most 65536" },
		{ "dragonfly:a=128,h=4", -E2BIG, "has 65664 switches, at most 65536" },
		{ "dragonfly:a=50,h=27", -E2BIG, "has 67550 switches, at most 65536" },
		{ "dragonfly:p=100000,a=20,h=10", -E2BIG, "402000000 endpoints, at most 100000000" },
		{ "dragonfly:a=300,h=1", -EINVAL, "a - 1 + h = 300 network ports, EVs address at most 255" },
		{ "dragonfly:a=1,h=300", -EINVAL, "a - 1 + h = 300 network ports" },
		{ "dragonfly:a=257,h=1", -EINVAL, "a - 1 + h = 257 network ports" },
		{ "dragonfly:a=1000000,h=1000000", -EINVAL, "a - 1 + h = 1999999 network ports" },
		{ "dragonfly:a=0,h=4", -EINVAL, "dragonfly needs a >= 1, h >= 1, p >= 0" },
		{ "dragonfly:a=4,h=0", -EINVAL, "dragonfly needs a >= 1, h >= 1, p >= 0" },
	};
	size_t k;

	for (k = 0; k < ARRAY_SIZE(rows); k++) {
		struct spritz_topo *t = NULL;
		char err[256] = "";
		int ret = spritz_topo_parse(rows[k].spec, &t, err, sizeof(err));

		if (!ASSERT_EQ(ret, rows[k].ret, rows[k].spec) ||
		    !ASSERT_OK_PTR(strstr(err, rows[k].err), rows[k].spec))
			printf("# %s: \"%s\"\n", rows[k].spec, err);
		if (rows[k].ret)
			ASSERT_NULL(t, "nothing built");
		spritz_topo_free(t);
	}
	ASSERT_EQ(SPRITZ_TOPO_MAX_SWITCHES, SPRITZ_DIR_MAX, "the directory holds every switch");
}

/* Field axioms of GF(q), including the extension fields. */
static void test_gf(void)
{
	static const int qs[] = { 2, 3, 4, 5, 7, 8, 9, 16, 25, 27, 29, 49, 121, 125, 128 };
	static struct spritz_gf F;
	size_t k;

	for (k = 0; k < ARRAY_SIZE(qs); k++) {
		int q = qs[k], a, b, c, e, v, bad = 0;

		if (!ASSERT_OK(spritz_gf_init(&F, q), "gf init"))
			continue;
		for (a = 0; a < q && !bad; a++) {
			bool inv = a == 0;

			bad |= F.add[a][0] != a || F.mul[a][1] != a || F.mul[a][0] != 0;
			bad |= F.add[a][F.neg[a]] != 0;
			for (b = 0; b < q && !bad; b++) {
				bad |= F.add[a][b] != F.add[b][a] || F.mul[a][b] != F.mul[b][a];
				inv |= F.mul[a][b] == 1;
				for (c = 0; q <= 29 && c < q; c++)
					bad |= F.mul[a][F.add[b][c]] !=
					       F.add[F.mul[a][b]][F.mul[a][c]] ||
					       F.mul[F.mul[a][b]][c] != F.mul[a][F.mul[b][c]];
			}
			bad |= !inv;
		}
		if (!ASSERT_FALSE(bad, "field axioms"))
			printf("# q = %d\n", q);
		/* xi is primitive: order q - 1 */
		for (v = F.xi, e = 1; v != 1 && e < q; e++)
			v = F.mul[v][F.xi];
		ASSERT_EQ(e, q - 1, "xi primitive");
	}
	ASSERT_ERR(spritz_gf_init(&F, 6), "GF(6)");
	ASSERT_ERR(spritz_gf_init(&F, 1), "GF(1)");
	ASSERT_ERR(spritz_gf_init(&F, 256), "GF(256) is out of range");
}

/* Slim Fly: 2q^2 switches, regular degree (3q - delta)/2, diameter 2. */
static void test_sf_degrees_diameter(void)
{
	static const int qs[] = { 3, 5, 7, 9, 11, 13, 17, 19, 23, 25, 27, 29 };
	size_t k;

	for (k = 0; k < ARRAY_SIZE(qs); k++) {
		int q = qs[k], delta = q % 4 == 1 ? 1 : -1, deg = (3 * q - delta) / 2, s, i;
		struct spritz_topo *t;
		char spec[64];

		snprintf(spec, sizeof(spec), "slimfly:q=%d,p=3", q);
		t = load(spec);
		if (!t)
			continue;
		ASSERT_EQ(t->nsw, 2 * q * q, "switches");
		ASSERT_EQ(spritz_slimfly_degree(q), deg, "degree formula");
		ASSERT_EQ(t->diameter, 2, "slim fly diameter");
		ASSERT_EQ(t->ngroups, 2 * q, "groups");
		for (s = 0; s < t->nsw; s++) {
			int locals = 0;

			if (!ASSERT_EQ(spritz_topo_degree(t, s), deg, "regular"))
				break;
			ASSERT_EQ(t->group[s], s / q, "group = q consecutive ids");
			for (i = 0; i < deg; i++) {
				int n = spritz_topo_port_nbr(t, s, i);

				if (i)
					ASSERT_LT(spritz_topo_port_nbr(t, s, i - 1), n,
						  "ascending");
				ASSERT_EQ(spritz_topo_port_type(t, s, i) == SPRITZ_LINK_LOCAL,
					  n / q == s / q, "local iff same group");
				locals += n / q == s / q;
			}
			/* (s,x,y) has |X| local neighbours and q global ones */
			ASSERT_EQ(locals, deg - q, "local neighbours");
		}
		spritz_topo_free(t);
	}
}

static void test_sf_reject(void)
{
	static const char *bad[] = { "slimfly:q=2", "slimfly:q=4", "slimfly:q=6", "slimfly:q=8",
				     "slimfly:q=1", "slimfly:q=0", "slimfly:q=256",
				     "slimfly:q=15" };
	struct spritz_topo *t = NULL;
	char err[256];
	size_t k;

	for (k = 0; k < ARRAY_SIZE(bad); k++) {
		err[0] = '\0';
		ASSERT_ERR(spritz_topo_parse(bad[k], &t, err, sizeof(err)), bad[k]);
		ASSERT_TRUE(err[0] != '\0', "message");
		ASSERT_NULL(t, "nothing built");
	}
}

/* Generic default route: shortest, lowest port index among shortest next hops. */
static void test_route_slimfly(void)
{
	struct spritz_topo *t = load("slimfly:q=9,p=7");
	int u, d, i;

	if (!t)
		return;
	for (u = 0; u < t->nsw; u++)
		for (d = 0; d < t->nsw; d++) {
			int best = -1, port;

			if (u == d)
				continue;
			for (i = 0; i < spritz_topo_degree(t, u) && best < 0; i++)
				if (spritz_topo_dist(t, spritz_topo_port_nbr(t, u, i), d) + 1 ==
				    spritz_topo_dist(t, u, d))
					best = i;
			port = spritz_topo_next_port(t, u, d);
			if (!ASSERT_EQ(port, best, "lowest port on a shortest path"))
				goto out;
		}
out:
	spritz_topo_free(t);
}

/* Dragonfly default route: local-global-local through the groups' link. */
static void test_route_dragonfly(void)
{
	struct spritz_topo *t = load("dragonfly:p=4,a=8,h=4");
	int u, d;

	if (!t)
		return;
	for (u = 0; u < t->nsw; u++)
		for (d = 0; d < t->nsw; d++) {
			int l, g, exp_l = 0;

			if (u == d)
				continue;
			spritz_topo_min_route(t, u, d, &l, &g);
			if (t->group[u] == t->group[d]) {
				if (!ASSERT_TRUE(l == 1 && g == 0, "same group: direct"))
					goto out;
				continue;
			}
			/* the one link between the groups: u' -> v' */
			{
				int G = t->group[u], x, i, up = -1, vp = -1;

				for (x = G * t->a; x < (G + 1) * t->a && up < 0; x++)
					for (i = 0; i < spritz_topo_degree(t, x); i++)
						if (t->group[spritz_topo_port_nbr(t, x, i)] ==
						    t->group[d]) {
							up = x;
							vp = spritz_topo_port_nbr(t, x, i);
						}
				exp_l = (up != u) + (vp != d);
			}
			if (!ASSERT_TRUE(g == 1 && l == exp_l, "local-global-local"))
				goto out;
		}
out:
	spritz_topo_free(t);
}

/* Table II hop latencies and a configurable model. */
static void test_link_model(void)
{
	struct spritz_topo *t = load("dragonfly:p=4,a=8,h=4");
	struct spritz_link_model m;

	if (!t)
		return;
	ASSERT_EQ(spritz_serialization_ps(4160, 400000), 83200, "83.2 ns serialization");
	/* at 1 Mb/s 4160 B take 33.28 ms, 10^6 B 8 s: past 32 bits of ps */
	ASSERT_EQ(spritz_serialization_ps(4160, 1), 4160ULL * 8 * 1000000, "4160 B at 1 Mb/s");
	ASSERT_EQ(spritz_serialization_ps(SPRITZ_MAX_PACKET_BYTES, 1),
		  (uint64_t)SPRITZ_MAX_PACKET_BYTES * 8 * 1000000, "largest packet at 1 Mb/s");
	ASSERT_EQ(spritz_serialization_ps(1, SPRITZ_MAX_SPEED_MBPS), 0, "1 B at 1 Pb/s rounds to 0");
	ASSERT_EQ(spritz_serialization_ps(125, SPRITZ_MAX_SPEED_MBPS), 1, "125 B at 1 Pb/s");
	ASSERT_EQ(spritz_topo_hop_ps(t, 0, 0), 108200, "local hop 108.2 ns");
	ASSERT_EQ(spritz_topo_hop_ps(t, 0, t->a - 1), 583200, "global hop 583.2 ns");
	m = t->model;
	m.speed_mbps = 100000;
	m.cable_ps[SPRITZ_LINK_LOCAL] = 5000;
	spritz_topo_set_model(t, &m);
	ASSERT_EQ(spritz_topo_hop_ps(t, 0, 0), 5000 + 332800, "100G local hop");
	ASSERT_EQ(spritz_topo_hop_ps(t, 0, t->a - 1), 500000 + 332800, "100G global hop");
	spritz_topo_free(t);
}

static void test_topo_parse(void)
{
	static const char *bad[] = {
		"", "dragonfly", "dragonfly:", "dragonfly:a=8", "dragonfly:a=8,h=4,x=1",
		"dragonfly:a=8,h=4,a=8", "dragonfly:a=8,h=-4", "dragonfly:a=8,h=4x",
		"dragonfly:a=8,,h=4", "dragonfly:a=8,h=4,", "dragonfly:a=0,h=4",
		"dragonfly:a=200,h=100", "dragonfly:a=,h=4", "dragonfly:a8,h=4", "slimfly:p=3",
		"slimfly:q=9,p=7,h=1", "slimfly:q=+9", "torus:n=4", "file:",
		"file:/nonexistent/spritz.fabric", "DRAGONFLY:a=8,h=4",
	};
	struct spritz_topo *t = NULL;
	char err[256];
	size_t k;

	for (k = 0; k < ARRAY_SIZE(bad); k++) {
		err[0] = '\0';
		if (!ASSERT_ERR(spritz_topo_parse(bad[k], &t, err, sizeof(err)), bad[k]))
			printf("# accepted \"%s\"\n", bad[k]);
		ASSERT_TRUE(err[0] != '\0', "message");
		ASSERT_NULL(t, "nothing built");
	}
	t = load("dragonfly:h=4,a=8");
	if (t) {
		ASSERT_EQ(t->p, 4, "p defaults to h");
		ASSERT_STREQ(t->name, "dragonfly:p=4,a=8,h=4", "canonical name");
	}
	spritz_topo_free(t);
	t = load("slimfly:q=29");
	if (t)
		ASSERT_EQ(t->p, 22, "p defaults to ceil(k/2)");
	spritz_topo_free(t);
	t = load("slimfly:p=7,q=9");
	if (t)
		ASSERT_EQ(t->nhosts, 1134, "paper's slim fly endpoints");
	spritz_topo_free(t);
}

/*
 * TOPO strings parsed without building: each row is a string and the spec
 * it gives, or an error (and then the spec is left as it was).
 */
static void test_topo_spec(void)
{
	static const struct {
		const char *spec;
		int ret;
		struct spritz_topo_spec want;
	} rows[] = {
		{ .spec = "dragonfly:a=8,h=4",
		  .want = { .kind = SPRITZ_TOPO_DRAGONFLY, .p = 4, .a = 8, .h = 4 } },
		{ .spec = "dragonfly:h=1,p=0,a=2",
		  .want = { .kind = SPRITZ_TOPO_DRAGONFLY, .p = 0, .a = 2, .h = 1 } },
		/* parsed, refused by the build (a - 1 + h = 1000 > 255 ports) */
		{ .spec = "dragonfly:a=1000,h=1",
		  .want = { .kind = SPRITZ_TOPO_DRAGONFLY, .p = 1, .a = 1000, .h = 1 } },
		{ .spec = "slimfly:q=9", .want = { .kind = SPRITZ_TOPO_SLIMFLY, .q = 9, .p = 7 } },
		{ .spec = "slimfly:p=3,q=5", .want = { .kind = SPRITZ_TOPO_SLIMFLY, .q = 5, .p = 3 } },
		{ .spec = "slimfly:q=8", .want = { .kind = SPRITZ_TOPO_SLIMFLY, .q = 8, .p = 0 } },
		{ .spec = "file:a:b", .want = { .kind = SPRITZ_TOPO_FILE, .path = "a:b" } },
		{ .spec = "dragonfly:a=8", .ret = -EINVAL },
		{ .spec = "dragonfly:a=8,h=1000001", .ret = -EINVAL },
		{ .spec = "dragonfly:a=8,h=99999999999999999999", .ret = -EINVAL },
		/* digits only: strtol() alone skips blanks, then takes a sign */
		{ .spec = "dragonfly:a= +4,h=2", .ret = -EINVAL },
		{ .spec = "dragonfly:a=4,h= 2", .ret = -EINVAL },
		{ .spec = "dragonfly:a=4,h=\t2", .ret = -EINVAL },
		{ .spec = "slimfly:q=\v9", .ret = -EINVAL },
		{ .spec = "slimfly:", .ret = -EINVAL },
		{ .spec = "file:", .ret = -EINVAL },
		{ .spec = ":a=1", .ret = -EINVAL },
		{ .spec = "dragonfly", .ret = -EINVAL },
	};
	size_t k;

	for (k = 0; k < ARRAY_SIZE(rows); k++) {
		struct spritz_topo_spec s = { .kind = 77, .p = -1 };
		char err[256] = "";
		int ret = spritz_topo_spec_parse(rows[k].spec, &s, err, sizeof(err));

		if (!ASSERT_EQ(ret, rows[k].ret, rows[k].spec))
			continue;
		if (ret) {
			ASSERT_TRUE(s.kind == 77 && s.p == -1, "a rejected string changes nothing");
			ASSERT_TRUE(err[0] != '\0', "message");
			continue;
		}
		ASSERT_EQ(s.kind, rows[k].want.kind, rows[k].spec);
		ASSERT_EQ(s.p, rows[k].want.p, rows[k].spec);
		ASSERT_EQ(s.a, rows[k].want.a, rows[k].spec);
		ASSERT_EQ(s.h, rows[k].want.h, rows[k].spec);
		ASSERT_EQ(s.q, rows[k].want.q, rows[k].spec);
		if (rows[k].want.path)
			ASSERT_STREQ(s.path, rows[k].want.path, rows[k].spec);
	}
}

static const struct test_case cases[] = {
	{ "df_degrees", test_df_degrees },
	{ "df_global_links", test_df_global_links },
	{ "df_diameter", test_df_diameter },
	{ "df_limits", test_df_limits },
	{ "gf", test_gf },
	{ "sf_degrees_diameter", test_sf_degrees_diameter },
	{ "sf_reject", test_sf_reject },
	{ "route_slimfly", test_route_slimfly },
	{ "route_dragonfly", test_route_dragonfly },
	{ "link_model", test_link_model },
	{ "topo_parse", test_topo_parse },
	{ "topo_spec", test_topo_spec },
};

TEST_MAIN(cases)
