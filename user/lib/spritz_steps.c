// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ordered steps with undo (spritz_steps.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "spritz_err.h"
#include "spritz_steps.h"

/* The injected failure of step @name before (@after false) or after it ran. */
static int step_fault(const char *name, bool after)
{
	char point[64];

	snprintf(point, sizeof(point), "%s%s", name, after ? "+" : "");
	return spritz_fault(point, -EIO);
}

int spritz_steps_run(const struct spritz_step *steps, size_t n, void *ctx, char *err,
		     size_t errlen)
{
	size_t done;
	int ret = 0;

	for (done = 0; done < n && !ret; done++) {
		ret = step_fault(steps[done].name, false);
		if (ret) {
			spritz_seterr(err, errlen, "failed to run step %s: injected fault", steps[done].name);
			break; /* never ran: nothing to undo */
		}
		ret = steps[done].run(ctx, err, errlen);
		if (!ret && (ret = step_fault(steps[done].name, true)))
			spritz_seterr(err, errlen, "failed to finish step %s: injected fault",
				      steps[done].name);
	}
	if (!ret)
		return 0;
	while (done--)
		if (steps[done].undo)
			steps[done].undo(ctx);
	return ret;
}
