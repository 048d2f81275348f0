// SPDX-License-Identifier: GPL-2.0-only
/*
 * Generic netlink family "spritz" (include/spritz/netlink.h): userspace
 * loads the endpoint tables of the Spritz paper (§III-C: per destination
 * switch, the EV entry list of the bounded simple paths, with Eq. 1 base
 * weights) and reads them back with each path's state.
 *
 * A table is loaded as a transaction of one netlink socket: TABLE_BEGIN
 * opens the socket's staging table, TABLE_SET adds one destination's list
 * to it, TABLE_COMMIT publishes it (RCU, table.c), TABLE_ABORT drops it.
 * Each socket has its own staging table, freed when the socket closes, so
 * concurrent loaders never see each other's.  Every attribute has a
 * policy and the family validates strictly (unknown attributes and a
 * nonzero reserved header field are errors); a refused message says why
 * in the extended ACK and changes nothing.  Every command but TABLE_GET needs CAP_NET_ADMIN.
 * Documentation/netlink.rst.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>

#include <spritz/netlink.h>

#include "compat.h"
#include "spritz.h"

/*
 * A socket's transaction state, from its first TABLE_BEGIN until the socket
 * is released (NETLINK_URELEASE) or the module unloads.  Only the owning
 * socket's handlers use it, and they cannot run once its release has
 * begun (sendmsg holds the socket's file), so a handler may keep using its
 * writer after looking it up.
 */
struct spritz_writer {
	struct list_head node;		/* on spritz_writers (spritz_writers_lock) */
	struct sock *sk;		/* the socket, held: never reused meanwhile */
	struct spritz_table *staging;	/* open transaction or NULL (spritz_table_mutex) */
#ifdef SPRITZ_NEED_EXTACK_BUF
	char msg[SPRITZ_EXTACK_LEN];	/* formatted extack messages (compat.h) */
#endif
};

/* At most SPRITZ_MAX_WRITERS writers; the notifier unlinks them. */
static DEFINE_MUTEX(spritz_writers_lock);
static LIST_HEAD(spritz_writers);
static u32 spritz_nwriters;

#ifdef SPRITZ_NEED_EXTACK_BUF
/*
 * The request being handled and its socket's message buffer, set and
 * cleared by each handler under genl_mutex (the family is not
 * parallel_ops).  The message stays in the writer's buffer until the
 * socket closes, so it outlives the ACK that netlink_rcv_skb() builds
 * after genl_mutex is released.
 */
static const struct netlink_ext_ack *spritz_cur_extack;
static char *spritz_cur_msg;

char *spritz_extack_buf(const struct netlink_ext_ack *extack)
{
	return extack == spritz_cur_extack ? spritz_cur_msg : NULL;
}

/* Formatted messages for @extack go to @w's buffer (NULL: none). */
static void spritz_extack_bind(struct spritz_writer *w, const struct netlink_ext_ack *extack)
{
	spritz_cur_extack = w ? extack : NULL;
	spritz_cur_msg = w ? w->msg : NULL;
}
#else
static void spritz_extack_bind(struct spritz_writer *w, const struct netlink_ext_ack *extack)
{
}
#endif

/* The writer of the socket that sent @skb, or NULL. */
static struct spritz_writer *spritz_writer_find(const struct sk_buff *skb)
{
	struct sock *sk = NETLINK_CB(skb).sk;
	struct spritz_writer *w, *found = NULL;

	mutex_lock(&spritz_writers_lock);
	list_for_each_entry(w, &spritz_writers, node) {
		if (w->sk == sk) {
			found = w;
			break;
		}
	}
	mutex_unlock(&spritz_writers_lock);
	return found;
}

/* A new writer for the socket that sent @skb (it has none). */
static struct spritz_writer *spritz_writer_new(const struct sk_buff *skb,
					       struct netlink_ext_ack *extack)
{
	struct spritz_writer *w;

	w = kzalloc(sizeof(*w), GFP_KERNEL_ACCOUNT);
	if (!w)
		return ERR_PTR(-ENOMEM);
	mutex_lock(&spritz_writers_lock);
	if (spritz_nwriters >= SPRITZ_MAX_WRITERS) {
		mutex_unlock(&spritz_writers_lock);
		kfree(w);
		NL_SET_ERR_MSG_MOD(extack, "too many sockets with table transactions");
		return ERR_PTR(-EBUSY);
	}
	w->sk = NETLINK_CB(skb).sk;
	sock_hold(w->sk);
	list_add_tail(&w->node, &spritz_writers);
	spritz_nwriters++;
	mutex_unlock(&spritz_writers_lock);
	return w;
}

/* Free writer @w, unlinked by the caller, with its staging table. */
static void spritz_writer_free(struct spritz_writer *w)
{
	mutex_lock(&spritz_table_mutex);
	spritz_staging_free(w->staging);
	mutex_unlock(&spritz_table_mutex);
	sock_put(w->sk);
	kfree(w);
}

/*
 * A netlink socket is being released: free the writers of every released
 * socket (SOCK_DEAD is set before the notifier runs).  Matching the socket
 * rather than the portid is exact even if a new socket already took the
 * portid over.  Other families' sockets cost one list walk under
 * spritz_writers_lock, never spritz_table_mutex.
 */
static int spritz_nl_notify(struct notifier_block *nb, unsigned long event, void *ptr)
{
	const struct netlink_notify *n = ptr;
	struct spritz_writer *w, *tmp;
	LIST_HEAD(released);

	if (event != NETLINK_URELEASE || n->protocol != NETLINK_GENERIC)
		return NOTIFY_DONE;
	mutex_lock(&spritz_writers_lock);
	list_for_each_entry_safe(w, tmp, &spritz_writers, node) {
		if (!sock_flag(w->sk, SOCK_DEAD))
			continue;
		list_move_tail(&w->node, &released);
		spritz_nwriters--;
	}
	mutex_unlock(&spritz_writers_lock);
	list_for_each_entry_safe(w, tmp, &released, node) {
		list_del(&w->node);
		spritz_writer_free(w);
	}
	return NOTIFY_DONE;
}

static struct notifier_block spritz_nl_notifier = {
	.notifier_call = spritz_nl_notify,
};

static struct netlink_range_validation spritz_switch_range = {
	.min = 0,
	.max = SPRITZ_MAX_SWITCHES - 1,
};

static struct netlink_range_validation spritz_nswitch_range = {
	.min = 1,
	.max = SPRITZ_MAX_SWITCHES,
};

static const struct nla_policy spritz_path_policy[SPRITZ_PATH_A_MAX + 1] = {
	[SPRITZ_PATH_A_EV] = { .type = NLA_U16 },
	[SPRITZ_PATH_A_LAT_CLASS] = { .type = NLA_U8 },
	[SPRITZ_PATH_A_BASE_WEIGHT] = { .type = NLA_U32 },
	/* dump only */
	[SPRITZ_PATH_A_WEIGHT] = { .type = NLA_REJECT },
	[SPRITZ_PATH_A_DISABLED_MS] = { .type = NLA_REJECT },
	[SPRITZ_PATH_A_PICKS] = { .type = NLA_REJECT },
	[SPRITZ_PATH_A_TIMEOUTS] = { .type = NLA_REJECT },
	[SPRITZ_PATH_A_DISABLES] = { .type = NLA_REJECT },
	[SPRITZ_PATH_A_PAD] = { .type = NLA_REJECT },
};

static const struct nla_policy spritz_policy[SPRITZ_A_MAX + 1] = {
	[SPRITZ_A_SRC_SWITCH] = NLA_POLICY_FULL_RANGE(NLA_U32, &spritz_switch_range),
	[SPRITZ_A_NUM_SWITCHES] = NLA_POLICY_FULL_RANGE(NLA_U32, &spritz_nswitch_range),
	[SPRITZ_A_DST] = NLA_POLICY_FULL_RANGE(NLA_U32, &spritz_switch_range),
	[SPRITZ_A_PATHS] = NLA_POLICY_NESTED_ARRAY(spritz_path_policy),
	/* only inside SPRITZ_A_PATHS, or dump only */
	[SPRITZ_A_PATH] = { .type = NLA_REJECT },
	[SPRITZ_A_GENERATION] = { .type = NLA_REJECT },
	[SPRITZ_A_PAD] = { .type = NLA_REJECT },
};

static struct genl_family spritz_genl_family;

/*
 * TABLE_BEGIN: open the calling socket's staging table, replacing its
 * unfinished one (if refused, that one stays as it was).  The input is
 * checked before the socket gets a writer, so a refused BEGIN takes no
 * place among the SPRITZ_MAX_WRITERS; its messages are constant, as
 * there is no writer buffer to format into on 6.1 (compat.h).  A writer
 * once created stays (a refusal after it may have formatted its message
 * into the writer's buffer, which the ACK reads after this returns).
 */
static int spritz_nl_begin(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct spritz_writer *w;
	struct spritz_table *t;
	u32 src, num;
	int err = 0;

	if (GENL_REQ_ATTR_CHECK(info, SPRITZ_A_SRC_SWITCH) ||
	    GENL_REQ_ATTR_CHECK(info, SPRITZ_A_NUM_SWITCHES)) {
		NL_SET_ERR_MSG_MOD(extack, "TABLE_BEGIN needs SRC_SWITCH and NUM_SWITCHES");
		return -EINVAL;
	}
	src = nla_get_u32(info->attrs[SPRITZ_A_SRC_SWITCH]);
	num = nla_get_u32(info->attrs[SPRITZ_A_NUM_SWITCHES]);
	if (src >= num) {
		NL_SET_ERR_MSG_MOD(extack, "SRC_SWITCH not in the fabric (>= NUM_SWITCHES)");
		return -EINVAL;
	}
	w = spritz_writer_find(skb);
	if (!w) {
		w = spritz_writer_new(skb, extack);
		if (IS_ERR(w))
			return PTR_ERR(w);
	}
	spritz_extack_bind(w, extack);
	mutex_lock(&spritz_table_mutex);
	t = spritz_table_alloc(src, num, extack);
	if (IS_ERR(t)) {
		err = PTR_ERR(t);
	} else {
		spritz_staging_free(w->staging);
		w->staging = t;
	}
	mutex_unlock(&spritz_table_mutex);
	spritz_extack_bind(NULL, NULL);
	return err;
}

/*
 * The calling socket's writer if it has a transaction open, with its
 * extack buffer bound to this request; else NULL, with a message
 * (spritz_table_mutex held).
 */
static struct spritz_writer *spritz_nl_txn(const struct sk_buff *skb, struct genl_info *info)
{
	struct spritz_writer *w = spritz_writer_find(skb);

	lockdep_assert_held(&spritz_table_mutex);
	if (!w || !w->staging) {
		NL_SET_ERR_MSG_MOD(info->extack, "no table transaction open (TABLE_BEGIN first)");
		return NULL;
	}
	spritz_extack_bind(w, info->extack);
	return w;
}

/* Parse and check one path nest into @p (index @n of the list). */
static int spritz_nl_parse_path(const struct nlattr *nla, struct spritz_path *p, int n,
				unsigned long *seen, struct netlink_ext_ack *extack)
{
	struct nlattr *tb[SPRITZ_PATH_A_MAX + 1];
	int err;

	/* the policy already checked types; this finds each member */
	err = nla_parse_nested(tb, SPRITZ_PATH_A_MAX, nla, spritz_path_policy, extack);
	if (err)
		return err;
	if (!tb[SPRITZ_PATH_A_EV] || !tb[SPRITZ_PATH_A_LAT_CLASS] ||
	    !tb[SPRITZ_PATH_A_BASE_WEIGHT]) {
		NL_SET_ERR_MSG_FMT_MOD(extack, "path %d: needs EV, LAT_CLASS and BASE_WEIGHT", n);
		return -EINVAL;
	}
	p->ev = nla_get_u16(tb[SPRITZ_PATH_A_EV]);
	p->lat_class = nla_get_u8(tb[SPRITZ_PATH_A_LAT_CLASS]);
	p->base_weight = nla_get_u32(tb[SPRITZ_PATH_A_BASE_WEIGHT]);
	if (SPRITZ_EV1(p->ev) == SPRITZ_EV2_UNUSED) {
		NL_SET_ERR_MSG_FMT_MOD(extack, "path %d: EV 0x%04x: EV1 out of range (> %u)", n,
				       p->ev, SPRITZ_MAX_NET_PORTS - 1);
		return -ERANGE;
	}
	if (test_and_set_bit(p->ev, seen)) {
		NL_SET_ERR_MSG_FMT_MOD(extack, "path %d: duplicate EV 0x%04x", n, p->ev);
		return -EINVAL;
	}
	return 0;
}

/*
 * Parse and check the path list of a TABLE_SET into @out; returns the
 * count.  The list is the concatenation of every SPRITZ_A_PATHS attribute
 * of the message, in order: an attribute holds at most 64 KiB, less than
 * SPRITZ_MAX_PATHS paths.
 */
static int spritz_nl_parse_paths(const struct genl_info *info, struct spritz_path **out,
				 struct netlink_ext_ack *extack)
{
	const struct nlattr *top, *nla;
	struct spritz_path *p = NULL;
	unsigned long *seen = NULL;
	int rem, rem2, n = 0, err;
	u64 wsum = 0;

	nlmsg_for_each_attr(top, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(top) != SPRITZ_A_PATHS)
			continue;
		nla_for_each_nested(nla, top, rem2)
			n++;
	}
	if (n == 0) {
		NL_SET_ERR_MSG_MOD(extack, "no paths");
		return -EINVAL;
	}
	if (n > SPRITZ_MAX_PATHS) {
		NL_SET_ERR_MSG_FMT_MOD(extack, "too many paths (%d > %u)", n, SPRITZ_MAX_PATHS);
		return -E2BIG;
	}
	p = kvcalloc(n, sizeof(*p), GFP_KERNEL);
	seen = bitmap_zalloc(1 << SPRITZ_EV_BITS, GFP_KERNEL);
	if (!p || !seen) {
		err = -ENOMEM;
		goto out_free;
	}
	n = 0;
	nlmsg_for_each_attr(top, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(top) != SPRITZ_A_PATHS)
			continue;
		nla_for_each_nested(nla, top, rem2) {
			err = spritz_nl_parse_path(nla, &p[n], n, seen, extack);
			if (err)
				goto out_free;
			wsum += p[n++].base_weight;
		}
	}
	if (!wsum) {
		NL_SET_ERR_MSG_MOD(extack, "all base weights are zero");
		err = -EINVAL;
		goto out_free;
	}
	bitmap_free(seen);
	*out = p;
	return n;

out_free:
	bitmap_free(seen);
	kvfree(p);
	return err;
}

/* TABLE_SET: one destination's list into the socket's staging table. */
static int spritz_nl_set(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct spritz_path *paths;
	struct spritz_writer *w;
	int n, err;
	u32 dst;

	if (GENL_REQ_ATTR_CHECK(info, SPRITZ_A_DST) || GENL_REQ_ATTR_CHECK(info, SPRITZ_A_PATHS)) {
		NL_SET_ERR_MSG_MOD(extack, "TABLE_SET needs DST and PATHS");
		return -EINVAL;
	}
	mutex_lock(&spritz_table_mutex);
	w = spritz_nl_txn(skb, info);
	if (!w) {
		err = -ENOENT;
		goto out_unlock;
	}
	dst = nla_get_u32(info->attrs[SPRITZ_A_DST]);
	n = spritz_nl_parse_paths(info, &paths, extack);
	if (n < 0) {
		err = n;
		goto out_unbind;
	}
	err = spritz_table_add_dest(w->staging, dst, n, paths, extack);
	kvfree(paths);
out_unbind:
	spritz_extack_bind(NULL, NULL);
out_unlock:
	mutex_unlock(&spritz_table_mutex);
	return err;
}

/* TABLE_COMMIT: publish the socket's staging table. */
static int spritz_nl_commit(struct sk_buff *skb, struct genl_info *info)
{
	struct spritz_writer *w;
	int err = -ENOENT;

	mutex_lock(&spritz_table_mutex);
	w = spritz_nl_txn(skb, info);
	if (w) {
		err = spritz_table_commit(w->staging, info->extack);
		if (!err)
			w->staging = NULL;
		spritz_extack_bind(NULL, NULL);
	}
	mutex_unlock(&spritz_table_mutex);
	return err;
}

/* TABLE_ABORT: drop the socket's staging table. */
static int spritz_nl_abort(struct sk_buff *skb, struct genl_info *info)
{
	struct spritz_writer *w;
	int err = -ENOENT;

	mutex_lock(&spritz_table_mutex);
	w = spritz_nl_txn(skb, info);
	if (w) {
		spritz_staging_free(w->staging);
		w->staging = NULL;
		spritz_extack_bind(NULL, NULL);
		err = 0;
	}
	mutex_unlock(&spritz_table_mutex);
	return err;
}

/* TABLE_FLUSH: drop SRC_SWITCH's live table, or all of them. */
static int spritz_nl_flush(struct sk_buff *skb, struct genl_info *info)
{
	u32 src = SPRITZ_SRC_ALL;

	if (info->attrs[SPRITZ_A_SRC_SWITCH])
		src = nla_get_u32(info->attrs[SPRITZ_A_SRC_SWITCH]);
	mutex_lock(&spritz_table_mutex);
	spritz_table_flush(src);
	mutex_unlock(&spritz_table_mutex);
	return 0;
}

/* One path with its state into a dump message. */
static int spritz_nl_put_path(struct sk_buff *skb, const struct spritz_path *p)
{
	struct nlattr *nest = nla_nest_start(skb, SPRITZ_A_PATH);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u16(skb, SPRITZ_PATH_A_EV, p->ev) ||
	    nla_put_u8(skb, SPRITZ_PATH_A_LAT_CLASS, p->lat_class) ||
	    nla_put_u32(skb, SPRITZ_PATH_A_BASE_WEIGHT, p->base_weight) ||
	    nla_put_u32(skb, SPRITZ_PATH_A_WEIGHT, spritz_path_weight_now(p)) ||
	    nla_put_u32(skb, SPRITZ_PATH_A_DISABLED_MS, spritz_path_disabled_ms(p)) ||
	    nla_put_u64_64bit(skb, SPRITZ_PATH_A_PICKS, atomic64_read(&p->picks),
			      SPRITZ_PATH_A_PAD) ||
	    nla_put_u64_64bit(skb, SPRITZ_PATH_A_TIMEOUTS, atomic64_read(&p->timeouts),
			      SPRITZ_PATH_A_PAD) ||
	    nla_put_u64_64bit(skb, SPRITZ_PATH_A_DISABLES, atomic64_read(&p->disables),
			      SPRITZ_PATH_A_PAD)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/*
 * Dump table @t from destination *@dst, path *@off on, into @skb: 0 when
 * done with @t, -EMSGSIZE when @skb is full (*@dst, *@off say where to go
 * on).
 */
static int spritz_nl_dump_table(struct sk_buff *skb, struct netlink_callback *cb,
				const struct spritz_table *t, u32 *dst, u32 *off)
{
	void *hdr;
	u32 i;

	for (; *dst < t->num_switches; (*dst)++, *off = 0) {
		const struct spritz_dest *d = t->dests[*dst];
		struct nlattr *nest;

		if (!d)
			continue;
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
				  &spritz_genl_family, NLM_F_MULTI, SPRITZ_CMD_TABLE_GET);
		if (!hdr)
			return -EMSGSIZE;
		if (nla_put_u32(skb, SPRITZ_A_GENERATION, t->generation) ||
		    nla_put_u32(skb, SPRITZ_A_SRC_SWITCH, t->src_switch) ||
		    nla_put_u32(skb, SPRITZ_A_NUM_SWITCHES, t->num_switches) ||
		    nla_put_u32(skb, SPRITZ_A_DST, *dst))
			goto cancel;
		nest = nla_nest_start(skb, SPRITZ_A_PATHS);
		if (!nest)
			goto cancel;
		for (i = *off; i < d->npaths; i++)
			if (spritz_nl_put_path(skb, &d->paths[i]))
				break;
		if (i == *off)
			goto cancel; /* not one path fits: next skb */
		nla_nest_end(skb, nest);
		genlmsg_end(skb, hdr);
		if (i < d->npaths) {
			*off = i;
			return -EMSGSIZE;
		}
	}
	return 0;
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/*
 * TABLE_GET dump: one message per destination of each live table, in
 * (source, destination) order; a long list continues in the next messages
 * with the same SRC_SWITCH and DST.  cb->args[0] is the next source,
 * args[1] the next destination in it, args[2] the next path.  If any table
 * is committed or flushed between two parts of a dump, the dump fails with
 * -EINTR (the client retries), so a dump never mixes two versions.
 */
static int spritz_nl_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	u32 src = cb->args[0], dst = cb->args[1], off = cb->args[2];
	int err;

	mutex_lock(&spritz_table_mutex);
	if (cb->prev_seq && spritz_tables_seq != cb->prev_seq) {
		err = -EINTR;
		goto out_unlock;
	}
	cb->seq = cb->prev_seq = spritz_tables_seq;
	err = 0;
	for (;;) {
		struct spritz_table *t = spritz_table_next(&src);

		if (!t)
			break;
		err = spritz_nl_dump_table(skb, cb, t, &dst, &off);
		if (err)
			break;
		/* done with this source: the next one from its first list */
		dst = 0;
		off = 0;
		src++;
	}
	if (err == -EMSGSIZE)
		err = 0;
	cb->args[0] = src;
	cb->args[1] = dst;
	cb->args[2] = off;
	if (!err)
		err = skb->len;
out_unlock:
	mutex_unlock(&spritz_table_mutex);
	return err;
}

static const struct genl_small_ops spritz_genl_ops[] = {
	{
		.cmd = SPRITZ_CMD_TABLE_BEGIN,
		.doit = spritz_nl_begin,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = SPRITZ_CMD_TABLE_SET,
		.doit = spritz_nl_set,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = SPRITZ_CMD_TABLE_COMMIT,
		.doit = spritz_nl_commit,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = SPRITZ_CMD_TABLE_ABORT,
		.doit = spritz_nl_abort,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = SPRITZ_CMD_TABLE_FLUSH,
		.doit = spritz_nl_flush,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = SPRITZ_CMD_TABLE_GET,
		.dumpit = spritz_nl_get_dumpit,
	},
};

static struct genl_family spritz_genl_family = {
	.name = SPRITZ_GENL_NAME,
	.version = SPRITZ_GENL_VERSION,
	.maxattr = SPRITZ_A_MAX,
	.policy = spritz_policy,
	.module = THIS_MODULE,
	.small_ops = spritz_genl_ops,
	.n_small_ops = ARRAY_SIZE(spritz_genl_ops),
	/*
	 * resv_start_op 0: the core checks the header of every command
	 * (genlmsghdr.reserved 0, no nlmsg_flags beyond REQUEST, ACK, ECHO
	 * and DUMP), and every command needs a policy, which the family's
	 * is for all of them.  Strict attribute validation is the ops'
	 * default (no GENL_DONT_VALIDATE_*).
	 */
};

/* Watch socket releases, then register the family. */
int spritz_netlink_init(void)
{
	int err;

	err = netlink_register_notifier(&spritz_nl_notifier);
	if (err)
		return err;
	err = genl_register_family(&spritz_genl_family);
	if (err)
		goto out_notifier;
	return 0;

out_notifier:
	netlink_unregister_notifier(&spritz_nl_notifier);
	return err;
}

/*
 * Unregister the family (waits for running handlers and their ACKs; none
 * runs afterwards) and the notifier (waits for a running one), then free
 * every socket's writer and staging table.
 */
void spritz_netlink_exit(void)
{
	struct spritz_writer *w, *tmp;
	LIST_HEAD(writers);

	genl_unregister_family(&spritz_genl_family);
	netlink_unregister_notifier(&spritz_nl_notifier);
	mutex_lock(&spritz_writers_lock);
	list_splice_init(&spritz_writers, &writers);
	spritz_nwriters = 0;
	mutex_unlock(&spritz_writers_lock);
	list_for_each_entry_safe(w, tmp, &writers, node) {
		list_del(&w->node);
		spritz_writer_free(w);
	}
}
