// SPDX-License-Identifier: GPL-2.0-only
/*
 * /sys/kernel/spritz/: one value per file, documented in
 * Documentation/ABI/testing/sysfs-kernel-spritz.
 */
#include <linux/kobject.h>
#include <linux/sysfs.h>

#include "spritz.h"

static struct kobject *spritz_kobj;

/* version: the module's release, read-only */
static ssize_t version_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", SPRITZ_VERSION);
}
static struct kobj_attribute version_attr = __ATTR_RO(version);

static struct attribute *spritz_attrs[] = {
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

/* Remove /sys/kernel/spritz. */
void spritz_sysfs_exit(void)
{
	if (!spritz_kobj)
		return;
	sysfs_remove_group(spritz_kobj, &spritz_attr_group);
	kobject_put(spritz_kobj);
	spritz_kobj = NULL;
}
