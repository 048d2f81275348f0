/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The pinned datapath object that up, down, reload and show share
 * (datapath.c).
 *
 * One object per bpffs, under SPRITZ_PIN_DIR: the programs spritz_egress
 * and spritz_ingress, the datapath maps (SPRITZ_MAP_*), spritzctl's own
 * state map and, on tcx kernels, one pinned link per device and hook
 * (link_<ifindex>_<hook>).  Every device attached, in whatever network
 * namespace, runs these same two programs: the first up loads and pins
 * them, later ones reuse them.
 *
 * The state map (SPRITZ_MAP_STATE, struct spritz_ctl_state, declared in
 * the object for its BTF) records what the maps cannot: key 0 is the host
 * record (did up load spritz.ko?), key IFINDEX one record per device with
 * the network namespace it lives in.  Commands that
 * change the object take CTL_LOCK_PATH (flock) for their whole run, which
 * also serialises the module's single table transaction.
 */
#ifndef _SPRITZCTL_DATAPATH_H
#define _SPRITZCTL_DATAPATH_H

#include <stdbool.h>
#include <stdint.h>

#include <spritz/maps.h>

#include "spritz_attach.h"
#include "spritz_dir.h"
#include "spritz_nl.h"
#include "topo.h"

#define CTL_LOCK_PATH "/run/spritzctl.lock"

struct ctl_dp {
	int prog[2]; /* by enum spritz_hook */
	int devs, dir, state;
	struct bpf_object *obj; /* while this run created the object */
};

struct ctl_dev {
	uint32_t ifindex;
	struct spritz_ctl_state v;
};

void ctl_dp_init(struct ctl_dp *dp);
void ctl_dp_close(struct ctl_dp *dp);

/* The pinned object: 0, -ENOENT if none is pinned, other -errno. */
int ctl_dp_open(struct ctl_dp *dp);

/*
 * Load the datapath (libbpf skeleton, or the file $SPRITZ_BPF_OBJ) and pin
 * it with a new state map holding @host_flags.  Prints the error; nothing
 * stays pinned on failure.
 */
int ctl_dp_create(struct ctl_dp *dp, uint32_t host_flags);

/* Unpin everything under SPRITZ_PIN_DIR that spritzctl pins; remove it. */
int ctl_dp_unpin(void);

/* The device records (malloc'ed array; free it). */
int ctl_devices(const struct ctl_dp *dp, struct ctl_dev **out, size_t *n);
int ctl_host_flags(const struct ctl_dp *dp, uint32_t *flags);

/*
 * Network namespaces are told apart by their cookie (SO_NETNS_COOKIE,
 * never reused while the system runs; namespace inode numbers are) and
 * found again by the inode of their nsfs file, among /run/netns/NAME and
 * /proc/PID/ns/net.
 */
uint64_t ctl_netns_self(void);
uint64_t ctl_netns_self_ino(void);
/* Run @fn in the namespace of @v: its return, or -ENOENT if it is gone. */
int ctl_in_netns(const struct spritz_ctl_state *v, int (*fn)(void *), void *arg);
/* Is the device of record @d still there (its namespace, its ifindex)? */
bool ctl_dev_alive(const struct ctl_dev *d);

/* spritz_nl_open() in the initial network namespace (the family's). */
int ctl_nl_open(struct spritz_nl **nl, char *err, size_t errlen);

/* spritz.ko: 1 loaded now, 0 already loaded, -1 failed (printed). */
int ctl_module_load(void);
int ctl_module_unload(void);
bool ctl_module_loaded(void);

/* The endpoint table of one source switch, as sent over netlink. */
struct ctl_table {
	uint32_t src, nsw;
	struct spritz_nl_dest *dests;
	size_t nd;
	struct spritz_nl_path *paths;
};

int ctl_table_build(struct spritz_topo *t, uint32_t src, struct ctl_table *tb);
void ctl_table_free(struct ctl_table *tb);
/* 1 live and identical, 0 live and different, -ENOENT not live, <0 error. */
int ctl_table_live(struct spritz_nl *nl, const struct ctl_table *tb);
/*
 * The destinations whose EV list (EVs, latency classes) in @tb differs
 * from the live table of tb->src: changed[dst] = 1 (@changed has tb->nsw
 * bytes).  No live table, or one of another size: all.  0 or -errno.
 */
int ctl_table_diff(struct spritz_nl *nl, const struct ctl_table *tb, uint8_t *changed);
/* BEGIN, SET..., COMMIT: swapped atomically; prints the error. */
int ctl_table_push(struct spritz_nl *nl, const struct ctl_table *tb);
/* Flush one table or all (SPRITZ_NL_ALL); errors ignored (cleanup). */
void ctl_table_flush(uint32_t src);

/*
 * The directory requested by --addr-plan or --hosts (exactly one non-NULL),
 * for a fabric of @nsw switches.  Prints the error and returns EXIT_USAGE
 * (bad plan or hosts line) or EXIT_FAIL (unreadable file).
 */
int ctl_dir_source(const char *plan, const char *hosts, uint32_t nsw, struct spritz_dir_list *out);
/* An entry of @l whose prefix is in the map with another switch: 1 (why), 0, <0. */
int ctl_dir_conflict(int fd, const struct spritz_dir_list *l, char *why, size_t len);
/* Insert entries of @l the map lacks; those inserted are appended to @added. */
int ctl_dir_add_missing(int fd, const struct spritz_dir_list *l, struct spritz_dir_list *added);
/* Delete the entries of @l from the map. */
void ctl_dir_remove(int fd, const struct spritz_dir_list *l);
/* Make the map hold exactly @l: update or insert each, then delete the rest. */
int ctl_dir_replace(int fd, const struct spritz_dir_list *l);
/* Largest dst_switch in the map (-1 if empty). */
long ctl_dir_max_switch(int fd);

/* Source switch @src's destinations whose EV lists a reload replaced. */
struct ctl_stale {
	uint32_t src, nsw;
	const uint8_t *dst; /* nsw bytes, 1 = replaced (ctl_table_diff()) */
};

/*
 * Drop the flow states (spritz_flows) that the directory in @dir_fd now
 * maps elsewhere (or not at all), those of source switch @src (if not -1)
 * and those of a pair (source, destination) in @stale: the next packet of
 * such a flow starts a new state from the current directory, spritz_devs
 * and tables, with no EV of the old ones buffered.  Number dropped, or
 * -errno.
 */
int ctl_flows_resync(int dir_fd, long src, const struct ctl_stale *stale, size_t nstale);

/*
 * Wait until every datapath program that started before the call has
 * returned (an RCU grace period): after it no packet leaves with state
 * changed or dropped before it.  0 or -errno.
 */
int ctl_dp_sync(void);

/*
 * TSO and GSO of device @ifindex in this namespace (SIOCETHTOOL): read
 * them, or set both.  0 or -errno.
 */
int ctl_offload_get(uint32_t ifindex, bool *tso, bool *gso);
int ctl_offload_set(uint32_t ifindex, bool tso, bool gso);

/* Take CTL_LOCK_PATH (blocks); fd to keep open, or -errno. */
int ctl_lock(void);

/* geteuid() == 0, else "failed to WHAT: permission denied (must be root)". */
bool ctl_need_root(const char *what);

#endif /* _SPRITZCTL_DATAPATH_H */
