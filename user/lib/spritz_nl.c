// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * libspritz: the "spritz" generic netlink family over libmnl.
 *
 * Loads the endpoint tables of the Spritz paper (§III-C) into spritz.ko
 * and dumps them back; see spritz_nl.h for the API and
 * Documentation/netlink.rst for the protocol.  Errors carry the kernel's
 * extended ACK message (NLMSGERR_ATTR_MSG) when there is one.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <spritz/netlink.h>

#include "spritz_err.h"
#include "spritz_nl.h"

/* Big enough for one TABLE_SET of SPRITZ_MAX_PATHS paths. */
#define SPRITZ_NL_BUFSIZE (SPRITZ_MAX_PATHS * 32 + 4096)
#define SPRITZ_NL_DUMP_TRIES 8
/* Paths per SPRITZ_A_PATHS attribute: 28 bytes each, under 64 KiB. */
#define SPRITZ_NL_PATHS_PER_ATTR 1024

struct spritz_nl {
	struct mnl_socket *sock;
	uint16_t family;
	uint32_t portid;
	uint32_t seq;
	char *buf; /* SPRITZ_NL_BUFSIZE: requests and replies */
};

/* The extack message of an NLMSG_ERROR / NLMSG_DONE, or NULL. */
static const char *extack_msg(const struct nlmsghdr *nlh)
{
	const struct nlattr *attr;
	size_t off;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return NULL;
	if (nlh->nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);

		off = sizeof(*e);
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
			off += e->msg.nlmsg_len - sizeof(struct nlmsghdr);
	} else {
		off = sizeof(int);
	}
	mnl_attr_for_each(attr, nlh, off) {
		if (mnl_attr_get_type(attr) == NLMSGERR_ATTR_MSG &&
		    mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0)
			return mnl_attr_get_str(attr);
	}
	return NULL;
}

/* Record error @e (negative errno) with the extack message if any. */
static int fail(const struct nlmsghdr *nlh, int e, char *err, size_t errlen)
{
	const char *msg = nlh ? extack_msg(nlh) : NULL;

	if (msg)
		spritz_seterr(err, errlen, "%s", msg);
	else
		spritz_seterr(err, errlen, "%s", strerror(-e));
	return e;
}

/*
 * Send @nlh and read replies until its ACK or NLMSG_DONE; data messages go
 * to @cb.  Returns 0, the kernel's error, or -errno.
 */
static int talk(struct spritz_nl *nl, struct nlmsghdr *nlh, mnl_cb_t cb, void *arg, char *err,
		size_t errlen)
{
	uint32_t seq = nlh->nlmsg_seq;
	bool intr = false;
	ssize_t n;

	if (mnl_socket_sendto(nl->sock, nlh, nlh->nlmsg_len) < 0)
		return fail(NULL, -errno, err, errlen);
	for (;;) {
		struct nlmsghdr *m;
		int len;

		n = mnl_socket_recvfrom(nl->sock, nl->buf, SPRITZ_NL_BUFSIZE);
		if (n < 0)
			return fail(NULL, -errno, err, errlen);
		len = (int)n;
		for (m = (struct nlmsghdr *)nl->buf; mnl_nlmsg_ok(m, len);
		     m = mnl_nlmsg_next(m, &len)) {
			if (m->nlmsg_seq != seq || m->nlmsg_pid != nl->portid)
				continue; /* a stale reply */
			if (m->nlmsg_flags & NLM_F_DUMP_INTR)
				intr = true;
			if (m->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = mnl_nlmsg_get_payload(m);

				if (e->error)
					return fail(m, e->error, err, errlen);
				return 0;
			}
			if (m->nlmsg_type == NLMSG_DONE) {
				int e = *(int *)mnl_nlmsg_get_payload(m);

				if (e < 0)
					return fail(m, e, err, errlen);
				return intr ? fail(NULL, -EINTR, err, errlen) : 0;
			}
			if (m->nlmsg_type < NLMSG_MIN_TYPE)
				continue;
			if (cb && cb(m, arg) != MNL_CB_OK)
				return fail(NULL, errno ? -errno : -EPROTO, err, errlen);
		}
	}
}

/* A generic netlink header for @cmd of @family in @buf. */
static struct nlmsghdr *msg_start(struct spritz_nl *nl, void *buf, uint16_t family, uint8_t cmd,
				  uint8_t version, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = family;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++nl->seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = version;
	return nlh;
}

/* CTRL_CMD_GETFAMILY reply: the family id. */
static int family_cb(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *attr;

	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(attr) == CTRL_ATTR_FAMILY_ID &&
		    mnl_attr_validate(attr, MNL_TYPE_U16) == 0)
			*(uint16_t *)arg = mnl_attr_get_u16(attr);
	}
	return MNL_CB_OK;
}

int spritz_nl_open(struct spritz_nl **out, char *err, size_t errlen)
{
	struct spritz_nl *nl;
	struct nlmsghdr *nlh;
	int one = 1, e;

	nl = calloc(1, sizeof(*nl));
	if (!nl || !(nl->buf = malloc(SPRITZ_NL_BUFSIZE))) {
		free(nl);
		return fail(NULL, -ENOMEM, err, errlen);
	}
	nl->seq = (uint32_t)time(NULL);
	nl->sock = mnl_socket_open(NETLINK_GENERIC);
	if (!nl->sock) {
		e = -errno;
		goto out_free;
	}
	/* extended ACK messages; ACKs without a copy of (big) requests */
	mnl_socket_setsockopt(nl->sock, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(nl->sock, NETLINK_CAP_ACK, &one, sizeof(one));
	if (mnl_socket_bind(nl->sock, 0, MNL_SOCKET_AUTOPID) < 0) {
		e = -errno;
		goto out_close;
	}
	nl->portid = mnl_socket_get_portid(nl->sock);

	nlh = msg_start(nl, nl->buf, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1, NLM_F_ACK);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, SPRITZ_GENL_NAME);
	e = talk(nl, nlh, family_cb, &nl->family, err, errlen);
	if (e == 0 && !nl->family)
		e = -ENOENT;
	if (e) {
		if (e == -ENOENT)
			spritz_seterr(err, errlen, "generic netlink family \"%s\" not found (is spritz.ko loaded?)",
			       SPRITZ_GENL_NAME);
		mnl_socket_close(nl->sock);
		free(nl->buf);
		free(nl);
		return e;
	}
	*out = nl;
	return 0;

out_close:
	mnl_socket_close(nl->sock);
out_free:
	free(nl->buf);
	free(nl);
	return fail(NULL, e, err, errlen);
}

void spritz_nl_close(struct spritz_nl *nl)
{
	if (!nl)
		return;
	mnl_socket_close(nl->sock);
	free(nl->buf);
	free(nl);
}

size_t spritz_nl_bufsize(void)
{
	return SPRITZ_NL_BUFSIZE;
}

struct nlmsghdr *spritz_nl_msg(struct spritz_nl *nl, void *buf, uint8_t cmd)
{
	return msg_start(nl, buf, nl->family, cmd, SPRITZ_GENL_VERSION, NLM_F_ACK);
}

int spritz_nl_send(struct spritz_nl *nl, struct nlmsghdr *nlh, char *err, size_t errlen)
{
	return talk(nl, nlh, NULL, NULL, err, errlen);
}

/* A command without attributes. */
static int simple(struct spritz_nl *nl, uint8_t cmd, char *err, size_t errlen)
{
	char buf[256];

	return spritz_nl_send(nl, spritz_nl_msg(nl, buf, cmd), err, errlen);
}

int spritz_nl_begin(struct spritz_nl *nl, uint32_t src_switch, uint32_t num_switches, char *err,
		    size_t errlen)
{
	char buf[256];
	struct nlmsghdr *nlh = spritz_nl_msg(nl, buf, SPRITZ_CMD_TABLE_BEGIN);

	mnl_attr_put_u32(nlh, SPRITZ_A_SRC_SWITCH, src_switch);
	mnl_attr_put_u32(nlh, SPRITZ_A_NUM_SWITCHES, num_switches);
	return spritz_nl_send(nl, nlh, err, errlen);
}

int spritz_nl_set(struct spritz_nl *nl, uint32_t dst, const struct spritz_nl_path *paths,
		  uint32_t npaths, char *err, size_t errlen)
{
	struct nlattr *list, *one;
	struct nlmsghdr *nlh;
	char *buf;
	uint32_t i;
	int e;

	if (npaths > SPRITZ_MAX_PATHS + 1) /* one more: let the kernel say no */
		return fail(NULL, -E2BIG, err, errlen);
	buf = malloc(SPRITZ_NL_BUFSIZE);
	if (!buf)
		return fail(NULL, -ENOMEM, err, errlen);
	nlh = spritz_nl_msg(nl, buf, SPRITZ_CMD_TABLE_SET);
	mnl_attr_put_u32(nlh, SPRITZ_A_DST, dst);
	list = mnl_attr_nest_start(nlh, SPRITZ_A_PATHS);
	for (i = 0; i < npaths; i++) {
		/* an attribute holds 64 KiB: the list continues in the next */
		if (i && i % SPRITZ_NL_PATHS_PER_ATTR == 0) {
			mnl_attr_nest_end(nlh, list);
			list = mnl_attr_nest_start(nlh, SPRITZ_A_PATHS);
		}
		one = mnl_attr_nest_start(nlh, SPRITZ_A_PATH);
		mnl_attr_put_u16(nlh, SPRITZ_PATH_A_EV, paths[i].ev);
		mnl_attr_put_u8(nlh, SPRITZ_PATH_A_LAT_CLASS, paths[i].lat_class);
		mnl_attr_put_u32(nlh, SPRITZ_PATH_A_BASE_WEIGHT, paths[i].base_weight);
		mnl_attr_nest_end(nlh, one);
	}
	mnl_attr_nest_end(nlh, list);
	e = spritz_nl_send(nl, nlh, err, errlen);
	free(buf);
	return e;
}

int spritz_nl_commit(struct spritz_nl *nl, char *err, size_t errlen)
{
	return simple(nl, SPRITZ_CMD_TABLE_COMMIT, err, errlen);
}

int spritz_nl_abort(struct spritz_nl *nl, char *err, size_t errlen)
{
	return simple(nl, SPRITZ_CMD_TABLE_ABORT, err, errlen);
}

int spritz_nl_flush(struct spritz_nl *nl, uint32_t src_switch, char *err, size_t errlen)
{
	char buf[256];
	struct nlmsghdr *nlh = spritz_nl_msg(nl, buf, SPRITZ_CMD_TABLE_FLUSH);

	if (src_switch != SPRITZ_NL_ALL)
		mnl_attr_put_u32(nlh, SPRITZ_A_SRC_SWITCH, src_switch);
	return spritz_nl_send(nl, nlh, err, errlen);
}

int spritz_nl_load(struct spritz_nl *nl, uint32_t src_switch, uint32_t num_switches,
		   const struct spritz_nl_dest *dests, size_t ndests, char *err, size_t errlen)
{
	size_t i;
	int e;

	e = spritz_nl_begin(nl, src_switch, num_switches, err, errlen);
	if (e)
		return e;
	for (i = 0; i < ndests; i++) {
		e = spritz_nl_set(nl, dests[i].dst, dests[i].paths, dests[i].npaths, err, errlen);
		if (e) {
			spritz_nl_abort(nl, NULL, 0);
			return e;
		}
	}
	e = spritz_nl_commit(nl, err, errlen);
	if (e)
		spritz_nl_abort(nl, NULL, 0);
	return e;
}

/* A dump being collected. */
struct dump {
	struct spritz_nl_dest *d;
	size_t n, cap;
	int err;
};

/* One SPRITZ_A_PATH nest into @p. */
static void parse_path(const struct nlattr *nest, struct spritz_nl_path *p)
{
	const struct nlattr *a;

	memset(p, 0, sizeof(*p));
	mnl_attr_for_each_nested(a, nest) {
		switch (mnl_attr_get_type(a)) {
		case SPRITZ_PATH_A_EV:
			p->ev = mnl_attr_get_u16(a);
			break;
		case SPRITZ_PATH_A_LAT_CLASS:
			p->lat_class = mnl_attr_get_u8(a);
			break;
		case SPRITZ_PATH_A_BASE_WEIGHT:
			p->base_weight = mnl_attr_get_u32(a);
			break;
		case SPRITZ_PATH_A_WEIGHT:
			p->weight = mnl_attr_get_u32(a);
			break;
		case SPRITZ_PATH_A_DISABLED_MS:
			p->disabled_ms = mnl_attr_get_u32(a);
			break;
		case SPRITZ_PATH_A_PICKS:
			p->picks = mnl_attr_get_u64(a);
			break;
		case SPRITZ_PATH_A_TIMEOUTS:
			p->timeouts = mnl_attr_get_u64(a);
			break;
		case SPRITZ_PATH_A_DISABLES:
			p->disables = mnl_attr_get_u64(a);
			break;
		}
	}
}

/* One TABLE_GET message: a destination, or the next part of the last. */
static int dump_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct dump *dp = arg;
	const struct nlattr *a, *paths = NULL, *p;
	struct spritz_nl_dest h = { 0 }, *d;
	bool have_dst = false;
	uint32_t n = 0;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		switch (mnl_attr_get_type(a)) {
		case SPRITZ_A_GENERATION:
			h.generation = mnl_attr_get_u32(a);
			break;
		case SPRITZ_A_SRC_SWITCH:
			h.src_switch = mnl_attr_get_u32(a);
			break;
		case SPRITZ_A_NUM_SWITCHES:
			h.num_switches = mnl_attr_get_u32(a);
			break;
		case SPRITZ_A_DST:
			h.dst = mnl_attr_get_u32(a);
			have_dst = true;
			break;
		case SPRITZ_A_PATHS:
			paths = a;
			break;
		}
	}
	if (!have_dst || !paths) {
		errno = EPROTO;
		return MNL_CB_ERROR;
	}
	mnl_attr_for_each_nested(p, paths)
		n++;
	d = dp->n ? &dp->d[dp->n - 1] : NULL;
	if (!d || d->src_switch != h.src_switch || d->dst != h.dst) {
		if (dp->n == dp->cap) {
			size_t cap = dp->cap ? 2 * dp->cap : 64;
			void *nd = realloc(dp->d, cap * sizeof(*dp->d));

			if (!nd) {
				errno = ENOMEM;
				return MNL_CB_ERROR;
			}
			dp->d = nd;
			dp->cap = cap;
		}
		d = &dp->d[dp->n++];
		*d = h;
	}
	{
		struct spritz_nl_path *np = realloc(d->paths, (d->npaths + n) * sizeof(*np));

		if (!np) {
			errno = ENOMEM;
			return MNL_CB_ERROR;
		}
		d->paths = np;
	}
	mnl_attr_for_each_nested(p, paths)
		parse_path(p, &d->paths[d->npaths++]);
	return MNL_CB_OK;
}

/* Free a collected dump. */
static void dump_free(struct dump *dp)
{
	size_t i;

	for (i = 0; i < dp->n; i++)
		free(dp->d[i].paths);
	free(dp->d);
	memset(dp, 0, sizeof(*dp));
}

int spritz_nl_dump(struct spritz_nl *nl, uint32_t src_switch, spritz_nl_dump_cb cb, void *arg,
		   char *err, size_t errlen)
{
	struct dump dp = { 0 };
	struct nlmsghdr *nlh;
	int e = -EINTR, tries;
	size_t i;

	for (tries = 0; tries < SPRITZ_NL_DUMP_TRIES; tries++) {
		char buf[256];

		nlh = msg_start(nl, buf, nl->family, SPRITZ_CMD_TABLE_GET, SPRITZ_GENL_VERSION,
				NLM_F_DUMP);
		errno = 0;
		e = talk(nl, nlh, dump_cb, &dp, err, errlen);
		if (e != -EINTR)
			break;
		dump_free(&dp);
	}
	for (i = 0; e == 0 && i < dp.n; i++)
		if (src_switch == SPRITZ_NL_ALL || dp.d[i].src_switch == src_switch)
			e = cb(&dp.d[i], arg);
	dump_free(&dp);
	return e;
}
