// SPDX-License-Identifier: GPL-2.0-only
/*
 * The lab plan and the reference switch pipeline's tables (swtables.h,
 * Documentation/switch.rst, Documentation/lab.rst).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <bpf/bpf.h>

#include "spritz_err.h"
#include "swtables.h"

void spritz_lab_mac(int kind, int s, int idx, uint8_t mac[6])
{
	mac[0] = 0x02;
	mac[1] = kind;
	mac[2] = (s >> 8) & 0xff;
	mac[3] = s & 0xff;
	mac[4] = idx & 0xff;
	mac[5] = 0;
}

void spritz_lab_addr6(int s, int k, uint8_t a[16])
{
	memset(a, 0, 16);
	a[0] = 0xfd;
	a[2] = (s >> 8) & 0xff;
	a[3] = s & 0xff;
	a[14] = ((k + 1) >> 8) & 0xff;
	a[15] = (k + 1) & 0xff;
}

void spritz_lab_addr4(int s, int k, uint8_t a[4])
{
	a[0] = 10;
	a[1] = (s >> 8) & 0xff;
	a[2] = s & 0xff;
	a[3] = (k + 1) & 0xff;
}

int spritz_lab_check(const struct spritz_topo *t, char *err, size_t errlen)
{
	int s;

	if (t->nsw > SPRITZ_SW_MAX_SWITCHES) {
		spritz_seterr(err, errlen, "%d switches, the pipeline holds at most %d", t->nsw,
			 SPRITZ_SW_MAX_SWITCHES);
		return -E2BIG;
	}
	for (s = 0; s < t->nsw; s++) {
		if (spritz_topo_degree(t, s) > SPRITZ_SW_MAX_NET_PORTS) {
			spritz_seterr(err, errlen, "switch %d has %d ports, the pipeline holds at most %d",
				 s, spritz_topo_degree(t, s), SPRITZ_SW_MAX_NET_PORTS);
			return -E2BIG;
		}
		if (t->hosts[s] > SPRITZ_SW_MAX_HOSTS) {
			spritz_seterr(err, errlen, "switch %d has %d hosts, the pipeline holds at most %d",
				 s, t->hosts[s], SPRITZ_SW_MAX_HOSTS);
			return -E2BIG;
		}
	}
	return 0;
}

static int put(int fd, const void *k, const void *v, const char *what, char *err, size_t errlen)
{
	if (bpf_map_update_elem(fd, k, v, BPF_ANY)) {
		int e = errno;

		spritz_seterr(err, errlen, "failed to update %s: %s", what, strerror(e));
		return -e;
	}
	return 0;
}

static void port_entry(struct spritz_topo *t, int s, int i, struct spritz_sw_port *p)
{
	int n = spritz_topo_port_nbr(t, s, i);
	int back = spritz_topo_port_of(t, n, s);

	memset(p, 0, sizeof(*p));
	p->ifindex = spritz_lab_ifindex(s, i);
	p->peer = n;
	p->type = spritz_topo_port_type(t, s, i) == SPRITZ_LINK_GLOBAL ? SPRITZ_SW_LINK_GLOBAL
								       : SPRITZ_SW_LINK_LOCAL;
	p->flags = SPRITZ_SW_PORT_VALID;
	spritz_lab_mac(SPRITZ_LAB_MAC_SWITCH, s, i, p->src_mac);
	spritz_lab_mac(SPRITZ_LAB_MAC_SWITCH, n, back, p->dst_mac);
}

void spritz_sw_cfg_init(const struct spritz_topo *t, uint32_t mode, uint32_t flags,
			struct spritz_sw_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->mode = mode;
	cfg->policy = t->policy == SPRITZ_POLICY_DRAGONFLY ? SPRITZ_SW_POLICY_DRAGONFLY
							   : SPRITZ_SW_POLICY_GENERIC;
	cfg->nsw = t->nsw;
	cfg->flags = flags;
	cfg->hop_init = SPRITZ_SW_HOP_INIT;
	cfg->seed = 0x5eed;
}

void spritz_sw_info_init(const struct spritz_topo *t, int s, struct spritz_sw_info *info)
{
	int i;

	memset(info, 0, sizeof(*info));
	info->group = t->group[s];
	info->degree = spritz_topo_degree(t, s);
	for (i = 0; i < (int)info->degree; i++) {
		info->all_mask |= 1ULL << i;
		if (spritz_topo_port_type(t, s, i) == SPRITZ_LINK_LOCAL)
			info->local_mask |= 1ULL << i;
	}
}

void spritz_sw_route_init(struct spritz_topo *t, int s, int d, struct spritz_sw_route *r)
{
	int l, g;

	memset(r, 0, sizeof(*r));
	r->port = SPRITZ_SW_SLOT_NONE;
	if (d == s)
		return;
	r->port = spritz_topo_next_port(t, s, d);
	spritz_topo_min_route(t, s, d, &l, &g);
	r->hops = l + g;
}

int spritz_sw_fill(struct spritz_topo *t, const struct spritz_sw_fds *fds, uint32_t mode,
		   uint32_t flags, char *err, size_t errlen)
{
	struct spritz_sw_cfg cfg;
	uint32_t zero = 0, key;
	int s, d, i, k, ret;

	ret = spritz_lab_check(t, err, errlen);
	if (ret)
		return ret;
	spritz_sw_cfg_init(t, mode, flags, &cfg);
	for (s = 0; s < t->nsw; s++) {
		struct spritz_sw_info info;

		spritz_sw_info_init(t, s, &info);
		for (i = 0; i < (int)info.degree; i++) {
			struct spritz_sw_port p;
			struct spritz_sw_in in = { .sw = s, .slot = i };
			uint32_t ifi = spritz_lab_ifindex(s, i);

			port_entry(t, s, i, &p);
			key = SPRITZ_SW_SLOT_KEY(s, i);
			if ((ret = put(fds->ports, &key, &p, "sw_ports", err, errlen)) ||
			    (ret = put(fds->ingress, &ifi, &in, "sw_ingress", err, errlen)))
				return ret;
		}
		if ((ret = put(fds->info, &s, &info, "sw_info", err, errlen)))
			return ret;
		for (k = 0; k < t->hosts[s]; k++) {
			int slot = SPRITZ_SW_HOST_SLOT0 + k;
			struct spritz_sw_port p = { .ifindex = spritz_lab_ifindex(s, slot),
						    .peer = k,
						    .type = SPRITZ_SW_LINK_HOST,
						    .flags = SPRITZ_SW_PORT_VALID };
			struct spritz_sw_in in = { .sw = s, .slot = slot };
			struct spritz_sw_dir_key dk = { .prefixlen = 128 };
			struct spritz_sw_dir_val dv = { .sw = s, .slot = slot };
			uint32_t ifi = p.ifindex;

			spritz_lab_mac(SPRITZ_LAB_MAC_SWITCH, s, slot, p.src_mac);
			spritz_lab_mac(SPRITZ_LAB_MAC_HOST, s, k, p.dst_mac);
			key = SPRITZ_SW_SLOT_KEY(s, slot);
			if ((ret = put(fds->ports, &key, &p, "sw_ports", err, errlen)) ||
			    (ret = put(fds->ingress, &ifi, &in, "sw_ingress", err, errlen)))
				return ret;
			spritz_lab_addr6(s, k, dk.addr);
			if ((ret = put(fds->dir, &dk, &dv, "sw_dir", err, errlen)))
				return ret;
			memset(dk.addr, 0, 16);
			dk.addr[10] = dk.addr[11] = 0xff;
			spritz_lab_addr4(s, k, &dk.addr[12]);
			if ((ret = put(fds->dir, &dk, &dv, "sw_dir", err, errlen)))
				return ret;
		}
		/* Per-switch prefixes: known switch, no such host. */
		{
			struct spritz_sw_dir_key dk = { .prefixlen = 64 };
			struct spritz_sw_dir_val dv = { .sw = s, .slot = SPRITZ_SW_SLOT_NONE };

			spritz_lab_addr6(s, 0, dk.addr);
			memset(&dk.addr[8], 0, 8);
			if ((ret = put(fds->dir, &dk, &dv, "sw_dir", err, errlen)))
				return ret;
			memset(dk.addr, 0, 16);
			dk.prefixlen = 96 + 24;
			dk.addr[10] = dk.addr[11] = 0xff;
			spritz_lab_addr4(s, 0, &dk.addr[12]);
			dk.addr[15] = 0;
			if ((ret = put(fds->dir, &dk, &dv, "sw_dir", err, errlen)))
				return ret;
		}
		for (d = 0; d < t->nsw; d++) {
			struct spritz_sw_route r;

			spritz_sw_route_init(t, s, d, &r);
			key = SPRITZ_SW_ROUTE_KEY(s, d);
			if ((ret = put(fds->routes, &key, &r, "sw_routes", err, errlen)))
				return ret;
		}
	}
	return put(fds->cfg, &zero, &cfg, "sw_cfg", err, errlen);
}

int spritz_sw_link_flags(struct spritz_topo *t, int ports_fd, int s, int i, uint8_t set,
			 uint8_t clear)
{
	int end[2][2], e;

	if (s < 0 || s >= t->nsw || i < 0 || i >= spritz_topo_degree(t, s))
		return -EINVAL;
	end[0][0] = s;
	end[0][1] = i;
	end[1][0] = spritz_topo_port_nbr(t, s, i);
	end[1][1] = spritz_topo_port_of(t, end[1][0], s);
	for (e = 0; e < 2; e++) {
		struct spritz_sw_port p;
		uint32_t key = SPRITZ_SW_SLOT_KEY(end[e][0], end[e][1]);

		if (bpf_map_lookup_elem(ports_fd, &key, &p))
			return -errno;
		p.flags = (p.flags & ~clear) | set;
		if (bpf_map_update_elem(ports_fd, &key, &p, BPF_EXIST))
			return -errno;
	}
	return 0;
}

int spritz_sw_set_rates(struct spritz_topo *t, int vq_fd, uint32_t net_kbps, uint32_t host_kbps,
			uint32_t limit, char *err, size_t errlen)
{
	uint32_t key;
	int s, i, ret;

	for (s = 0; s < t->nsw; s++) {
		for (i = 0; i < SPRITZ_SW_MAX_SLOTS; i++) {
			struct spritz_sw_vq q = { .limit = limit };

			if (i < SPRITZ_SW_HOST_SLOT0 && i < spritz_topo_degree(t, s))
				q.rate_kbps = net_kbps;
			else if (i >= SPRITZ_SW_HOST_SLOT0 && i - SPRITZ_SW_HOST_SLOT0 < t->hosts[s])
				q.rate_kbps = host_kbps;
			else
				continue;
			key = SPRITZ_SW_SLOT_KEY(s, i);
			if ((ret = put(vq_fd, &key, &q, "sw_vq", err, errlen)))
				return ret;
		}
	}
	return 0;
}

static const char *const mode_names[SPRITZ_SW_MODE_MAX] = {
	[SPRITZ_SW_MODE_SPRITZ] = "spritz",
	[SPRITZ_SW_MODE_MINIMAL] = "minimal",
	[SPRITZ_SW_MODE_VALIANT] = "valiant",
	[SPRITZ_SW_MODE_ECMP] = "ecmp",
	[SPRITZ_SW_MODE_UGAL_L] = "ugal-l",
};

int spritz_sw_mode_parse(const char *name)
{
	int m;

	for (m = 0; m < SPRITZ_SW_MODE_MAX; m++)
		if (!strcmp(name, mode_names[m]))
			return m;
	return -1;
}

const char *spritz_sw_mode_name(uint32_t mode)
{
	return mode < SPRITZ_SW_MODE_MAX ? mode_names[mode] : "?";
}
