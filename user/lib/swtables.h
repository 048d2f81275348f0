/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The lab plan and the reference switch pipeline's tables.
 *
 * The lab plan (Documentation/lab.rst) names every device of a lab fabric
 * and fixes its ifindex, MAC and addresses, so that the fabric builder
 * (lab/fabric), the loader (lab/labctl) and the tests all derive the same
 * values from TOPO alone:
 *
 *   switch s          namespace "sw<s>"; network port i is device "p<i>",
 *                     host port k is device "h<k>"; ifindex
 *                     SPRITZ_LAB_IFINDEX_BASE + s*64 + slot (slot = i, or
 *                     SPRITZ_SW_HOST_SLOT0 + k)
 *   host k of s       namespace "h<s>-<k>", device "eth0", ifindex
 *                     SPRITZ_LAB_IFINDEX_HOST + s*16 + k
 *   addresses         fd00:<s>::<k+1>/128 (prefix fd00:<s>::/64, s in hex)
 *                     and 10.<s/256>.<s%256>.<k+1>/32 (prefix /24)
 *   MACs              02:<kind>:<s/256>:<s%256>:<slot or k>:00, kind 1 =
 *                     switch port, 2 = host
 *
 * spritz_sw_fill() fills the pipeline's maps (include/spritz/switch.h)
 * from the fabric model: port order, link types and the default routes all
 * come from topo.c, the same definitions the path enumeration uses.
 */
#ifndef _SPRITZ_SWTABLES_H
#define _SPRITZ_SWTABLES_H

#include <spritz/switch.h>

#include "topo.h"

#define SPRITZ_LAB_IFINDEX_BASE 1000
#define SPRITZ_LAB_IFINDEX_HOST (SPRITZ_LAB_IFINDEX_BASE + SPRITZ_SW_MAX_SWITCHES * SPRITZ_SW_MAX_SLOTS)
#define SPRITZ_LAB_MAC_SWITCH 1
#define SPRITZ_LAB_MAC_HOST 2

/* ifindex of switch s's device for a slot (network port or host slot). */
static inline int spritz_lab_ifindex(int s, int slot)
{
	return SPRITZ_LAB_IFINDEX_BASE + s * SPRITZ_SW_MAX_SLOTS + slot;
}

/* ifindex of host k's eth0 (host behind switch s). */
static inline int spritz_lab_host_ifindex(int s, int k)
{
	return SPRITZ_LAB_IFINDEX_HOST + s * SPRITZ_SW_MAX_HOSTS + k;
}

void spritz_lab_mac(int kind, int s, int idx, uint8_t mac[6]);
void spritz_lab_addr6(int s, int k, uint8_t addr[16]);
void spritz_lab_addr4(int s, int k, uint8_t addr[4]);

/* Whether a fabric fits the pipeline's and the plan's limits (err set if not). */
int spritz_lab_check(const struct spritz_topo *t, char *err, size_t errlen);

/* File descriptors of the pipeline's maps. */
struct spritz_sw_fds {
	int cfg, info, ports, ingress, routes, dir;
};

/*
 * The entries spritz_sw_fill() writes, for a caller that keeps them itself
 * (the simulator): sw_cfg (hop_init SPRITZ_SW_HOP_INIT, the lab's ECMP
 * seed), switch s's sw_info, and the default route from s to d.
 */
void spritz_sw_cfg_init(const struct spritz_topo *t, uint32_t mode, uint32_t flags,
			struct spritz_sw_cfg *cfg);
void spritz_sw_info_init(const struct spritz_topo *t, int s, struct spritz_sw_info *info);
void spritz_sw_route_init(struct spritz_topo *t, int s, int d, struct spritz_sw_route *r);

/*
 * Fill every table for fabric t and set sw_cfg (mode, flags; hop_init
 * SPRITZ_SW_HOP_INIT).  Returns 0 or -errno (err explains).
 */
int spritz_sw_fill(struct spritz_topo *t, const struct spritz_sw_fds *fds, uint32_t mode,
		   uint32_t flags, char *err, size_t errlen);

/*
 * Set the port rates of every (switch, slot)'s virtual queue (sw_vq, for
 * UGAL-L): network ports net_kbps, host ports host_kbps (0: not modelled),
 * every queue's limit (bytes, 0: none), and empty the queues.  Returns 0
 * or -errno (err explains).
 */
int spritz_sw_set_rates(struct spritz_topo *t, int vq_fd, uint32_t net_kbps, uint32_t host_kbps,
			uint32_t limit, char *err, size_t errlen);

/* Set or clear port flags on both ends of the link at (s, port i). */
int spritz_sw_link_flags(struct spritz_topo *t, int ports_fd, int s, int i, uint8_t set,
			 uint8_t clear);

/* Mode names: "spritz", "minimal", "valiant", "ecmp", "ugal-l"; -1 if unknown. */
int spritz_sw_mode_parse(const char *name);
const char *spritz_sw_mode_name(uint32_t mode);

#endif /* _SPRITZ_SWTABLES_H */
