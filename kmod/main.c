// SPDX-License-Identifier: GPL-2.0-only
/*
 * spritz.ko - the in-kernel half of a Spritz sender.
 *
 * Spritz (Bonato et al., "Spritz: Path-Aware Load Balancing in Low-Diameter
 * Networks") moves adaptive routing in Dragonfly and Slim Fly fabrics to the
 * senders: each packet carries a 16-bit entropy value (EV1:EV2) that steers
 * its first two switch hops.  The tc BPF programs in bpf/ write the EV and
 * read the feedback; this module owns what they must share across flows and
 * CPUs: the endpoint tables, weighted path sampling and the path-disable
 * timers, exposed to BPF as kfuncs and tuned through /sys/kernel/spritz/.
 *
 * See Documentation/design.rst for the architecture.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "spritz.h"

static int __init spritz_init(void)
{
	int err;

	err = spritz_tables_init();
	if (err)
		return err;
	err = spritz_sysfs_init();
	if (err)
		goto out_tables;
	err = spritz_netlink_init();
	if (err) {
		pr_err("failed to register the generic netlink family: %d\n", err);
		goto out_sysfs;
	}

	/*
	 * Registration cannot be undone, so it goes last: a module whose
	 * kfuncs are registered does not fail init afterwards.
	 */
	err = spritz_kfuncs_init();
	if (err) {
		pr_err("failed to register kfuncs: %d\n", err);
		goto out_netlink;
	}
	return 0;

out_netlink:
	spritz_netlink_exit();
out_sysfs:
	spritz_sysfs_exit();
out_tables:
	spritz_tables_exit();
	return err;
}

/*
 * No BPF program uses the kfuncs any more (each holds a module reference),
 * so only netlink and sysfs can reach the tables: close them first, then
 * free the live table (which cancels its work item).
 */
static void __exit spritz_exit(void)
{
	spritz_netlink_exit();
	spritz_sysfs_exit();
	spritz_tables_exit();
}

module_init(spritz_init);
module_exit(spritz_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Spritz sender-based path-aware load balancing for low-diameter fabrics");
MODULE_VERSION(SPRITZ_VERSION);
