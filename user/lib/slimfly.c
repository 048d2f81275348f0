// SPDX-License-Identifier: GPL-2.0-only
/*
 * Slim Fly(q, p): the McKay-Miller-Siran (MMS) graph over GF(q) (paper
 * §II-A; Besta and Hoefler, SC'14; reference facts), p hosts per switch.
 *
 * q = 4w + delta, delta in {-1, 0, 1}, a prime power; 2q^2 switches of
 * network degree k = (3q - delta)/2.  Vertices (0,x,y) and (1,m,c) with
 * x, y, m, c in GF(q); xi is a primitive element.
 *	(0,x,y) ~ (0,x,y')  iff y - y' in X
 *	(1,m,c) ~ (1,m,c')  iff c - c' in X'
 *	(0,x,y) ~ (1,m,c)   iff y = m*x + c
 * delta = 1:  X = {xi^0, xi^2, ..., xi^(q-3)}, X' = {xi^1, xi^3, ..., xi^(q-2)}
 * delta = -1: X = {xi^0, xi^2, ..., xi^(2w-2)} u {xi^(2w-1), ..., xi^(4w-3)},
 *             X' = {xi^1, ..., xi^(2w-1)} u {xi^(2w), ..., xi^(4w-2)}
 * delta = 0 (q = 2^j) is rejected: the reference's "even/odd powers" sets
 * do not give a regular graph of degree 3q/2 (see Documentation/paths.rst).
 *
 * GF(q) for q = prime^k: elements are 0..q-1, read as base-prime digit
 * vectors (digit i = coefficient of x^i); addition is digit-wise, and
 * multiplication is polynomial multiplication modulo the first monic
 * degree-k polynomial (in increasing integer encoding) for which x has
 * multiplicative order q-1 (a primitive polynomial; xi = x).  For k = 1
 * the field is Z/q and xi is the smallest primitive root.  GF(9) thus uses
 * x^2 + x + 2 ... whichever primitive polynomial comes first; only the
 * graph's isomorphism class matters.
 *
 * Switch ids: (s,x,y) -> s*q*q + x*q + y (x, y as integers 0..q-1).  A
 * "group" (for local/global latency, reference facts) is the q consecutive
 * ids sharing (s,x): the intra-group links are the X / X' links (local),
 * the (0,x,y)~(1,m,c) links are global.  Canonical port order: ascending
 * neighbour id.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spritz_err.h"
#include "topo.h"


/* prime and exponent of q if it is a prime power, else 0. */
int spritz_prime_power(int q, int *prime, int *k)
{
	int d, e = 0;

	if (q < 2)
		return 0;
	for (d = 2; d * d <= q; d++)
		if (q % d == 0)
			break;
	if (d * d > q)
		d = q;
	while (q % d == 0) {
		q /= d;
		e++;
	}
	if (q != 1)
		return 0;
	*prime = d;
	*k = e;
	return 1;
}

/* Multiply polynomials a*b mod the monic f (coefficients of x^0..x^(k-1)). */
static int poly_mul(int a, int b, int p, int k, const int *f)
{
	int ca[8] = { 0 }, cb[8] = { 0 }, r[16] = { 0 }, i, j, v = 0;

	for (i = 0; i < k; i++, a /= p, b /= p) {
		ca[i] = a % p;
		cb[i] = b % p;
	}
	for (i = 0; i < k; i++)
		for (j = 0; j < k; j++)
			r[i + j] = (r[i + j] + ca[i] * cb[j]) % p;
	/* x^k = -(f_0 + f_1 x + ... + f_(k-1) x^(k-1)) */
	for (i = 2 * k - 2; i >= k; i--) {
		int c = r[i];

		r[i] = 0;
		for (j = 0; j < k; j++)
			r[i - k + j] = ((r[i - k + j] - c * f[j]) % p + p) % p;
	}
	for (i = k - 1; i >= 0; i--)
		v = v * p + r[i];
	return v;
}

/* Build GF(q); -EINVAL if q is not a prime power in 2..255. */
int spritz_gf_init(struct spritz_gf *F, int q)
{
	int p, k, a, b, code, f[8];

	if (q < 2 || q > 255 || !spritz_prime_power(q, &p, &k))
		return -EINVAL;
	memset(F, 0, sizeof(*F));
	F->q = q;
	F->prime = p;
	F->k = k;
	for (a = 0; a < q; a++)
		for (b = 0; b < q; b++) {
			int x = a, y = b, v = 0, m = 1, i;

			for (i = 0; i < k; i++, x /= p, y /= p, m *= p)
				v += ((x % p + y % p) % p) * m;
			F->add[a][b] = (uint8_t)v;
		}
	for (a = 0; a < q; a++)
		for (b = 0; b < q; b++)
			if (F->add[a][b] == 0)
				F->neg[a] = (uint8_t)b;
	/* first monic f (by code) in which x (or, for k = 1, some g) is primitive */
	for (code = 0; code < q; code++) {
		int c = code, i, g, e, cand_lo = k == 1 ? 2 : p, cand_hi = k == 1 ? q - 1 : p;

		for (i = 0; i < k; i++, c /= p)
			f[i] = c % p;
		if (k == 1 && code)
			break;
		if (k == 1)
			f[0] = 0; /* reduction is a no-op for degree 1 below */
		if (q == 2)
			cand_lo = cand_hi = 1;
		for (g = cand_lo; g <= cand_hi; g++) {
			int v = 1;

			for (e = 1; e < q; e++) {
				v = k == 1 ? (v * g) % p : poly_mul(v, g, p, k, f);
				if (v == 1)
					break;
			}
			if (e == q - 1) {
				F->xi = g;
				goto found;
			}
		}
	}
	return -EINVAL;
found:
	for (a = 0; a < q; a++)
		for (b = 0; b < q; b++)
			F->mul[a][b] = (uint8_t)(k == 1 ? (a * b) % p : poly_mul(a, b, p, k, f));
	return 0;
}

/* delta of q = 4w + delta, or 2 if q is not of that form. */
static int sf_delta(int q)
{
	switch (q % 4) {
	case 1:
		return 1;
	case 3:
		return -1;
	case 0:
		return 0;
	}
	return 2;
}

/* Slim Fly network degree k = (3q - delta)/2, or -EINVAL if q is not allowed. */
int spritz_slimfly_degree(int q)
{
	int p, k, d = sf_delta(q);

	if (q < 3 || q > 255 || !spritz_prime_power(q, &p, &k) || (d != 1 && d != -1))
		return -EINVAL;
	return (3 * q - d) / 2;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* Slim Fly's parameters: q a prime power 4w +- 1 below 256, p >= 0, ports within an EV. */
static int sf_check(int q, int p, char *err, size_t errlen)
{
	int pr, kk, delta, deg;

	if (q < 2 || q > 255 || !spritz_prime_power(q, &pr, &kk)) {
		spritz_seterr(err, errlen, "q = %d is not a prime power below 256", q);
		return -EINVAL;
	}
	delta = sf_delta(q);
	if (delta != 1 && delta != -1) {
		spritz_seterr(err, errlen, "q = %d: only q = 4w +- 1 is supported (q = 2 and q = 4w are not)", q);
		return -EINVAL;
	}
	if (p < 0) {
		spritz_seterr(err, errlen, "slimfly needs p >= 0");
		return -EINVAL;
	}
	deg = spritz_slimfly_degree(q);
	if (deg > SPRITZ_MAX_NET_PORTS) {
		spritz_seterr(err, errlen, "q = %d gives %d network ports, EVs address at most %d", q, deg,
		     SPRITZ_MAX_NET_PORTS);
		return -EINVAL;
	}
	return 0;
}

/* The generator sets X (subgraph 0) and X' (subgraph 1) as membership tables. */
static int sf_generators(const struct spritz_gf *F, int q, uint8_t *inX, uint8_t *inXp,
			 char *err, size_t errlen)
{
	int delta = sf_delta(q), w = (q - delta) / 4, e, v;
	uint8_t pw[256];

	/* pw[e] = xi^e for e = 0..255; exponents like 4w-2 = q-1 wrap to xi^0 */
	pw[0] = 1;
	for (e = 1; e < 256; e++)
		pw[e] = F->mul[pw[e - 1]][F->xi];
	if (delta == 1) {
		for (e = 0; e <= q - 3; e += 2)
			inX[pw[e]] = 1;
		for (e = 1; e <= q - 2; e += 2)
			inXp[pw[e]] = 1;
	} else {
		for (e = 0; e <= 2 * w - 2; e += 2)
			inX[pw[e]] = 1;
		for (e = 2 * w - 1; e <= 4 * w - 3; e += 2)
			inX[pw[e]] = 1;
		for (e = 1; e <= 2 * w - 1; e += 2)
			inXp[pw[e]] = 1;
		for (e = 2 * w; e <= 4 * w - 2; e += 2)
			inXp[pw[e]] = 1;
	}
	for (v = 1; v < q; v++)
		if (inX[v] != inX[F->neg[v]] || inXp[v] != inXp[F->neg[v]]) {
			spritz_seterr(err, errlen, "q = %d: generator sets are not symmetric", q);
			return -EINVAL;
		}
	return 0;
}

/* Switch @v's ports: its group's neighbours, then the other subgraph's, sorted. */
static int sf_wire(struct spritz_topo *t, const struct spritz_gf *F, const uint8_t *inX,
		   const uint8_t *inXp, int v, int deg, char *err, size_t errlen)
{
	int q = t->q, qq = q * q, s = v / qq, x = (v / q) % q, y = v % q, n = 0, z, i;
	uint32_t o = (uint32_t)v * deg;
	int *nb = t->port_nbr + o;

	t->group[v] = v / q;
	t->hosts[v] = t->p;
	t->port_off[v] = o;
	for (z = 1; z < q; z++) {
		/* same group: y - y' in X (or c - c' in X') */
		if (!(s ? inXp : inX)[z])
			continue;
		if (n < deg)
			nb[n] = s * qq + x * q + F->add[y][F->neg[z]];
		n++;
	}
	for (z = 0; z < q; z++) {
		if (n >= deg) {
			n++;
			continue;
		}
		if (s == 0) /* (0,x,y) ~ (1,m=z, c = y - m x) */
			nb[n] = qq + z * q + F->add[y][F->neg[F->mul[z][x]]];
		else        /* (1,m=x,c=y) ~ (0,x'=z, m x' + c) */
			nb[n] = z * q + F->add[F->mul[x][z]][y];
		n++;
	}
	if (n != deg) {
		spritz_seterr(err, errlen, "q = %d: switch %d has degree %d, expected %d", q, v, n, deg);
		return -EINVAL;
	}
	qsort(nb, deg, sizeof(int), cmp_int);
	for (i = 0; i < deg; i++)
		t->port_type[o + i] = nb[i] / q == v / q ? SPRITZ_LINK_LOCAL : SPRITZ_LINK_GLOBAL;
	return 0;
}

/* Build Slim Fly(q, p). */
int spritz_slimfly(int q, int p, struct spritz_topo **out, char *err, size_t errlen)
{
	struct spritz_topo *t = NULL;
	uint8_t inX[256] = { 0 }, inXp[256] = { 0 };
	int deg, nsw, v, ret;
	struct spritz_gf *F;

	ret = sf_check(q, p, err, errlen);
	if (ret)
		return ret;
	deg = spritz_slimfly_degree(q);
	nsw = 2 * q * q;
	F = malloc(sizeof(*F));
	if (!F)
		return -ENOMEM;
	spritz_gf_init(F, q);
	ret = sf_generators(F, q, inX, inXp, err, errlen);
	if (ret)
		goto fail;
	ret = -ENOMEM;
	t = spritz_topo_alloc(nsw, (size_t)nsw * deg);
	if (!t)
		goto fail;
	t->kind = SPRITZ_TOPO_SLIMFLY;
	t->policy = SPRITZ_POLICY_GENERIC;
	t->q = q;
	t->p = p;
	t->bound = (struct spritz_bound){ SPRITZ_SF_MAX_HOPS, -1, -1 };
	snprintf(t->name, sizeof(t->name), "slimfly:q=%d,p=%d", q, p);
	t->group = malloc(sizeof(int) * nsw);
	if (!t->group)
		goto fail;
	t->ngroups = 2 * q;
	for (v = 0, ret = 0; v < nsw && !ret; v++)
		ret = sf_wire(t, F, inX, inXp, v, deg, err, errlen);
	if (ret)
		goto fail;
	t->port_off[nsw] = (uint32_t)nsw * deg;
	free(F);
	F = NULL;
	ret = spritz_topo_finish(t, err, errlen);
	if (ret)
		goto fail;
	*out = t;
	return 0;
fail:
	free(F);
	spritz_topo_free(t);
	return ret;
}
