/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * libspritz: a state change as ordered steps with undo.
 *
 * Each step's do() changes one thing and records in the caller's context
 * what it needs to put it back; undo() puts it back.  spritz_steps_run()
 * runs the steps in order; when one fails it runs undo() of that step and
 * of every step before it, last first, and returns the failure: the change
 * is all or nothing.  undo() puts back exactly what the context records as
 * done, so a step that failed half way (a table of three pushed) is undone
 * as far as it went.  A step without undo() changes nothing that outlives the run
 * (or only a cache, documented at the step).
 *
 * Fault injection (tests only, spritz_fault()): point "NAME" fails step
 * NAME before it runs (-EIO), "NAME+" after it ran, so that its own undo
 * runs too.
 */
#ifndef _SPRITZ_STEPS_H
#define _SPRITZ_STEPS_H

#include <stddef.h>

struct spritz_step {
	const char *name;
	int (*run)(void *ctx, char *err, size_t errlen); /* 0 or -errno */
	void (*undo)(void *ctx);
};

/* 0, or the -errno of the step that failed (all undone, @err says why). */
int spritz_steps_run(const struct spritz_step *steps, size_t n, void *ctx, char *err,
		     size_t errlen);

#endif /* _SPRITZ_STEPS_H */
