// SPDX-License-Identifier: GPL-2.0-only
/*
 * TOPO strings, the way every spritzctl command names a fabric:
 *
 *	dragonfly:p=4,a=8,h=4     Dragonfly (dragonfly.c); p defaults to h
 *	slimfly:q=9,p=7           Slim Fly (slimfly.c); p defaults to ceil(k/2)
 *	file:PATH                 fabric file (fabric.c)
 *
 * Keys may come in any order; each at most once; values are decimal
 * digits (no sign, no blank).  Anything else is rejected with a message
 * naming the problem.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spritz_err.h"
#include "topo.h"

#define errf(...) do { if (err && errlen) snprintf(err, errlen, __VA_ARGS__); } while (0)

struct kv {
	const char *key;
	long val;
	bool set;
	bool required;
};

/* Parse "k=v,k=v" into the known keys. */
static int parse_kv(const char *s, struct kv *kv, int nkv, char *err, size_t errlen)
{
	char *buf = strdup(s), *tok, *save = NULL;
	int i, ret = 0;

	if (!buf)
		return -ENOMEM;
	if (!*buf || buf[strlen(buf) - 1] == ',' || strstr(buf, ",,") || *buf == ',') {
		errf("empty parameter in \"%s\"", s);
		ret = -EINVAL;
		goto out;
	}
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		long v;

		if (!eq) {
			errf("parameter \"%s\" is not KEY=VALUE", tok);
			ret = -EINVAL;
			goto out;
		}
		*eq = '\0';
		for (i = 0; i < nkv; i++)
			if (!strcmp(kv[i].key, tok))
				break;
		if (i == nkv) {
			errf("unknown parameter \"%s\"", tok);
			ret = -EINVAL;
			goto out;
		}
		if (kv[i].set) {
			errf("parameter \"%s\" given twice", tok);
			ret = -EINVAL;
			goto out;
		}
		v = spritz_parse_dec(eq + 1, 1000000);
		if (v < 0) {
			errf("parameter %s: \"%s\" is not a non-negative integer", tok, eq + 1);
			ret = -EINVAL;
			goto out;
		}
		kv[i].val = v;
		kv[i].set = true;
	}
	for (i = 0; i < nkv; i++)
		if (kv[i].required && !kv[i].set) {
			errf("missing parameter \"%s\"", kv[i].key);
			ret = -EINVAL;
			goto out;
		}
out:
	free(buf);
	return ret;
}

/* Parse a TOPO string into @s; nothing is built. */
int spritz_topo_spec_parse(const char *spec, struct spritz_topo_spec *s, char *err, size_t errlen)
{
	const char *colon = spec ? strchr(spec, ':') : NULL;
	struct spritz_topo_spec ns = { 0 };
	size_t fam;
	int ret;

	if (!colon) {
		errf("\"%s\" is not dragonfly:..., slimfly:... or file:PATH", spec ? spec : "");
		return -EINVAL;
	}
	fam = (size_t)(colon - spec);
	if (fam == 9 && !strncmp(spec, "dragonfly", 9)) {
		struct kv kv[] = { { "p", 0, 0, 0 }, { "a", 0, 0, 1 }, { "h", 0, 0, 1 } };

		ret = parse_kv(colon + 1, kv, 3, err, errlen);
		if (ret)
			return ret;
		ns.kind = SPRITZ_TOPO_DRAGONFLY;
		ns.a = (int)kv[1].val;
		ns.h = (int)kv[2].val;
		ns.p = kv[0].set ? (int)kv[0].val : ns.h;
	} else if (fam == 7 && !strncmp(spec, "slimfly", 7)) {
		struct kv kv[] = { { "q", 0, 0, 1 }, { "p", 0, 0, 0 } };
		int k;

		ret = parse_kv(colon + 1, kv, 2, err, errlen);
		if (ret)
			return ret;
		ns.kind = SPRITZ_TOPO_SLIMFLY;
		ns.q = (int)kv[0].val;
		/* a q that is not allowed is reported by spritz_slimfly() */
		k = spritz_slimfly_degree(ns.q);
		ns.p = kv[1].set ? (int)kv[1].val : k < 0 ? 0 : (k + 1) / 2;
	} else if (fam == 4 && !strncmp(spec, "file", 4)) {
		if (!colon[1]) {
			errf("file: needs a path");
			return -EINVAL;
		}
		ns.kind = SPRITZ_TOPO_FILE;
		ns.path = colon + 1;
	} else {
		errf("unknown topology family \"%.*s\" (dragonfly, slimfly, file)", (int)fam, spec);
		return -EINVAL;
	}
	*s = ns;
	return 0;
}

/* Build the fabric a parsed TOPO string names. */
int spritz_topo_build(const struct spritz_topo_spec *s, struct spritz_topo **out, char *err,
		      size_t errlen)
{
	switch (s->kind) {
	case SPRITZ_TOPO_DRAGONFLY:
		return spritz_dragonfly(s->p, s->a, s->h, out, err, errlen);
	case SPRITZ_TOPO_SLIMFLY:
		return spritz_slimfly(s->q, s->p, out, err, errlen);
	case SPRITZ_TOPO_FILE:
		return spritz_fabric_load(s->path, out, err, errlen);
	}
	errf("unknown topology kind %d", (int)s->kind);
	return -EINVAL;
}

/* Parse a TOPO string and build the fabric. */
int spritz_topo_parse(const char *spec, struct spritz_topo **out, char *err, size_t errlen)
{
	struct spritz_topo_spec s;
	int ret = spritz_topo_spec_parse(spec, &s, err, errlen);

	return ret ? ret : spritz_topo_build(&s, out, err, errlen);
}
