/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers for the tests of spritz.ko (selftests/bpf/prog_tests/): knob
 * access through libspritz (spritz_knobs.h), table building and loading through
 * libspritz's netlink client, and the chi-square critical value.
 */
#ifndef SPRITZ_KMOD_UTIL_H
#define SPRITZ_KMOD_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <spritz/abi.h>
#include <spritz/knobs.h> /* before any skeleton: struct spritz_knob_values */
#include <spritz/netlink.h>

#include "spritz_knobs.h"
#include "spritz_nl.h"

/* /sys/kernel/spritz/@name as a number (-1 on error): libspritz's knob I/O. */
static inline long long knob_get(const char *name)
{
	long long v;

	return spritz_knob_get(name, &v) ? -1 : v;
}

/*
 * Write @val to /sys/kernel/spritz/@name as it is (no range check here: the
 * tests also write values the module must refuse); 0 or -errno.
 */
static inline int knob_set(const char *name, long long val)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", val);
	return spritz_sysfs_write(name, buf);
}

/* Monotonic time in ms. */
static inline double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/*
 * Upper critical value of chi-square with @k degrees of freedom for the
 * standard normal quantile @z (Wilson-Hilferty; within ~1 % for k >= 3).
 * z = 3.7190 is the 1 - 1e-4 quantile: a correct sampler fails 1 in 10^4.
 */
static inline double chi2_crit(int k, double z)
{
	double a = 2.0 / (9.0 * k);

	return k * pow(1.0 - a + z * sqrt(a), 3);
}

#define CHI2_Z_1E4 3.7190

/* Chi-square statistic of @obs against probabilities @p over @n picks. */
static inline double chi2_stat(const double *obs, const double *p, int k, double n)
{
	double s = 0;
	int i;

	for (i = 0; i < k; i++) {
		double e = p[i] * n;

		s += (obs[i] - e) * (obs[i] - e) / e;
	}
	return s;
}

/* Fixed-point Eq. 1 weight lat_longest / lat (SPRITZ_WEIGHT_ONE = 1.0). */
static inline uint32_t eq1_weight(double lat_longest, double lat)
{
	return (uint32_t)(lat_longest / lat * SPRITZ_WEIGHT_ONE + 0.5);
}

/* Find the path with @ev in @d, or NULL. */
static inline const struct spritz_nl_path *find_ev(const struct spritz_nl_dest *d, uint16_t ev)
{
	uint32_t i;

	for (i = 0; i < d->npaths; i++)
		if (d->paths[i].ev == ev)
			return &d->paths[i];
	return NULL;
}

/* Dump collector: a copy of every destination (free with dump_free()). */
struct dump_copy {
	struct spritz_nl_dest d[64];
	int n;
};

static inline int dump_copy_cb(const struct spritz_nl_dest *d, void *arg)
{
	struct dump_copy *c = arg;
	struct spritz_nl_dest *o;

	if (c->n >= 64)
		return -ENOSPC;
	o = &c->d[c->n++];
	*o = *d;
	o->paths = malloc(d->npaths * sizeof(*d->paths));
	if (!o->paths)
		return -ENOMEM;
	memcpy(o->paths, d->paths, d->npaths * sizeof(*d->paths));
	return 0;
}

static inline void dump_copy_free(struct dump_copy *c)
{
	while (c->n > 0)
		free(c->d[--c->n].paths);
}

/* Dump the live table into @c (reset first); 0 or -errno. */
static inline int dump_table(struct spritz_nl *nl, struct dump_copy *c)
{
	char err[256];
	int e;

	dump_copy_free(c);
	e = spritz_nl_dump(nl, SPRITZ_NL_ALL, dump_copy_cb, c, err, sizeof(err));
	if (e)
		printf("# dump: %s\n", err);
	return e;
}

/* The dumped list of @dst, or NULL. */
static inline const struct spritz_nl_dest *dump_dest(const struct dump_copy *c, uint32_t dst)
{
	int i;

	for (i = 0; i < c->n; i++)
		if (c->d[i].dst == dst)
			return &c->d[i];
	return NULL;
}

/* A copy of path @ev of @dst in the live table: 0, -errno, or -ENOENT. */
static inline int dump_path(struct spritz_nl *nl, uint32_t dst, uint16_t ev,
			    struct spritz_nl_path *out)
{
	struct dump_copy c = { 0 };
	const struct spritz_nl_dest *d;
	const struct spritz_nl_path *p;
	int e = dump_table(nl, &c);

	if (!e) {
		d = dump_dest(&c, dst);
		p = d ? find_ev(d, ev) : NULL;
		if (p)
			*out = *p;
		else
			e = -ENOENT;
	}
	dump_copy_free(&c);
	return e;
}

#endif /* SPRITZ_KMOD_UTIL_H */
