/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Spritz shared ABI: the constants that the BPF programs, the kernel module
 * and userspace (libspritz, spritzctl, tests) all agree on.
 *
 * Entropy value (EV) layout, Spritz paper §III ("Entropy Value"):
 *
 *	 15            8 7             0
 *	+---------------+---------------+
 *	|      EV1      |      EV2      |
 *	+---------------+---------------+
 *
 * EV1 is the index of the output port, in the canonical port order of the
 * ECMP 1 switch (the sender's own switch); EV2 the index at the ECMP 2
 * switch.  A path that does not steer its second hop carries
 * SPRITZ_EV2_UNUSED in EV2; switches ignore EV2 whenever they are not in the
 * ECMP 2 role, so the value only has to be recognisable, not routable.
 *
 * This header is included by kernel, BPF and userspace code alike: it may use
 * only the fixed-width types below and no library.
 */
#ifndef _SPRITZ_ABI_H
#define _SPRITZ_ABI_H

#if defined(__KERNEL__) || defined(__bpf__)
/* kernel and BPF (vmlinux.h) already provide __u8/__u16/__u32/__u64 */
#else
#include <linux/types.h>
#endif

#ifndef __always_inline
/* as the kernel's and libbpf's, for host builds of the plain-C cores */
#define __always_inline inline __attribute__((always_inline))
#endif

#if !defined(__KERNEL__) && !defined(ARRAY_SIZE)
/* as the kernel's (linux/array_size.h), for BPF and userspace */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* Release of the whole project (module, programs, spritzctl). */
#define SPRITZ_VERSION "0.1.0"

/* Bumped on any incompatible change to a struct or constant in include/. */
#define SPRITZ_ABI_VERSION 12

#define SPRITZ_EV_BITS 16
#define SPRITZ_EV1_SHIFT 8
#define SPRITZ_EV_PORT_MAX 255 /* 8 bits of port index per ECMP stage */
#define SPRITZ_EV2_UNUSED 0xff /* hop 2 not steered: default route */

#define SPRITZ_EV(ev1, ev2) \
	((__u16)((((__u16)(ev1) & 0xff) << SPRITZ_EV1_SHIFT) | ((__u16)(ev2) & 0xff)))
#define SPRITZ_EV1(ev) ((__u8)(((ev) >> SPRITZ_EV1_SHIFT) & 0xff))
#define SPRITZ_EV2(ev) ((__u8)((ev) & 0xff))

/*
 * An EV port index may not be SPRITZ_EV2_UNUSED, so switches have at most
 * 255 network ports usable by EVs (indices 0..254).
 */
#define SPRITZ_MAX_NET_PORTS 255

/*
 * EV carriers.  IPv6 TCP: the flow label holds the EV (label bits 0-15,
 * bits 16-19 zero).  UDP, by destination port (Documentation/datapath.rst):
 *
 *  - VXLAN, Geneve, UET: the UDP source port is the EV.  Their source port
 *    is flow entropy chosen by the sender, and nothing end to end covers it.
 *  - RoCEv2 over IPv6: the flow label is the EV and the source port stays.
 *    The RoCEv2 invariant CRC covers the UDP source port but masks the flow
 *    label (IBA Annex A17.3.3), so only the label may change on the way.
 *  - RoCEv2 over IPv4: no carrier by default (no header field is both
 *    outside the ICRC and hashed by switches).
 *
 * Hosts write the EV, switches read it from the same field.
 */
#define SPRITZ_UDP_PORT_VXLAN 4789
#define SPRITZ_UDP_PORT_GENEVE 6081
#define SPRITZ_UDP_PORT_ROCEV2 4791
#define SPRITZ_UDP_PORT_UET 4793
/* Ports whose source port carries the EV by default. */
#define SPRITZ_UDP_SPORT_CARRIER(port)                                          \
	((port) == SPRITZ_UDP_PORT_VXLAN || (port) == SPRITZ_UDP_PORT_GENEVE || \
	 (port) == SPRITZ_UDP_PORT_UET)
/* Ports whose EV goes in the IPv6 flow label (over IPv6 only). */
#define SPRITZ_UDP_LABEL_CARRIER(port) ((port) == SPRITZ_UDP_PORT_ROCEV2)
/* A carrier by default: over IPv6 (v6 != 0) either kind, over IPv4 the first. */
#define SPRITZ_UDP_DEFAULT_CARRIER(port, v6) \
	(SPRITZ_UDP_SPORT_CARRIER(port) || ((v6) && SPRITZ_UDP_LABEL_CARRIER(port)))

/* Paper §III-C: an EV entry is 16 bits of EV plus 8 bits of metadata. */
#define SPRITZ_EV_ENTRY_BYTES 3

/* Name of the kernel module, its sysfs directory and its BTF object. */
#define SPRITZ_MODULE_NAME "spritz"
#define SPRITZ_SYSFS_DIR "/sys/kernel/spritz"

/* Elements of an array (the kernel has its own, linux/kernel.h). */
#if !defined(__KERNEL__) && !defined(ARRAY_SIZE)
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

#endif /* _SPRITZ_ABI_H */
