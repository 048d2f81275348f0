// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fabric file parser: any wiring (a deployment's cabling, Dragonfly+, Cray
 * Cascade, ...) as switches, hosts, typed links with latency and speed, and
 * each switch's port order.  Format: Documentation/fabric-file.rst.
 *
 * One directive per line, '#' starts a comment:
 *	switches N
 *	hosts H                       default hosts per switch (0)
 *	switch ID hosts=H             per-switch hosts
 *	speed GBPS                    default link speed
 *	latency local|global NS       default cable latency per link type
 *	packet BYTES                  serialized bytes per hop
 *	link A B local|global [latency=NS] [speed=GBPS]
 *	ports ID N1 N2 ...            port order of ID (default: link order)
 *	bound [hops=H] [local=L] [global=G]
 *	routing generic|dragonfly     EV policy (topo.h, paths.rst)
 *
 * Every directive but link comes at most once (switch and ports: once per
 * switch; latency: once per link type), every attribute at most once per
 * line; a repeat is an error naming its line (and a directive's first
 * line), never "the last one wins".
 *
 * Everything is parsed into temporary arrays and checked before the
 * topology is built, so a bad file yields one "FILE:LINE: problem" error
 * and no topology.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spritz_err.h"
#include "topo.h"

#define MAX_SWITCHES 20000
#define MAX_LINKS 4000000

struct flink {
	int a, b, type, line;
	uint32_t cable_ps, speed_mbps;
};

/* The directives that come once: the line of each, 0 = not yet. */
enum fonce {
	ONCE_SWITCHES,
	ONCE_HOSTS,
	ONCE_SPEED,
	ONCE_LATENCY_LOCAL,
	ONCE_LATENCY_GLOBAL,
	ONCE_PACKET,
	ONCE_BOUND,
	ONCE_ROUTING,
	ONCE_N,
};

struct fparse {
	const char *fname;
	char *err;
	size_t errlen;
	int line;
	int nsw;
	int def_hosts;
	int *hosts;       /* -1 = default */
	int *switch_line; /* line of the "switch ID" line, 0 = none */
	int **ports;      /* explicit port order or NULL */
	int *nports;
	int *ports_line;
	struct flink *links;
	size_t nlinks, caplinks;
	struct spritz_link_model model;
	struct spritz_bound bound;
	bool have_bound;
	int policy;
	int once_line[ONCE_N];
};

static int perr(struct fparse *P, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Record "FILE:LINE: problem" (LINE omitted when 0). */
static int perr(struct fparse *P, int line, const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (P->err && P->errlen) {
		if (line)
			snprintf(P->err, P->errlen, "%s:%d: %s", P->fname, line, msg);
		else
			snprintf(P->err, P->errlen, "%s: %s", P->fname, msg);
	}
	return -EINVAL;
}

/* A directive that comes once (@what, quoted in the message): its first line, else an error. */
static int once(struct fparse *P, enum fonce k, const char *what)
{
	if (P->once_line[k])
		return perr(P, P->line, "\"%s\" given twice (first on line %d)", what,
			    P->once_line[k]);
	P->once_line[k] = P->line;
	return 0;
}

/* An attribute of one line: an error if @seen says it came before. */
static int attr_once(struct fparse *P, bool *seen, const char *tok)
{
	if (*seen)
		return perr(P, P->line, "attribute \"%.*s=\" given twice",
			    (int)strcspn(tok, "="), tok);
	*seen = true;
	return 0;
}

/* A non-negative decimal integer that fills the whole token (spritz_parse_dec()). */
static int parse_uint(const char *s, long max, long *out)
{
	long v = spritz_parse_dec(s, max);

	if (v < 0)
		return -EINVAL;
	*out = v;
	return 0;
}

/* "D[.DDD]" into thousandths, at most @max (spritz_parse_milli()). */
static int parse_milli(const char *s, uint32_t max, uint32_t *out)
{
	long v = spritz_parse_milli(s, max);

	if (v < 0)
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

/* Parse a switch id token. */
static int parse_id(struct fparse *P, const char *tok, int *id)
{
	long v;

	if (!P->nsw)
		return perr(P, P->line, "\"switches N\" must come before switch ids");
	if (parse_uint(tok, P->nsw - 1, &v))
		return perr(P, P->line, "bad switch id \"%s\" (switches are 0..%d)",
			    tok ? tok : "", P->nsw - 1);
	*id = (int)v;
	return 0;
}

static int parse_type(const char *tok)
{
	if (tok && !strcmp(tok, "local"))
		return SPRITZ_LINK_LOCAL;
	if (tok && !strcmp(tok, "global"))
		return SPRITZ_LINK_GLOBAL;
	return -1;
}

/* "switches N": the switch count, which sizes the per-switch arrays. */
static int dir_switches(struct fparse *P, char **tok, int n)
{
	long v;
	int i;

	if (once(P, ONCE_SWITCHES, "switches"))
		return -EINVAL;
	if (n != 2 || parse_uint(tok[1], MAX_SWITCHES, &v) || v < 1)
		return perr(P, P->line, "expected \"switches N\", 1 <= N <= %d", MAX_SWITCHES);
	P->nsw = (int)v;
	P->hosts = malloc(sizeof(int) * v);
	P->switch_line = calloc(v, sizeof(int));
	P->ports = calloc(v, sizeof(int *));
	P->nports = calloc(v, sizeof(int));
	P->ports_line = calloc(v, sizeof(int));
	if (!P->hosts || !P->switch_line || !P->ports || !P->nports || !P->ports_line)
		return -ENOMEM;
	for (i = 0; i < v; i++)
		P->hosts[i] = -1;
	return 0;
}

/* "hosts H": the default hosts per switch. */
static int dir_hosts(struct fparse *P, char **tok, int n)
{
	long v;

	if (once(P, ONCE_HOSTS, "hosts"))
		return -EINVAL;
	if (n != 2 || parse_uint(tok[1], 65535, &v))
		return perr(P, P->line, "expected \"hosts H\", 0 <= H <= 65535");
	P->def_hosts = (int)v;
	return 0;
}

/* "switch ID hosts=H": one switch's hosts. */
static int dir_switch(struct fparse *P, char **tok, int n)
{
	bool seen = false;
	long v;
	int i, id;

	if (n < 2)
		return perr(P, P->line, "expected \"switch ID hosts=H\"");
	if (parse_id(P, tok[1], &id))
		return -EINVAL;
	if (P->switch_line[id])
		return perr(P, P->line, "switch %d already given on line %d", id,
			    P->switch_line[id]);
	P->switch_line[id] = P->line;
	for (i = 2; i < n; i++) {
		if (strncmp(tok[i], "hosts=", 6) || parse_uint(tok[i] + 6, 65535, &v))
			return perr(P, P->line, "bad switch attribute \"%s\"", tok[i]);
		if (attr_once(P, &seen, tok[i]))
			return -EINVAL;
		P->hosts[id] = (int)v;
	}
	return 0;
}

/* "speed GBPS": the default link speed. */
static int dir_speed(struct fparse *P, char **tok, int n)
{
	if (once(P, ONCE_SPEED, "speed"))
		return -EINVAL;
	if (n != 2 || parse_milli(tok[1], SPRITZ_MAX_SPEED_MBPS, &P->model.speed_mbps) ||
	    !P->model.speed_mbps)
		return perr(P, P->line, "expected \"speed GBPS\", 0 < GBPS <= %u",
			    SPRITZ_MAX_SPEED_MBPS / 1000);
	return 0;
}

/* "latency local|global NS": the default cable latency of a link type. */
static int dir_latency(struct fparse *P, char **tok, int n)
{
	int ty = n == 3 ? parse_type(tok[1]) : -1;

	if (ty == SPRITZ_LINK_LOCAL && once(P, ONCE_LATENCY_LOCAL, "latency local"))
		return -EINVAL;
	if (ty == SPRITZ_LINK_GLOBAL && once(P, ONCE_LATENCY_GLOBAL, "latency global"))
		return -EINVAL;
	if (ty < 0 || parse_milli(tok[2], SPRITZ_MAX_CABLE_PS, &P->model.cable_ps[ty]))
		return perr(P, P->line, "expected \"latency local|global NS\", NS <= %u",
			    SPRITZ_MAX_CABLE_PS / 1000);
	return 0;
}

/* "packet BYTES": the bytes serialized per hop. */
static int dir_packet(struct fparse *P, char **tok, int n)
{
	long v;

	if (once(P, ONCE_PACKET, "packet"))
		return -EINVAL;
	if (n != 2 || parse_uint(tok[1], SPRITZ_MAX_PACKET_BYTES, &v) || !v)
		return perr(P, P->line, "expected \"packet BYTES\", 0 < BYTES <= %u",
			    SPRITZ_MAX_PACKET_BYTES);
	P->model.packet_bytes = (uint32_t)v;
	return 0;
}

/* A link's "latency=NS" or "speed=GBPS" into @L (each once: @seen). */
static int link_attr(struct fparse *P, const char *tok, struct flink *L, bool seen[2])
{
	if (!strncmp(tok, "latency=", 8)) {
		if (parse_milli(tok + 8, SPRITZ_MAX_CABLE_PS, &L->cable_ps) || !L->cable_ps)
			return perr(P, P->line, "bad latency \"%s\" (0 < NS <= %u)", tok + 8,
				    SPRITZ_MAX_CABLE_PS / 1000);
		return attr_once(P, &seen[0], tok);
	}
	if (!strncmp(tok, "speed=", 6)) {
		if (parse_milli(tok + 6, SPRITZ_MAX_SPEED_MBPS, &L->speed_mbps) || !L->speed_mbps)
			return perr(P, P->line, "bad speed \"%s\" (0 < GBPS <= %u)", tok + 6,
				    SPRITZ_MAX_SPEED_MBPS / 1000);
		return attr_once(P, &seen[1], tok);
	}
	return perr(P, P->line, "bad link attribute \"%s\"", tok);
}

/* Append @L to the parsed links, growing the array by doubling up to MAX_LINKS. */
static int push_link(struct fparse *P, const struct flink *L)
{
	if (P->nlinks == P->caplinks) {
		size_t cap = P->caplinks ? P->caplinks * 2 : 256;
		struct flink *nl;

		if (P->nlinks >= MAX_LINKS)
			return perr(P, P->line, "more than %d links", MAX_LINKS);
		if (cap > MAX_LINKS)
			cap = MAX_LINKS;
		nl = realloc(P->links, cap * sizeof(*nl));
		if (!nl)
			return -ENOMEM;
		P->links = nl;
		P->caplinks = cap;
	}
	P->links[P->nlinks++] = *L;
	return 0;
}

/* "link A B local|global [latency=NS] [speed=GBPS]". */
static int dir_link(struct fparse *P, char **tok, int n)
{
	struct flink L = { .line = P->line };
	bool seen[2] = { false, false };
	int i;

	if (n < 4)
		return perr(P, P->line, "expected \"link A B local|global [latency=NS] "
				"[speed=GBPS]\"");
	if (parse_id(P, tok[1], &L.a) || parse_id(P, tok[2], &L.b))
		return -EINVAL;
	if (L.a == L.b)
		return perr(P, P->line, "link from switch %d to itself", L.a);
	L.type = parse_type(tok[3]);
	if (L.type < 0)
		return perr(P, P->line, "link type must be \"local\" or \"global\", not \"%s\"",
			    tok[3]);
	for (i = 4; i < n; i++)
		if (link_attr(P, tok[i], &L, seen))
			return -EINVAL;
	return push_link(P, &L);
}

/* "ports ID N1 N2 ...": the port order of switch ID, by neighbour. */
static int dir_ports(struct fparse *P, char **tok, int n)
{
	int i, id;

	if (n < 2)
		return perr(P, P->line, "expected \"ports ID N1 N2 ...\"");
	if (parse_id(P, tok[1], &id))
		return -EINVAL;
	if (P->ports[id])
		return perr(P, P->line, "port order of switch %d already given on line %d",
			    id, P->ports_line[id]);
	if (n - 2 > SPRITZ_MAX_NET_PORTS)
		return perr(P, P->line, "more than %d ports", SPRITZ_MAX_NET_PORTS);
	P->ports[id] = malloc(sizeof(int) * (n > 2 ? n - 2 : 1));
	if (!P->ports[id])
		return -ENOMEM;
	for (i = 2; i < n; i++)
		if (parse_id(P, tok[i], &P->ports[id][i - 2]))
			return -EINVAL;
	P->nports[id] = n - 2;
	P->ports_line[id] = P->line;
	return 0;
}

/* "bound [hops=H] [local=L] [global=G]": the path bound. */
static int dir_bound(struct fparse *P, char **tok, int n)
{
	static const char *const keys[] = { "hops=", "local=", "global=" };
	int *dst[] = { &P->bound.max_hops, &P->bound.max_local, &P->bound.max_global };
	bool seen[ARRAY_SIZE(keys)] = { false };
	size_t k;
	long v;
	int i;

	if (once(P, ONCE_BOUND, "bound"))
		return -EINVAL;
	if (n < 2)
		return perr(P, P->line, "expected \"bound [hops=H] [local=L] [global=G]\"");
	for (i = 1; i < n; i++) {
		for (k = 0; k < ARRAY_SIZE(keys); k++)
			if (!strncmp(tok[i], keys[k], strlen(keys[k])))
				break;
		if (k == ARRAY_SIZE(keys) || parse_uint(tok[i] + strlen(keys[k]), 64, &v))
			return perr(P, P->line, "bad bound \"%s\"", tok[i]);
		if (attr_once(P, &seen[k], tok[i]))
			return -EINVAL;
		*dst[k] = (int)v;
	}
	P->have_bound = true;
	return 0;
}

/* "routing generic|dragonfly": the EV policy. */
static int dir_routing(struct fparse *P, char **tok, int n)
{
	if (once(P, ONCE_ROUTING, "routing"))
		return -EINVAL;
	if (n == 2 && !strcmp(tok[1], "generic"))
		P->policy = SPRITZ_POLICY_GENERIC;
	else if (n == 2 && !strcmp(tok[1], "dragonfly"))
		P->policy = SPRITZ_POLICY_DRAGONFLY;
	else
		return perr(P, P->line, "expected \"routing generic|dragonfly\"");
	return 0;
}

/* The directives: a line's first token selects one; it gets the whole line. */
static const struct {
	const char *name;
	int (*parse)(struct fparse *P, char **tok, int n);
} directives[] = {
	{ "switches", dir_switches },
	{ "hosts", dir_hosts },
	{ "switch", dir_switch },
	{ "speed", dir_speed },
	{ "latency", dir_latency },
	{ "packet", dir_packet },
	{ "link", dir_link },
	{ "ports", dir_ports },
	{ "bound", dir_bound },
	{ "routing", dir_routing },
};

/* One directive, already split into tokens. */
static int parse_directive(struct fparse *P, char **tok, int n)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(directives); i++)
		if (!strcmp(tok[0], directives[i].name))
			return directives[i].parse(P, tok, n);
	return perr(P, P->line, "unknown directive \"%s\"", tok[0]);
}

static int cmp_link(const void *x, const void *y)
{
	const struct flink *a = x, *b = y;
	int a0 = a->a < a->b ? a->a : a->b, a1 = a->a < a->b ? a->b : a->a;
	int b0 = b->a < b->b ? b->a : b->b, b1 = b->a < b->b ? b->b : b->a;

	if (a0 != b0)
		return a0 - b0;
	if (a1 != b1)
		return a1 - b1;
	return a->line - b->line;
}

/* Refuse parallel links: they would give two EVs with the same switch sequence. */
static int check_parallel_links(struct fparse *P)
{
	struct flink *sorted;
	size_t i;
	int ret = 0;

	if (P->nlinks < 2) /* no pair (and with no links, P->links is NULL) */
		return 0;
	sorted = malloc(sizeof(*sorted) * P->nlinks);
	if (!sorted)
		return -ENOMEM;
	memcpy(sorted, P->links, sizeof(*sorted) * P->nlinks);
	qsort(sorted, P->nlinks, sizeof(*sorted), cmp_link);
	for (i = 1; i < P->nlinks && !ret; i++)
		if (!cmp_link(&(struct flink){ sorted[i].a, sorted[i].b, 0, 0, 0, 0 },
			      &(struct flink){ sorted[i - 1].a, sorted[i - 1].b, 0, 0, 0, 0 }))
			ret = perr(P, sorted[i].line, "second link between switches %d and %d "
				   "(first on line %d)", sorted[i].a, sorted[i].b,
				   sorted[i - 1].line);
	free(sorted);
	return ret;
}

/* Give every link a port at both ends, in file order (a CSR by switch). */
static int wire_links(struct fparse *P, struct spritz_topo *t)
{
	uint32_t *fill = calloc((size_t)P->nsw + 1, sizeof(uint32_t));
	size_t i;
	int s, ret = 0;

	if (!fill)
		return -ENOMEM;
	for (i = 0; i < P->nlinks && !ret; i++) {
		const struct flink *L = &P->links[i];

		if (++fill[L->a] > SPRITZ_MAX_NET_PORTS || ++fill[L->b] > SPRITZ_MAX_NET_PORTS)
			ret = perr(P, L->line, "switch %d gets more than %d network ports",
				   fill[L->a] > SPRITZ_MAX_NET_PORTS ? L->a : L->b,
				   SPRITZ_MAX_NET_PORTS);
	}
	for (s = 0; s < P->nsw && !ret; s++) {
		t->port_off[s + 1] = t->port_off[s] + fill[s];
		fill[s] = t->port_off[s];
	}
	for (i = 0; i < P->nlinks && !ret; i++) {
		const struct flink *L = &P->links[i];
		uint32_t pa = fill[L->a]++, pb = fill[L->b]++;

		t->port_nbr[pa] = L->b;
		t->port_nbr[pb] = L->a;
		t->port_type[pa] = t->port_type[pb] = (uint8_t)L->type;
		t->port_cable_ps[pa] = t->port_cable_ps[pb] = L->cable_ps;
		t->port_speed_mbps[pa] = t->port_speed_mbps[pb] = L->speed_mbps;
	}
	free(fill);
	return ret;
}

/* Reorder switch @s's ports as its "ports" line lists its neighbours. */
static int order_ports(struct fparse *P, struct spritz_topo *t, int s)
{
	int deg = spritz_topo_degree(t, s), j, k;
	uint32_t o = t->port_off[s];
	int nbr[SPRITZ_MAX_NET_PORTS];
	uint8_t ty[SPRITZ_MAX_NET_PORTS];
	uint32_t cab[SPRITZ_MAX_NET_PORTS], spd[SPRITZ_MAX_NET_PORTS];
	bool used[SPRITZ_MAX_NET_PORTS] = { false };

	if (P->nports[s] != deg)
		return perr(P, P->ports_line[s], "switch %d has %d links but %d ports are listed",
			    s, deg, P->nports[s]);
	for (j = 0; j < deg; j++) {
		int n = P->ports[s][j];

		for (k = 0; k < deg; k++)
			if (t->port_nbr[o + k] == n)
				break;
		if (k == deg)
			return perr(P, P->ports_line[s], "switch %d has no link to %d", s, n);
		if (used[k])
			return perr(P, P->ports_line[s], "switch %d lists %d twice", s, n);
		used[k] = true;
		nbr[j] = n;
		ty[j] = t->port_type[o + k];
		cab[j] = t->port_cable_ps[o + k];
		spd[j] = t->port_speed_mbps[o + k];
	}
	for (j = 0; j < deg; j++) {
		t->port_nbr[o + j] = nbr[j];
		t->port_type[o + j] = ty[j];
		t->port_cable_ps[o + j] = cab[j];
		t->port_speed_mbps[o + j] = spd[j];
	}
	return 0;
}

/* The file's bound, else the policy's (Dragonfly) or two minimal segments. */
static struct spritz_bound file_bound(const struct fparse *P, const struct spritz_topo *t)
{
	if (P->have_bound)
		return P->bound;
	if (t->policy == SPRITZ_POLICY_DRAGONFLY)
		return (struct spritz_bound){ -1, SPRITZ_DF_MAX_LOCAL_HOPS,
					      SPRITZ_DF_MAX_GLOBAL_HOPS };
	/* Valiant: 4 hops for a diameter-2 Slim Fly */
	return (struct spritz_bound){ 2 * t->diameter, -1, -1 };
}

/* Turn the parsed file into a topology. */
static int build(struct fparse *P, struct spritz_topo **out)
{
	struct spritz_topo *t;
	char msg[200];
	int s, ret;

	if (!P->nsw)
		return perr(P, 0, "no \"switches N\" line");
	ret = check_parallel_links(P);
	if (ret)
		return ret;
	t = spritz_topo_alloc(P->nsw, P->nlinks * 2);
	if (!t)
		return -ENOMEM;
	ret = wire_links(P, t);
	for (s = 0; s < P->nsw && !ret; s++) {
		t->hosts[s] = P->hosts[s] >= 0 ? P->hosts[s] : P->def_hosts;
		if (P->ports[s])
			ret = order_ports(P, t, s);
	}
	if (ret)
		goto free_topo;
	t->kind = SPRITZ_TOPO_FILE;
	t->policy = P->policy;
	t->model = P->model;
	snprintf(t->name, sizeof(t->name), "file:%s", P->fname);
	ret = spritz_topo_finish(t, msg, sizeof(msg));
	if (ret) {
		perr(P, 0, "%s", msg);
		goto free_topo;
	}
	t->bound = file_bound(P, t);
	*out = t;
	return 0;
free_topo:
	spritz_topo_free(t);
	return ret;
}

/* Parse fabric text; fname is used in error messages and the topology name. */
int spritz_fabric_parse(const char *text, const char *fname, struct spritz_topo **out,
			char *err, size_t errlen)
{
	struct fparse P = { .fname = fname, .err = err, .errlen = errlen };
	char *buf = strdup(text), *line, *next, *end;
	int ret = 0, s;

	if (!buf)
		return -ENOMEM;
	end = buf + strlen(buf);
	spritz_link_model_default(&P.model);
	P.bound = (struct spritz_bound){ -1, -1, -1 };
	P.policy = SPRITZ_POLICY_GENERIC;
	for (line = buf; line && !ret; line = next) {
		char *tok[SPRITZ_MAX_NET_PORTS + 8], *c, *save = NULL;
		int n = 0;

		/* memchr: strchr() would be checked to the end of the text each time under ASan */
		next = memchr(line, '\n', (size_t)(end - line));
		if (next)
			*next++ = '\0';
		P.line++;
		c = strchr(line, '#');
		if (c)
			*c = '\0';
		for (c = strtok_r(line, " \t\r", &save); c; c = strtok_r(NULL, " \t\r", &save)) {
			if (n == (int)(ARRAY_SIZE(tok))) {
				ret = perr(&P, P.line, "line has too many fields");
				break;
			}
			tok[n++] = c;
		}
		if (!ret && n)
			ret = parse_directive(&P, tok, n);
	}
	if (!ret)
		ret = build(&P, out);
	if (ret == -ENOMEM)
		perr(&P, P.line, "out of memory");
	for (s = 0; s < P.nsw; s++)
		free(P.ports[s]);
	free(P.ports);
	free(P.nports);
	free(P.ports_line);
	free(P.hosts);
	free(P.switch_line);
	free(P.links);
	free(buf);
	return ret;
}

/* Load a fabric file; errors "FILE:LINE: problem". */
int spritz_fabric_load(const char *path, struct spritz_topo **out, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t len = 0, cap = 0, n;
	int ret;

	if (!f) {
		ret = -errno;
		if (err && errlen)
			spritz_seterr(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	do {
		if (cap - len < 65536) {
			char *nt;

			cap = cap ? cap * 2 : 65536;
			nt = realloc(text, cap + 1);
			if (!nt) {
				free(text);
				fclose(f);
				return -ENOMEM;
			}
			text = nt;
		}
		n = fread(text + len, 1, cap - len, f);
		len += n;
	} while (n);
	if (ferror(f)) {
		if (err && errlen)
			spritz_seterr(err, errlen, "%s: read error", path);
		free(text);
		fclose(f);
		return -EIO;
	}
	fclose(f);
	text[len] = '\0';
	if (memchr(text, '\0', len)) {
		if (err && errlen)
			spritz_seterr(err, errlen, "%s: binary file (NUL byte)", path);
		free(text);
		return -EINVAL;
	}
	ret = spritz_fabric_parse(text, path, out, err, errlen);
	free(text);
	return ret;
}
