/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libspritz paths: every bounded simple path a sender can select with an
 * EV = EV1:EV2 (paper §III), its latency (Table I model) and weight (Eq. 1),
 * per destination switch, sorted by latency; and the endpoint-table memory
 * of paper §III-C (3 bytes per EV entry, one list per destination switch).
 * Documentation/paths.rst describes the model.
 */
#ifndef _SPRITZ_PATHS_H
#define _SPRITZ_PATHS_H

#include "topo.h"

/* Longest switch sequence a path may have (hop counts are 4-bit fields). */
#define SPRITZ_PATH_MAX_HOPS 15

/*
 * One EV entry of a list (12 bytes: 4-byte aligned, so that a table of
 * millions of paths does not pay 4 bytes of padding each).  latency_ps is
 * 64-bit: a path of up to SPRITZ_PATH_MAX_HOPS hops of up to 4 ms of cable
 * plus serialization each does not fit 32 bits (topo.h).  hop1 = the
 * neighbour at EV1 of the source, hop2 = the neighbour at EV2 of hop1, or
 * none when EV2 is SPRITZ_EV2_UNUSED (see spritz_path_hops()).  lat_class
 * is the rank of the path's latency among the distinct latencies of its
 * list (0 = fastest), usable as the EV entry's metadata byte.
 */
struct spritz_path {
	uint64_t latency_ps;
	uint16_t ev;
	uint8_t local_hops : 4;
	uint8_t global_hops : 4;
	uint8_t lat_class;
} __attribute__((packed, aligned(4)));

/* One source switch's endpoint table: a list per destination switch. */
struct spritz_table {
	int src;
	int nsw;
	uint32_t *off;             /* list of dst: paths[off[dst] .. off[dst+1]-1] */
	struct spritz_path *paths;
	size_t npaths;
};

/* Upper bound on the length of any list from src. */
int spritz_paths_cap(const struct spritz_topo *t, int src);

/*
 * Every path from src to dst, sorted (minimal paths first, then latency,
 * then EV).  Returns the count (0 if src == dst), -ENOSPC if cap is too
 * small, -EINVAL on bad switch ids.
 */
int spritz_paths_list(struct spritz_topo *t, int src, int dst, struct spritz_path *out, int cap);

/* Number of paths from src to dst (no sorting). */
int spritz_paths_count(struct spritz_topo *t, int src, int dst);

/* Every list of one source switch. */
int spritz_table_build(struct spritz_topo *t, int src, struct spritz_table **out);
void spritz_table_free(struct spritz_table *tb);

/* hop1 and hop2 (-1 if EV2 is unused) of an EV from src. */
void spritz_path_hops(const struct spritz_topo *t, int src, uint16_t ev, int *hop1, int *hop2);

/*
 * Follow an EV from src towards dst the way the switches do (paper §III-B:
 * ECMP 1 role at src, ECMP 2 role at the next switch when the policy gives
 * it one, then default routes).  Fills seq with the switches visited,
 * src and dst included, and returns their number; -EINVAL if the EV is not
 * selectable (port index out of range or not allowed in that role),
 * -ENOSPC if seq is too short.
 */
int spritz_ev_route(struct spritz_topo *t, int src, int dst, uint16_t ev, int *seq, int maxlen);

/*
 * Whether a path from src to dst is minimal: same hop count as the default
 * route (GENERIC), or the same local and global counts (DRAGONFLY).
 */
bool spritz_path_minimal(struct spritz_topo *t, int src, int dst, const struct spritz_path *p);

/* Eq. 1: lat_longest / lat, times w_scale unless lat is the longest. */
double spritz_weight(uint64_t lat_ps, uint64_t longest_ps, unsigned int w_scale);

/*
 * The base weight spritz.ko takes (SPRITZ_PATH_A_BASE_WEIGHT): Eq. 1
 * without w_scale in fixed point, SPRITZ_WEIGHT_ONE = 1.0, rounded to
 * nearest and kept within 1..UINT32_MAX (a path more than 65536 times
 * faster than the longest one of its list gets the largest weight).
 */
uint32_t spritz_base_weight(uint64_t lat_ps, uint64_t longest_ps);

/* Longest latency of a list. */
uint64_t spritz_paths_longest(const struct spritz_path *list, int n);

/* Endpoint-table memory of one or more source switches (paper §III-C). */
struct spritz_mem_stats {
	int nsources;              /* source switches enumerated */
	int ndst;                  /* destination switches per source */
	int max_paths;             /* over every (source, destination) */
	int min_paths;
	double avg_paths;
	uint64_t entries;          /* per endpoint: max over sources */
	uint64_t bytes;            /* entries * SPRITZ_EV_ENTRY_BYTES */
	double mib;
};

/*
 * Sources used when none are given: Dragonfly switch 0 (every list length
 * is a*h or a-1 whatever the source; the tests check it); Slim Fly four
 * switches, (0,0,0), (0,1,1), (1,0,0) and (1,1,1): list lengths depend on
 * the source, the vertices with zero coordinates have slightly shorter
 * lists than almost all others (Documentation/paths.rst); fabric files
 * every switch.
 * Returns the count written to srcs (at most max).
 */
int spritz_memory_default_sources(const struct spritz_topo *t, int *srcs, int max);

int spritz_memory(struct spritz_topo *t, const int *srcs, int nsrc, struct spritz_mem_stats *st);

#endif /* _SPRITZ_PATHS_H */
