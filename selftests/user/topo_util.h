/* SPDX-License-Identifier: GPL-2.0-only */
/* Helpers shared by the libspritz unit tests. */
#ifndef SPRITZ_TOPO_UTIL_H
#define SPRITZ_TOPO_UTIL_H

#include "test.h"
#include "topo.h"

/* Parse a TOPO string; a failure is an assertion failure (with the reason). */
static inline struct spritz_topo *load(const char *spec)
{
	struct spritz_topo *t = NULL;
	char err[256] = "";
	int ret = spritz_topo_parse(spec, &t, err, sizeof(err));

	if (!ASSERT_OK(ret, spec))
		printf("# %s\n", err);
	return ret ? NULL : t;
}

#endif /* SPRITZ_TOPO_UTIL_H */
