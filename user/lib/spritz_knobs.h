/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * libspritz: the runtime knobs of spritz.ko over sysfs (SPRITZ_SYSFS_DIR,
 * Documentation/ABI/testing/sysfs-kernel-spritz).
 *
 * Table-driven from include/spritz/knobs.h: every numeric knob of
 * SPRITZ_KNOBS() (name, default, range), the string knob "algorithm"
 * (SPRITZ_ALGO_NAMES) and the read-only files.  A knob added to the header
 * needs no code here.  0 or -errno (spritz_err.h); -ENOENT for a missing
 * file means the module is not loaded.
 */
#ifndef _SPRITZ_KNOBS_H_LIB
#define _SPRITZ_KNOBS_H_LIB

#include <stdbool.h>
#include <stddef.h>

#include <spritz/knobs.h>

struct spritz_knob {
	const char *name;
	unsigned long def, min, max;
};

extern const struct spritz_knob spritz_knobs[];
extern const size_t spritz_nknobs;
extern const char *const spritz_algo_names[];
extern const size_t spritz_nalgos;
/* Read-only files: tables, paths, staging, staging_bytes, version. */
extern const char *const spritz_ro_files[];
extern const size_t spritz_nro_files;

/* The numeric knob @name, or NULL. */
const struct spritz_knob *spritz_knob_find(const char *name);
/* Index of algorithm @name in SPRITZ_ALGO_NAMES, or -1. */
int spritz_algo_index(const char *name);
bool spritz_knob_is_ro(const char *name);

/* A decimal value, digits only (as the module accepts); -1 if malformed. */
long long spritz_knob_parse(const char *s);

/* SPRITZ_SYSFS_DIR/@name as text (trailing newline removed). */
int spritz_sysfs_read(const char *name, char *buf, size_t len);
/* Write @val; a short write is -EIO. */
int spritz_sysfs_write(const char *name, const char *val);

/* A numeric knob (or read-only counter) as a number. */
int spritz_knob_get(const char *name, long long *val);
/* A numeric knob; outside the range SPRITZ_KNOBS() gives: -ERANGE. */
int spritz_knob_set(const char *name, long long val);

/* Every writable knob's value (algorithm first, as text), for undo. */
struct spritz_knob_snapshot {
	char algorithm[32];
	long long val[32];
};

int spritz_knobs_save(struct spritz_knob_snapshot *s);
/* Write back the values of @s that differ from the current ones. */
int spritz_knobs_restore(const struct spritz_knob_snapshot *s);

#endif /* _SPRITZ_KNOBS_H_LIB */
