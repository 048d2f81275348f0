/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Generic netlink family "spritz": how userspace (spritzctl, libspritz's
 * libmnl client) loads endpoint tables into spritz.ko and reads them back.
 *
 * The endpoint table (paper §III-C) of a source switch maps each
 * destination switch to its EV entry list.  A host has one table per switch
 * its devices attach to (usually one; a multi-homed host or the lab, where
 * hosts of every switch share one kernel, has several).  Loading is
 * transactional so that a whole table swaps atomically (spritzctl reload
 * while traffic flows).  A transaction belongs to the netlink socket that
 * sends it: each socket has its own staging table, which the kernel frees
 * when the socket closes.
 *
 *	SPRITZ_CMD_TABLE_BEGIN   start the socket's staging table (replaces
 *	                         its unfinished one); SPRITZ_A_SRC_SWITCH and
 *	                         SPRITZ_A_NUM_SWITCHES describe it
 *	SPRITZ_CMD_TABLE_SET     one destination's list into the socket's
 *	                         staging table: SPRITZ_A_DST + SPRITZ_A_PATHS
 *	SPRITZ_CMD_TABLE_COMMIT  publish it as the live table of its source
 *	                         switch (RCU); the one it replaces is freed
 *	                         after a grace period
 *	SPRITZ_CMD_TABLE_ABORT   drop the socket's staging table
 *	SPRITZ_CMD_TABLE_FLUSH   drop the live table of SPRITZ_A_SRC_SWITCH,
 *	                         or every live table without it
 *	SPRITZ_CMD_TABLE_GET     dump: one message per destination of every
 *	                         live table, in (source, destination) order,
 *	                         with each path's state
 *
 * Every command but GET needs CAP_NET_ADMIN (GENL_ADMIN_PERM).  A refused
 * message changes nothing and says why in the extended ACK.
 */
#ifndef _SPRITZ_NETLINK_H
#define _SPRITZ_NETLINK_H

#include "abi.h"

#define SPRITZ_GENL_NAME "spritz"
#define SPRITZ_GENL_VERSION 1

/* Limits (documented in Documentation/netlink.rst). */
#define SPRITZ_MAX_SWITCHES 65536	/* destination ids 0..65535 */
#define SPRITZ_MAX_PATHS 4096		/* per destination switch */
#define SPRITZ_MAX_TABLE_BYTES (256U << 20) /* all lists of one table */
#define SPRITZ_MAX_TABLES 256		/* live source-switch tables */
#define SPRITZ_MAX_WRITERS 16		/* sockets with transaction state, from
					 * their first BEGIN until they close;
					 * one staging table each at most */
#define SPRITZ_MAX_TOTAL_BYTES (512U << 20) /* all tables, live + staging */

/* Base weights are fixed point: SPRITZ_WEIGHT_ONE means 1.0. */
#define SPRITZ_WEIGHT_SHIFT 16
#define SPRITZ_WEIGHT_ONE (1U << SPRITZ_WEIGHT_SHIFT)

enum spritz_cmd {
	SPRITZ_CMD_UNSPEC,
	SPRITZ_CMD_TABLE_BEGIN,
	SPRITZ_CMD_TABLE_SET,
	SPRITZ_CMD_TABLE_COMMIT,
	SPRITZ_CMD_TABLE_ABORT,
	SPRITZ_CMD_TABLE_FLUSH,
	SPRITZ_CMD_TABLE_GET,
	__SPRITZ_CMD_MAX,
};
#define SPRITZ_CMD_MAX (__SPRITZ_CMD_MAX - 1)

enum spritz_attr {
	SPRITZ_A_UNSPEC,
	SPRITZ_A_SRC_SWITCH,	/* u32: this host's switch */
	SPRITZ_A_NUM_SWITCHES,	/* u32: switches in the fabric (dst < this) */
	SPRITZ_A_DST,		/* u32: destination switch */
	SPRITZ_A_PATHS,		/* nest of SPRITZ_A_PATH, sorted by latency; may
				 * repeat in one TABLE_SET (the lists concatenate:
				 * an attribute holds at most 64 KiB, about 2300
				 * paths); a dump message holds one part */
	SPRITZ_A_PATH,		/* nest of SPRITZ_PATH_A_* */
	SPRITZ_A_GENERATION,	/* u32: bumped by every commit (dump, read-only) */
	SPRITZ_A_PAD,
	__SPRITZ_A_MAX,
};
#define SPRITZ_A_MAX (__SPRITZ_A_MAX - 1)

enum spritz_path_attr {
	SPRITZ_PATH_A_UNSPEC,
	SPRITZ_PATH_A_EV,		/* u16: EV1:EV2 */
	SPRITZ_PATH_A_LAT_CLASS,	/* u8: rank of the path's latency, 0 = minimal */
	SPRITZ_PATH_A_BASE_WEIGHT,	/* u32: Eq. 1 weight, SPRITZ_WEIGHT_ONE = 1.0 */
	/* dump only: */
	SPRITZ_PATH_A_WEIGHT,		/* u32: weight now (0 while disabled) */
	SPRITZ_PATH_A_DISABLED_MS,	/* u32: ms until re-enabled, 0 if enabled */
	SPRITZ_PATH_A_PICKS,		/* u64 */
	SPRITZ_PATH_A_TIMEOUTS,		/* u64 */
	SPRITZ_PATH_A_DISABLES,		/* u64 */
	SPRITZ_PATH_A_PAD,
	__SPRITZ_PATH_A_MAX,
};
#define SPRITZ_PATH_A_MAX (__SPRITZ_PATH_A_MAX - 1)

#endif /* _SPRITZ_NETLINK_H */
