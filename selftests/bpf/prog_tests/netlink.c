// SPDX-License-Identifier: GPL-2.0-only
/*
 * The "spritz" generic netlink family (Documentation/netlink.rst) through
 * libspritz's libmnl client: a table loads, dumps back with each path's
 * state (Eq. 1 weights x w_scale, Spritz paper §V), is replaced atomically
 * and flushed; malformed messages are refused with an extack message and
 * change nothing; an unprivileged writer is refused.  Runs in the VM as
 * root with spritz.ko inserted.
 */
#include <sys/wait.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include "kmod_util.h"
#include "test.h"

#define NSW 16

static struct spritz_nl *nl;
static char err[256];

/* Table I (Dragonfly) latencies in ns, longest last. */
static const double df_lat[] = { 583.2, 691.4, 799.6, 1166.4, 1274.6, 1382.8, 1491.0 };
#define NDF (ARRAY_SIZE(df_lat))

static struct spritz_nl_path p1[NDF], p2[SPRITZ_MAX_PATHS + 1], p3[1];
static struct spritz_nl_dest t1[3];

/* Table 1: dst 1 = Table I paths, dst 2 = 4096 paths, dst 3 = one path. */
static void build_t1(void)
{
	unsigned int i;

	for (i = 0; i < NDF; i++) {
		p1[i].ev = SPRITZ_EV(i, i < 3 ? SPRITZ_EV2_UNUSED : i);
		p1[i].lat_class = i;
		p1[i].base_weight = eq1_weight(df_lat[NDF - 1], df_lat[i]);
	}
	for (i = 0; i <= SPRITZ_MAX_PATHS; i++) {
		p2[i].ev = (uint16_t)i; /* EV1 < 17: in range */
		p2[i].lat_class = i < 100 ? 0 : 1;
		p2[i].base_weight = i < 100 ? 2 * SPRITZ_WEIGHT_ONE : SPRITZ_WEIGHT_ONE;
	}
	p3[0] = (struct spritz_nl_path){ .ev = SPRITZ_EV(7, 7), .lat_class = 0,
					 .base_weight = SPRITZ_WEIGHT_ONE };
	t1[0] = (struct spritz_nl_dest){ .dst = 1, .npaths = NDF, .paths = p1 };
	t1[1] = (struct spritz_nl_dest){ .dst = 2, .npaths = SPRITZ_MAX_PATHS, .paths = p2 };
	t1[2] = (struct spritz_nl_dest){ .dst = 3, .npaths = 1, .paths = p3 };
}

/* Does the dump @c hold exactly table 1 (with default knobs)? */
static void check_t1(const struct dump_copy *c)
{
	const struct spritz_nl_dest *d;
	unsigned int i, j;

	if (!ASSERT_EQ(c->n, 3, "destinations in dump"))
		return;
	for (j = 0; j < 3; j++) {
		d = dump_dest(c, t1[j].dst);
		if (!ASSERT_OK_PTR(d, "dumped destination") ||
		    !ASSERT_EQ(d->npaths, t1[j].npaths, "paths of destination"))
			return;
		ASSERT_EQ(d->src_switch, 0, "src_switch");
		ASSERT_EQ(d->num_switches, NSW, "num_switches");
		for (i = 0; i < d->npaths; i++) {
			const struct spritz_nl_path *w = &t1[j].paths[i], *g = &d->paths[i];
			uint64_t want = w->base_weight > SPRITZ_WEIGHT_ONE ?
						(uint64_t)w->base_weight * 3 :
						w->base_weight;

			if (!ASSERT_EQ(g->ev, w->ev, "ev") ||
			    !ASSERT_EQ(g->lat_class, w->lat_class, "lat_class") ||
			    !ASSERT_EQ(g->base_weight, w->base_weight, "base_weight") ||
			    !ASSERT_EQ(g->weight, want, "weight = base x w_scale (longest 1.0)") ||
			    !ASSERT_EQ(g->disabled_ms, 0, "enabled"))
				return;
		}
	}
}

static void test_open(void)
{
	int e = spritz_nl_open(&nl, err, sizeof(err));

	if (!ASSERT_OK(e, "spritz_nl_open"))
		printf("# %s\n", err);
	build_t1();
}

static void test_load_dump(void)
{
	struct dump_copy c = { 0 };

	if (!ASSERT_OK_PTR(nl, "socket"))
		return;
	spritz_nl_flush(nl, SPRITZ_NL_ALL, NULL, 0);
	if (!ASSERT_OK(dump_table(nl, &c), "dump empty") || !ASSERT_EQ(c.n, 0, "empty"))
		return;
	if (!ASSERT_OK(spritz_nl_load(nl, 0, NSW, t1, 3, err, sizeof(err)), "load"))
		printf("# %s\n", err);
	ASSERT_EQ(knob_get("tables"), 3, "sysfs tables");
	ASSERT_EQ(knob_get("paths"), NDF + SPRITZ_MAX_PATHS + 1, "sysfs paths");
	if (ASSERT_OK(dump_table(nl, &c), "dump"))
		check_t1(&c);
	/* the Eq. 1 example of §V: 1491.0 / 799.6 ~ 1.86 */
	ASSERT_NEAR(p1[2].base_weight / (double)SPRITZ_WEIGHT_ONE, 1.8647, 1e-3, "Eq. 1");
	dump_copy_free(&c);
}

static void test_replace(void)
{
	struct spritz_nl_path q[2] = {
		{ .ev = SPRITZ_EV(1, 2), .lat_class = 0, .base_weight = 3 * SPRITZ_WEIGHT_ONE },
		{ .ev = SPRITZ_EV(2, 1), .lat_class = 1, .base_weight = SPRITZ_WEIGHT_ONE },
	};
	struct spritz_nl_dest t2 = { .dst = 9, .npaths = 2, .paths = q };
	struct dump_copy c = { 0 };
	uint32_t gen;

	if (!ASSERT_OK(dump_table(nl, &c), "dump") || !ASSERT_GT(c.n, 0, "table"))
		return;
	gen = c.d[0].generation;
	if (!ASSERT_OK(spritz_nl_load(nl, 0, 10, &t2, 1, err, sizeof(err)), "replace"))
		printf("# %s\n", err);
	if (ASSERT_OK(dump_table(nl, &c), "dump") && ASSERT_EQ(c.n, 1, "one destination")) {
		ASSERT_EQ(c.d[0].dst, 9, "dst");
		ASSERT_EQ(c.d[0].src_switch, 0, "src");
		ASSERT_EQ(c.d[0].num_switches, 10, "num_switches");
		ASSERT_GT(c.d[0].generation, gen, "generation bumped");
		ASSERT_EQ(c.d[0].npaths, 2, "paths");
		ASSERT_EQ(c.d[0].paths[0].weight, 9 * SPRITZ_WEIGHT_ONE, "3.0 x w_scale");
	}
	/* an aborted transaction changes nothing */
	ASSERT_OK(spritz_nl_begin(nl, 0, NSW, err, sizeof(err)), "begin");
	ASSERT_OK(spritz_nl_set(nl, 1, p1, NDF, err, sizeof(err)), "set");
	ASSERT_OK(spritz_nl_abort(nl, err, sizeof(err)), "abort");
	if (ASSERT_OK(dump_table(nl, &c), "dump after abort"))
		ASSERT_TRUE(c.n == 1 && c.d[0].dst == 9, "abort left the live table");
	/* back to table 1 for the next tests */
	ASSERT_OK(spritz_nl_load(nl, 0, NSW, t1, 3, err, sizeof(err)), "load t1");
	dump_copy_free(&c);
}

/*
 * One table per source switch: loading another source adds a table, the
 * dump lists them in (source, destination) order, a flush drops one.
 */
static void test_sources(void)
{
	struct spritz_nl_path q[1] = {
		{ .ev = SPRITZ_EV(3, 4), .lat_class = 0, .base_weight = SPRITZ_WEIGHT_ONE },
	};
	struct spritz_nl_dest t2[2] = {
		{ .dst = 0, .npaths = 1, .paths = q },
		{ .dst = 1, .npaths = 1, .paths = q },
	};
	struct dump_copy c = { 0 };
	int i, n0 = 0, n7 = 0;

	if (!ASSERT_OK(spritz_nl_load(nl, 7, NSW, t2, 2, err, sizeof(err)), "load src 7"))
		printf("# %s\n", err);
	if (ASSERT_OK(dump_table(nl, &c), "dump")) {
		for (i = 0; i < c.n; i++) {
			n0 += c.d[i].src_switch == 0;
			n7 += c.d[i].src_switch == 7;
			if (i)
				ASSERT_TRUE(c.d[i - 1].src_switch < c.d[i].src_switch ||
						    (c.d[i - 1].src_switch == c.d[i].src_switch &&
						     c.d[i - 1].dst < c.d[i].dst),
					    "(source, destination) order");
		}
		ASSERT_EQ(n0, 3, "src 0 lists kept");
		ASSERT_EQ(n7, 2, "src 7 lists");
		ASSERT_EQ(c.n, 5, "both tables");
	}
	ASSERT_EQ(knob_get("tables"), 5, "sysfs tables: lists of both");
	ASSERT_OK(spritz_nl_flush(nl, 7, err, sizeof(err)), "flush src 7");
	if (ASSERT_OK(dump_table(nl, &c), "dump")) {
		ASSERT_EQ(c.n, 3, "src 0 only");
		for (i = 0; i < c.n; i++)
			ASSERT_EQ(c.d[i].src_switch, 0, "src");
	}
	/* flushing a source without a table is not an error */
	ASSERT_OK(spritz_nl_flush(nl, 7, err, sizeof(err)), "flush src 7 again");
	dump_copy_free(&c);
}

/* One malformed message: refused with a message. */
static bool refused(int e, const char *what)
{
	bool ok = ASSERT_ERR(e, what);

	printf("# %-28s -> %d: %s\n", what, e, e ? err : "");
	ok &= ASSERT_TRUE(err[0] != '\0', "error message");
	err[0] = '\0';
	return ok;
}

/* A TABLE_SET for dst 4 with @n paths given by @fill. */
static int send_set(uint32_t dst, int n, void (*fill)(struct nlmsghdr *nlh, int i))
{
	char *buf = malloc(spritz_nl_bufsize());
	struct nlattr *list, *one;
	struct nlmsghdr *nlh;
	int i, e;

	nlh = spritz_nl_msg(nl, buf, SPRITZ_CMD_TABLE_SET);
	mnl_attr_put_u32(nlh, SPRITZ_A_DST, dst);
	list = mnl_attr_nest_start(nlh, SPRITZ_A_PATHS);
	for (i = 0; i < n; i++) {
		one = mnl_attr_nest_start(nlh, SPRITZ_A_PATH);
		fill(nlh, i);
		mnl_attr_nest_end(nlh, one);
	}
	mnl_attr_nest_end(nlh, list);
	e = spritz_nl_send(nl, nlh, err, sizeof(err));
	free(buf);
	return e;
}

static void fill_no_weight(struct nlmsghdr *nlh, int i)
{
	mnl_attr_put_u16(nlh, SPRITZ_PATH_A_EV, i);
	mnl_attr_put_u8(nlh, SPRITZ_PATH_A_LAT_CLASS, 0);
}

static void fill_u32_ev(struct nlmsghdr *nlh, int i)
{
	mnl_attr_put_u32(nlh, SPRITZ_PATH_A_EV, i);
	mnl_attr_put_u8(nlh, SPRITZ_PATH_A_LAT_CLASS, 0);
	mnl_attr_put_u32(nlh, SPRITZ_PATH_A_BASE_WEIGHT, SPRITZ_WEIGHT_ONE);
}

static void fill_dump_attr(struct nlmsghdr *nlh, int i)
{
	mnl_attr_put_u16(nlh, SPRITZ_PATH_A_EV, i);
	mnl_attr_put_u8(nlh, SPRITZ_PATH_A_LAT_CLASS, 0);
	mnl_attr_put_u32(nlh, SPRITZ_PATH_A_BASE_WEIGHT, SPRITZ_WEIGHT_ONE);
	mnl_attr_put_u64(nlh, SPRITZ_PATH_A_PICKS, 5);
}

static void fill_unknown(struct nlmsghdr *nlh, int i)
{
	mnl_attr_put_u16(nlh, SPRITZ_PATH_A_EV, i);
	mnl_attr_put_u8(nlh, SPRITZ_PATH_A_LAT_CLASS, 0);
	mnl_attr_put_u32(nlh, SPRITZ_PATH_A_BASE_WEIGHT, SPRITZ_WEIGHT_ONE);
	mnl_attr_put_u32(nlh, SPRITZ_PATH_A_MAX + 1, 0);
}

static void test_malformed(void)
{
	struct spritz_nl_path zero[2] = { { .ev = 1 }, { .ev = 2 } };
	struct spritz_nl_path bad_ev[1] = { { .ev = SPRITZ_EV(0xff, 0), .base_weight = 1 } };
	struct spritz_nl_path dup[2] = { { .ev = 5, .base_weight = 1 }, { .ev = 5, .base_weight = 1 } };
	struct dump_copy c = { 0 };
	struct nlmsghdr *nlh;
	char buf[512];
	int e;

	err[0] = '\0';
	/* no transaction */
	refused(spritz_nl_set(nl, 4, p3, 1, err, sizeof(err)), "set without begin");
	refused(spritz_nl_commit(nl, err, sizeof(err)), "commit without begin");
	/* BEGIN */
	refused(spritz_nl_begin(nl, 16, 16, err, sizeof(err)), "src >= num_switches");
	refused(spritz_nl_begin(nl, 0, 0, err, sizeof(err)), "num_switches 0");
	refused(spritz_nl_begin(nl, 0, SPRITZ_MAX_SWITCHES + 1, err, sizeof(err)),
		"num_switches too big");
	nlh = spritz_nl_msg(nl, buf, SPRITZ_CMD_TABLE_BEGIN);
	mnl_attr_put_u32(nlh, SPRITZ_A_SRC_SWITCH, 0);
	refused(spritz_nl_send(nl, nlh, err, sizeof(err)), "begin without num_switches");

	/* SET inside an open transaction: each refused, staging unchanged */
	ASSERT_OK(spritz_nl_begin(nl, 0, NSW, err, sizeof(err)), "begin");
	ASSERT_OK(spritz_nl_set(nl, 3, p3, 1, err, sizeof(err)), "valid set");
	refused(spritz_nl_set(nl, NSW, p3, 1, err, sizeof(err)), "unknown switch");
	refused(spritz_nl_set(nl, 4, p2, SPRITZ_MAX_PATHS + 1, err, sizeof(err)), "too many paths");
	refused(spritz_nl_set(nl, 4, p2, 0, err, sizeof(err)), "no paths");
	refused(spritz_nl_set(nl, 4, zero, 2, err, sizeof(err)), "all weights zero");
	refused(spritz_nl_set(nl, 4, bad_ev, 1, err, sizeof(err)), "EV1 out of range");
	refused(spritz_nl_set(nl, 4, dup, 2, err, sizeof(err)), "duplicate EV");
	refused(spritz_nl_set(nl, 3, p1, NDF, err, sizeof(err)), "duplicate destination");
	refused(send_set(4, 2, fill_no_weight), "path without weight");
	refused(send_set(4, 2, fill_u32_ev), "EV of the wrong size");
	refused(send_set(4, 2, fill_dump_attr), "dump-only attribute");
	refused(send_set(4, 2, fill_unknown), "unknown path attribute");
	nlh = spritz_nl_msg(nl, buf, SPRITZ_CMD_TABLE_SET);
	mnl_attr_put_u32(nlh, SPRITZ_A_DST, 4);
	mnl_attr_put_u32(nlh, SPRITZ_A_MAX + 1, 0);
	refused(spritz_nl_send(nl, nlh, err, sizeof(err)), "unknown attribute");
	nlh = spritz_nl_msg(nl, buf, SPRITZ_CMD_TABLE_SET);
	mnl_attr_put_u32(nlh, SPRITZ_A_DST, 4);
	refused(spritz_nl_send(nl, nlh, err, sizeof(err)), "set without paths");
	nlh = spritz_nl_msg(nl, buf, SPRITZ_CMD_TABLE_SET);
	mnl_attr_put_u16(nlh, SPRITZ_A_DST, 4);
	refused(spritz_nl_send(nl, nlh, err, sizeof(err)), "dst of the wrong size");
	nlh = spritz_nl_msg(nl, buf, SPRITZ_CMD_TABLE_COMMIT);
	mnl_attr_put_u32(nlh, SPRITZ_A_GENERATION, 7);
	refused(spritz_nl_send(nl, nlh, err, sizeof(err)), "read-only attribute");
	nlh = spritz_nl_msg(nl, buf, SPRITZ_CMD_MAX + 1);
	refused(spritz_nl_send(nl, nlh, err, sizeof(err)), "unknown command");
	/* every command's header is checked: a FLUSH taken would empty the live table */
	nlh = spritz_nl_msg(nl, buf, SPRITZ_CMD_TABLE_FLUSH);
	((struct genlmsghdr *)mnl_nlmsg_get_payload(nlh))->reserved = 0xffff;
	e = spritz_nl_send(nl, nlh, err, sizeof(err));
	if (refused(e, "reserved header field"))
		ASSERT_EQ(e, -EINVAL, "reserved header field: EINVAL");
	nlh = spritz_nl_msg(nl, buf, SPRITZ_CMD_TABLE_FLUSH);
	nlh->nlmsg_flags |= NLM_F_EXCL;
	e = spritz_nl_send(nl, nlh, err, sizeof(err));
	if (refused(e, "reserved nlmsg_flags"))
		ASSERT_EQ(e, -EINVAL, "reserved nlmsg_flags: EINVAL");

	/* nothing refused reached the live table: it is still table 1 */
	if (ASSERT_OK(dump_table(nl, &c), "dump live"))
		check_t1(&c);
	/* ... nor the staging table: it commits with just dst 3 */
	ASSERT_OK(spritz_nl_commit(nl, err, sizeof(err)), "commit");
	if (ASSERT_OK(dump_table(nl, &c), "dump") && ASSERT_EQ(c.n, 1, "one destination"))
		ASSERT_TRUE(c.d[0].dst == 3 && c.d[0].npaths == 1, "only the valid set");
	ASSERT_OK(spritz_nl_load(nl, 0, NSW, t1, 3, err, sizeof(err)), "load t1");
	dump_copy_free(&c);
}

static void test_unprivileged(void)
{
	struct dump_copy c = { 0 };
	int status;
	pid_t pid;

	pid = fork();
	if (pid == 0) {
		struct spritz_nl *u;
		int ok = 1;

		/* nobody: no CAP_NET_ADMIN */
		if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
			_exit(2);
		if (spritz_nl_open(&u, err, sizeof(err)))
			_exit(3);
		ok &= spritz_nl_begin(u, 0, NSW, err, sizeof(err)) == -EPERM;
		ok &= spritz_nl_flush(u, SPRITZ_NL_ALL, err, sizeof(err)) == -EPERM;
		ok &= spritz_nl_commit(u, err, sizeof(err)) == -EPERM;
		ok &= dump_table(u, &c) == 0 && c.n == 3; /* reading is allowed */
		_exit(ok ? 0 : 1);
	}
	if (!ASSERT_GT(pid, 0, "fork"))
		return;
	waitpid(pid, &status, 0);
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0, "unprivileged writes -EPERM");
	if (ASSERT_OK(dump_table(nl, &c), "dump"))
		check_t1(&c);
	dump_copy_free(&c);
}

static void test_knob_reweights(void)
{
	struct dump_copy c = { 0 };
	const struct spritz_nl_dest *d;
	double t0 = now_ms();
	bool seen = false;

	/* weights follow w_scale once the samplers are rebuilt (work item) */
	ASSERT_OK(knob_set("w_scale", 5), "w_scale = 5");
	while (!seen && now_ms() - t0 < 2000) {
		if (dump_table(nl, &c))
			break;
		d = dump_dest(&c, 1);
		seen = d && d->paths[0].weight == d->paths[0].base_weight * 5;
		usleep(10000);
	}
	ASSERT_TRUE(seen, "weight = base x 5");
	ASSERT_OK(knob_set("weighted", 0), "weighted = 0");
	if (ASSERT_OK(dump_table(nl, &c), "dump") && (d = dump_dest(&c, 1)))
		ASSERT_EQ(d->paths[0].weight, SPRITZ_WEIGHT_ONE, "uniform: 1.0");
	knob_set("weighted", 1);
	knob_set("w_scale", 3);
	dump_copy_free(&c);
}

static void test_flush(void)
{
	struct dump_copy c = { 0 };

	ASSERT_OK(spritz_nl_flush(nl, SPRITZ_NL_ALL, err, sizeof(err)), "flush");
	if (ASSERT_OK(dump_table(nl, &c), "dump"))
		ASSERT_EQ(c.n, 0, "no table");
	ASSERT_EQ(knob_get("tables"), 0, "sysfs tables");
	ASSERT_EQ(knob_get("paths"), 0, "sysfs paths");
	spritz_nl_close(nl);
	nl = NULL;
}

static const struct test_case cases[] = {
	{ "open", test_open },
	{ "load_dump", test_load_dump },
	{ "replace", test_replace },
	{ "sources", test_sources },
	{ "malformed", test_malformed },
	{ "unprivileged", test_unprivileged },
	{ "knob_reweights", test_knob_reweights },
	{ "flush", test_flush },
};

TEST_MAIN(cases)
