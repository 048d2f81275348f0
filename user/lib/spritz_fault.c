// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fault injection for the tests of up, down and reload (spritz_err.h).
 *
 * Built twice: into libspritz without SPRITZ_FAULT_INJECT (never fails),
 * and with it into the tests' spritzctl-fault, where $SPRITZ_FAULT names
 * the one point that fails: a step of spritz_steps_run() ("tables" fails
 * before the step runs, "tables+" after it ran, so that its own undo runs
 * too) or a point inside a step ("tables/mid", "directory/mid",
 * "table/live": up's read of the live table fails with EINTR,
 * "teardown/unload": the last down's unload of spritz.ko with EBUSY).  A
 * point fails once: the undo that follows may pass it again.
 */
#include <stdlib.h>
#include <string.h>

#include "spritz_err.h"

int spritz_fault(const char *point, int e)
{
#ifdef SPRITZ_FAULT_INJECT
	const char *want = getenv("SPRITZ_FAULT");
	static int fired;

	if (!fired && want && !strcmp(want, point)) {
		fired = 1;
		return e;
	}
#else
	(void)point;
	(void)e;
#endif
	return 0;
}
