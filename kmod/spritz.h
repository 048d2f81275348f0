/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Internal interfaces between the parts of spritz.ko.
 *
 * sysfs.c owns the knobs (/sys/kernel/spritz), table.c the endpoint tables
 * (paper §III-C) with their alias samplers and path-disable timers
 * (paper §V, Alg. 2/3 "w[i] <- 0"), netlink.c the generic netlink family
 * that loads them, kfuncs.c what tc programs call.
 * Documentation/design-kmod.rst describes the data structures and locking.
 */
#ifndef _SPRITZ_KMOD_H
#define _SPRITZ_KMOD_H

#include <linux/kobject.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/netlink.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include <spritz/abi.h>
#include <spritz/knobs.h>
#include <spritz/sampler.h> /* enum spritz_variant, struct spritz_alias */

/* ------------------------------------------------------------ sysfs.c */

/*
 * The live knob values.  Writers (sysfs stores) hold spritz_knob_lock and
 * WRITE_ONCE() each field; readers (kfuncs, sampler builds) READ_ONCE() the
 * fields they need, without locks.
 */
extern struct spritz_knob_values spritz_knobs;

#define spritz_knob(name) READ_ONCE(spritz_knobs.name)

int spritz_sysfs_init(void);
void spritz_sysfs_exit(void);

/* ------------------------------------------------------------ table.c */

/* All variants' alias tables of one destination, published by RCU. */
struct spritz_sampler {
	struct spritz_alias *col[SPRITZ_V_NR]; /* n entries each, same block */
};

/* One EV entry of a destination list, with its live state. */
struct spritz_path {
	u16 ev;
	u8 lat_class;
	u32 base_weight;	   /* Eq. 1, SPRITZ_WEIGHT_ONE = 1.0 */
	u32 dst;		   /* the destination whose list holds it */
	u64 disabled_until;	   /* jiffies64; 0 = enabled (READ_ONCE in pick) */
	u64 disabled_at;	   /* jiffies64 of the last disable (t->lock) */
	struct list_head expiry;   /* on t->expiry while disabled (t->lock) */
	atomic64_t picks;
	atomic64_t timeouts;
	atomic64_t disables;
};

/* The EV entry list of one destination switch. */
struct spritz_dest {
	u32 dst;
	u32 npaths;
	u32 nenabled;		  /* t->lock */
	bool dirty;		  /* on t->dirty (t->lock) */
	u32 built_seq;		  /* t->batch_seq of the last rebuild (work) */
	struct list_head dirty_node;
	struct spritz_sampler __rcu *smp; /* what pick() reads */
	struct spritz_sampler *spare;	  /* rebuilt off the packet path */
	struct spritz_sampler smp_buf[2];
	struct spritz_path paths[];
};

/* An endpoint table: one source switch's lists, one per destination. */
struct spritz_table {
	u32 src_switch;
	u32 num_switches;
	u32 generation;
	u32 ndests;
	u32 npaths;
	size_t bytes;			/* counted against SPRITZ_MAX_TABLE_BYTES */
	struct spritz_dest **dests;	/* num_switches slots, NULL = no list */
	spinlock_t lock;		/* path disable state, expiry, dirty */
	struct list_head expiry;	/* disabled paths, oldest first */
	struct list_head dirty;		/* destinations whose samplers are stale */
	bool all_dirty;			/* knob change: rebuild every destination */
	u32 batch_seq;			/* work: grace periods between rebuilds */
	struct delayed_work work;	/* re-enable + rebuild */
	u64 *scratch;			/* sampler build: SPRITZ_MAX_PATHS weights */
	u16 *small, *large;		/* sampler build: work lists */
	struct list_head retired;	/* flush: unpublished, awaiting the grace period */
};

/* Serialises table transactions, publication, knob-triggered rebuilds. */
extern struct mutex spritz_table_mutex;
/* Bumped by every commit and flush: a dump spanning a change fails. */
extern u32 spritz_tables_seq;

/* spritz_table_flush(): every source. */
#define SPRITZ_SRC_ALL U32_MAX

struct spritz_table *spritz_table_alloc(u32 src_switch, u32 num_switches,
					struct netlink_ext_ack *extack);
int spritz_table_add_dest(struct spritz_table *t, u32 dst, u32 npaths,
			  const struct spritz_path *paths, struct netlink_ext_ack *extack);
int spritz_table_commit(struct spritz_table *t, struct netlink_ext_ack *extack);
void spritz_staging_free(struct spritz_table *t);
void spritz_table_flush(u32 src);
struct spritz_table *spritz_table_next(u32 *src);
void spritz_table_free(struct spritz_table *t);
void spritz_tables_knobs_changed(void);
void spritz_tables_count(u32 *ndests, u32 *npaths);
extern atomic64_t spritz_floor_enables; /* table.c, sysfs floor_enables */
void spritz_staging_count(u32 *n, u64 *bytes);
u32 spritz_path_weight_now(const struct spritz_path *p);
u32 spritz_path_disabled_ms(const struct spritz_path *p);
int spritz_pick(u32 src, u32 dst, u32 flags, u64 avoid);
int spritz_path_timeout(u32 src, u32 dst, u32 ev);
int spritz_tables_init(void);
void spritz_tables_exit(void);

/* ---------------------------------------------------------- netlink.c */
int spritz_netlink_init(void);
void spritz_netlink_exit(void);

/* ----------------------------------------------------------- kfuncs.c */
int spritz_kfuncs_init(void);

#endif /* _SPRITZ_KMOD_H */
