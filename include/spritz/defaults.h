/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Defaults of the fabric latency model and of the path weights, shared by
 * libspritz (path tables), spritzctl and anything in the kernel or BPF that
 * needs the same numbers.  Macros only: no types, no library.
 *
 * Latency model (paper Table I, parameters of Table II): a hop costs its
 * cable latency plus the serialization of one full packet (64 B header +
 * 4096 B payload) at the link speed.  At 400 Gb/s serialization is 83.2 ns,
 * so a local hop (25 ns cable) costs 108.2 ns and a global hop (500 ns
 * cable) 583.2 ns.  Switch latency (500 ns in Table II) is not part of
 * Table I and not part of path latencies.  Latencies are kept in integer
 * picoseconds so that every Table I value is exact.
 *
 * Weights (paper Eq. 1): w_i = lat_longest / lat_i within one destination's
 * path list, then every path that is not among the longest is multiplied by
 * w_scale; the longest paths weigh 1.0.
 */
#ifndef _SPRITZ_DEFAULTS_H
#define _SPRITZ_DEFAULTS_H

/* Table II: link speed, in Mb/s (400 Gb/s). */
#define SPRITZ_DEF_LINK_SPEED_MBPS 400000
/* Table II: cable latency of a local link (5 m at 5 ns/m), picoseconds. */
#define SPRITZ_DEF_LOCAL_CABLE_PS 25000
/* Table II: cable latency of a global link (100 m at 5 ns/m), picoseconds. */
#define SPRITZ_DEF_GLOBAL_CABLE_PS 500000
/* Table II: 64 B header + 4096 B payload. */
#define SPRITZ_DEF_PACKET_BYTES 4160
/* Table II: switch latency, picoseconds (not part of path latencies). */
#define SPRITZ_DEF_SWITCH_PS 500000
/* Eq. 1 weight scale of the weighted variants (paper §VI, artifact). */
#define SPRITZ_DEF_W_SCALE 3

/* Serialization of SPRITZ_DEF_PACKET_BYTES at the default speed: 83.2 ns. */
#define SPRITZ_DEF_SERIALIZATION_PS 83200
/* Table I: one local hop 108.2 ns, one global hop 583.2 ns. */
#define SPRITZ_DEF_LOCAL_HOP_PS (SPRITZ_DEF_LOCAL_CABLE_PS + SPRITZ_DEF_SERIALIZATION_PS)
#define SPRITZ_DEF_GLOBAL_HOP_PS (SPRITZ_DEF_GLOBAL_CABLE_PS + SPRITZ_DEF_SERIALIZATION_PS)

/* Bounded simple paths (paper §III): Dragonfly <= 3 local + 2 global hops. */
#define SPRITZ_DF_MAX_LOCAL_HOPS 3
#define SPRITZ_DF_MAX_GLOBAL_HOPS 2
/* Slim Fly: at most 4 hops (two minimal segments of a diameter-2 graph). */
#define SPRITZ_SF_MAX_HOPS 4

/*
 * The paper's fabric in time (§VI-A, Table II): its BDP is 88 packets of
 * SPRITZ_DEF_PACKET_BYTES (7.32 us at 400 Gb/s) and its TCP's RTO 100 us,
 * 13.7 BDP times.  The lab scales knobs and timers by these (labctl plan).
 */
#define SPRITZ_DEF_BDP_PACKETS 88
#define SPRITZ_DEF_RTO_US 100

#endif /* _SPRITZ_DEFAULTS_H */
