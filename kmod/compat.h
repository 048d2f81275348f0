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
 * 6.2+: formatted extack messages, kept in the extack's own buffer, which
 * lives until the ACK is built.  6.1's extack has only a pointer, so the
 * message goes to a buffer that netlink.c keeps per netlink socket
 * (spritz_extack_buf()), because genl releases genl_mutex before
 * netlink_ack() copies the message: a buffer shared by all sockets could
 * be overwritten by another socket's request in between.  Without such a
 * buffer (none of the family's handlers gets there) the format string
 * itself is the message.
 */
#include <linux/netlink.h>
#ifndef NL_SET_ERR_MSG_FMT_MOD
#define SPRITZ_NEED_EXTACK_BUF 1
#define SPRITZ_EXTACK_LEN 80
char *spritz_extack_buf(const struct netlink_ext_ack *extack);
#define NL_SET_ERR_MSG_FMT_MOD(extack, fmt, args...)                                   \
	do {                                                                           \
		struct netlink_ext_ack *__extack = (extack);                           \
		char *__buf;                                                           \
                                                                                       \
		if (!__extack)                                                         \
			break;                                                         \
		__buf = spritz_extack_buf(__extack);                                   \
		if (__buf) {                                                           \
			snprintf(__buf, SPRITZ_EXTACK_LEN, KBUILD_MODNAME ": " fmt,    \
				 ##args);                                              \
			__extack->_msg = __buf;                                        \
		} else {                                                               \
			__extack->_msg = KBUILD_MODNAME ": " fmt;                      \
		}                                                                      \
	} while (0)
#endif

#endif /* _SPRITZ_COMPAT_H */
