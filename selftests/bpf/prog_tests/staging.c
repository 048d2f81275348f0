// SPDX-License-Identifier: GPL-2.0-only
/*
 * Transactions belong to their netlink socket (Documentation/netlink.rst,
 * "The transaction"; design-kmod.rst, "Writers"): two loaders on two
 * sockets interleave their transactions for different sources and each
 * gets exactly its own table; another socket's SET/COMMIT/ABORT cannot
 * touch a transaction; a socket closed or a loader killed mid-transaction
 * leaves no staging table behind (/sys/kernel/spritz/staging and
 * staging_bytes); at most SPRITZ_MAX_WRITERS sockets hold transaction
 * state, and a refused BEGIN takes none; concurrent failing writers each
 * get their own extack message.
 * Runs in the VM as root with spritz.ko inserted.
 */
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "kmod_util.h"
#include "test.h"

#define NSW 16
#define NDST 4	/* lists per loader */
#define NPATH 6 /* paths per list */

static char err[256];

/*
 * The list of loader @who (1 or 2), round @round, destination @j: EVs
 * and weights that no other (who, round, j) has.
 */
static void fill_list(struct spritz_nl_path *p, int who, int round, int j)
{
	int i;

	for (i = 0; i < NPATH; i++) {
		p[i].ev = SPRITZ_EV(who * 16 + j, i);
		p[i].lat_class = i % 3;
		p[i].base_weight = SPRITZ_WEIGHT_ONE + (uint32_t)(round * 64 + i);
	}
}

/* Loader @who's destinations: 1, 3, 5, 7 for loader 1; 2, 4, 6, 8 for 2. */
static uint32_t dst_of(int who, int j)
{
	return 2 * j + who;
}

/* Is the dump @c's table of @src exactly loader @who's of @round? */
static bool check_table(const struct dump_copy *c, uint32_t src, int who, int round)
{
	struct spritz_nl_path want[NPATH];
	int i, j, n = 0;
	bool ok = true;

	for (i = 0; i < c->n; i++) {
		const struct spritz_nl_dest *d = &c->d[i];

		if (d->src_switch != src)
			continue;
		for (j = 0; j < NDST && d->dst != dst_of(who, j); j++)
			;
		ok &= ASSERT_LT(j, NDST, "destination of this loader");
		if (j == NDST)
			continue;
		n++;
		fill_list(want, who, round, j);
		ok &= ASSERT_EQ(d->num_switches, NSW, "num_switches");
		if (!ASSERT_EQ(d->npaths, NPATH, "paths"))
			return false;
		for (j = 0; j < NPATH; j++) {
			ok &= ASSERT_EQ(d->paths[j].ev, want[j].ev, "ev");
			ok &= ASSERT_EQ(d->paths[j].lat_class, want[j].lat_class, "lat_class");
			ok &= ASSERT_EQ(d->paths[j].base_weight, want[j].base_weight, "base_weight");
		}
	}
	ok &= ASSERT_EQ(n, NDST, "destinations of the table");
	return ok;
}

static struct spritz_nl *open_nl(void)
{
	struct spritz_nl *nl = NULL;

	if (!ASSERT_OK(spritz_nl_open(&nl, err, sizeof(err)), "spritz_nl_open"))
		printf("# %s\n", err);
	return nl;
}

/* Nothing staged by anyone. */
static bool no_staging(const char *what)
{
	bool ok = ASSERT_EQ(knob_get("staging"), 0, what);

	return ASSERT_EQ(knob_get("staging_bytes"), 0, what) && ok;
}

/* BEGIN and SET of one list, one socket after the other, then COMMIT. */
static void test_interleaved(void)
{
	struct spritz_nl_path p[NPATH];
	struct spritz_nl *a = open_nl(), *b = open_nl();
	struct dump_copy c = { 0 };
	int j;

	if (!a || !b)
		goto out;
	spritz_nl_flush(a, SPRITZ_NL_ALL, NULL, 0);
	ASSERT_OK(spritz_nl_begin(a, 1, NSW, err, sizeof(err)), "begin a (src 1)");
	ASSERT_OK(spritz_nl_begin(b, 2, NSW, err, sizeof(err)), "begin b (src 2)");
	for (j = 0; j < NDST; j++) {
		fill_list(p, 1, 0, j);
		ASSERT_OK(spritz_nl_set(a, dst_of(1, j), p, NPATH, err, sizeof(err)), "set a");
		fill_list(p, 2, 0, j);
		ASSERT_OK(spritz_nl_set(b, dst_of(2, j), p, NPATH, err, sizeof(err)), "set b");
	}
	ASSERT_EQ(knob_get("staging"), 2, "two staging tables");
	ASSERT_OK(spritz_nl_commit(a, err, sizeof(err)), "commit a");
	ASSERT_EQ(knob_get("staging"), 1, "b's still staged");
	if (!ASSERT_OK(spritz_nl_commit(b, err, sizeof(err)), "commit b"))
		printf("# %s\n", err);
	no_staging("nothing staged after both commits");
	if (ASSERT_OK(dump_table(a, &c), "dump")) {
		ASSERT_EQ(c.n, 2 * NDST, "lists of both tables, nothing else");
		check_table(&c, 1, 1, 0);
		check_table(&c, 2, 2, 0);
	}
	spritz_nl_flush(a, SPRITZ_NL_ALL, NULL, 0);
out:
	dump_copy_free(&c);
	spritz_nl_close(a);
	spritz_nl_close(b);
}

/* One loader process: @rounds loads of source @who, each checked by a dump. */
static int loader(int who, int rounds)
{
	struct spritz_nl_path p[NDST][NPATH];
	struct spritz_nl_dest d[NDST];
	struct dump_copy c = { 0 };
	struct spritz_nl *nl;
	int r, j, bad = 0;

	if (spritz_nl_open(&nl, err, sizeof(err)))
		return 2;
	for (r = 0; r < rounds && !bad; r++) {
		for (j = 0; j < NDST; j++) {
			fill_list(p[j], who, r, j);
			d[j] = (struct spritz_nl_dest){ .dst = dst_of(who, j), .npaths = NPATH,
							.paths = p[j] };
		}
		if (spritz_nl_load(nl, who, NSW, d, NDST, err, sizeof(err))) {
			printf("# loader %d round %d: %s\n", who, r, err);
			bad = 1;
		} else if (dump_table(nl, &c) || !check_table(&c, who, who, r)) {
			printf("# loader %d round %d: dump differs\n", who, r);
			bad = 1;
		}
	}
	dump_copy_free(&c);
	spritz_nl_close(nl);
	return bad;
}

/* Two processes load sources 1 and 2 over and over at the same time. */
static void test_concurrent_writers(void)
{
	int who, status, ok = 0;
	pid_t pid[2];

	for (who = 1; who <= 2; who++) {
		pid[who - 1] = fork();
		if (pid[who - 1] == 0)
			_exit(loader(who, 30));
	}
	for (who = 0; who < 2; who++) {
		if (pid[who] > 0 && waitpid(pid[who], &status, 0) == pid[who])
			ok += WIFEXITED(status) && WEXITSTATUS(status) == 0;
	}
	ASSERT_EQ(ok, 2, "both loaders got exactly their tables");
	no_staging("nothing staged after the loaders");
}

/*
 * Socket c stages a table; socket d's SET, COMMIT and ABORT find no
 * transaction of their own and change nothing; c commits exactly its
 * lists; c's next transaction disappears when c closes.
 */
static void test_closed_mid_transaction(void)
{
	struct spritz_nl *c = open_nl(), *d = open_nl();
	struct spritz_nl_path p[NPATH], q[NPATH];
	struct dump_copy dc = { 0 };
	long long bytes;
	int j;

	if (!c || !d)
		goto out;
	spritz_nl_flush(d, SPRITZ_NL_ALL, NULL, 0);
	no_staging("nothing staged before");
	ASSERT_OK(spritz_nl_begin(c, 1, NSW, err, sizeof(err)), "begin c");
	for (j = 0; j < NDST; j++) {
		fill_list(p, 1, 0, j);
		ASSERT_OK(spritz_nl_set(c, dst_of(1, j), p, NPATH, err, sizeof(err)), "set c");
	}
	ASSERT_EQ(knob_get("staging"), 1, "c's staging table");
	bytes = knob_get("staging_bytes");
	ASSERT_GT(bytes, 0, "staging_bytes");

	fill_list(q, 2, 0, 0);
	err[0] = '\0';
	ASSERT_EQ(spritz_nl_set(d, dst_of(2, 0), q, NPATH, err, sizeof(err)), -ENOENT,
		  "set from another socket");
	ASSERT_TRUE(strstr(err, "no table transaction open") != NULL, "set: message");
	ASSERT_EQ(spritz_nl_commit(d, err, sizeof(err)), -ENOENT, "commit from another socket");
	ASSERT_EQ(spritz_nl_abort(d, err, sizeof(err)), -ENOENT, "abort from another socket");
	ASSERT_EQ(knob_get("staging"), 1, "c's staging table still there");
	ASSERT_EQ(knob_get("staging_bytes"), bytes, "and unchanged");
	if (ASSERT_OK(dump_table(d, &dc), "dump") && !ASSERT_EQ(dc.n, 0, "nothing live"))
		goto out;

	ASSERT_OK(spritz_nl_commit(c, err, sizeof(err)), "commit c");
	if (ASSERT_OK(dump_table(d, &dc), "dump")) {
		ASSERT_EQ(dc.n, NDST, "c's lists only");
		check_table(&dc, 1, 1, 0);
	}

	/* a second transaction of c, closed before its commit */
	ASSERT_OK(spritz_nl_begin(c, 1, NSW, err, sizeof(err)), "begin c again");
	fill_list(p, 1, 1, 0);
	ASSERT_OK(spritz_nl_set(c, dst_of(1, 0), p, NPATH, err, sizeof(err)), "set c again");
	ASSERT_EQ(knob_get("staging"), 1, "staged again");
	spritz_nl_close(c);
	c = NULL;
	no_staging("freed when the socket closed");
	if (ASSERT_OK(dump_table(d, &dc), "dump")) {
		ASSERT_EQ(dc.n, NDST, "live table unchanged");
		check_table(&dc, 1, 1, 0);
	}
	spritz_nl_flush(d, SPRITZ_NL_ALL, NULL, 0);
out:
	dump_copy_free(&dc);
	spritz_nl_close(c);
	spritz_nl_close(d);
}

/* A loader killed between SET and COMMIT: its staging table is freed. */
static void test_killed_loader(void)
{
	static struct spritz_nl_path big[SPRITZ_MAX_PATHS];
	struct spritz_nl *nl = open_nl();
	struct dump_copy c = { 0 };
	int fds[2], status, i;
	char ready = 0;
	pid_t pid;

	if (!nl || !ASSERT_OK(pipe(fds), "pipe"))
		goto out;
	for (i = 0; i < SPRITZ_MAX_PATHS; i++)
		big[i] = (struct spritz_nl_path){ .ev = (uint16_t)i, .lat_class = 0,
						  .base_weight = SPRITZ_WEIGHT_ONE };
	pid = fork();
	if (pid == 0) {
		struct spritz_nl *k;

		close(fds[0]);
		if (spritz_nl_open(&k, err, sizeof(err)) ||
		    spritz_nl_begin(k, 3, NSW, err, sizeof(err)) ||
		    spritz_nl_set(k, 1, big, SPRITZ_MAX_PATHS, err, sizeof(err)))
			_exit(1);
		if (write(fds[1], "r", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(fds[1]);
	if (!ASSERT_GT(pid, 0, "fork"))
		goto out;
	ASSERT_EQ(read(fds[0], &ready, 1), 1, "loader staged its table");
	close(fds[0]);
	ASSERT_EQ(knob_get("staging"), 1, "the loader's staging table");
	/* more than the paths themselves: 4096 x (EV entry + samplers) */
	ASSERT_GT(knob_get("staging_bytes"), SPRITZ_MAX_PATHS * 100LL, "its bytes");
	ASSERT_EQ(spritz_nl_commit(nl, err, sizeof(err)), -ENOENT, "commit from another socket");
	kill(pid, SIGKILL);
	ASSERT_EQ(waitpid(pid, &status, 0), pid, "waitpid");
	ASSERT_TRUE(WIFSIGNALED(status), "loader killed");
	no_staging("freed with the killed loader's socket");
	if (ASSERT_OK(dump_table(nl, &c), "dump"))
		ASSERT_EQ(c.n, 0, "nothing was published");
out:
	dump_copy_free(&c);
	spritz_nl_close(nl);
}

/* SPRITZ_MAX_WRITERS sockets with a transaction; one more is refused. */
static void test_writer_limit(void)
{
	struct spritz_nl *s[SPRITZ_MAX_WRITERS + 1] = { 0 };
	int i;

	no_staging("nothing staged before");
	for (i = 0; i <= SPRITZ_MAX_WRITERS; i++)
		if (!(s[i] = open_nl()))
			goto out;
	for (i = 0; i < SPRITZ_MAX_WRITERS; i++)
		ASSERT_OK(spritz_nl_begin(s[i], 0, NSW, err, sizeof(err)), "begin");
	ASSERT_EQ(knob_get("staging"), SPRITZ_MAX_WRITERS, "staging tables");
	err[0] = '\0';
	ASSERT_EQ(spritz_nl_begin(s[i], 0, NSW, err, sizeof(err)), -EBUSY, "one writer more");
	printf("# %s\n", err);
	ASSERT_TRUE(strstr(err, "too many") != NULL, "message");
	ASSERT_EQ(knob_get("staging"), SPRITZ_MAX_WRITERS, "no more staging tables");
	/* a closed socket frees its place */
	spritz_nl_close(s[0]);
	s[0] = NULL;
	ASSERT_OK(spritz_nl_begin(s[i], 0, NSW, err, sizeof(err)), "begin after a close");
out:
	for (i = 0; i <= SPRITZ_MAX_WRITERS; i++)
		spritz_nl_close(s[i]);
	no_staging("all freed with their sockets");
}

/*
 * A refused BEGIN changes nothing: SPRITZ_MAX_WRITERS sockets that each
 * sent one BEGIN with a source outside the fabric hold no place among the
 * writers, so the next loader still gets its transaction.
 */
static void test_refused_begin(void)
{
	struct spritz_nl *s[SPRITZ_MAX_WRITERS + 1] = { 0 };
	int i;

	no_staging("nothing staged before");
	for (i = 0; i <= SPRITZ_MAX_WRITERS; i++)
		if (!(s[i] = open_nl()))
			goto out;
	for (i = 0; i < SPRITZ_MAX_WRITERS; i++) {
		err[0] = '\0';
		ASSERT_EQ(spritz_nl_begin(s[i], NSW, NSW, err, sizeof(err)), -EINVAL,
			  "begin outside the fabric");
		ASSERT_TRUE(strstr(err, "SRC_SWITCH") != NULL, "message");
	}
	printf("# %s\n", err);
	no_staging("nothing staged by the refused");
	if (!ASSERT_OK(spritz_nl_begin(s[i], 0, NSW, err, sizeof(err)), "a loader after them"))
		printf("# %s\n", err);
	ASSERT_EQ(knob_get("staging"), 1, "its staging table");
	ASSERT_OK(spritz_nl_abort(s[i], err, sizeof(err)), "abort");
out:
	for (i = 0; i <= SPRITZ_MAX_WRITERS; i++)
		spritz_nl_close(s[i]);
	no_staging("all freed with their sockets");
}

/*
 * A raw generic netlink socket without NETLINK_CAP_ACK: the kernel copies
 * the whole (big) request into the ACK before the message, which widens
 * the window between the handler and the copy of its message.
 */
struct raw {
	struct mnl_socket *sock;
	char *buf;
	size_t len;
};

static int raw_open(struct raw *r)
{
	int one = 1;

	r->len = 2 * spritz_nl_bufsize();
	r->buf = malloc(r->len);
	r->sock = mnl_socket_open(NETLINK_GENERIC);
	if (!r->buf || !r->sock)
		return -1;
	mnl_socket_setsockopt(r->sock, NETLINK_EXT_ACK, &one, sizeof(one));
	return mnl_socket_bind(r->sock, 0, MNL_SOCKET_AUTOPID);
}

/* Send @nlh, wait for its ACK: the error, and the message into @msg. */
static int raw_talk(struct raw *r, struct nlmsghdr *nlh, char *msg, size_t msglen)
{
	uint32_t portid = mnl_socket_get_portid(r->sock);
	ssize_t n;

	msg[0] = '\0';
	if (mnl_socket_sendto(r->sock, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	for (;;) {
		struct nlmsghdr *m;
		int len;

		n = mnl_socket_recvfrom(r->sock, r->buf, r->len);
		if (n < 0)
			return -errno;
		len = (int)n;
		for (m = (struct nlmsghdr *)r->buf; mnl_nlmsg_ok(m, len); m = mnl_nlmsg_next(m, &len)) {
			const struct nlmsgerr *e = mnl_nlmsg_get_payload(m);
			const struct nlattr *a;
			size_t off = sizeof(*e);

			if (m->nlmsg_type != NLMSG_ERROR || m->nlmsg_seq != nlh->nlmsg_seq ||
			    m->nlmsg_pid != portid)
				continue;
			if (!(m->nlmsg_flags & NLM_F_CAPPED))
				off += e->msg.nlmsg_len - sizeof(struct nlmsghdr);
			if (m->nlmsg_flags & NLM_F_ACK_TLVS) {
				mnl_attr_for_each(a, m, off) {
					if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG &&
					    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0)
						snprintf(msg, msglen, "%s", mnl_attr_get_str(a));
				}
			}
			return e->error;
		}
	}
}

#define EXTACK_ROUNDS 300

/*
 * Writer 1: TABLE_SET of 4096 paths whose last repeats the first EV, on
 * a raw socket; writer 2: TABLE_SET of one path for a destination outside
 * the fabric, through libspritz.  Both messages are formatted into the
 * writer's buffer on 6.1; each writer checks every message is its own.  Both run on
 * one CPU: a writer preempted between its handler and its ACK (at the
 * ACK's allocation, GFP_KERNEL) lets the other run a whole request in
 * between, which is the window a message shared between sockets loses in.
 */
static int extack_writer(int who, struct spritz_nl *fam)
{
	cpu_set_t cpu0;
	static struct spritz_nl_path p[SPRITZ_MAX_PATHS];
	char want[128], got[256];
	struct nlattr *list, *one;
	struct nlmsghdr *nlh;
	struct spritz_nl *nl;
	struct raw r = { 0 };
	int i, e, bad = 0;
	char *buf;

	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	if (sched_setaffinity(0, sizeof(cpu0), &cpu0))
		return 2;
	if (who == 2) {
		if (spritz_nl_open(&nl, err, sizeof(err)) ||
		    spritz_nl_begin(nl, 1, NSW, err, sizeof(err)))
			return 2;
		p[0] = (struct spritz_nl_path){ .ev = 1, .base_weight = SPRITZ_WEIGHT_ONE };
		snprintf(want, sizeof(want), "spritz: unknown destination switch %u (>= %u switches)",
			 NSW + 5, NSW);
		for (i = 0; i < 4 * EXTACK_ROUNDS && !bad; i++) {
			e = spritz_nl_set(nl, NSW + 5, p, 1, got, sizeof(got));
			if (e != -EINVAL || strcmp(got, want)) {
				printf("# writer 2 round %d: %d \"%s\"\n", i, e, got);
				bad = 1;
			}
		}
		spritz_nl_close(nl);
		return bad;
	}
	buf = malloc(spritz_nl_bufsize());
	if (!buf || raw_open(&r))
		return 2;
	nlh = spritz_nl_msg(fam, buf, SPRITZ_CMD_TABLE_BEGIN);
	mnl_attr_put_u32(nlh, SPRITZ_A_SRC_SWITCH, 0);
	mnl_attr_put_u32(nlh, SPRITZ_A_NUM_SWITCHES, NSW);
	if (raw_talk(&r, nlh, got, sizeof(got)))
		return 2;
	for (i = 0; i < SPRITZ_MAX_PATHS; i++)
		p[i] = (struct spritz_nl_path){ .ev = (uint16_t)i, .base_weight = SPRITZ_WEIGHT_ONE };
	p[SPRITZ_MAX_PATHS - 1].ev = 7;
	snprintf(want, sizeof(want), "spritz: path %d: duplicate EV 0x%04x", SPRITZ_MAX_PATHS - 1, 7);
	for (i = 0; i < EXTACK_ROUNDS && !bad; i++) {
		int k;

		nlh = spritz_nl_msg(fam, buf, SPRITZ_CMD_TABLE_SET);
		mnl_attr_put_u32(nlh, SPRITZ_A_DST, 1);
		list = mnl_attr_nest_start(nlh, SPRITZ_A_PATHS);
		for (k = 0; k < SPRITZ_MAX_PATHS; k++) {
			if (k && k % 1024 == 0) {
				mnl_attr_nest_end(nlh, list);
				list = mnl_attr_nest_start(nlh, SPRITZ_A_PATHS);
			}
			one = mnl_attr_nest_start(nlh, SPRITZ_A_PATH);
			mnl_attr_put_u16(nlh, SPRITZ_PATH_A_EV, p[k].ev);
			mnl_attr_put_u8(nlh, SPRITZ_PATH_A_LAT_CLASS, 0);
			mnl_attr_put_u32(nlh, SPRITZ_PATH_A_BASE_WEIGHT, p[k].base_weight);
			mnl_attr_nest_end(nlh, one);
		}
		mnl_attr_nest_end(nlh, list);
		e = raw_talk(&r, nlh, got, sizeof(got));
		if (e != -EINVAL || strcmp(got, want)) {
			printf("# writer 1 round %d: %d \"%s\"\n", i, e, got);
			bad = 1;
		}
	}
	mnl_socket_close(r.sock);
	free(r.buf);
	free(buf);
	return bad;
}

static void test_extack_concurrent(void)
{
	struct spritz_nl *fam = open_nl();
	int who, status, ok = 0;
	pid_t pid[2];

	if (!fam)
		return;
	for (who = 1; who <= 2; who++) {
		pid[who - 1] = fork();
		if (pid[who - 1] == 0)
			_exit(extack_writer(who, fam));
	}
	for (who = 0; who < 2; who++) {
		if (pid[who] > 0 && waitpid(pid[who], &status, 0) == pid[who])
			ok += WIFEXITED(status) && WEXITSTATUS(status) == 0;
	}
	ASSERT_EQ(ok, 2, "each writer got its own messages");
	spritz_nl_close(fam);
	no_staging("nothing staged after the writers");
}

static const struct test_case cases[] = {
	{ "interleaved", test_interleaved },
	{ "concurrent_writers", test_concurrent_writers },
	{ "closed_mid_transaction", test_closed_mid_transaction },
	{ "killed_loader", test_killed_loader },
	{ "writer_limit", test_writer_limit },
	{ "refused_begin", test_refused_begin },
	{ "extack_concurrent", test_extack_concurrent },
};

TEST_MAIN(cases)
