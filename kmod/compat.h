/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel-version differences that spritz.ko meets between Debian's 6.1 and
 * 6.12 kernels, spelled once so that the rest of the module is written
 * against the current API.  Each shim tests for the newer macro rather than
 * a version number, so kernels with backports work too.
 */
#ifndef _SPRITZ_COMPAT_H
#define _SPRITZ_COMPAT_H

#include <linux/btf.h>
#include <linux/btf_ids.h>
#include <linux/compiler.h>

/* 6.2+: tag for kfunc definitions (keep them out of LTO/inlining). */
#ifndef __bpf_kfunc
#define __bpf_kfunc __used noinline
#endif

/* 6.7+: kfuncs are global functions without prototypes; silence W=1. */
#ifndef __bpf_kfunc_start_defs
#define __bpf_kfunc_start_defs()                                                      \
	__diag_push();                                                                \
	__diag_ignore_all("-Wmissing-prototypes",                                     \
			  "Global kfuncs as their definitions will be in BTF")
#define __bpf_kfunc_end_defs() __diag_pop()
#endif

/*
 * 6.9+: kfunc ID sets must be declared with BTF_KFUNCS_START (it sets
 * BTF_SET8_KFUNCS, and registration refuses sets without it).  6.1 only
 * has the plain BTF_SET8_* pair.
 */
#ifndef BTF_KFUNCS_START
#define BTF_KFUNCS_START(name) BTF_SET8_START(name)
#define BTF_KFUNCS_END(name) BTF_SET8_END(name)
#endif

/*
 * 6.2+: formatted extack messages, kept in the extack's own buffer.  6.1's
 * extack has only a pointer, so the message goes to a static buffer: valid
 * because every user is a doit handler of the spritz family, which is not
 * parallel_ops, so handlers and the ACK that reads the message are
 * serialised under genl_mutex.
 */
#include <linux/netlink.h>
#ifndef NL_SET_ERR_MSG_FMT_MOD
extern char spritz_extack_buf[80];
#define NL_SET_ERR_MSG_FMT_MOD(extack, fmt, args...)                                   \
	do {                                                                           \
		struct netlink_ext_ack *__extack = (extack);                           \
		if (__extack) {                                                        \
			snprintf(spritz_extack_buf, sizeof(spritz_extack_buf),         \
				 KBUILD_MODNAME ": " fmt, ##args);                     \
			__extack->_msg = spritz_extack_buf;                            \
		}                                                                      \
	} while (0)
#define SPRITZ_NEED_EXTACK_BUF 1
#endif

#endif /* _SPRITZ_COMPAT_H */
