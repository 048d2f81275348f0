// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the simulator's endpoint tables (sim/tables.cc): every host
 * has its own, as every host of a deployment runs its own spritz.ko, so a
 * TIMEOUT disables a path for the flows of the host that saw it and not
 * for the other hosts of its switch; and a disable behaves as the module's
 * (kmod/table.c spritz_path_timeout()): it lasts disable_ms, a repeat
 * extends it, the last enabled path is never taken away, nor the share
 * of min_enabled_pct (the table of selftests/lib/floor_cases.h, which
 * bpf/sampling runs against spritz.ko).
 *
 * Fixture: Dragonfly p=2,a=4,h=2, hosts 0 and 1 behind switch 0, and the
 * list of switch 0 to switch 5 (another group: 8 paths).
 *
 * Also the switch ports' queue rule (port_verdict() of sim/model.h):
 * Table II's queue of one BDP, ECN marks linear between 0.2 and 0.8 of it.
 */
#include <cerrno>
#include <map>
#include <vector>

#include "floor_cases.h"
#include "model.h"
#include "test.h"

using namespace spritz_sim;

namespace {

const uint32_t SRC = 0, DST = 5, H0 = 0, H1 = 1;
const uint64_t MS = 1000000ULL;

struct Fixture {
	spritz_topo *t = nullptr;
	spritz_knob_values k;
	Tables *tab = nullptr;
	Rng rng{7};

	Fixture()
	{
		char err[128];

		if (spritz_topo_parse("dragonfly:p=2,a=4,h=2", &t, err, sizeof(err)))
			test__fail("failed to parse the fixture: %s", err);
		memset(&k, 0, sizeof(k));
#define SPRITZ_KNOB_DEF(name, def, min, max) k.name = def;
		SPRITZ_KNOBS(SPRITZ_KNOB_DEF)
#undef SPRITZ_KNOB_DEF
		k.weighted = 0;
		tab = new Tables(t, k);
	}
	~Fixture()
	{
		delete tab;
		spritz_topo_free(t);
	}
	/*
	 * How often each EV comes out of @n picks of @host at @now (uniform
	 * unless @flags), avoiding @avoid; failures under 0xffff.
	 */
	std::map<uint16_t, int> picks(uint32_t host, int n, uint64_t now, uint64_t avoid = 0,
				      uint32_t flags = SPRITZ_PICK_UNIFORM)
	{
		std::map<uint16_t, int> c;

		for (int i = 0; i < n; i++) {
			int r = tab->pick(host, SRC, DST, flags, avoid, now, rng);

			if (r < 0)
				c[0xffff]++;
			else
				c[(uint16_t)r]++;
		}
		return c;
	}
};

/* A TIMEOUT is the host's: the other host of the switch keeps the path. */
void test_per_host(void)
{
	Fixture f;
	auto all = f.picks(H0, 4000, 1);

	ASSERT_EQ(all.size(), 8, "paths of switch 0 to switch 5");
	uint16_t ev = all.begin()->first;

	ASSERT_OK(f.tab->timeout(H0, SRC, DST, ev, 10), "timeout on host 0");
	ASSERT_EQ(f.tab->disables, 1, "disables");
	auto h0 = f.picks(H0, 4000, 20);
	auto h1 = f.picks(H1, 4000, 20);
	ASSERT_EQ(h0.count(ev), 0, "host 0 no longer picks it");
	ASSERT_EQ(h0.size(), 7, "host 0 picks the other seven");
	ASSERT_GT(h1[ev], 0, "host 1 still picks it");
	ASSERT_EQ(h1.size(), 8, "host 1 picks all eight");

	auto now = f.tab->disabled_now();
	ASSERT_EQ(now.size(), 1, "one disabled path");
	if (now.size() == 1) {
		ASSERT_EQ(now[0].host, H0, "disabled for host 0");
		ASSERT_EQ(now[0].src, SRC, "its switch");
		ASSERT_EQ(now[0].dst, DST, "the destination");
		ASSERT_EQ(now[0].ev, ev, "the EV");
	}
	ASSERT_OK(f.tab->timeout(H1, SRC, DST, ev, 30), "timeout on host 1");
	ASSERT_EQ(f.tab->disables, 2, "host 1's disable counts apart");
	ASSERT_EQ(f.tab->disabled_now().size(), 2, "two disabled paths");
}

/* A disable lasts disable_ms; a repeat extends it. */
void test_expiry(void)
{
	Fixture f;
	uint16_t ev = f.picks(H0, 4000, 1).begin()->first;
	uint64_t d = f.k.disable_ms * MS;

	ASSERT_OK(f.tab->timeout(H0, SRC, DST, ev, 100), "timeout at 100 ns");
	ASSERT_OK(f.tab->timeout(H0, SRC, DST, ev, 100 + d / 2), "again half-way");
	ASSERT_EQ(f.tab->disables, 1, "a repeat is not a new disable");
	ASSERT_EQ(f.picks(H0, 4000, 100 + d).count(ev), 0, "still off at the first expiry");
	ASSERT_GT(f.picks(H0, 4000, 100 + d / 2 + d)[ev], 0, "back at the extended expiry");
	ASSERT_EQ(f.tab->enables, 1, "enables");
}

/* The last enabled path stays (min_enabled_pct 0): disabling it brings
 * the least recently disabled one back instead. */
void test_last_path(void)
{
	Fixture f;
	auto all = f.picks(H0, 4000, 1);
	uint64_t t = 10;

	f.k.min_enabled_pct = 0;
	f.tab->set_knobs(f.k);

	for (auto &e : all)
		ASSERT_OK(f.tab->timeout(H0, SRC, DST, e.first, t++), "timeout");
	auto left = f.picks(H0, 4000, t);
	ASSERT_EQ(left.count(0xffff), 0, "a pick never fails");
	ASSERT_EQ(left.size(), 1, "one path left");
	ASSERT_GT(left[all.begin()->first], 0, "the first disabled, back");
	ASSERT_EQ(f.picks(H1, 4000, t).size(), 8, "host 1 untouched");
}

/* The floor's table (floor_cases.h) on host 0's 8 paths to switch 5. */
void test_floor(void)
{
	Fixture f;
	auto all = f.picks(H0, 4000, 1);
	std::vector<uint16_t> ev;
	char what[64];
	uint64_t fe = 0;

	for (auto &e : all)
		ev.push_back(e.first);
	if (!ASSERT_EQ(ev.size(), FLOOR_NPATHS, "the fixture's paths"))
		return;
	for (size_t i = 0; i < sizeof(floor_cases) / sizeof(floor_cases[0]); i++) {
		const floor_case &c = floor_cases[i];
		unsigned int mask = 0;

		snprintf(what, sizeof(what), "floor row %zu", i + 1);
		f.k.min_enabled_pct = c.pct;
		f.tab->set_knobs(f.k);
		ASSERT_EQ(f.tab->timeout(H0, SRC, DST, ev[c.path], 10 + i),
			  c.kept ? SPRITZ_TIMEOUT_KEPT : 0, what);
		for (auto &k : f.tab->disabled_now())
			for (size_t j = 0; j < ev.size(); j++)
				if (k.host == H0 && k.dst == DST && k.ev == ev[j])
					mask |= 1U << j;
		fe += c.floor_enables;
		ASSERT_EQ(mask, c.disabled, what);
		ASSERT_EQ(f.tab->floor_enables, fe, what);
	}
}

/* Bad keys change nothing. */
void test_bad_keys(void)
{
	Fixture f;
	uint16_t ev = f.picks(H0, 100, 1).begin()->first;

	ASSERT_EQ(f.tab->timeout(H0, SRC, DST, 0xfefe, 5), -ENOENT, "unknown EV");
	ASSERT_EQ(f.tab->timeout((uint32_t)f.t->nhosts, SRC, DST, ev, 5), -ENOENT,
		  "host out of range");
	ASSERT_EQ(f.tab->timeout(H0, SRC, SRC, ev, 5), -ENOENT, "to its own switch");
	ASSERT_EQ(f.tab->pick(H0, SRC, (uint32_t)f.t->nsw, 0, 0, 5, f.rng), -ENOENT,
		  "switch out of range");
	ASSERT_EQ(f.tab->disables, 0, "no disable");
	ASSERT_EQ(f.tab->disabled_now().size(), 0, "nothing disabled");
}

/*
 * A pick avoids the EVs of its avoid set (spritz_fb_avoid(), as
 * bpf_spritz_pick() in the module) while another enabled path exists.  A
 * row: the indices (into the destination's EVs in order) avoided and
 * disabled, the flags -> the indices picked in 4000 picks.
 */
struct AvoidRow {
	std::vector<int> avoid, disable;
	uint32_t flags;
	std::vector<int> want;
	const char *name;
};

void test_avoid(void)
{
	static const AvoidRow rows[] = {
		{ {}, {}, SPRITZ_PICK_UNIFORM, { 0, 1, 2, 3, 4, 5, 6, 7 }, "nothing avoided" },
		{ { 0 }, {}, SPRITZ_PICK_UNIFORM, { 1, 2, 3, 4, 5, 6, 7 }, "one avoided" },
		{ { 0, 3, 7 }, {}, SPRITZ_PICK_UNIFORM, { 1, 2, 4, 5, 6 }, "three avoided" },
		{ { 5 }, { 0, 1, 2, 3, 4, 6 }, SPRITZ_PICK_UNIFORM, { 7 }, "avoided and disabled: the one left" },
		{ { 5, 7 }, { 0, 1, 2, 3, 4, 6 }, SPRITZ_PICK_UNIFORM, { 5, 7 },
		  "every enabled path avoided: the enabled ones" },
		{ { 1 }, {}, 0, { 0, 2, 3, 4, 5, 6, 7 }, "weighted" },
	};
	Fixture f;
	auto all = f.picks(H0, 4000, 1);
	std::vector<uint16_t> evs;

	for (auto &e : all)
		evs.push_back(e.first);
	if (!ASSERT_EQ(evs.size(), 8, "paths of switch 0 to switch 5"))
		return;
	for (const AvoidRow &r : rows) {
		Fixture g;
		uint64_t avoid = 0, t = 10;
		std::map<uint16_t, int> want;

		g.k.min_enabled_pct = 0; /* six of eight disabled: no floor */
		g.tab->set_knobs(g.k);
		for (int i : r.disable)
			ASSERT_OK(g.tab->timeout(H0, SRC, DST, evs[i], t++), r.name);
		for (int i : r.avoid)
			avoid = spritz_avoid_add(avoid, evs[i]);
		for (int i : r.want)
			want[evs[i]] = 1;
		auto got = g.picks(H0, 4000, t, avoid, r.flags);
		for (auto &e : got)
			e.second = 1;
		ASSERT_TRUE(got == want, r.name);
	}
	/* the minimal path avoided under the small-flow bias (its weight 100
	 * to 1): most draws land on it, and the uniform choice after
	 * SPRITZ_PICK_TRIES of them takes every other path */
	Fixture g;
	auto biased = g.picks(H0, 4000, 1, 0, SPRITZ_PICK_SMALL_FLOW);
	uint16_t min = biased.begin()->first;

	for (auto &e : biased)
		if (e.second > biased[min])
			min = e.first;
	ASSERT_GT(biased[min], 3000, "the small-flow bias: mostly the minimal path");
	auto spread = g.picks(H0, 4000, 1, spritz_avoid_add(0, min), SPRITZ_PICK_SMALL_FLOW);
	ASSERT_EQ(spread.count(min), 0, "the minimal path avoided");
	ASSERT_EQ(spread.size(), 7, "every other path taken");
	/* bad sets change nothing */
	uint64_t four = (uint64_t)4 << 48 | 0x000100020003ULL;
	auto before = g.tab->disabled_now().size();

	ASSERT_EQ(g.tab->pick(H0, SRC, DST, SPRITZ_PICK_UNIFORM, four, 1, g.rng), -EINVAL,
		  "four EVs: -EINVAL");
	ASSERT_EQ(g.tab->pick(H0, SRC, DST, 1U << 7, 0, 1, g.rng), -EINVAL, "bad flags: -EINVAL");
	ASSERT_EQ(g.tab->disabled_now().size(), before, "nothing disabled");
}

/* A row: backlog, draw, ECN-capable -> verdict, on Dragonfly's 88-packet queue. */
struct QueueRow {
	uint32_t n;
	double u;
	bool ect;
	PortVerdict want;
	const char *name;
};

void test_port_queue(void)
{
	const uint32_t cap = 88; /* marks from 17.6 to 70.4 packets */
	static const QueueRow rows[] = {
		{ 0, 0.0, true, PORT_ENQUEUE, "empty" },
		{ 17, 0.0, true, PORT_ENQUEUE, "below 0.2: never marked" },
		{ 17, 0.0, false, PORT_ENQUEUE, "below 0.2: not ECN-capable, kept" },
		{ 18, 0.0, true, PORT_MARK, "just above 0.2, lowest draw: marked" },
		{ 18, 0.01, true, PORT_ENQUEUE, "just above 0.2: p = 0.0076" },
		{ 44, 0.49, true, PORT_MARK, "half way (p = 0.5): a draw below" },
		{ 44, 0.51, true, PORT_ENQUEUE, "half way: a draw above" },
		{ 44, 0.49, false, PORT_DROP, "half way, not ECN-capable: dropped instead" },
		{ 44, 0.51, false, PORT_ENQUEUE, "half way, not ECN-capable, draw above: kept" },
		{ 70, 0.99, true, PORT_MARK, "below 0.8: p = 0.992" },
		{ 71, 0.9999, true, PORT_MARK, "above 0.8: always" },
		{ 87, 0.9999, false, PORT_DROP, "above 0.8, not ECN-capable: always dropped" },
		{ 88, 0.0, true, PORT_DROP, "full" },
		{ 500, 0.0, true, PORT_DROP, "past full" },
	};
	int n = 0;

	for (const QueueRow &r : rows)
		ASSERT_EQ(port_verdict(r.n, cap, r.u, r.ect), r.want, r.name);
	/* over an even grid of draws the marked share is the line's value */
	for (int i = 0; i < 1000; i++)
		n += port_verdict(44, cap, (i + 0.5) / 1000, true) == PORT_MARK;
	ASSERT_EQ(n, 500, "marks of 1000 draws at 44 packets (p = 0.5)");
	n = 0;
	for (int i = 0; i < 1000; i++)
		n += port_verdict(31, cap, (i + 0.5) / 1000, true) == PORT_MARK;
	ASSERT_EQ(n, 254, "marks of 1000 draws at 31 packets (p = 13.4 / 52.8)");
}

const struct test_case cases[] = {
	{ "port_queue", test_port_queue },
	{ "per_host", test_per_host },
	{ "expiry", test_expiry },
	{ "last_path", test_last_path },
	{ "floor", test_floor },
	{ "bad_keys", test_bad_keys },
	{ "avoid", test_avoid },
};

} // namespace

TEST_MAIN(cases)
