// SPDX-License-Identifier: GPL-2.0-only
/*
 * spritzctl topo TOPO: what a fabric is made of - switches, endpoints,
 * groups, network ports per switch, links by type, diameter, EV policy,
 * path bound and the per-hop latencies of the link model (paper Table I).
 */
#include <stdio.h>
#include <string.h>

#include "spritzctl.h"

struct topo_summary {
	int min_ports, max_ports, min_hosts, max_hosts;
	long local_links, global_links;
};

/* Port, host and link counts. */
static void summarize(const struct spritz_topo *t, struct topo_summary *S)
{
	int s, i;

	memset(S, 0, sizeof(*S));
	S->min_ports = S->min_hosts = 1 << 30;
	for (s = 0; s < t->nsw; s++) {
		int deg = spritz_topo_degree(t, s);

		if (deg < S->min_ports)
			S->min_ports = deg;
		if (deg > S->max_ports)
			S->max_ports = deg;
		if (t->hosts[s] < S->min_hosts)
			S->min_hosts = t->hosts[s];
		if (t->hosts[s] > S->max_hosts)
			S->max_hosts = t->hosts[s];
		for (i = 0; i < deg; i++) {
			if (spritz_topo_port_nbr(t, s, i) < s)
				continue;
			if (spritz_topo_port_type(t, s, i) == SPRITZ_LINK_LOCAL)
				S->local_links++;
			else
				S->global_links++;
		}
	}
}

static const char *family_name(const struct spritz_topo *t)
{
	switch (t->kind) {
	case SPRITZ_TOPO_DRAGONFLY:
		return "dragonfly";
	case SPRITZ_TOPO_SLIMFLY:
		return "slimfly";
	default:
		return "file";
	}
}

static const char *policy_name(const struct spritz_topo *t)
{
	return t->policy == SPRITZ_POLICY_DRAGONFLY ? "dragonfly" : "generic";
}

/* Bound as "3 local + 2 global hops" / "4 hops". */
static void bound_str(const struct spritz_bound *b, char *buf, size_t len)
{
	int n = 0;

	buf[0] = '\0';
	if (b->max_hops >= 0)
		n += snprintf(buf + n, len - n, "%d hops", b->max_hops);
	if (b->max_local >= 0)
		n += snprintf(buf + n, len - n, "%s%d local", n ? ", " : "", b->max_local);
	if (b->max_global >= 0)
		n += snprintf(buf + n, len - n, "%s%d global", n ? ", " : "", b->max_global);
	if (!n)
		snprintf(buf, len, "none");
}

static json_t *json_bound_val(int v)
{
	return v >= 0 ? json_integer(v) : json_null();
}

/* The link model's per-hop time of a link @type (cable plus one packet's serialization). */
static uint64_t hop_ps(const struct spritz_topo *t, int type)
{
	return t->model.cable_ps[type] +
	       spritz_serialization_ps(t->model.packet_bytes, t->model.speed_mbps);
}

/* The topology as a JSON object (fields documented in spritzctl.8). */
static json_t *topo_json(const struct spritz_topo *t, const struct topo_summary *S)
{
	json_t *j = json_object(), *params = json_object();

	if (t->kind == SPRITZ_TOPO_DRAGONFLY) {
		json_object_set_new(params, "p", json_integer(t->p));
		json_object_set_new(params, "a", json_integer(t->a));
		json_object_set_new(params, "h", json_integer(t->h));
	} else if (t->kind == SPRITZ_TOPO_SLIMFLY) {
		json_object_set_new(params, "q", json_integer(t->q));
		json_object_set_new(params, "p", json_integer(t->p));
	}
	json_object_set_new(j, "topology", json_string(t->name));
	json_object_set_new(j, "family", json_string(family_name(t)));
	json_object_set_new(j, "params", params);
	json_object_set_new(j, "switches", json_integer(t->nsw));
	json_object_set_new(j, "endpoints", json_integer(t->nhosts));
	json_object_set_new(j, "groups", json_integer(t->ngroups));
	json_object_set_new(j, "ports_per_switch", json_integer(S->max_ports));
	json_object_set_new(j, "ports_per_switch_min", json_integer(S->min_ports));
	json_object_set_new(j, "hosts_per_switch", json_integer(S->max_hosts));
	json_object_set_new(j, "hosts_per_switch_min", json_integer(S->min_hosts));
	json_object_set_new(j, "local_links", json_integer(S->local_links));
	json_object_set_new(j, "global_links", json_integer(S->global_links));
	json_object_set_new(j, "diameter", json_integer(t->diameter));
	json_object_set_new(j, "policy", json_string(policy_name(t)));
	json_object_set_new(j, "bound", json_pack("{s:o,s:o,s:o}",
		"hops", json_bound_val(t->bound.max_hops),
		"local", json_bound_val(t->bound.max_local),
		"global", json_bound_val(t->bound.max_global)));
	json_object_set_new(j, "link_model", json_pack("{s:f,s:o,s:o,s:i,s:o,s:o}",
		"speed_gbps", t->model.speed_mbps / 1000.0,
		"local_cable_ns", ctl_json_ns(t->model.cable_ps[SPRITZ_LINK_LOCAL]),
		"global_cable_ns", ctl_json_ns(t->model.cable_ps[SPRITZ_LINK_GLOBAL]),
		"packet_bytes", (int)t->model.packet_bytes,
		"local_hop_ns", ctl_json_ns(hop_ps(t, SPRITZ_LINK_LOCAL)),
		"global_hop_ns", ctl_json_ns(hop_ps(t, SPRITZ_LINK_GLOBAL))));
	return j;
}

/* The topology as "name value" lines. */
static void topo_print(const struct spritz_topo *t, const struct topo_summary *S)
{
	char b[64], gbps[24];
	size_t n;

	bound_str(&t->bound, b, sizeof(b));
	printf("topology   %s\n", t->name);
	printf("switches   %d\n", t->nsw);
	printf("endpoints  %ld", t->nhosts);
	if (S->min_hosts == S->max_hosts)
		printf(" (%d per switch)\n", S->max_hosts);
	else
		printf(" (%d..%d per switch)\n", S->min_hosts, S->max_hosts);
	printf("groups     %d\n", t->ngroups);
	if (S->min_ports == S->max_ports)
		printf("ports      %d network ports per switch\n", S->max_ports);
	else
		printf("ports      %d..%d network ports per switch\n", S->min_ports, S->max_ports);
	printf("links      %ld local, %ld global\n", S->local_links, S->global_links);
	printf("diameter   %d\n", t->diameter);
	printf("policy     %s\n", policy_name(t));
	printf("bound      %s\n", b);
	/* Gb/s with the decimals it has: 400, 2.5, 0.001 (not "0") */
	n = (size_t)snprintf(gbps, sizeof(gbps), "%u.%03u", t->model.speed_mbps / 1000,
			     t->model.speed_mbps % 1000);
	while (gbps[n - 1] == '0')
		gbps[--n] = '\0';
	if (gbps[n - 1] == '.')
		gbps[n - 1] = '\0';
	printf("hop        local %.1f ns, global %.1f ns (%s Gb/s, %u B packets)\n",
	       hop_ps(t, SPRITZ_LINK_LOCAL) / 1000.0, hop_ps(t, SPRITZ_LINK_GLOBAL) / 1000.0, gbps,
	       t->model.packet_bytes);
}

int cmd_topo(int argc, char **argv)
{
	static const struct option longopts[] = { CTL_COMMON_LONGOPTS, { NULL, 0, NULL, 0 } };
	struct ctl_link_opts lo;
	struct spritz_topo *t;
	struct topo_summary S;
	int opt, ret;

	ctl_link_opts_init(&lo);
	while ((opt = getopt_long(argc, argv, CTL_COMMON_SHORTOPTS, longopts, NULL)) != -1) {
		ret = ctl_common_opt(opt, optarg, &lo, "topo");
		if (ret <= 0) {
			if (!ret)
				ctl_cmd_usage("topo", stderr);
			return EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		ctl_cmd_usage("topo", stderr);
		return EXIT_USAGE;
	}
	ret = ctl_load_topo(argv[optind], &lo, &t);
	if (ret)
		return ret;
	summarize(t, &S);
	if (opt_json) {
		ret = ctl_json_print(topo_json(t, &S));
	} else {
		topo_print(t, &S);
		ret = EXIT_OK;
	}
	spritz_topo_free(t);
	return ret;
}
