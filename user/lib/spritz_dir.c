// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host directory sources: address plans and hosts files (spritz_dir.h).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spritz/maps.h>

#include "spritz_dir.h"
#include "spritz_err.h"

#define HOSTS_LINE_MAX 512

static const uint8_t v4_mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

int spritz_dir_list_push(struct spritz_dir_list *l, const struct spritz_dir_entry *e)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		void *p = realloc(l->e, cap * sizeof(*l->e));

		if (!p)
			return -ENOMEM;
		l->e = p;
		l->cap = cap;
	}
	l->e[l->n++] = *e;
	return 0;
}

void spritz_dir_free(struct spritz_dir_list *l)
{
	free(l->e);
	memset(l, 0, sizeof(*l));
}

/* Decimal 0..max, digits only; -1 otherwise. */
static long parse_dec(const char *s, long max)
{
	long v = 0;

	if (!*s || strlen(s) > 9)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (*s - '0');
	}
	return v <= max ? v : -1;
}

static bool host_bits_zero(const uint8_t a[16], uint32_t plen)
{
	uint32_t bit;

	for (bit = plen; bit < 128; bit++)
		if (a[bit / 8] & (0x80 >> (bit % 8)))
			return false;
	return true;
}

int spritz_plan_parse(const char *s, struct spritz_plan *p, char *err, size_t errlen)
{
	struct spritz_plan np;
	char buf[64], *slash;
	uint32_t bit;
	long l;

	if (snprintf(buf, sizeof(buf), "%s", s) >= (int)sizeof(buf))
		goto bad;
	slash = strchr(buf, '/');
	if (!slash)
		goto bad;
	*slash = '\0';
	l = parse_dec(slash + 1, 48);
	if (l < 0 || inet_pton(AF_INET6, buf, np.prefix) != 1)
		goto bad;
	np.plen = (int)l;
	if (!host_bits_zero(np.prefix, (uint32_t)np.plen)) {
		/* as a hosts file refuses it; say which prefix was meant */
		for (bit = (uint32_t)np.plen; bit < 128; bit++)
			np.prefix[bit / 8] &= (uint8_t)~(0x80 >> (bit % 8));
		spritz_dir_format(np.prefix, (uint32_t)np.plen, buf, sizeof(buf));
		spritz_seterr(err, errlen, "bits set past the prefix length (%s has none)", buf);
		return -EINVAL;
	}
	*p = np;
	return 0;
bad:
	spritz_seterr(err, errlen, "expected an IPv6 PREFIX/L with L <= 48, e.g. fd00::/16");
	return -EINVAL;
}

/* Move @from into @to, freeing what @to held. */
static void dir_replace(struct spritz_dir_list *to, struct spritz_dir_list *from)
{
	spritz_dir_free(to);
	*to = *from;
	memset(from, 0, sizeof(*from));
}

int spritz_plan_entries(const struct spritz_plan *p, uint32_t nsw, struct spritz_dir_list *out)
{
	struct spritz_dir_list l = { 0 };
	uint32_t s;
	int bit, i, err;

	if (nsw > SPRITZ_DIR_MAX || p->plen < 0 || p->plen > 48)
		return -ERANGE;
	for (s = 0; s < nsw; s++) {
		struct spritz_dir_entry e = { .prefixlen = 64, .sw = s };

		for (bit = 0; bit < p->plen; bit++)
			if (p->prefix[bit / 8] & (0x80 >> (bit % 8)))
				e.addr[bit / 8] |= (uint8_t)(0x80 >> (bit % 8));
		for (i = 0; i < 16; i++) {
			bit = p->plen + i;
			if (s & (0x8000U >> i))
				e.addr[bit / 8] |= (uint8_t)(0x80 >> (bit % 8));
		}
		err = spritz_dir_list_push(&l, &e);
		if (err) {
			spritz_dir_free(&l);
			return err;
		}
	}
	spritz_dir_sort(&l);
	dir_replace(out, &l);
	return 0;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct spritz_dir_entry *x = a, *y = b;
	int c;

	if (x->prefixlen != y->prefixlen)
		return x->prefixlen < y->prefixlen ? -1 : 1;
	c = memcmp(x->addr, y->addr, 16);
	if (c)
		return c;
	/* equal prefixes (duplicates): file order */
	return x->line < y->line ? -1 : x->line > y->line;
}

void spritz_dir_sort(struct spritz_dir_list *l)
{
	if (l->n > 1)
		qsort(l->e, l->n, sizeof(*l->e), cmp_entry);
}

const struct spritz_dir_entry *spritz_dir_find(const struct spritz_dir_list *l,
					       const uint8_t addr[16], uint32_t prefixlen)
{
	size_t lo = 0, hi = l->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct spritz_dir_entry *e = &l->e[mid];
		int c = e->prefixlen != prefixlen ? (e->prefixlen < prefixlen ? -1 : 1) :
						    memcmp(e->addr, addr, 16);

		if (!c)
			return e;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void spritz_dir_format(const uint8_t addr[16], uint32_t prefixlen, char *buf, size_t len)
{
	char a[INET6_ADDRSTRLEN];

	if (prefixlen >= 96 && !memcmp(addr, v4_mapped, sizeof(v4_mapped))) {
		inet_ntop(AF_INET, addr + 12, a, sizeof(a));
		snprintf(buf, len, "%s/%u", a, prefixlen - 96);
		return;
	}
	inet_ntop(AF_INET6, addr, a, sizeof(a));
	snprintf(buf, len, "%s/%u", a, prefixlen);
}

/* One non-empty line (comment stripped) into @e; message in @why on error. */
static int parse_line(char *s, uint32_t nsw, struct spritz_dir_entry *e, char *why, size_t wlen)
{
	char *tok[2], *c, *save = NULL, *slash;
	long plen = -1, sw;
	bool v4;
	int n = 0;

	for (c = strtok_r(s, " \t\r", &save); c; c = strtok_r(NULL, " \t\r", &save)) {
		if (n == (int)(ARRAY_SIZE(tok))) {
			n++;
			break;
		}
		tok[n++] = c;
	}
	if (n != 2) {
		snprintf(why, wlen, "expected \"ADDRESS[/PREFIXLEN] SWITCH\"");
		return -EINVAL;
	}
	slash = strchr(tok[0], '/');
	if (slash) {
		*slash = '\0';
		plen = parse_dec(slash + 1, 128);
		if (plen < 0) {
			snprintf(why, wlen, "invalid prefix length \"%s\"", slash + 1);
			return -EINVAL;
		}
	}
	memset(e, 0, sizeof(*e));
	v4 = !strchr(tok[0], ':');
	if (v4) {
		if (inet_pton(AF_INET, tok[0], e->addr + 12) != 1) {
			snprintf(why, wlen, "invalid IPv4 address \"%s\"", tok[0]);
			return -EINVAL;
		}
		if (plen > 32) {
			snprintf(why, wlen, "prefix length %ld out of range for IPv4 (0..32)",
				 plen);
			return -EINVAL;
		}
		memcpy(e->addr, v4_mapped, sizeof(v4_mapped));
		e->prefixlen = 96 + (uint32_t)(plen < 0 ? 32 : plen);
	} else {
		if (inet_pton(AF_INET6, tok[0], e->addr) != 1) {
			snprintf(why, wlen, "invalid IPv6 address \"%s\"", tok[0]);
			return -EINVAL;
		}
		e->prefixlen = (uint32_t)(plen < 0 ? 128 : plen);
	}
	if (!host_bits_zero(e->addr, e->prefixlen)) {
		snprintf(why, wlen, "%s/%ld has bits set past the prefix length", tok[0],
			 v4 ? (long)e->prefixlen - 96 : (long)e->prefixlen);
		return -EINVAL;
	}
	sw = parse_dec(tok[1], 65535);
	if (sw < 0) {
		snprintf(why, wlen, "invalid switch id \"%s\"", tok[1]);
		return -EINVAL;
	}
	if ((uint32_t)sw >= nsw) {
		snprintf(why, wlen, "switch %ld out of range (topology has %u switches, 0..%u)", sw,
			 nsw, nsw - 1);
		return -EINVAL;
	}
	e->sw = (uint32_t)sw;
	return 0;
}

/* Read a hosts file from @f (named @path in messages) into @out. */
static int hosts_read(FILE *f, const char *path, uint32_t nsw, struct spritz_dir_list *out,
		      char *err, size_t errlen)
{
	struct spritz_dir_list l = { 0 };
	char *line = NULL, why[192];
	uint32_t lineno = 0;
	size_t cap = 0, i;
	ssize_t len;
	int ret = 0;

	while ((len = getline(&line, &cap, f)) >= 0) {
		struct spritz_dir_entry e;
		char *hash;

		lineno++;
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (len > HOSTS_LINE_MAX) {
			spritz_seterr(err, errlen, "%s:%u: line longer than %d characters", path, lineno,
				HOSTS_LINE_MAX);
			ret = -EINVAL;
			goto out;
		}
		if (memchr(line, '\0', (size_t)len)) {
			spritz_seterr(err, errlen, "%s:%u: NUL byte (not a text file)", path, lineno);
			ret = -EINVAL;
			goto out;
		}
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		if (line[strspn(line, " \t\r")] == '\0')
			continue;
		ret = parse_line(line, nsw, &e, why, sizeof(why));
		if (ret) {
			spritz_seterr(err, errlen, "%s:%u: %s", path, lineno, why);
			goto out;
		}
		if (l.n == SPRITZ_DIR_MAX) {
			spritz_seterr(err, errlen, "%s:%u: more than %d entries", path, lineno,
				SPRITZ_DIR_MAX);
			ret = -EINVAL;
			goto out;
		}
		e.line = lineno;
		ret = spritz_dir_list_push(&l, &e);
		if (ret) {
			spritz_seterr(err, errlen, "%s: %s", path, strerror(-ret));
			goto out;
		}
	}
	if (ferror(f)) {
		ret = -EIO;
		spritz_seterr(err, errlen, "%s: read error", path);
		goto out;
	}
	if (!l.n) {
		spritz_seterr(err, errlen, "%s: no entries", path);
		ret = -EINVAL;
		goto out;
	}
	spritz_dir_sort(&l);
	for (i = 1; i < l.n; i++) {
		const struct spritz_dir_entry *a = &l.e[i - 1], *b = &l.e[i];

		if (a->prefixlen == b->prefixlen && !memcmp(a->addr, b->addr, 16)) {
			spritz_seterr(err, errlen, "%s:%u: duplicate of line %u", path, b->line, a->line);
			ret = -EINVAL;
			goto out;
		}
	}
	dir_replace(out, &l);
out:
	free(line);
	spritz_dir_free(&l);
	return ret;
}

int spritz_hosts_load(const char *path, uint32_t nsw, struct spritz_dir_list *out, char *err,
		      size_t errlen)
{
	FILE *f = fopen(path, "re");
	int ret;

	if (!f) {
		ret = -errno;
		spritz_seterr(err, errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	ret = hosts_read(f, path, nsw, out, err, errlen);
	fclose(f);
	return ret;
}

int spritz_hosts_parse(const char *text, size_t len, const char *name, uint32_t nsw,
		       struct spritz_dir_list *out, char *err, size_t errlen)
{
	FILE *f;
	int ret;

	if (!len) {
		spritz_seterr(err, errlen, "%s: no entries", name);
		return -EINVAL;
	}
	f = fmemopen((void *)text, len, "r");
	if (!f) {
		ret = -errno;
		spritz_seterr(err, errlen, "%s: %s", name, strerror(-ret));
		return ret;
	}
	ret = hosts_read(f, name, nsw, out, err, errlen);
	fclose(f);
	return ret;
}
