/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Internal to libspritz: what host_up.c, host_down.c and host_reload.c
 * share (host_ops.c).
 */
#ifndef _SPRITZ_HOST_OPS_H
#define _SPRITZ_HOST_OPS_H

#include "spritz_host.h"

/*
 * Arguments the fabric refuses, before anything is touched (-EDOM,
 * spritz_host.h): switch @sw (-1: none given) not in @t, or an entry of
 * @dir (NULL: none) for a switch @t lacks.  @what is the verb of the
 * message ("bring up", "reload"), @topo the fabric as given.
 */
int host_check_args(const struct spritz_topo *t, const char *topo, long sw,
		    const struct spritz_dir_list *dir, const char *what, char *err, size_t errlen);
/* Open the pinned object for @what ("bring up spritz"); message on error. */
int host_open(struct spritz_dp *dp, const char *what, char *err, size_t errlen);
/* Take the lock; message on error. */
int host_lock(char *err, size_t errlen);
/*
 * The device records still alive, except @skip (0: none).  Records of
 * devices that are gone (namespace deleted, device removed) are dropped
 * with their spritz_devs entry and link pins (garbage, not state).
 */
int host_live_devices(const struct spritz_dp *dp, uint32_t skip, struct spritz_dp_dev **out,
		      size_t *n);
bool host_switch_used(const struct spritz_dp_dev *v, size_t n, uint32_t sw);
void host_forget_dev(const struct spritz_dp *dp, uint32_t ifindex);
void host_drop_link_pins(uint32_t ifindex);
/* What up --per-packet changed on a device, back as it was. */
int host_restore_offload(uint32_t ifindex, uint32_t flags, char *err, size_t errlen);
/*
 * up --tcp-dupthresh (host_tcp.c), in the device's namespace: @rec gets
 * the flag, @dupthresh and the values found (from @sharer, the record of
 * another device of the namespace that has them, if any: then nothing is
 * written); *@wrote says whether the sysctls were written.  0 or -errno.
 */
int host_tcp_claim(struct spritz_ctl_state *rec, uint32_t dupthresh,
		   const struct spritz_ctl_state *sharer, bool *wrote, char *err, size_t errlen);
/* The record among @others of namespace @netns with --tcp-dupthresh, or NULL. */
const struct spritz_ctl_state *host_tcp_sharer(const struct spritz_dp_dev *others, size_t n,
					       uint64_t netns);
/*
 * The values @rec found, back (a record without the flag: nothing); left
 * alone if they are no longer @rec's.  1 put back, 0 left, -errno.
 */
int host_tcp_restore(const struct spritz_ctl_state *rec, char *err, size_t errlen);
/* Undo: @rec's values (@ours) or the ones it found, written again. */
void host_tcp_set(const struct spritz_ctl_state *rec, bool ours);
/* Attach the hooks of @ifindex not attached yet; att[h] says which were. */
int host_attach(const struct spritz_dp *dp, uint32_t ifindex, const char *dev, bool att[2],
		char *err, size_t errlen);
void host_detach(uint32_t ifindex, const bool att[2]);

#endif /* _SPRITZ_HOST_OPS_H */
