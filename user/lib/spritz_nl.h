/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * libspritz: userspace side of the "spritz" generic netlink family
 * (include/spritz/netlink.h, Documentation/netlink.rst), over libmnl.
 *
 * Loads endpoint tables (Spritz paper §III-C: per destination switch, the
 * EV entry list with Eq. 1 base weights) into spritz.ko as one transaction
 * (begin, one set per destination, commit; abort on error) and dumps the
 * live table with each path's state.
 *
 * Every function returns 0 or a negative errno; where it takes @err and
 * @errlen, a failure also leaves a message there: the kernel's extended
 * ACK message if it sent one, else strerror().  @err may be NULL.
 */
#ifndef _SPRITZ_NL_H
#define _SPRITZ_NL_H

#include <stddef.h>
#include <stdint.h>

struct nlmsghdr;
struct spritz_nl;

/* One EV entry; the state fields are filled by dumps only. */
struct spritz_nl_path {
	uint16_t ev;	      /* EV1:EV2 (abi.h) */
	uint8_t lat_class;    /* 0 = minimal */
	uint32_t base_weight; /* Eq. 1, SPRITZ_WEIGHT_ONE = 1.0 */
	/* dump only */
	uint32_t weight;      /* now; 0 while disabled */
	uint32_t disabled_ms; /* until re-enabled; 0 if enabled */
	uint64_t picks, timeouts, disables;
};

/* One destination's list (load input, dump output). */
struct spritz_nl_dest {
	uint32_t dst;
	uint32_t npaths;
	struct spritz_nl_path *paths;
	/* dump only: the table it belongs to */
	uint32_t generation, src_switch, num_switches;
};

/* Open a socket and resolve the family (needs spritz.ko: -ENOENT). */
int spritz_nl_open(struct spritz_nl **out, char *err, size_t errlen);
void spritz_nl_close(struct spritz_nl *nl);

/* The transaction, one call per command (CAP_NET_ADMIN). */
int spritz_nl_begin(struct spritz_nl *nl, uint32_t src_switch, uint32_t num_switches, char *err,
		    size_t errlen);
int spritz_nl_set(struct spritz_nl *nl, uint32_t dst, const struct spritz_nl_path *paths,
		  uint32_t npaths, char *err, size_t errlen);
int spritz_nl_commit(struct spritz_nl *nl, char *err, size_t errlen);
int spritz_nl_abort(struct spritz_nl *nl, char *err, size_t errlen);
/* Drop the live table of @src_switch, or all of them (SPRITZ_NL_ALL). */
#define SPRITZ_NL_ALL UINT32_MAX
int spritz_nl_flush(struct spritz_nl *nl, uint32_t src_switch, char *err, size_t errlen);

/* begin + set for each of @dests + commit; aborts if any step fails. */
int spritz_nl_load(struct spritz_nl *nl, uint32_t src_switch, uint32_t num_switches,
		   const struct spritz_nl_dest *dests, size_t ndests, char *err, size_t errlen);

/*
 * Dump the live tables (of @src_switch only, unless SPRITZ_NL_ALL): @cb
 * once per destination with all its paths (valid during the call only), in
 * (source, destination) order.  A non-zero return of @cb stops and is
 * returned.  The dump is collected completely before the first callback; if
 * a table is replaced meanwhile, the kernel fails the dump with EINTR and it
 * is retried (up to 8 times, then -EINTR), so the callbacks always see one
 * consistent set of tables.  No live table: no callback.
 */
typedef int (*spritz_nl_dump_cb)(const struct spritz_nl_dest *d, void *arg);
int spritz_nl_dump(struct spritz_nl *nl, uint32_t src_switch, spritz_nl_dump_cb cb, void *arg,
		   char *err, size_t errlen);

/*
 * For tests: a message header for @cmd of the family in @buf (at least
 * spritz_nl_bufsize() bytes), to fill with libmnl and send with
 * spritz_nl_send(), which waits for the ACK.
 */
size_t spritz_nl_bufsize(void);
struct nlmsghdr *spritz_nl_msg(struct spritz_nl *nl, void *buf, uint8_t cmd);
int spritz_nl_send(struct spritz_nl *nl, struct nlmsghdr *nlh, char *err, size_t errlen);

#endif /* _SPRITZ_NL_H */
