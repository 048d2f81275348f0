// SPDX-License-Identifier: GPL-2.0-only
/*
 * TOPO strings (user/lib/topo_parse.c).  Every input goes through
 * spritz_topo_spec_parse(); an accepted Dragonfly or Slim Fly small enough
 * to build in a few milliseconds (FUZZ_MAX_SWITCHES) is built, and its
 * canonical name must parse back to the same family and parameters.
 * "file:" strings are only parsed: fabric files have their own target and
 * a fuzzer must not open paths it made up.
 *
 * Promises checked: an error leaves the spec as it was and says why; a
 * built fabric has the switch count and degree of its family.
 */
#include <errno.h>

#include "fuzz.h"
#include "topo.h"

#define FUZZ_MAX_SWITCHES 400

/* Switches of a spec's fabric, as its family defines them (topo.h). */
static long switches(const struct spritz_topo_spec *s)
{
	if (s->kind == SPRITZ_TOPO_DRAGONFLY)
		return ((long)s->a * s->h + 1) * s->a;
	if (s->kind == SPRITZ_TOPO_SLIMFLY)
		return 2L * s->q * s->q;
	return -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct spritz_topo_spec s = { .kind = 77, .p = -2 }, back = s;
	struct spritz_topo *t = NULL;
	char *spec = fuzz_string(data, size), err[512] = "";
	long nsw;
	int ret;

	if (!spec)
		return 0;
	ret = spritz_topo_spec_parse(spec, &s, err, sizeof(err));
	if (ret) {
		FUZZ_CHECK(ret < 0, "ret %d", ret);
		FUZZ_CHECK(s.kind == 77 && s.p == -2, "a rejected string changed the spec");
		FUZZ_CHECK(err[0], "no message for \"%s\"", spec);
		goto out;
	}
	FUZZ_CHECK(s.p >= 0 && s.a >= 0 && s.h >= 0 && s.q >= 0, "negative parameter");
	nsw = switches(&s);
	if (nsw < 0 || nsw > FUZZ_MAX_SWITCHES)
		goto out;
	ret = spritz_topo_build(&s, &t, err, sizeof(err));
	if (ret) {
		FUZZ_CHECK(!t, "a failed build returned a fabric");
		FUZZ_CHECK(err[0], "no message for \"%s\"", spec);
		goto out;
	}
	FUZZ_CHECK(t->nsw == nsw, "%s: %d switches, expected %ld", t->name, t->nsw, nsw);
	FUZZ_CHECK(t->nhosts == (long)t->nsw * s.p, "%s: %ld hosts", t->name, t->nhosts);
	if (s.kind == SPRITZ_TOPO_DRAGONFLY)
		FUZZ_CHECK(t->max_degree == s.a - 1 + s.h, "%s: degree %d", t->name, t->max_degree);
	ret = spritz_topo_spec_parse(t->name, &back, err, sizeof(err));
	FUZZ_CHECK(!ret, "canonical name \"%s\" does not parse: %s", t->name, err);
	FUZZ_CHECK(back.kind == s.kind && back.p == s.p && back.a == s.a && back.h == s.h &&
			   back.q == s.q,
		   "\"%s\" parses to another fabric than \"%s\"", t->name, spec);
out:
	spritz_topo_free(t);
	free(spec);
	return 0;
}
