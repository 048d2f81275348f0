/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers for the datapath tests (datapath_egress, datapath_ingress,
 * datapath_fuzz) and the datapath benchmark: a packet builder with valid
 * checksums, checksum verification, loading bpf/spritz.bpf.o with its
 * verifier log on failure, a test table in spritz.ko, the directory, and
 * per-CPU statistics sums.
 */
#ifndef SPRITZ_DATAPATH_UTIL_H
#define SPRITZ_DATAPATH_UTIL_H

#include <arpa/inet.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <spritz/flowtab.h>
#include <spritz/kfuncs.h>
#include <spritz/maps.h>

#include "csum.h"
#include "kmod_util.h"
#include "spritz.skel.h"
#include "spritz_host.h"

#define RET_NEXT 0xffffffffU /* TC_ACT_UNSPEC as the u32 test-run retval */

/* ------------------------------------------------------------ packets */

#define PKT_MAX 512

struct pkt {
	uint8_t b[PKT_MAX];
	size_t len;
	size_t flen; /* len before the Ethernet minimum's padding */
};

/* Description of a test packet; zero fields get defaults (see pkt_build). */
struct spec {
	int v4;		      /* 0: IPv6, 1: IPv4 */
	int vlans;	      /* 0..2 in-band tags */
	uint16_t ethertype;   /* override the L3 ethertype (0: by v4) */
	uint8_t proto;	      /* L4: 6 TCP (default), 17 UDP, 1/58 ICMP, other */
	int hbh;	      /* IPv6 next header 0 (hop-by-hop), L4 as non-TCP */
	const char *src, *dst; /* addresses (defaults: LOCAL6/DST1_6 or v4) */
	uint16_t sport, dport;
	uint32_t seq, ack;
	uint8_t flags;	      /* TCP flags (default: ACK) */
	uint16_t win;	      /* TCP window field (default: 65535) */
	const uint8_t *opts;  /* TCP options (length multiple of 4) */
	int optlen;
	int paylen;	      /* payload bytes (pattern) */
	int udp_zero_csum;    /* UDP: send checksum 0 */
	uint32_t flowlabel;
	uint8_t tclass;
	int frag;	      /* IPv4: set MF */
	int ip4_optwords;     /* IPv4 options (NOPs), 32-bit words */
	/* UDP: a tunnel packet carrying @inner (VXLAN, or Geneve if geneve) */
	const struct spec *inner;
	int geneve;	      /* 0: VXLAN (RFC 7348), 1: Geneve (RFC 8926) */
	int geneve_optwords;  /* Geneve option length, 32-bit words */
	uint8_t tunnel_flags; /* VXLAN first byte (0: 0x08, the I flag) */
	uint32_t vni;	      /* tunnel VNI (0: 42) */
};

/*
 * The TCP options of a Linux SYN or SYN-ACK, window scale @ws: MSS 1460,
 * SACK permitted, timestamps, NOP, window scale; DP_SYN_OPTLEN bytes.
 */
#define DP_SYN_OPTS(ws) { 2, 4, 5, 180, 4, 2, 8, 10, 0, 0, 0, 1, 0, 0, 0, 0, 1, 3, 3, (ws) }
#define DP_SYN_OPTLEN 20

#define LOCAL6 "2001:db8::1"
#define DST1_6 "2001:db8:1::2"	/* switch 1: one path */
#define DST2_6 "2001:db8:2::2"	/* switch 2: several paths */
#define DST9_6 "2001:db8:9::2"	/* switch 9: in the directory, no table list */
#define UNKNOWN6 "2001:db8:ff::2" /* not in the directory */
#define LOCAL4 "10.0.0.1"
#define DST1_4 "10.1.0.2"
#define UNKNOWN4 "10.255.0.2"

/* The test table: switch 1 has one path, switch 2 four. */
#define EV_D1 SPRITZ_EV(3, SPRITZ_EV2_UNUSED)
static const uint16_t ev_d2[] = { SPRITZ_EV(1, SPRITZ_EV2_UNUSED), SPRITZ_EV(2, SPRITZ_EV2_UNUSED),
				  SPRITZ_EV(5, 7), SPRITZ_EV(6, 8) };
static const uint8_t lat_d2[] = { 0, 0, 2, 3 };

static inline void put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

static inline void put32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static inline uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Build @s into @p with valid lengths and checksums. */
static inline void pkt_build(struct pkt *p, const struct spec *s)
{
	uint8_t *b = p->b, *l3, *l4;
	uint8_t proto = s->hbh ? 0 : s->proto ? s->proto : 6;
	size_t off = 12, l4len, hl = 0;
	int i;

	memset(p, 0, sizeof(*p));
	memcpy(b, "\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01", 12);
	for (i = 0; i < s->vlans; i++) {
		put16(b + off, i == 0 && s->vlans == 2 ? 0x88a8 : 0x8100);
		put16(b + off + 2, 100 + i);
		off += 4;
	}
	put16(b + off, s->ethertype ? s->ethertype : s->v4 ? 0x0800 : 0x86dd);
	off += 2;
	l3 = b + off;
	if (s->v4) {
		hl = 20 + 4 * s->ip4_optwords;
		l3[0] = 0x40 | (hl / 4);
		l3[1] = s->tclass;
		put16(l3 + 4, 0x1234);
		put16(l3 + 6, s->frag ? 0x2000 : 0x4000);
		l3[8] = 64;
		l3[9] = proto;
		inet_pton(AF_INET, s->src ? s->src : LOCAL4, l3 + 12);
		inet_pton(AF_INET, s->dst ? s->dst : DST1_4, l3 + 16);
		memset(l3 + 20, 1, hl - 20);
	} else {
		hl = 40;
		put32(l3, 6U << 28 | (uint32_t)s->tclass << 20 | (s->flowlabel & 0xfffff));
		l3[6] = proto;
		l3[7] = 64;
		inet_pton(AF_INET6, s->src ? s->src : LOCAL6, l3 + 8);
		inet_pton(AF_INET6, s->dst ? s->dst : DST1_6, l3 + 24);
	}
	l4 = l3 + hl;
	if (proto == 6) {
		l4len = 20 + s->optlen + s->paylen;
		put16(l4, s->sport ? s->sport : 40000);
		put16(l4 + 2, s->dport ? s->dport : 5201);
		put32(l4 + 4, s->seq);
		put32(l4 + 8, s->ack);
		l4[12] = (uint8_t)((20 + s->optlen) / 4) << 4;
		l4[13] = s->flags ? s->flags : 0x10;
		put16(l4 + 14, s->win ? s->win : 65535);
		if (s->optlen)
			memcpy(l4 + 20, s->opts, s->optlen);
		for (i = 0; i < s->paylen; i++)
			l4[20 + s->optlen + i] = (uint8_t)(i * 7 + 1);
	} else if (proto == 17 && s->inner) {
		static struct pkt in; /* not reentrant: one tunnel level */
		uint8_t *t = l4 + 8;
		size_t th = 8 + (s->geneve ? 4 * (size_t)s->geneve_optwords : 0);

		pkt_build(&in, s->inner);
		memset(t, 0, th);
		if (s->geneve) {
			t[0] = (uint8_t)s->geneve_optwords;
			put16(t + 2, 0x6558);
			for (i = 0; i < 4 * s->geneve_optwords; i++)
				t[8 + i] = (uint8_t)(0x80 | i);
		} else {
			t[0] = s->tunnel_flags ? s->tunnel_flags : 0x08;
		}
		put32(t + 4, (s->vni ? s->vni : 42) << 8);
		memcpy(t + th, in.b, in.flen);
		l4len = 8 + th + in.flen;
		put16(l4, s->sport ? s->sport : 49999);
		put16(l4 + 2, s->dport ? s->dport :
		      s->geneve ? SPRITZ_UDP_PORT_GENEVE : SPRITZ_UDP_PORT_VXLAN);
		put16(l4 + 4, (uint16_t)l4len);
	} else if (proto == 17) {
		l4len = 8 + s->paylen;
		put16(l4, s->sport ? s->sport : 49999);
		put16(l4 + 2, s->dport ? s->dport : SPRITZ_UDP_PORT_VXLAN);
		put16(l4 + 4, (uint16_t)l4len);
		for (i = 0; i < s->paylen; i++)
			l4[8 + i] = (uint8_t)(i * 3 + 5);
	} else {
		l4len = 8 + s->paylen; /* ICMP echo-ish, or anything */
		l4[0] = 128;
		for (i = 0; i < s->paylen; i++)
			l4[8 + i] = (uint8_t)i;
	}
	if (s->v4) {
		put16(l3 + 2, (uint16_t)(hl + l4len));
		put16(l3 + 10, spritz_csum_fold(spritz_csum_add(0, l3, hl)));
	} else {
		put16(l3 + 4, (uint16_t)l4len);
	}
	if (proto == 6)
		put16(l4 + 16, spritz_l4_csum(s->v4, l3, 6, l4, l4len));
	else if (proto == 17 && !s->udp_zero_csum) {
		uint16_t c = spritz_l4_csum(s->v4, l3, 17, l4, l4len);

		put16(l4 + 6, c ? c : 0xffff);
	}
	p->len = (size_t)(l4 - b) + l4len;
	p->flen = p->len;
	if (p->len < 60)
		p->len = 60; /* Ethernet minimum: trailing zero padding */
}

/* Offsets of a packet built by pkt_build (no mutation). */
static inline size_t pkt_l3(const struct spec *s)
{
	return 14 + 4 * (size_t)s->vlans;
}

static inline size_t pkt_l4(const struct spec *s)
{
	return pkt_l3(s) + (s->v4 ? 20 + 4 * (size_t)s->ip4_optwords : 40);
}

/*
 * Parse @b as Ethernet (+VLANs) + IPv4/IPv6 + TCP/UDP and check the L4
 * checksum (a zero UDP checksum counts as valid).  1 valid, 0 invalid,
 * -1 not such a packet.
 */
/*
 * A hop-by-hop header of BIG TCP's shape (8 bytes, one option of length 4)
 * in front of the TCP segment, with the IPv6 payload length, option type
 * and jumbo length given (bpf/parse.h: only a real jumbo packet, above
 * 64 KiB, which a test run cannot build, has the values it accepts).
 */
static inline void pkt_hbh_jumbo(struct pkt *p, const struct spec *s, uint16_t plen, uint8_t type,
		      uint32_t jumbo)
{
	size_t l3 = pkt_l3(s), l4 = pkt_l4(s);

	memmove(p->b + l4 + 8, p->b + l4, p->len - l4);
	p->len += 8;
	p->flen += 8;
	put16(p->b + l3 + 4, plen);
	p->b[l3 + 6] = 0;
	p->b[l4] = 6;
	p->b[l4 + 1] = 0;
	p->b[l4 + 2] = type;
	p->b[l4 + 3] = 4;
	put32(p->b + l4 + 4, jumbo);
}

static inline int pkt_csum_ok(const uint8_t *b, size_t len)
{
	size_t off = 12, hl, l4len;
	uint16_t et;
	uint8_t proto;
	const uint8_t *l3;

	if (len < 14)
		return -1;
	et = get16(b + off);
	while ((et == 0x8100 || et == 0x88a8) && off + 6 <= len) {
		off += 4;
		et = get16(b + off);
	}
	off += 2;
	l3 = b + off;
	if (et == 0x86dd) {
		if (off + 40 > len)
			return -1;
		hl = 40;
		proto = l3[6];
		l4len = get16(l3 + 4);
	} else if (et == 0x0800) {
		if (off + 20 > len)
			return -1;
		hl = (l3[0] & 0xf) * 4u;
		proto = l3[9];
		if (get16(l3 + 2) < hl)
			return -1;
		l4len = get16(l3 + 2) - hl;
		if (spritz_csum_fold(spritz_csum_add(0, l3, hl)) != 0)
			return 0;
	} else {
		return -1;
	}
	if (off + hl + l4len > len || (proto != 6 && proto != 17))
		return -1;
	if (proto == 17 && l4len >= 8 && get16(l3 + hl + 6) == 0)
		return 1;
	return spritz_l4_csum(et == 0x0800, l3, proto, l3 + hl, l4len) == 0 ||
	       spritz_l4_csum(et == 0x0800, l3, proto, l3 + hl, l4len) == 0xffff;
}

/* ---------------------------------------------------------------- loading */

/* Unload the datapath and drop the table the test loaded into spritz.ko. */
static inline void dp_destroy(struct spritz **skel, struct spritz_nl **nl)
{
	spritz__destroy(*skel);
	*skel = NULL;
	if (*nl) {
		spritz_nl_flush(*nl, SPRITZ_NL_ALL, NULL, 0);
		spritz_nl_close(*nl);
		*nl = NULL;
	}
}

static char dp_log[1 << 20];

#define DP_LOG_PROGS 4
#define DP_LOG_SZ (sizeof(dp_log) / DP_LOG_PROGS)

/* Print the lines of @log starting with @prefix (all if NULL; "# " before each). */
static inline void dp_log_print(const char *name, const char *log, const char *prefix)
{
	const char *t = log, *nl;
	size_t n = strlen(log);

	if (!prefix && n > 6000)
		t = log + n - 6000;
	for (; *t; t = nl + 1) {
		nl = strchr(t, '\n');
		if (!nl)
			nl = t + strlen(t) - 1;
		if (!prefix || !strncmp(t, prefix, strlen(prefix)))
			printf("# %s: %.*s\n", name, (int)(nl - t), t);
		if (!nl[1])
			break;
	}
}

/* Load spritz.bpf.o again with the verifier log (level 1); print its tail. */
static inline void dp_load_log(void)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo, .kernel_log_buf = dp_log,
		    .kernel_log_size = sizeof(dp_log), .kernel_log_level = 1);
	struct spritz *skel;

	dp_log[0] = 0;
	skel = spritz__open_opts(&oo);
	if (!skel)
		return;
	if (spritz__load(skel))
		dp_log_print("log", dp_log, NULL);
	spritz__destroy(skel);
}

/*
 * Open and load spritz.bpf.o; print each program's verifier statistics
 * (log level 4: "verification time", "stack depth", "processed N insns";
 * a few lines, never a full buffer),
 * and on failure the tail of a level-1 log of a second load.
 */
static inline struct spritz *dp_open_load(void)
{
	struct bpf_program *prog;
	struct spritz *skel;
	int err, k = 0;

	skel = spritz__open();
	if (!skel)
		return NULL;
	/* random flow table keys, as libspritz loads it: no test may depend on them */
	if (spritz_flowtab_seed(skel->obj)) {
		printf("# failed to draw flow table keys\n");
		spritz__destroy(skel);
		return NULL;
	}
	bpf_object__for_each_program(prog, skel->obj) {
		if (k >= DP_LOG_PROGS)
			break;
		dp_log[k * DP_LOG_SZ] = 0;
		bpf_program__set_log_buf(prog, dp_log + k * DP_LOG_SZ, DP_LOG_SZ);
		bpf_program__set_log_level(prog, 4);
		k++;
	}
	err = spritz__load(skel);
	k = 0;
	bpf_object__for_each_program(prog, skel->obj) {
		if (k >= DP_LOG_PROGS)
			break;
		dp_log_print(bpf_program__name(prog), dp_log + k++ * DP_LOG_SZ, NULL);
	}
	if (err) {
		printf("# load: %d\n", err);
		spritz__destroy(skel);
		dp_load_log();
		return NULL;
	}
	/* knob changes through sysfs apply to the very next packet */
	skel->data->spritz_knob_refresh_ns = 0;
	return skel;
}

/* -------------------------------------------------------------- test table */

/* Load the test table (switches 1 and 2, 16 switches, source 0). */
static inline int dp_load_table(struct spritz_nl **nlp)
{
	static struct spritz_nl_path p1[1], p2[4];
	struct spritz_nl_dest d[2];
	char err[256];
	unsigned int i;
	int e;

	if (!*nlp) {
		e = spritz_nl_open(nlp, err, sizeof(err));
		if (e) {
			printf("# spritz_nl_open: %s\n", err);
			return e;
		}
	}
	p1[0] = (struct spritz_nl_path){ .ev = EV_D1, .lat_class = 0,
					 .base_weight = SPRITZ_WEIGHT_ONE };
	for (i = 0; i < 4; i++)
		p2[i] = (struct spritz_nl_path){ .ev = ev_d2[i], .lat_class = lat_d2[i],
						 .base_weight = SPRITZ_WEIGHT_ONE * (4 - i) };
	d[0] = (struct spritz_nl_dest){ .dst = 1, .npaths = 1, .paths = p1 };
	d[1] = (struct spritz_nl_dest){ .dst = 2, .npaths = 4, .paths = p2 };
	/* flushed first: a commit over a live table keeps its disables */
	e = spritz_nl_flush(*nlp, 0, err, sizeof(err));
	if (e) {
		printf("# spritz_nl_flush: %s\n", err);
		return e;
	}
	e = spritz_nl_load(*nlp, 0, 16, d, 2, err, sizeof(err));
	if (e)
		printf("# spritz_nl_load: %s\n", err);
	return e;
}

/* Add @addr/@plen (v6 text, or v4 text mapped) -> @dst to the directory. */
static inline int dp_dir_add(struct spritz *skel, const char *addr, int plen, uint32_t dst)
{
	struct spritz_dir_key k = { 0 };
	struct spritz_dir_val v = { .dst_switch = dst };

	if (strchr(addr, ':')) {
		if (inet_pton(AF_INET6, addr, k.addr) != 1)
			return -EINVAL;
		k.prefixlen = plen;
	} else {
		k.addr[10] = k.addr[11] = 0xff;
		if (inet_pton(AF_INET, addr, k.addr + 12) != 1)
			return -EINVAL;
		k.prefixlen = 96 + plen;
	}
	return bpf_map_update_elem(bpf_map__fd(skel->maps.spritz_dir), &k, &v, BPF_ANY);
}

/* Device @ifindex sends from switch @src (spritz_devs). */
static inline int dp_dev_add(struct spritz *skel, uint32_t ifindex, uint32_t src)
{
	struct spritz_dev_key k = { .ifindex = ifindex };
	struct spritz_dev_val v = { .src_switch = src };

	return bpf_map_update_elem(bpf_map__fd(skel->maps.spritz_devs), &k, &v, BPF_ANY);
}

/* BPF_PROG_TEST_RUN's packets come from loopback. */
#define DP_TEST_IFINDEX 1

/* The test directory, and the test device on switch 0 (the table's source). */
static inline int dp_dir_fill(struct spritz *skel)
{
	return dp_dir_add(skel, "2001:db8:1::", 48, 1) ?: dp_dir_add(skel, "2001:db8:2::", 48, 2) ?:
	       dp_dir_add(skel, "2001:db8:9::", 48, 9) ?: dp_dir_add(skel, "10.1.0.0", 16, 1) ?:
	       dp_dev_add(skel, DP_TEST_IFINDEX, 0);
}

/* Sum of the per-CPU statistics. */
static inline int dp_stats(struct spritz *skel, struct spritz_stats *out)
{
	int ncpu = libbpf_num_possible_cpus(), i;
	/* __u64 (= the fields' type), not uint64_t: strict aliasing */
	size_t j, n = sizeof(*out) / sizeof(__u64);
	uint32_t zero = 0;
	struct spritz_stats *all;
	int e;

	memset(out, 0, sizeof(*out));
	if (ncpu <= 0)
		return -EINVAL;
	all = calloc(ncpu, sizeof(*all));
	if (!all)
		return -ENOMEM;
	e = bpf_map_lookup_elem(bpf_map__fd(skel->maps.spritz_stats), &zero, all);
	if (e)
		printf("# stats lookup: %d errno %d ncpu %d\n", e, errno, ncpu);
	for (i = 0; !e && i < ncpu; i++)
		for (j = 0; j < n; j++)
			((__u64 *)out)[j] += ((__u64 *)&all[i])[j];
	free(all);
	return e;
}

#define STAT(st, field) (*(__u64 *)((char *)(st) + (field)))
#define SOFF(field) offsetof(struct spritz_stats, field)

/*
 * spritz_flows of @skel mapped into the test, once per map: a mapping per
 * call would fault in its 44 MiB again each time (slow under TCG).
 */
static inline struct spritz_flowtab *dp_flowtab(struct spritz *skel)
{
	static struct spritz_flowtab t;
	static uint32_t id;
	struct bpf_map_info info;
	uint32_t len = sizeof(info);
	int fd = bpf_map__fd(skel->maps.spritz_flows);

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return NULL;
	if (t.slot && id == info.id)
		return &t;
	spritz_flowtab_close(&t);
	if (spritz_flowtab_open(fd, true, &t))
		return NULL;
	id = info.id;
	return &t;
}

/* Count (and with @clear, forget) the flows in spritz_flows; -errno. */
static inline int dp_flows(struct spritz *skel, int clear)
{
	struct spritz_flowtab *t = dp_flowtab(skel);
	int n = 0;
	size_t i;

	if (!t)
		return -EIO;
	for (i = 0; i < t->n; i++) {
		if (!spritz_flow_used(&t->slot[i]))
			continue;
		n++;
		if (clear)
			spritz_flowtab_clear(t, i);
	}
	return n;
}

/* Zero the statistics and forget every flow, peer and kept SYN-ACK. */
static inline void dp_reset(struct spritz *skel)
{
	int fd, ncpu = libbpf_num_possible_cpus();
	struct spritz_flow_key k;
	struct spritz_peer_key pk;
	struct spritz_stats *z = calloc(ncpu > 0 ? ncpu : 1, sizeof(*z));
	uint32_t zero = 0;

	dp_flows(skel, 1);
	fd = bpf_map__fd(skel->maps.spritz_inner);
	while (bpf_map_get_next_key(fd, NULL, &k) == 0 && bpf_map_delete_elem(fd, &k) == 0)
		;
	fd = bpf_map__fd(skel->maps.spritz_peers);
	while (bpf_map_get_next_key(fd, NULL, &pk) == 0 && bpf_map_delete_elem(fd, &pk) == 0)
		;
	fd = bpf_map__fd(skel->maps.spritz_synacks);
	while (bpf_map_get_next_key(fd, NULL, &k) == 0 && bpf_map_delete_elem(fd, &k) == 0)
		;
	if (z)
		bpf_map_update_elem(bpf_map__fd(skel->maps.spritz_stats), &zero, z, BPF_ANY);
	free(z);
	skel->bss->spritz_clock_offset_ns = 0;
}

/* Run @prog on @in; output in @out.  0 or -errno; retval in *ret. */
static inline int dp_run(int prog_fd, const struct pkt *in, struct pkt *out, uint32_t *ret,
			 uint32_t gso_segs)
{
	struct __sk_buff ctx = { .gso_segs = gso_segs };
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = in->b, .data_size_in = (uint32_t)in->len,
		    .data_out = out->b, .data_size_out = sizeof(out->b), .ctx_in = &ctx,
		    .ctx_size_in = sizeof(ctx));
	int e;

	memset(out, 0, sizeof(*out));
	e = bpf_prog_test_run_opts(prog_fd, &o);
	out->len = o.data_size_out;
	if (ret)
		*ret = o.retval;
	return e;
}

/*
 * The state of flow @k in spritz_flows into @f: its slot, or -ENOENT.
 * Looked for where the datapath puts it, in the ways of its set under
 * the keys the loader drew (flowtab.h), so that a placement that differs
 * between the programs and userspace fails the tests.
 */
static inline long dp_flow_key(struct spritz *skel, const struct spritz_flow_key *k,
			       struct spritz_flow *f)
{
	struct spritz_flowtab *t = dp_flowtab(skel);
	long i;

	if (!t)
		return -EIO;
	i = spritz_flowtab_find(t, k, &skel->rodata->spritz_flow_hashkey);
	if (i >= 0 && !spritz_flowtab_get(t, (size_t)i, f))
		return -ENOENT; /* forgotten meanwhile */
	return i;
}

/* The flow key of a packet built from @s on egress (UDP: original sport), into @k. */
static inline void dp_spec_key(const struct spec *s, struct spritz_flow_key *k)
{
	uint8_t proto = s->proto ? s->proto : 6;

	memset(k, 0, sizeof(*k));
	if (s->v4) {
		k->saddr[10] = k->saddr[11] = k->daddr[10] = k->daddr[11] = 0xff;
		inet_pton(AF_INET, s->src ? s->src : LOCAL4, k->saddr + 12);
		inet_pton(AF_INET, s->dst ? s->dst : DST1_4, k->daddr + 12);
	} else {
		inet_pton(AF_INET6, s->src ? s->src : LOCAL6, k->saddr);
		inet_pton(AF_INET6, s->dst ? s->dst : DST1_6, k->daddr);
	}
	k->sport = s->sport ? s->sport : proto == 6 ? 40000 : 49999;
	k->dport = s->dport ? s->dport : proto == 6 ? 5201 : SPRITZ_UDP_PORT_VXLAN;
	k->proto = proto;
}

/*
 * The flow of a packet built from @s on egress (UDP: original sport) into
 * @f: its slot in spritz_flows, or -ENOENT.
 */
static inline long dp_flow_slot(struct spritz *skel, const struct spec *s, struct spritz_flow *f)
{
	struct spritz_flow_key k;
	long i;

	dp_spec_key(s, &k);
	i = dp_flow_key(skel, &k, f);
	return i < 0 ? -ENOENT : i;
}

/* The flow of a packet built from @s on egress (UDP: original sport): 0 or -ENOENT. */
static inline int dp_flow(struct spritz *skel, const struct spec *s, struct spritz_flow *f)
{
	return dp_flow_slot(skel, s, f) < 0 ? -ENOENT : 0;
}

/* Write a string knob (e.g. "algorithm"). */
static inline int knob_set_str(const char *name, const char *val)
{
	return spritz_sysfs_write(name, val);
}

#endif /* SPRITZ_DATAPATH_UTIL_H */
