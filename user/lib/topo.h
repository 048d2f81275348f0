/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libspritz fabric model: switches, their network ports in canonical order,
 * link types and latencies, groups, and the default minimal routing table.
 *
 * A fabric is an undirected simple graph of switches (paper §II-A, §III).
 * Every switch has a list of network ports; the position of a port in that
 * list is its canonical index, which is what EV1 and EV2 address (paper
 * §III "Entropy Value"; include/spritz/abi.h).  Host ports are not in the
 * list and are never EV-addressable.  Canonical orders:
 *
 *   Dragonfly  local neighbours in ascending switch id, then global links
 *              0..h-1 (reference facts, palmtree arrangement);
 *   Slim Fly   neighbours in ascending switch id;
 *   file       the order given in the fabric file (Documentation/fabric-file.rst).
 *
 * The default routing table gives one next hop per (switch, destination
 * switch).  It is the "default forwarding table with static minimal
 * routes" of paper §III-A and is shared with the reference switch
 * pipeline, so it is defined only here (spritz_topo_next_port()):
 *
 *   GENERIC (Slim Fly, fabric files): shortest paths by hop count; among
 *     the neighbours on a shortest path, the lowest canonical port index.
 *   DRAGONFLY (Dragonfly, "routing dragonfly" files): hierarchical minimal
 *     routing, fewest global hops first, then fewest local hops: inside a
 *     group a shortest local path (lowest port index among local next
 *     hops); to another group through the global link between the two
 *     groups with the fewest local hops around it (ties: lowest switch id
 *     of its near end, then lowest port index), reached by a shortest
 *     local path.  Hop-count shortest paths are NOT Dragonfly-minimal: a
 *     switch may reach another group in 2 global hops through a third
 *     group, fewer hops than local-global-local, but Table I's minimal
 *     paths have exactly one global hop.
 *
 * Distances come from reachability bitsets (R_k[s] = switches within k hops
 * of s), built with word-wide ORs: O(diameter * links * n / 64).  Next-hop
 * rows are filled on first use, so a path table for one source only pays
 * for the rows it touches.
 *
 * Size: at most SPRITZ_TOPO_MAX_SWITCHES switches, the module's switch ids
 * (SPRITZ_MAX_SWITCHES, include/spritz/netlink.h) and the directory's
 * capacity (SPRITZ_DIR_MAX): a larger fabric could not be loaded anyway,
 * and its bitsets, n * n / 8 bytes per level, would take gigabytes (512 MiB
 * per level at the limit).  Larger ones are refused with -E2BIG.
 */
#ifndef _SPRITZ_TOPO_H
#define _SPRITZ_TOPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <spritz/abi.h>
#include <spritz/defaults.h>
#include <spritz/netlink.h>

#define SPRITZ_TOPO_MAX_SWITCHES SPRITZ_MAX_SWITCHES

enum spritz_topo_kind {
	SPRITZ_TOPO_DRAGONFLY,
	SPRITZ_TOPO_SLIMFLY,
	SPRITZ_TOPO_FILE,
};

enum spritz_link_type {
	SPRITZ_LINK_LOCAL = 0,
	SPRITZ_LINK_GLOBAL = 1,
};

/*
 * Which EVs a source can select (paper §III-B).  DRAGONFLY: ECMP 1 uses only
 * local ports when source and destination share a group; EV2 is used only
 * when the first hop was local and the destination is in another group, and
 * then only global ports of the ECMP 2 switch.  GENERIC (Slim Fly, fabric
 * files by default): EV1 any port, EV2 any port at the second switch unless
 * that switch is the destination.
 */
enum spritz_policy {
	SPRITZ_POLICY_GENERIC,
	SPRITZ_POLICY_DRAGONFLY,
};

/*
 * What the link model accepts (fabric files, spritzctl's options): speeds
 * up to 1 Pb/s, cable latencies up to 4 ms, packets up to 10^6 bytes.  A
 * hop (cable plus the serialization of up to 8 * 10^6 bits at 1 Mb/s, 8 s)
 * and a path of SPRITZ_PATH_MAX_HOPS hops need 64-bit picoseconds.
 */
#define SPRITZ_MAX_SPEED_MBPS 1000000000U
#define SPRITZ_MAX_CABLE_PS 4000000000U
#define SPRITZ_MAX_PACKET_BYTES 1000000U

/* Link latency model (paper Table I); defaults from include/spritz/defaults.h. */
struct spritz_link_model {
	uint32_t speed_mbps;     /* default link speed */
	uint32_t cable_ps[2];    /* default cable latency per enum spritz_link_type */
	uint32_t packet_bytes;   /* serialized per hop */
};

/* Path bound; -1 = no limit on that count. */
struct spritz_bound {
	int max_hops;
	int max_local;
	int max_global;
};

struct spritz_df_route;

struct spritz_topo {
	enum spritz_topo_kind kind;
	enum spritz_policy policy;
	char name[128];            /* canonical TOPO string */
	int p, a, h, q;            /* family parameters (0 if not applicable) */

	int nsw;                   /* switches, ids 0..nsw-1 */
	int ngroups;
	int *group;                /* group of each switch, 0..ngroups-1 */
	int *hosts;                /* hosts (endpoints) per switch */
	long nhosts;

	uint32_t *port_off;        /* ports of s: port_off[s] .. port_off[s+1]-1 */
	int *port_nbr;             /* neighbour reached by each port */
	uint8_t *port_type;        /* enum spritz_link_type */
	uint32_t *port_cable_ps;   /* explicit cable latency, 0 = model default */
	uint32_t *port_speed_mbps; /* explicit speed, 0 = model default */
	uint64_t *port_hop_ps;     /* hop latency (spritz_topo_set_model()) */
	int max_degree;

	struct spritz_link_model model;
	struct spritz_bound bound;
	int diameter;

	/* routing state (private to topo.c) */
	struct spritz_df_route *df; /* DRAGONFLY policy: hierarchical routes */
	size_t words;              /* 64-bit words per bitset row */
	int nlevels;               /* stored reach levels: R_1 .. R_nlevels */
	uint64_t *reach;           /* nlevels * nsw * words */
	uint8_t *nh;               /* nsw * nsw next-hop port, lazily filled rows */
	uint8_t *nh_done;          /* per row */
};

/* Number of network ports of switch s. */
static inline int spritz_topo_degree(const struct spritz_topo *t, int s)
{
	return (int)(t->port_off[s + 1] - t->port_off[s]);
}

/* Neighbour at canonical port index i of switch s. */
static inline int spritz_topo_port_nbr(const struct spritz_topo *t, int s, int i)
{
	return t->port_nbr[t->port_off[s] + i];
}

/* Link type at canonical port index i of switch s. */
static inline int spritz_topo_port_type(const struct spritz_topo *t, int s, int i)
{
	return t->port_type[t->port_off[s] + i];
}

/* Canonical port index of neighbour n at switch s, or -ENOENT. */
int spritz_topo_port_of(const struct spritz_topo *t, int s, int n);

/* Latency of one hop over port i of switch s (cable + serialization), ps. */
static inline uint64_t spritz_topo_hop_ps(const struct spritz_topo *t, int s, int i)
{
	return t->port_hop_ps[t->port_off[s] + i];
}

/*
 * Change the link model (defaults for links without explicit latency or
 * speed) and recompute every hop latency.
 */
void spritz_topo_set_model(struct spritz_topo *t, const struct spritz_link_model *m);

/* Serialization of one packet at speed_mbps, ps (rounded to nearest). */
uint64_t spritz_serialization_ps(uint32_t packet_bytes, uint32_t speed_mbps);

/* Hop distance between two switches. */
int spritz_topo_dist(const struct spritz_topo *t, int u, int v);

/* Default route: canonical port index of the next hop from u towards d (u != d). */
int spritz_topo_next_port(struct spritz_topo *t, int u, int d);

/*
 * Hop counts of the default route from u to d.  This is what "minimal"
 * means for a (source, destination) pair: the GENERIC policy routes on
 * shortest paths (local + global = dist); the DRAGONFLY policy routes
 * hierarchically (fewest global hops, then fewest local hops), so a
 * minimal path has exactly these local and global counts.
 */
void spritz_topo_min_route(struct spritz_topo *t, int u, int d, int *local, int *global);

/* Default route: next switch from u towards d (u != d). */
static inline int spritz_topo_next_hop(struct spritz_topo *t, int u, int d)
{
	return spritz_topo_port_nbr(t, u, spritz_topo_next_port(t, u, d));
}

/* Default link model of include/spritz/defaults.h. */
void spritz_link_model_default(struct spritz_link_model *m);

/* Release a topology (NULL is fine). */
void spritz_topo_free(struct spritz_topo *t);

/*
 * Builder shared by the families and the fabric file: the caller fills
 * nsw, hosts, group/ngroups (optional: NULL = components of local links),
 * port_off and the per-port arrays (ownership passes to the topology), then
 * spritz_topo_finish() validates (symmetric, simple, degree <= 255,
 * connected), computes groups, max degree, reach bitsets and diameter.
 */
struct spritz_topo *spritz_topo_alloc(int nsw, size_t nports);
int spritz_topo_finish(struct spritz_topo *t, char *err, size_t errlen);

/*
 * Dragonfly(p, a, h), palmtree global links (reference facts): -EINVAL
 * unless a >= 1, h >= 1, p >= 0 and a - 1 + h <= 255 network ports; -E2BIG
 * beyond SPRITZ_TOPO_MAX_SWITCHES switches or 10^8 endpoints.
 */
int spritz_dragonfly(int p, int a, int h, struct spritz_topo **out, char *err, size_t errlen);

/* Slim Fly(q, p), MMS graph over GF(q) (paper §II-A, reference facts). */
int spritz_slimfly(int q, int p, struct spritz_topo **out, char *err, size_t errlen);

/* Slim Fly network degree k = (3q - delta)/2, or -EINVAL if q is not allowed. */
int spritz_slimfly_degree(int q);

/* Fabric file (Documentation/fabric-file.rst); errors "FILE:LINE: problem". */
int spritz_fabric_load(const char *path, struct spritz_topo **out, char *err, size_t errlen);
int spritz_fabric_parse(const char *text, const char *fname, struct spritz_topo **out,
			char *err, size_t errlen);

/*
 * TOPO string: "dragonfly:p=4,a=8,h=4" | "slimfly:q=9,p=7" | "file:PATH".
 * Omitted p: Dragonfly p = h, Slim Fly p = ceil(k/2) (the paper's choice).
 * spritz_topo_parse() = spritz_topo_spec_parse() (the string alone: keys,
 * values, defaults) + spritz_topo_build() (the families' own checks, the
 * fabric file).  @s is left as it was on error; path points into @spec.
 */
struct spritz_topo_spec {
	enum spritz_topo_kind kind;
	int p, a, h, q;            /* Dragonfly p, a, h; Slim Fly q, p */
	const char *path;          /* fabric file */
};

int spritz_topo_parse(const char *spec, struct spritz_topo **out, char *err, size_t errlen);
int spritz_topo_spec_parse(const char *spec, struct spritz_topo_spec *s, char *err, size_t errlen);
int spritz_topo_build(const struct spritz_topo_spec *s, struct spritz_topo **out, char *err,
		      size_t errlen);

/* Finite field GF(q), q = prime^k < 256, elements 0..q-1 (base-prime digits). */
struct spritz_gf {
	int q, prime, k;
	int xi;                    /* the primitive element used */
	uint8_t add[256][256];
	uint8_t mul[256][256];
	uint8_t neg[256];
};

/* Build GF(q); -EINVAL if q is not a prime power in 2..255. */
int spritz_gf_init(struct spritz_gf *f, int q);

/* prime and exponent of q if it is a prime power, else 0. */
int spritz_prime_power(int q, int *prime, int *k);

#endif /* _SPRITZ_TOPO_H */
