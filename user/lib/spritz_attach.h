/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Attach the datapath programs to a network device and pin its maps.
 *
 * Kernels >= 6.6 have tcx: the program is attached with a BPF link
 * (BPF_TCX_INGRESS / BPF_TCX_EGRESS) and the link is pinned as
 * <pin_dir>/link_<ifindex>_<ingress|egress>, so it outlives spritzctl and is
 * detached by unpinning it.  Older kernels (6.1) refuse the tcx attach type
 * with EINVAL; there the program becomes a direct-action cls_bpf filter on a
 * clsact qdisc with Spritz's own handle and priority (SPRITZ_TC_HANDLE,
 * SPRITZ_TC_PRIO), so detaching removes exactly that filter.  The clsact
 * qdisc is created if missing and removed on detach once no filter is left
 * on either of its hooks.
 *
 * Every function returns 0 or a negative errno.
 */
#ifndef _SPRITZ_ATTACH_H
#define _SPRITZ_ATTACH_H

#include <stdbool.h>

#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>

struct bpf_object;

enum spritz_hook {
	SPRITZ_HOOK_INGRESS,
	SPRITZ_HOOK_EGRESS,
};

enum spritz_attach_mode {
	SPRITZ_ATTACH_NONE,
	SPRITZ_ATTACH_TCX,    /* BPF link, pinned */
	SPRITZ_ATTACH_CLSACT, /* cls_bpf filter on clsact */
};

#define SPRITZ_TC_HANDLE 0x5350 /* "SP" */
#define SPRITZ_TC_PRIO 0x5350

/* "ingress" / "egress"; "tcx" / "clsact" / "none". */
const char *spritz_hook_name(enum spritz_hook hook);
const char *spritz_attach_mode_name(enum spritz_attach_mode mode);

/* <pin_dir>/link_<ifindex>_<hook> into buf. */
int spritz_link_pin_path(char *buf, size_t len, const char *pin_dir, int ifindex,
			 enum spritz_hook hook);

/*
 * Attach prog_fd to ifindex's hook: tcx if the kernel has it, else clsact.
 * Already attached (pinned link or our filter present) is not an error: the
 * program is replaced in place.  A pinned link left by a device that is
 * gone (an ifindex reused) is replaced.  *mode (may be NULL) says which was
 * used.
 */
int spritz_attach(int prog_fd, int ifindex, enum spritz_hook hook, const char *pin_dir,
		  enum spritz_attach_mode *mode);

/*
 * What is attached at ifindex's hook by Spritz (SPRITZ_ATTACH_NONE: nothing;
 * a pinned tcx link whose device is gone counts as nothing).
 */
enum spritz_attach_mode spritz_attached(int ifindex, enum spritz_hook hook, const char *pin_dir);

/*
 * Dump the traffic-control objects of message @type (RTM_GETQDISC,
 * RTM_GETTFILTER, ...) that @req selects, in the calling thread's network
 * namespace, calling @cb with @data for each.  0 or -errno.
 */
int spritz_tc_dump(int type, const struct tcmsg *req, mnl_cb_t cb, void *data);

/* Detach whatever spritz_attach() attached there; nothing attached is not an error. */
int spritz_detach(int ifindex, enum spritz_hook hook, const char *pin_dir);

/*
 * Pin the named maps of obj as <pin_dir>/<name> (pin_dir created if
 * needed).  An occupied path is -EEXIST and nothing stays pinned.
 */
int spritz_pin_maps(struct bpf_object *obj, const char *pin_dir, const char *const *names,
		    int n);

/* Unlink <pin_dir>/<name> for each name (missing ones ignored). */
int spritz_unpin_maps(const char *pin_dir, const char *const *names, int n);

#endif /* _SPRITZ_ATTACH_H */
