/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * libspritz: the host datapath's lifecycle (the libxdp model: the library
 * owns object, pins, module, tables, directory and knobs; spritzctl parses
 * arguments, prints and calls these).
 *
 * One object per bpffs, under SPRITZ_PIN_DIR: the programs spritz_egress
 * and spritz_ingress, the datapath maps (SPRITZ_MAP_*), the state map and,
 * on tcx kernels, one pinned link per device and hook (link_<ifindex>_<hook>).
 * Every device attached, in whatever network namespace, runs these same two
 * programs: the first up loads and pins them, later ones reuse them.
 *
 * The state map (SPRITZ_MAP_STATE, struct spritz_ctl_state) records what
 * the maps cannot: key 0 is the host record (did up load spritz.ko?), key
 * IFINDEX one record per device with the network namespace it lives in.
 * spritz_host_up(), _down() and _reload() take SPRITZ_LOCK_PATH (flock)
 * for their whole run, which also serialises table transactions.
 *
 * Units: host_obj.c (object, pins, device records, lock), host_netns.c,
 * host_module.c, host_table.c (endpoint tables: build, diff, push),
 * host_dir.c (directory map, flow resync, RCU barrier), host_ethtool.c,
 * host_sysctl.c, host_tcp.c (up --tcp-dupthresh), host_ops.c (up, down,
 * reload as step tables, spritz_steps.h).
 *
 * Error convention (spritz_err.h): 0 or -errno, a message in @err.
 */
#ifndef _SPRITZ_HOST_H
#define _SPRITZ_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <spritz/maps.h>

#include "spritz_attach.h"
#include "spritz_dir.h"
#include "spritz_nl.h"
#include "topo.h"

#define SPRITZ_LOCK_PATH "/run/spritzctl.lock"

/* ------------------------------------------------------------ the object */

struct spritz_dp {
	int prog[2]; /* by enum spritz_hook */
	int devs, dir, state;
};

struct spritz_dp_dev {
	uint32_t ifindex;
	struct spritz_ctl_state v;
};

void spritz_dp_init(struct spritz_dp *dp);
void spritz_dp_close(struct spritz_dp *dp);
/* The pinned object: 0, -ENOENT if none is pinned, -ESTALE if incomplete. */
int spritz_dp_open(struct spritz_dp *dp);
/*
 * Load the datapath (libbpf skeleton, or the file $SPRITZ_BPF_OBJ) and pin
 * it with a new state map holding @host_flags; nothing stays pinned on
 * failure.
 */
int spritz_dp_create(struct spritz_dp *dp, uint32_t host_flags, char *err, size_t errlen);
/* Unpin everything under SPRITZ_PIN_DIR that libspritz pins; remove it. */
int spritz_dp_unpin(void);
/* A pinned object of the datapath by name (fd), or -errno. */
int spritz_dp_pin_get(const char *name);
/* The device records (malloc'ed array; free it). */
int spritz_dp_devices(const struct spritz_dp *dp, struct spritz_dp_dev **out, size_t *n);
int spritz_dp_host_flags(const struct spritz_dp *dp, uint32_t *flags);
/* Take SPRITZ_LOCK_PATH (blocks); fd to keep open, or -errno. */
int spritz_dp_lock(void);

/* ---------------------------------------------------- network namespaces */

/*
 * Network namespaces are told apart by their cookie (SO_NETNS_COOKIE,
 * never reused while the system runs; namespace inode numbers are) and
 * found again by the inode of their nsfs file, among /run/netns/NAME and
 * /proc/PID/ns/net.
 */
uint64_t spritz_netns_self(void);
uint64_t spritz_netns_self_ino(void);
/*
 * All entries of the array map @fd, up to @n, into @keys and @vals (@vsz
 * bytes per entry: value_size, or for a per-CPU array every CPU's value
 * 8-byte aligned), in batches.  The number read, or -errno.
 */
int spritz_map_read_array(int fd, uint32_t n, size_t vsz, uint32_t *keys, void *vals);

/* Move the calling thread into /run/netns/@name (ip netns's); 0 or -errno. */
int spritz_netns_enter(const char *name);
/* Run @fn in the namespace of @v: its return, or -ENOENT if it is gone. */
int spritz_in_netns(const struct spritz_ctl_state *v, int (*fn)(void *), void *arg);
/* Is the device of record @d still there (its namespace, its ifindex)? */
bool spritz_dp_dev_alive(const struct spritz_dp_dev *d);
/* spritz_nl_open() in the initial network namespace (the family's). */
int spritz_nl_open_init(struct spritz_nl **nl, char *err, size_t errlen);

/* ---------------------------------------------------------------- module */

/*
 * spritz.ko: "modprobe spritz", else $SPRITZ_KO or kmod/$(uname -r)/spritz.ko
 * next to the running binary.  1 loaded now, 0 already loaded, -errno.
 */
int spritz_module_load(char *err, size_t errlen);
int spritz_module_unload(void);
bool spritz_module_loaded(void);

/* ---------------------------------------------------------------- tables */

/* The endpoint table of one source switch, as sent over netlink. */
struct spritz_ktable {
	uint32_t src, nsw;
	struct spritz_nl_dest *dests;
	size_t nd;
	struct spritz_nl_path *paths;
};

int spritz_ktable_build(struct spritz_topo *t, uint32_t src, struct spritz_ktable *tb, char *err,
			size_t errlen);
/* The live table of @src (EVs, classes, base weights): -ENOENT if none. */
int spritz_ktable_dump(struct spritz_nl *nl, uint32_t src, struct spritz_ktable *tb);
void spritz_ktable_free(struct spritz_ktable *tb);
/* 1 live and identical, 0 live and different, -ENOENT not live, <0 error. */
int spritz_ktable_live(struct spritz_nl *nl, const struct spritz_ktable *tb);
/*
 * The destinations whose EV list (EVs, latency classes) in @tb differs
 * from the live table of tb->src: changed[dst] = 1 (@changed has tb->nsw
 * bytes).  No live table, or one of another size: all.
 */
int spritz_ktable_diff(struct spritz_nl *nl, const struct spritz_ktable *tb, uint8_t *changed);
/* BEGIN, SET..., COMMIT: swapped atomically. */
int spritz_ktable_push(struct spritz_nl *nl, const struct spritz_ktable *tb, char *err,
		       size_t errlen);
/* Flush one table or all (SPRITZ_NL_ALL); errors ignored (cleanup). */
void spritz_ktable_flush(uint32_t src);

/* ------------------------------------------------------------- directory */

/* An entry of @l whose prefix is in the map with another switch: 1 (why), 0, <0. */
int spritz_dirmap_conflict(int fd, const struct spritz_dir_list *l, char *why, size_t len);
/* Insert entries of @l the map lacks; those inserted are appended to @added. */
int spritz_dirmap_add_missing(int fd, const struct spritz_dir_list *l,
			      struct spritz_dir_list *added);
/* Delete the entries of @l from the map. */
void spritz_dirmap_remove(int fd, const struct spritz_dir_list *l);
/* Every entry of the map, into @out (empty first). */
int spritz_dirmap_read(int fd, struct spritz_dir_list *out);
/*
 * Make the map hold exactly @l: delete the entries @l lacks first, then
 * update or insert, so that the map never holds more than the larger of
 * the two lists (a renumbering near the map's capacity fits).
 */
int spritz_dirmap_replace(int fd, const struct spritz_dir_list *l);
/* Largest dst_switch in the map (-1 if empty). */
long spritz_dirmap_max_switch(int fd);

/* Source switch @src's destinations whose EV lists a reload replaced. */
struct spritz_stale {
	uint32_t src, nsw;
	const uint8_t *dst; /* nsw bytes, 1 = replaced (spritz_ktable_diff()) */
};

/* ------------------------------------------------------- the flow table */

/* spritz_flows mapped into this process (host_flows.c). */
struct spritz_flowtab {
	struct spritz_flow *slot;
	size_t n, len;
};

struct bpf_object;
struct spritz_flow_hashkey;

/* Map the flow table of map @fd; -EPROTO if not this build's table. */
int spritz_flowtab_open(int fd, bool writable, struct spritz_flowtab *t);
void spritz_flowtab_close(struct spritz_flowtab *t);
/* Copy slot @i into @f: true if it holds a flow. */
bool spritz_flowtab_get(const struct spritz_flowtab *t, size_t i, struct spritz_flow *f);
/*
 * The slot of the flow @key, or -ENOENT: looked for where the datapath
 * puts it, in the ways of its set under the loaded object's hash keys @hk
 * (include/spritz/flowtab.h).
 */
long spritz_flowtab_find(const struct spritz_flowtab *t, const struct spritz_flow_key *key,
			 const volatile struct spritz_flow_hashkey *hk);
/* Forget the flow in slot @i (its next packet starts a new state). */
void spritz_flowtab_clear(struct spritz_flowtab *t, size_t i);
/* Draw the hash keys of @obj's flow table (opened, not loaded): 0 or -errno. */
int spritz_flowtab_seed(struct bpf_object *obj);

/*
 * Drop the flow states (spritz_flows) that the directory in @dir_fd now
 * maps elsewhere (or not at all), those of source switch @src (if not -1)
 * and those of a pair (source, destination) in @stale: the next packet of
 * such a flow starts a new state from the current directory, spritz_devs
 * and tables, with no EV of the old ones buffered.  Number dropped, or
 * -errno.
 */
int spritz_flows_resync(int dir_fd, long src, const struct spritz_stale *stale, size_t nstale);

/*
 * Wait until every datapath program that started before the call has
 * returned (an RCU grace period): after it no packet leaves with state
 * changed or dropped before it.
 */
int spritz_dp_sync(void);

/* ---------------------------------------------------------- offloads */

/* TSO and GSO of device @ifindex in this namespace (SIOCETHTOOL). */
int spritz_offload_get(uint32_t ifindex, bool *tso, bool *gso);
int spritz_offload_set(uint32_t ifindex, bool tso, bool gso);

/* --------------------------------------------------------------- sysctls */

/*
 * A sysctl of the calling thread's network namespace by dotted key
 * ("net.ipv4.tcp_recovery"): write @val as it is (@dry: only check that it
 * could be written), or read an integer.  0 or -errno.
 */
int spritz_sysctl_write(const char *key, const char *val, bool dry);
int spritz_sysctl_read_int(const char *key, int *val);

/* ------------------------------------------------- up, down and reload */

/*
 * up --tcp-dupthresh N: Linux's own default threshold (3) up to the largest
 * tcp_reordering it keeps per connection (net.ipv4.tcp_max_reordering's
 * default; a namespace with a lower one refuses a larger N at up).
 */
#define SPRITZ_TCP_DUPTHRESH_MIN 3
#define SPRITZ_TCP_DUPTHRESH_MAX 300

/* spritz_host_up(): spritzctl up's arguments, parsed. */
struct spritz_up_cfg {
	const char *dev;                   /* name, for messages */
	uint32_t ifindex;
	struct spritz_topo *t;
	const char *topo;                  /* as given, for messages */
	uint32_t sw;
	const struct spritz_dir_list *dir; /* entries to add */
	const char *algo;                  /* NULL: unchanged */
	bool per_packet;                   /* TSO and GSO off */
	uint32_t tcp_dupthresh;            /* 0: TCP as it is; else no RACK and
					    * this duplicate-ACK threshold */
};

/* spritz_host_reload(): NULL/-1 fields are "not given". */
struct spritz_reload_cfg {
	const char *dev;
	uint32_t ifindex;                  /* 0: every device, or all of switch sw */
	struct spritz_topo *t;
	const char *topo;
	long sw;
	const struct spritz_dir_list *dir; /* NULL: keep the directory */
	const char *algo;
};

/*
 * Ordered steps with undo (spritz_steps.h): on failure at any step the host
 * is left as before the call.  Returns 0, 1 (up: already up, nothing done),
 * -EDOM for arguments the fabric or the directory refuses (a usage error:
 * a switch out of range, a directory entry of a switch the topology lacks;
 * checked first, before the lock, so no privilege is needed for it), or
 * another -errno; the message is in @err.
 */
int spritz_host_up(const struct spritz_up_cfg *c, char *err, size_t errlen);
int spritz_host_reload(const struct spritz_reload_cfg *c, char *err, size_t errlen);
/* One device (@ifindex, @dev its name) or, with @ifindex 0, every device. */
int spritz_host_down(uint32_t ifindex, const char *dev, char *err, size_t errlen);

#endif /* _SPRITZ_HOST_H */
