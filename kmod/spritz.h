/* SPDX-License-Identifier: GPL-2.0-only */
/* Internal interfaces between the parts of spritz.ko. */
#ifndef _SPRITZ_KMOD_H
#define _SPRITZ_KMOD_H

#include <linux/kobject.h>

#include <spritz/abi.h>

/* sysfs.c: /sys/kernel/spritz/ */
int spritz_sysfs_init(void);
void spritz_sysfs_exit(void);

/* kfuncs.c: the kfunc set for SCHED_CLS programs */
int spritz_kfuncs_init(void);

#endif /* _SPRITZ_KMOD_H */
