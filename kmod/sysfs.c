// SPDX-License-Identifier: GPL-2.0-only
/*
 * /sys/kernel/spritz/: one value per file, documented in
 * Documentation/ABI/testing/sysfs-kernel-spritz.
 *
 * The numeric knobs are generated from SPRITZ_KNOBS() (include/spritz/
 * knobs.h: name, default, range; defaults from the Spritz paper's Table II
 * and §V, the authors' artifact, or chosen for Linux).  "algorithm" takes
 * one of SPRITZ_ALGO_NAMES; "tables", "paths", "staging", "staging_bytes"
 * and "version" are read-only.
 *
 * Writes parse strictly: decimal digits and at most one trailing newline;
 * anything else, or a value out of range, is -EINVAL and changes nothing.
 * The datapath reads the values with READ_ONCE() (spritz_knob()); a change
 * of a knob that shapes the weights (weighted, w_scale, min_bias_factor,
 * small_flow_weight) queues a sampler rebuild, off the packet path.
 */
#include <linux/kernel.h>
#include <linux/kobject.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "spritz.h"

struct spritz_knob_values spritz_knobs = {
	.algorithm = SPRITZ_ALGO_DEFAULT,
#define SPRITZ_KNOB_INIT(name, def, min, max) .name = (def),
	SPRITZ_KNOBS(SPRITZ_KNOB_INIT)
#undef SPRITZ_KNOB_INIT
};

/* Serialises knob writers (readers need no lock). */
static DEFINE_MUTEX(spritz_knob_lock);
static struct kobject *spritz_kobj;
static const char *const spritz_algo_names[] = SPRITZ_ALGO_NAMES;

/* A numeric knob file: where its value lives and what it accepts. */
struct spritz_knob_attr {
	struct kobj_attribute attr;
	u32 *val;
	u32 min, max;
	bool reweights; /* a change invalidates the samplers */
};

#define to_knob(a) container_of(a, struct spritz_knob_attr, attr)

/* Knobs that enter the sampler weights (design-kmod.rst, "Weights"). */
static bool spritz_knob_reweights(const char *name)
{
	return !strcmp(name, "weighted") || !strcmp(name, "w_scale") ||
	       !strcmp(name, "min_bias_factor") || !strcmp(name, "small_flow_weight");
}

/* Parse a decimal u32: digits, then at most one '\n'; nothing else. */
static int spritz_parse_u32(const char *buf, size_t count, u32 *out)
{
	char tmp[16];
	size_t len = count, i;

	if (len && buf[len - 1] == '\n')
		len--;
	if (!len || len >= sizeof(tmp))
		return -EINVAL;
	memcpy(tmp, buf, len);
	tmp[len] = '\0';
	/* kstrtou32 would take a leading '+' or a '\n'; a value is digits */
	for (i = 0; i < len; i++)
		if (tmp[i] < '0' || tmp[i] > '9')
			return -EINVAL;
	if (kstrtou32(tmp, 10, out))
		return -EINVAL; /* also -ERANGE: overflow is malformed input */
	return 0;
}

/* Show a numeric knob. */
static ssize_t knob_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(*to_knob(attr)->val));
}

/* Store a numeric knob after validating it against its range. */
static ssize_t knob_store(struct kobject *kobj, struct kobj_attribute *attr, const char *buf,
			  size_t count)
{
	struct spritz_knob_attr *k = to_knob(attr);
	bool changed;
	u32 v;

	if (spritz_parse_u32(buf, count, &v) || v < k->min || v > k->max)
		return -EINVAL;
	mutex_lock(&spritz_knob_lock);
	changed = READ_ONCE(*k->val) != v;
	WRITE_ONCE(*k->val, v);
	mutex_unlock(&spritz_knob_lock);
	if (changed && k->reweights)
		spritz_tables_knobs_changed();
	return count;
}

#define SPRITZ_KNOB_ATTR(name, def, lo, hi)                                          \
	static struct spritz_knob_attr knob_##name = {                               \
		.attr = __ATTR(name, 0644, knob_show, knob_store),                   \
		.val = &spritz_knobs.name,                                           \
		.min = (lo),                                                         \
		.max = (hi),                                                         \
	};
SPRITZ_KNOBS(SPRITZ_KNOB_ATTR)
#undef SPRITZ_KNOB_ATTR

/* algorithm: one of SPRITZ_ALGO_NAMES */
static ssize_t algorithm_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	u32 a = READ_ONCE(spritz_knobs.algorithm);

	return sysfs_emit(buf, "%s\n", a < ARRAY_SIZE(spritz_algo_names) ?
					       spritz_algo_names[a] : "?");
}

static ssize_t algorithm_store(struct kobject *kobj, struct kobj_attribute *attr,
			       const char *buf, size_t count)
{
	u32 i;

	/* sysfs_streq: exact match, one trailing newline allowed */
	for (i = 0; i < ARRAY_SIZE(spritz_algo_names); i++) {
		if (sysfs_streq(buf, spritz_algo_names[i])) {
			mutex_lock(&spritz_knob_lock);
			WRITE_ONCE(spritz_knobs.algorithm, i);
			mutex_unlock(&spritz_knob_lock);
			return count;
		}
	}
	return -EINVAL;
}
static struct kobj_attribute algorithm_attr = __ATTR_RW(algorithm);

/* tables: destination lists over all live endpoint tables */
static ssize_t tables_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	u32 nd, np;

	spritz_tables_count(&nd, &np);
	return sysfs_emit(buf, "%u\n", nd);
}
static struct kobj_attribute tables_attr = __ATTR_RO(tables);

/* paths: EV entries over all lists of all live endpoint tables */
static ssize_t paths_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	u32 nd, np;

	spritz_tables_count(&nd, &np);
	return sysfs_emit(buf, "%u\n", np);
}
static struct kobj_attribute paths_attr = __ATTR_RO(paths);

/* floor_enables: disabled paths a timeout brought back (min_enabled_pct) */
static ssize_t floor_enables_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lld\n", (long long)atomic64_read(&spritz_floor_enables));
}
static struct kobj_attribute floor_enables_attr = __ATTR_RO(floor_enables);

/* staging: staging tables of open transactions, over all sockets */
static ssize_t staging_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	u64 bytes;
	u32 n;

	spritz_staging_count(&n, &bytes);
	return sysfs_emit(buf, "%u\n", n);
}
static struct kobj_attribute staging_attr = __ATTR_RO(staging);

/* staging_bytes: their memory, as counted against SPRITZ_MAX_TOTAL_BYTES */
static ssize_t staging_bytes_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	u64 bytes;
	u32 n;

	spritz_staging_count(&n, &bytes);
	return sysfs_emit(buf, "%llu\n", bytes);
}
static struct kobj_attribute staging_bytes_attr = __ATTR_RO(staging_bytes);

/* version: the module's release, read-only */
static ssize_t version_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", SPRITZ_VERSION);
}
static struct kobj_attribute version_attr = __ATTR_RO(version);

static struct attribute *spritz_attrs[] = {
	&algorithm_attr.attr,
#define SPRITZ_KNOB_PTR(name, def, min, max) &knob_##name.attr.attr,
	SPRITZ_KNOBS(SPRITZ_KNOB_PTR)
#undef SPRITZ_KNOB_PTR
	&tables_attr.attr,
	&paths_attr.attr,
	&floor_enables_attr.attr,
	&staging_attr.attr,
	&staging_bytes_attr.attr,
	&version_attr.attr,
	NULL,
};

static const struct attribute_group spritz_attr_group = {
	.attrs = spritz_attrs,
};

/* Create /sys/kernel/spritz and its files. */
int spritz_sysfs_init(void)
{
	int err;

#define SPRITZ_KNOB_FLAG(name, def, min, max) \
	knob_##name.reweights = spritz_knob_reweights(#name);
	SPRITZ_KNOBS(SPRITZ_KNOB_FLAG)
#undef SPRITZ_KNOB_FLAG

	spritz_kobj = kobject_create_and_add(SPRITZ_MODULE_NAME, kernel_kobj);
	if (!spritz_kobj)
		return -ENOMEM;
	err = sysfs_create_group(spritz_kobj, &spritz_attr_group);
	if (err)
		goto out_put;
	return 0;

out_put:
	kobject_put(spritz_kobj);
	spritz_kobj = NULL;
	return err;
}

/* Remove /sys/kernel/spritz (waits for running show/store calls). */
void spritz_sysfs_exit(void)
{
	if (!spritz_kobj)
		return;
	sysfs_remove_group(spritz_kobj, &spritz_attr_group);
	kobject_put(spritz_kobj);
	spritz_kobj = NULL;
}
