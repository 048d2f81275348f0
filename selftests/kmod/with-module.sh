#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# with-module.sh CMD...: insert spritz.ko, run CMD (a TAP test binary),
# remove the module and fail if that fails or if CMD failed.  Used by the
# guest suites in selftests/suites for tests that need the module.
source "$(dirname "$0")/../lib/lib.sh"

require_root
ko=$(spritz_ko)
[ -f "$ko" ] || { echo "# $ko not built"; exit $KSFT_FAIL; }
[ -d /sys/module/spritz ] && { echo "# spritz already loaded"; exit $KSFT_FAIL; }
insmod "$ko" || { echo "# insmod failed"; exit $KSFT_FAIL; }
"$@"
rc=$?
if ! spritz_rmmod; then
	echo "# rmmod spritz failed"
	rc=$KSFT_FAIL
fi
exit $rc
