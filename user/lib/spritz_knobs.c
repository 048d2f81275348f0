// SPDX-License-Identifier: GPL-2.0-only
/*
 * Knob I/O over sysfs, one table for every knob (spritz_knobs.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <spritz/abi.h>

#include "spritz_knobs.h"

const struct spritz_knob spritz_knobs[] = {
#define X(name, def, min, max) { #name, (def), (min), (max) },
	SPRITZ_KNOBS(X)
#undef X
};
const size_t spritz_nknobs = ARRAY_SIZE(spritz_knobs);

const char *const spritz_algo_names[] = SPRITZ_ALGO_NAMES;
const size_t spritz_nalgos = ARRAY_SIZE(spritz_algo_names);

/* every __ATTR_RO() of kmod/sysfs.c (test_steps.c checks) */
const char *const spritz_ro_files[] = { "tables",	       "paths",	  "floor_enables",
					 "staging",	       "staging_bytes", "version" };
const size_t spritz_nro_files = ARRAY_SIZE(spritz_ro_files);

_Static_assert(ARRAY_SIZE(spritz_knobs) <=
		       sizeof(((struct spritz_knob_snapshot *)0)->val) / sizeof(long long),
	       "struct spritz_knob_snapshot too small for SPRITZ_KNOBS()");

const struct spritz_knob *spritz_knob_find(const char *name)
{
	size_t i;

	for (i = 0; i < spritz_nknobs; i++)
		if (!strcmp(spritz_knobs[i].name, name))
			return &spritz_knobs[i];
	return NULL;
}

int spritz_algo_index(const char *name)
{
	size_t i;

	for (i = 0; i < spritz_nalgos; i++)
		if (!strcmp(spritz_algo_names[i], name))
			return (int)i;
	return -1;
}

bool spritz_knob_is_ro(const char *name)
{
	size_t i;

	for (i = 0; i < spritz_nro_files; i++)
		if (!strcmp(spritz_ro_files[i], name))
			return true;
	return false;
}

long long spritz_knob_parse(const char *s)
{
	unsigned long long v = 0;
	const char *p;

	if (!*s || strlen(s) > 12)
		return -1;
	for (p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		v = v * 10 + (unsigned long long)(*p - '0');
	}
	return (long long)v;
}

static int knob_path(char *buf, size_t len, const char *name)
{
	int n = snprintf(buf, len, SPRITZ_SYSFS_DIR "/%s", name);

	return n < 0 || (size_t)n >= len || strchr(name, '/') ? -EINVAL : 0;
}

int spritz_sysfs_read(const char *name, char *buf, size_t len)
{
	char path[256];
	ssize_t n;
	int fd, err;

	if (knob_path(path, sizeof(path), name) || len < 2)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	err = errno;
	close(fd);
	if (n < 0)
		return -err;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int spritz_sysfs_write(const char *name, const char *val)
{
	size_t len = strlen(val);
	char path[256];
	ssize_t n;
	int fd, err;

	if (knob_path(path, sizeof(path), name))
		return -EINVAL;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, val, len);
	err = errno;
	close(fd);
	if (n < 0)
		return -err;
	return (size_t)n == len ? 0 : -EIO;
}

int spritz_knob_get(const char *name, long long *val)
{
	char buf[64];
	int err = spritz_sysfs_read(name, buf, sizeof(buf));

	if (err)
		return err;
	*val = spritz_knob_parse(buf);
	return *val < 0 ? -EINVAL : 0;
}

int spritz_knob_set(const char *name, long long val)
{
	const struct spritz_knob *k = spritz_knob_find(name);
	char buf[32];

	if (k && (val < (long long)k->min || val > (long long)k->max))
		return -ERANGE;
	snprintf(buf, sizeof(buf), "%lld", val);
	return spritz_sysfs_write(name, buf);
}

int spritz_knobs_save(struct spritz_knob_snapshot *s)
{
	size_t i;
	int err = spritz_sysfs_read("algorithm", s->algorithm, sizeof(s->algorithm));

	for (i = 0; !err && i < spritz_nknobs; i++)
		err = spritz_knob_get(spritz_knobs[i].name, &s->val[i]);
	return err;
}

int spritz_knobs_restore(const struct spritz_knob_snapshot *s)
{
	struct spritz_knob_snapshot now;
	size_t i;
	int err = spritz_knobs_save(&now), e;

	if (err)
		return err;
	if (strcmp(now.algorithm, s->algorithm))
		err = spritz_sysfs_write("algorithm", s->algorithm);
	for (i = 0; i < spritz_nknobs; i++) {
		if (now.val[i] == s->val[i])
			continue;
		e = spritz_knob_set(spritz_knobs[i].name, s->val[i]);
		err = err ?: e;
	}
	return err;
}
