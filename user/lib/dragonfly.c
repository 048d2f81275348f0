// SPDX-License-Identifier: GPL-2.0-only
/*
 * Dragonfly(p, a, h) with the palmtree global arrangement (paper §II-A and
 * §III "Dragonfly"; reference facts).
 *
 * g = a*h + 1 groups of a switches, all-to-all inside a group (local
 * links), p hosts per switch.  Switch id = group*a + index.  Global link l
 * (0..h-1) of switch index i in group G goes to group (G + i*h + l + 1) mod g
 * and lands on switch index a-1-i there; its far end is that switch's
 * global link h-1-l, so every pair of groups is joined by exactly one link.
 *
 * Canonical port order: the a-1 local neighbours in ascending id, then
 * global links 0..h-1 (port index a-1+l).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "spritz_err.h"
#include "topo.h"


/* Build Dragonfly(p, a, h). */
int spritz_dragonfly(int p, int a, int h, struct spritz_topo **out, char *err, size_t errlen)
{
	struct spritz_topo *t;
	long g, nsw, ldeg;
	int deg, s, ret;

	if (a < 1 || h < 1 || p < 0) {
		spritz_seterr(err, errlen, "dragonfly needs a >= 1, h >= 1, p >= 0");
		return -EINVAL;
	}
	ldeg = (long)a - 1 + h;
	if (ldeg > SPRITZ_MAX_NET_PORTS) {
		spritz_seterr(err, errlen, "a - 1 + h = %ld network ports, EVs address at most %d",
			      ldeg, SPRITZ_MAX_NET_PORTS);
		return -EINVAL;
	}
	deg = (int)ldeg;
	g = (long)a * h + 1;
	nsw = g * a;
	if (nsw > SPRITZ_TOPO_MAX_SWITCHES) {
		spritz_seterr(err, errlen, "dragonfly with a = %d, h = %d has %ld switches, at most %d",
			      a, h, nsw, SPRITZ_TOPO_MAX_SWITCHES);
		return -E2BIG;
	}
	if ((long)p * nsw > 100000000L) {
		spritz_seterr(err, errlen, "dragonfly with %ld endpoints, at most 100000000",
			      (long)p * nsw);
		return -E2BIG;
	}
	t = spritz_topo_alloc((int)nsw, (size_t)nsw * deg);
	if (!t)
		return -ENOMEM;
	t->kind = SPRITZ_TOPO_DRAGONFLY;
	t->policy = SPRITZ_POLICY_DRAGONFLY;
	t->p = p;
	t->a = a;
	t->h = h;
	t->bound = (struct spritz_bound){ -1, SPRITZ_DF_MAX_LOCAL_HOPS, SPRITZ_DF_MAX_GLOBAL_HOPS };
	snprintf(t->name, sizeof(t->name), "dragonfly:p=%d,a=%d,h=%d", p, a, h);
	t->group = malloc(sizeof(int) * nsw);
	if (!t->group) {
		spritz_topo_free(t);
		return -ENOMEM;
	}
	t->ngroups = (int)g;
	for (s = 0; s < nsw; s++) {
		int G = s / a, i = s % a, j, l;
		uint32_t o = (uint32_t)s * deg;

		t->group[s] = G;
		t->hosts[s] = p;
		t->port_off[s] = o;
		for (j = 0; j < a; j++) {
			if (j == i)
				continue;
			t->port_nbr[o] = G * a + j;
			t->port_type[o++] = SPRITZ_LINK_LOCAL;
		}
		for (l = 0; l < h; l++) {
			long G2 = (G + (long)i * h + l + 1) % g;

			t->port_nbr[o] = (int)(G2 * a + (a - 1 - i));
			t->port_type[o++] = SPRITZ_LINK_GLOBAL;
		}
	}
	t->port_off[nsw] = (uint32_t)(nsw * deg);
	ret = spritz_topo_finish(t, err, errlen);
	if (ret) {
		spritz_topo_free(t);
		return ret;
	}
	*out = t;
	return 0;
}
