// SPDX-License-Identifier: GPL-2.0-only
/*
 * Endpoint tables, weighted path sampling and path-disable timers.
 *
 * Spritz paper §III-C: a sender keeps, per destination switch, the list of
 * EV entries (EV1:EV2 + metadata) of the bounded simple paths towards it.
 * Paper §V: the send logic samples a path with gen(w) over latency-based
 * weights (Eq. 1, scaled by w_scale); a timeout sets the path's weight to 0
 * (Alg. 2/3 "w[i] <- 0") until a global timer brings it back; a high ECN
 * rate biases sampling towards minimal paths (Alg. 2/3 last lines).
 *
 * Here:
 *  - a host has one table per source switch (the switch a device is cabled
 *    to; several for a multi-homed host or the lab), in an xarray indexed by
 *    source switch that the datapath reads under RCU;
 *  - a table is built completely in staging (netlink.c), then published
 *    with xa_store(); the one it replaces is freed after synchronize_rcu()
 *    and after its work item is cancelled, so the datapath sees one whole
 *    table or the other;
 *  - each destination has one alias table (Vose) per sampler variant, so
 *    spritz_pick() is O(1); samplers are double-buffered and rebuilt in a
 *    work item, with a grace period before a buffer is written again;
 *  - spritz_path_timeout() (softirq, no allocation, no sleeping) marks the
 *    path disabled, puts it on the table's preallocated expiry list and
 *    kicks the work item, which rebuilds the samplers and re-arms itself for
 *    the next expiry; until the rebuild, pick() skips disabled samples;
 *  - a destination keeps min_enabled_pct of its paths enabled whatever the
 *    timeouts (spritz_min_enabled()): a timeout past that brings the least
 *    recently disabled path back first.  The paper disables freely; its
 *    senders trust their feedback, this one's is the peers' word.
 *
 * Documentation/design-kmod.rst has the details and the locking rules.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jiffies.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/percpu.h>
#include <linux/prandom.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include <spritz/kfuncs.h>
#include <spritz/netlink.h>

#include "compat.h"
#include "spritz.h"

DEFINE_MUTEX(spritz_table_mutex);
/* Live tables by source switch; written under spritz_table_mutex. */
static DEFINE_XARRAY(spritz_live);
static u32 spritz_ntables;	/* live tables (mutex) */
static size_t spritz_live_bytes;	/* their t->bytes (mutex) */
static u32 spritz_nstaging;	/* staging tables, of all sockets (mutex) */
static size_t spritz_staging_bytes;	/* their t->bytes (mutex) */
static u32 spritz_generation;	/* last commit's (mutex) */
u32 spritz_tables_seq = 1;	/* bumped by every commit and flush (mutex) */

static void spritz_table_work(struct work_struct *work);

/*
 * Path sampling wants speed and independence, not secrecy: a per-CPU
 * Tausworthe state, as bpf_get_prandom_u32() uses, seeded at load.  The
 * kernel RNG (get_random_u64()) disables interrupts around its per-CPU
 * batch on every call.
 */
static DEFINE_PER_CPU(struct rnd_state, spritz_rnd);

/* Bytes of one destination list with its two sets of alias tables. */
static size_t spritz_dest_bytes(u32 npaths)
{
	return struct_size_t(struct spritz_dest, paths, npaths) +
	       2 * SPRITZ_V_NR * (size_t)npaths * sizeof(struct spritz_alias);
}

/* Would @bytes more cross SPRITZ_MAX_TOTAL_BYTES (live + staging)? (mutex) */
static bool spritz_total_over(size_t bytes, struct netlink_ext_ack *extack)
{
	size_t total = spritz_live_bytes + spritz_staging_bytes + bytes;

	if (total <= SPRITZ_MAX_TOTAL_BYTES)
		return false;
	NL_SET_ERR_MSG_FMT_MOD(extack, "tables too large (%zu > %u bytes in all)", total,
			       SPRITZ_MAX_TOTAL_BYTES);
	return true;
}

/*
 * Allocate an empty staging table, counted as staging until
 * spritz_table_commit() or spritz_staging_free() (mutex held).
 */
struct spritz_table *spritz_table_alloc(u32 src_switch, u32 num_switches,
					struct netlink_ext_ack *extack)
{
	struct spritz_table *t;
	size_t bytes;

	lockdep_assert_held(&spritz_table_mutex);
	bytes = sizeof(*t) + (size_t)num_switches * sizeof(t->dests[0]) +
		SPRITZ_MAX_PATHS * (sizeof(u64) + 2 * sizeof(u16));
	if (bytes > SPRITZ_MAX_TABLE_BYTES) {
		NL_SET_ERR_MSG_MOD(extack, "table too large");
		return ERR_PTR(-E2BIG);
	}
	if (spritz_total_over(bytes, extack))
		return ERR_PTR(-E2BIG);
	t = kzalloc(sizeof(*t), GFP_KERNEL_ACCOUNT);
	if (!t)
		return ERR_PTR(-ENOMEM);
	/* first: spritz_table_free() cancels the work item */
	INIT_DELAYED_WORK(&t->work, spritz_table_work);
	t->dests = kvcalloc(num_switches, sizeof(t->dests[0]), GFP_KERNEL_ACCOUNT);
	t->scratch = kvmalloc_array(SPRITZ_MAX_PATHS, sizeof(u64), GFP_KERNEL_ACCOUNT);
	t->small = kvmalloc_array(2 * SPRITZ_MAX_PATHS, sizeof(u16), GFP_KERNEL_ACCOUNT);
	if (!t->dests || !t->scratch || !t->small) {
		spritz_table_free(t);
		return ERR_PTR(-ENOMEM);
	}
	t->large = t->small + SPRITZ_MAX_PATHS;
	t->src_switch = src_switch;
	t->num_switches = num_switches;
	t->bytes = bytes;
	spin_lock_init(&t->lock);
	INIT_LIST_HEAD(&t->expiry);
	INIT_LIST_HEAD(&t->dirty);
	INIT_LIST_HEAD(&t->retired);
	spritz_nstaging++;
	spritz_staging_bytes += bytes;
	return t;
}

/* Free a table nobody can reach any more (not live, grace period over). */
void spritz_table_free(struct spritz_table *t)
{
	u32 i;

	if (!t)
		return;
	cancel_delayed_work_sync(&t->work);
	for (i = 0; t->dests && i < t->num_switches; i++) {
		struct spritz_dest *d = t->dests[i];

		if (!d)
			continue;
		kvfree(d->smp_buf[0].col[0]);
		kvfree(d);
	}
	kvfree(t->dests);
	kvfree(t->scratch);
	kvfree(t->small);
	kfree(t);
}

/* Free staging table @t (from spritz_table_alloc(), not committed; mutex). */
void spritz_staging_free(struct spritz_table *t)
{
	lockdep_assert_held(&spritz_table_mutex);
	if (!t)
		return;
	spritz_nstaging--;
	spritz_staging_bytes -= t->bytes;
	spritz_table_free(t);
}

/*
 * Copy one destination's list into staging table @t.  @paths were
 * validated by the caller (EVs, weights); here: range, duplicates, memory.
 */
int spritz_table_add_dest(struct spritz_table *t, u32 dst, u32 npaths,
			  const struct spritz_path *paths, struct netlink_ext_ack *extack)
{
	struct spritz_alias *cols;
	struct spritz_dest *d;
	size_t bytes;
	u32 i, v;

	if (dst >= t->num_switches) {
		NL_SET_ERR_MSG_FMT_MOD(extack, "unknown destination switch %u (>= %u switches)", dst,
				       t->num_switches);
		return -EINVAL;
	}
	if (t->dests[dst]) {
		NL_SET_ERR_MSG_FMT_MOD(extack, "destination %u already set in this table", dst);
		return -EEXIST;
	}
	bytes = spritz_dest_bytes(npaths);
	if (t->bytes + bytes > SPRITZ_MAX_TABLE_BYTES) {
		NL_SET_ERR_MSG_FMT_MOD(extack, "table too large (%zu > %u bytes)", t->bytes + bytes,
				       SPRITZ_MAX_TABLE_BYTES);
		return -E2BIG;
	}
	/*
	 * Every live table (the one @t replaces stays until the commit) and
	 * every socket's staging table (@t among them) count.
	 */
	if (spritz_total_over(bytes, extack))
		return -E2BIG;
	d = kvzalloc(struct_size(d, paths, npaths), GFP_KERNEL_ACCOUNT);
	if (!d)
		return -ENOMEM;
	cols = kvcalloc(2 * SPRITZ_V_NR * (size_t)npaths, sizeof(*cols), GFP_KERNEL_ACCOUNT);
	if (!cols) {
		kvfree(d);
		return -ENOMEM;
	}
	for (v = 0; v < SPRITZ_V_NR; v++) {
		d->smp_buf[0].col[v] = cols + (size_t)v * npaths;
		d->smp_buf[1].col[v] = cols + (size_t)(SPRITZ_V_NR + v) * npaths;
	}
	d->dst = dst;
	d->npaths = npaths;
	d->nenabled = npaths;
	INIT_LIST_HEAD(&d->dirty_node);
	for (i = 0; i < npaths; i++) {
		struct spritz_path *p = &d->paths[i];

		p->ev = paths[i].ev;
		p->lat_class = paths[i].lat_class;
		p->base_weight = paths[i].base_weight;
		p->dst = dst;
		INIT_LIST_HEAD(&p->expiry);
	}
	t->dests[dst] = d;
	t->bytes += bytes;
	spritz_staging_bytes += bytes;
	t->ndests++;
	t->npaths += npaths;
	return 0;
}

/*
 * The sampler core's view of a destination list (spritz_sampler_build(),
 * spritz_sampler_pick(), spritz_floor_enable()): random words, the paths'
 * states.
 */
struct spritz_pick_ctx {
	struct rnd_state *rnd;
	struct spritz_dest *d;
};

static u32 spritz_pick_rnd(void *c)
{
	return prandom_u32_state(((struct spritz_pick_ctx *)c)->rnd);
}

static int spritz_pick_off(void *c, u32 i)
{
	return !!READ_ONCE(((struct spritz_pick_ctx *)c)->d->paths[i].disabled_until);
}

static u16 spritz_pick_ev(void *c, u32 i)
{
	return ((struct spritz_pick_ctx *)c)->d->paths[i].ev;
}

static u32 spritz_pick_base(void *c, u32 i)
{
	return ((struct spritz_pick_ctx *)c)->d->paths[i].base_weight;
}

static u8 spritz_pick_class(void *c, u32 i)
{
	return ((struct spritz_pick_ctx *)c)->d->paths[i].lat_class;
}

static u64 spritz_pick_at(void *c, u32 i)
{
	return ((struct spritz_pick_ctx *)c)->d->paths[i].disabled_at;
}

/* Build every variant of @d's samplers into @s from the paths' state now. */
static void spritz_dest_build(struct spritz_table *t, struct spritz_dest *d,
			      struct spritz_sampler *s)
{
	struct spritz_pick_ctx c = { .d = d };
	struct spritz_knob_values k;
	u32 v;

	k.weighted = spritz_knob(weighted);
	k.w_scale = spritz_knob(w_scale);
	k.min_bias_factor = spritz_knob(min_bias_factor);
	k.small_flow_weight = spritz_knob(small_flow_weight);
	for (v = 0; v < SPRITZ_V_NR; v++)
		spritz_sampler_build(s->col[v], t->scratch, t->small, t->large, d->npaths, v, &k,
				     &c, spritz_pick_off, spritz_pick_base, spritz_pick_class);
}

/* Rebuild @d into its spare sampler and publish it (work context). */
static void spritz_dest_rebuild(struct spritz_table *t, struct spritz_dest *d)
{
	struct spritz_sampler *old;

	/* the spare was current one rebuild ago: readers may still hold it */
	if (d->built_seq == t->batch_seq) {
		synchronize_rcu();
		t->batch_seq++;
	}
	spritz_dest_build(t, d, d->spare);
	old = rcu_replace_pointer(d->smp, d->spare, true);
	d->spare = old;
	d->built_seq = t->batch_seq;
}

/* Take @d off the dirty list (t->lock held). */
static void spritz_dest_clean(struct spritz_dest *d)
{
	if (d->dirty) {
		list_del_init(&d->dirty_node);
		d->dirty = false;
	}
}

/* Put @d on the dirty list (t->lock held). */
static void spritz_dest_dirty(struct spritz_table *t, struct spritz_dest *d)
{
	if (!d->dirty) {
		list_add_tail(&d->dirty_node, &t->dirty);
		d->dirty = true;
	}
}

/* Enable @p again (t->lock held). */
static void spritz_path_enable(struct spritz_table *t, struct spritz_dest *d,
			       struct spritz_path *p)
{
	WRITE_ONCE(p->disabled_until, 0);
	list_del_init(&p->expiry);
	d->nenabled++;
	spritz_dest_dirty(t, d);
}

/*
 * The table's work item: re-enable expired paths, rebuild stale samplers,
 * re-arm for the next expiry.  Runs in process context, never twice at
 * once, so it owns the spare samplers and t->scratch.
 */
static void spritz_table_work(struct work_struct *work)
{
	struct spritz_table *t = container_of(to_delayed_work(work), struct spritz_table, work);
	struct spritz_path *p, *tmp;
	struct spritz_dest *d;
	u64 now = get_jiffies_64(), next = 0;
	bool all, rebuilt = false;
	u32 i;

	spin_lock_bh(&t->lock);
	list_for_each_entry_safe(p, tmp, &t->expiry, expiry) {
		if (time_after64(p->disabled_until, now)) {
			if (!next || time_before64(p->disabled_until, next))
				next = p->disabled_until;
			continue;
		}
		spritz_path_enable(t, t->dests[p->dst], p);
	}
	all = t->all_dirty;
	t->all_dirty = false;
	if (all) {
		while (!list_empty(&t->dirty))
			spritz_dest_clean(list_first_entry(&t->dirty, struct spritz_dest,
							   dirty_node));
	}
	spin_unlock_bh(&t->lock);

	if (all) {
		for (i = 0; i < t->num_switches; i++) {
			if (t->dests[i]) {
				spritz_dest_rebuild(t, t->dests[i]);
				rebuilt = true;
			}
			cond_resched();
		}
	}
	for (;;) {
		/* one at a time: a disable may put a destination back */
		spin_lock_bh(&t->lock);
		d = list_first_entry_or_null(&t->dirty, struct spritz_dest, dirty_node);
		if (d)
			spritz_dest_clean(d);
		spin_unlock_bh(&t->lock);
		if (!d)
			break;
		spritz_dest_rebuild(t, d);
		rebuilt = true;
		cond_resched();
	}
	if (rebuilt) {
		/* the next run may write the buffers just retired */
		synchronize_rcu();
		t->batch_seq++;
	}
	if (next) {
		now = get_jiffies_64();
		queue_delayed_work(system_wq, &t->work,
				   time_after64(next, now) ? (unsigned long)(next - now) : 0);
	}
}

/*
 * What path @p of @d was in the table being replaced: @oldd's entry with
 * the same EV, latency class and base weight (the same path, unchanged),
 * or NULL.  @idx maps an EV to 1 + its index in @oldd (0: not there).
 */
static struct spritz_path *spritz_path_was(const struct spritz_path *p, struct spritz_dest *oldd,
					   const u16 *idx)
{
	struct spritz_path *op;

	if (!idx[p->ev])
		return NULL;
	op = &oldd->paths[idx[p->ev] - 1];
	if (op->lat_class != p->lat_class || op->base_weight != p->base_weight)
		return NULL;
	return op;
}

/*
 * @d takes the live state of its paths that @oldd (the same destination in
 * the table being replaced) holds unchanged: counters, and a disable with
 * the time it has left, as long as the destination keeps
 * spritz_min_enabled() of its paths enabled (the disables past that are
 * dropped).  Mutex held, @t not yet published.
 */
static bool spritz_dest_inherit(struct spritz_table *t, struct spritz_dest *d,
				struct spritz_table *old, struct spritz_dest *oldd, u16 *idx)
{
	u32 i, floor = spritz_min_enabled(d->npaths, spritz_knob(min_enabled_pct));
	struct spritz_path *p, *op;
	bool disabled = false;

	for (i = 0; i < oldd->npaths; i++)
		idx[oldd->paths[i].ev] = i + 1;
	spin_lock_bh(&old->lock);
	for (i = 0; i < d->npaths; i++) {
		p = &d->paths[i];
		op = spritz_path_was(p, oldd, idx);
		if (!op)
			continue;
		atomic64_set(&p->picks, atomic64_read(&op->picks));
		atomic64_set(&p->timeouts, atomic64_read(&op->timeouts));
		atomic64_set(&p->disables, atomic64_read(&op->disables));
		if (!op->disabled_until || d->nenabled <= floor)
			continue;
		p->disabled_until = op->disabled_until;
		p->disabled_at = op->disabled_at;
		list_add_tail(&p->expiry, &t->expiry);
		d->nenabled--;
		disabled = true;
	}
	spin_unlock_bh(&old->lock);
	for (i = 0; i < oldd->npaths; i++)
		idx[oldd->paths[i].ev] = 0;
	return disabled;
}

/*
 * Staging table @t takes what the live table @old it replaces learnt about
 * the paths @t keeps unchanged (spritz_dest_inherit()), so a reload does
 * not forget which paths are dead.  A disable @old takes after this copy
 * is lost (the datapath still runs on @old until the swap): its next
 * timeout repeats it.  Returns true if a path of @t is disabled: its work
 * must be armed once @t is live.
 */
static bool spritz_table_inherit(struct spritz_table *t, struct spritz_table *old, u16 *idx)
{
	u32 i, n = min(t->num_switches, old->num_switches);
	bool disabled = false;

	for (i = 0; i < n; i++) {
		if (t->dests[i] && old->dests[i] &&
		    spritz_dest_inherit(t, t->dests[i], old, old->dests[i], idx))
			disabled = true;
		cond_resched();
	}
	return disabled;
}

/* Retire @old, unreachable since the caller's xa_erase()/xa_store() (mutex). */
static void spritz_table_retire(struct spritz_table *old)
{
	spritz_ntables--;
	spritz_live_bytes -= old->bytes;
	synchronize_rcu();
	spritz_table_free(old);
}

/*
 * Publish staging table @t as its source switch's live table (mutex held):
 * take over the state of the paths it keeps from the table it replaces,
 * build its samplers, swap it in, free the one it replaces after a grace
 * period.  On error @t stays staged and nothing changed; on success it is
 * live and no longer the caller's.
 */
int spritz_table_commit(struct spritz_table *t, struct netlink_ext_ack *extack)
{
	struct spritz_table *old;
	bool disabled = false;
	u16 *idx = NULL;
	u32 i;

	lockdep_assert_held(&spritz_table_mutex);
	old = xa_load(&spritz_live, t->src_switch);
	if (!old && spritz_ntables >= SPRITZ_MAX_TABLES) {
		NL_SET_ERR_MSG_FMT_MOD(extack, "too many source tables (%u live)", spritz_ntables);
		return -ENOSPC;
	}
	/* the only steps that can fail, before anything is published */
	if (old) {
		/* EV -> index in a list of the old table: one pass per list */
		idx = kvcalloc(1 << 16, sizeof(*idx), GFP_KERNEL);
		if (!idx)
			return -ENOMEM;
	}
	if (xa_reserve(&spritz_live, t->src_switch, GFP_KERNEL)) {
		kvfree(idx);
		return -ENOMEM;
	}
	if (old)
		disabled = spritz_table_inherit(t, old, idx);
	kvfree(idx);
	for (i = 0; i < t->num_switches; i++) {
		struct spritz_dest *d = t->dests[i];

		if (!d)
			continue;
		spritz_dest_build(t, d, &d->smp_buf[0]);
		RCU_INIT_POINTER(d->smp, &d->smp_buf[0]);
		d->spare = &d->smp_buf[1];
		cond_resched();
	}
	t->generation = ++spritz_generation ?: ++spritz_generation;
	spritz_tables_seq++;
	/* a reserved slot: no allocation, cannot fail */
	old = xa_store(&spritz_live, t->src_switch, t, GFP_KERNEL);
	spritz_nstaging--;
	spritz_staging_bytes -= t->bytes;
	spritz_ntables++;
	spritz_live_bytes += t->bytes;
	if (disabled) /* re-enable the inherited disables in time */
		queue_delayed_work(system_wq, &t->work, 0);
	if (old)
		spritz_table_retire(old);
	return 0;
}

/*
 * Drop the live table of @src, or all of them for SPRITZ_SRC_ALL (mutex):
 * unpublish every one, wait for one grace period, then free them all.
 */
void spritz_table_flush(u32 src)
{
	struct spritz_table *t, *tmp;
	LIST_HEAD(retired);
	unsigned long i;

	lockdep_assert_held(&spritz_table_mutex);
	spritz_tables_seq++;
	if (src != SPRITZ_SRC_ALL) {
		t = xa_erase(&spritz_live, src);
		if (t)
			spritz_table_retire(t);
		return;
	}
	xa_for_each(&spritz_live, i, t) {
		xa_erase(&spritz_live, i);
		spritz_ntables--;
		spritz_live_bytes -= t->bytes;
		list_add_tail(&t->retired, &retired);
	}
	if (list_empty(&retired))
		return;
	/* no reader can reach any of them after this one grace period */
	synchronize_rcu();
	list_for_each_entry_safe(t, tmp, &retired, retired) {
		list_del(&t->retired);
		spritz_table_free(t);
	}
}

/* The live table after source @*src (inclusive), or NULL (mutex or RCU). */
struct spritz_table *spritz_table_next(u32 *src)
{
	unsigned long i = *src;
	struct spritz_table *t = xa_find(&spritz_live, &i, ULONG_MAX, XA_PRESENT);

	*src = i;
	return t;
}

/*
 * A weight knob changed: rebuild every sampler of every live table, and
 * return when it is done, so that a knob write is in effect once the
 * write returns.  The work items take no mutex, so flushing them under
 * spritz_table_mutex (which keeps the tables alive) cannot deadlock.
 */
void spritz_tables_knobs_changed(void)
{
	struct spritz_table *t;
	unsigned long i;

	mutex_lock(&spritz_table_mutex);
	xa_for_each(&spritz_live, i, t) {
		spin_lock_bh(&t->lock);
		t->all_dirty = true;
		spin_unlock_bh(&t->lock);
		mod_delayed_work(system_wq, &t->work, 0);
	}
	xa_for_each(&spritz_live, i, t)
		flush_delayed_work(&t->work);
	mutex_unlock(&spritz_table_mutex);
}

/* Lists and paths over all live tables. */
void spritz_tables_count(u32 *ndests, u32 *npaths)
{
	struct spritz_table *t;
	unsigned long i;

	*ndests = 0;
	*npaths = 0;
	mutex_lock(&spritz_table_mutex);
	xa_for_each(&spritz_live, i, t) {
		*ndests += t->ndests;
		*npaths += t->npaths;
	}
	mutex_unlock(&spritz_table_mutex);
}

/* Staging tables over all sockets and their bytes. */
void spritz_staging_count(u32 *n, u64 *bytes)
{
	mutex_lock(&spritz_table_mutex);
	*n = spritz_nstaging;
	*bytes = spritz_staging_bytes;
	mutex_unlock(&spritz_table_mutex);
}

/* The weight of @p now in the default variant, saturated to a u32. */
u32 spritz_path_weight_now(const struct spritz_path *p)
{
	struct spritz_knob_values k;

	if (READ_ONCE(p->disabled_until))
		return 0;
	k.weighted = spritz_knob(weighted);
	k.w_scale = spritz_knob(w_scale);
	if (!k.weighted)
		return SPRITZ_WEIGHT_ONE;
	return min_t(u64, spritz_variant_weight(p->base_weight, p->lat_class, SPRITZ_V_WEIGHTED, &k),
		     U32_MAX);
}

/* Milliseconds until @p is enabled again, 0 if it is enabled. */
u32 spritz_path_disabled_ms(const struct spritz_path *p)
{
	u64 until = READ_ONCE(p->disabled_until), now = get_jiffies_64();

	if (!until)
		return 0;
	return time_after64(until, now) ? jiffies_to_msecs(until - now) : 1;
}

/* The live list from @src to @dst, or NULL (rcu_read_lock held). */
static struct spritz_dest *spritz_lookup(struct spritz_table **tp, u32 src, u32 dst)
{
	struct spritz_table *t = xa_load(&spritz_live, src);

	*tp = t;
	if (!t || dst >= t->num_switches)
		return NULL;
	return t->dests[dst];
}

/*
 * Sample one path of @dst other than the EVs of @avoid: O(1) alias lookup
 * with the per-CPU prandom state.  A draw on a path disabled since the last
 * rebuild, or on an avoided one, is drawn again (bounded: SPRITZ_PICK_TRIES),
 * then a scan chooses uniformly among the paths it may take
 * (spritz_sampler_pick()).  Any context; no allocation, no lock.
 */
int spritz_pick(u32 src, u32 dst, u32 flags, u64 avoid)
{
	struct spritz_pick_ctx c;
	const struct spritz_sampler *s;
	struct spritz_path *p;
	struct spritz_table *t;
	u32 i;
	int ret;

	if (!spritz_pick_args_ok(flags, avoid))
		return -EINVAL;
	rcu_read_lock();
	c.d = spritz_lookup(&t, src, dst);
	if (!c.d) {
		ret = -ENOENT;
		goto out;
	}
	s = rcu_dereference(c.d->smp);
	c.rnd = get_cpu_ptr(&spritz_rnd);
	i = spritz_sampler_pick(s->col[spritz_flags_variant(flags)], c.d->npaths, avoid, &c,
				spritz_pick_rnd, spritz_pick_off, spritz_pick_ev);
	put_cpu_ptr(&spritz_rnd);
	p = &c.d->paths[i];
	atomic64_inc(&p->picks);
	ret = SPRITZ_PICK(p->ev, p->lat_class);
out:
	rcu_read_unlock();
	return ret;
}

/* Paths a timeout's floor brought back (sysfs floor_enables). */
atomic64_t spritz_floor_enables = ATOMIC64_INIT(0);

/*
 * A timeout on (@src, @dst, @ev): disable the path for disable_ms from now (a
 * repeated timeout restarts it: later, or earlier if disable_ms went down
 * meanwhile).  If @dst has no more enabled paths than spritz_min_enabled()
 * keeps, the least recently disabled one comes back first (counted in
 * spritz_floor_enables), so a destination always keeps that many; with none
 * to bring back, the path stays enabled and SPRITZ_TIMEOUT_KEPT is returned.
 * Softirq-safe: spinlock, no allocation, O(paths of @dst).
 */
int spritz_path_timeout(u32 src, u32 dst, u32 ev)
{
	struct spritz_pick_ctx c = {};
	struct spritz_path *p = NULL;
	struct spritz_table *t;
	struct spritz_dest *d;
	bool kick = false;
	u64 now, until;
	int ret = 0, q;
	u32 i;

	rcu_read_lock();
	d = spritz_lookup(&t, src, dst);
	c.d = d;
	for (i = 0; d && i < d->npaths; i++) {
		if (d->paths[i].ev == ev) {
			p = &d->paths[i];
			break;
		}
	}
	if (!p) {
		ret = -ENOENT;
		goto out;
	}
	atomic64_inc(&p->timeouts);
	now = get_jiffies_64();
	until = now + max(1UL, msecs_to_jiffies(spritz_knob(disable_ms)));

	spin_lock_bh(&t->lock);
	if (!p->disabled_until) {
		q = spritz_floor_enable(d->npaths, d->nenabled, spritz_knob(min_enabled_pct), i, &c,
					spritz_pick_off, spritz_pick_at);
		if (q == SPRITZ_FLOOR_KEEP) {
			ret = SPRITZ_TIMEOUT_KEPT;
			goto out_unlock;
		}
		if (q >= 0) {
			spritz_path_enable(t, d, &d->paths[q]);
			atomic64_inc(&spritz_floor_enables);
		}
		d->nenabled--;
		atomic64_inc(&p->disables);
		spritz_dest_dirty(t, d);
		kick = true;
	} else if (time_before64(until, p->disabled_until)) {
		/* disable_ms went down: the work may be armed for the old time */
		kick = true;
	}
	p->disabled_at = now;
	WRITE_ONCE(p->disabled_until, until);
	/* oldest first while disable_ms is unchanged; the work scans it all */
	list_move_tail(&p->expiry, &t->expiry);
	spin_unlock_bh(&t->lock);
	/*
	 * New disable: rebuild now, the work re-arms itself for the expiry.
	 * An earlier expiry than before: run the work now, it re-arms for the
	 * earliest one.  A later one needs nothing: the armed work finds it.
	 */
	if (kick)
		mod_delayed_work(system_wq, &t->work, 0);
	goto out;

out_unlock:
	spin_unlock_bh(&t->lock);
out:
	rcu_read_unlock();
	return ret;
}

int spritz_tables_init(void)
{
	prandom_seed_full_state(&spritz_rnd);
	return 0;
}

/* Module exit: free the live tables (the netlink family is gone). */
void spritz_tables_exit(void)
{
	mutex_lock(&spritz_table_mutex);
	spritz_table_flush(SPRITZ_SRC_ALL);
	mutex_unlock(&spritz_table_mutex);
	xa_destroy(&spritz_live);
}
