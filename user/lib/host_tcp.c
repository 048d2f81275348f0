// SPDX-License-Identifier: GPL-2.0-only
/*
 * TCP loss detection of a network namespace, for up --tcp-dupthresh
 * (spritz_host.h, Documentation/deployment.rst "TCP on a spraying host").
 *
 * A sender that sprays one flow over paths of unequal length is reordered
 * by design; Linux's RACK takes a segment delivered a quarter of the
 * minimum RTT behind a later one for lost.  --tcp-dupthresh N turns RACK off
 * (net.ipv4.tcp_recovery = 0) and sets the duplicate-ACK threshold
 * (net.ipv4.tcp_reordering = N).  Both are the namespace's, not a device's:
 * every device of the namespace that asked for it records the values found
 * (copied from the first one), and the last of them going down puts them
 * back, unless someone changed them since (then they stay).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "host_ops.h"
#include "spritz_err.h"

/* Read the integer sysctl net.ipv4.@name of this thread's namespace. */
static int tcp_sysctl_get(const char *name, int *val)
{
	char key[64];

	snprintf(key, sizeof(key), "net.ipv4.%s", name);
	return spritz_sysctl_read_int(key, val);
}

/* Write @val to net.ipv4.@name of this thread's namespace. */
static int tcp_sysctl_set(const char *name, int val)
{
	char key[64], buf[16];

	snprintf(key, sizeof(key), "net.ipv4.%s", name);
	snprintf(buf, sizeof(buf), "%d\n", val);
	return spritz_sysctl_write(key, buf, false);
}

/* Both values written, or neither (the first put back). */
static int tcp_write(int recovery, int reordering, int old_recovery)
{
	int ret = tcp_sysctl_set("tcp_recovery", recovery);

	if (ret)
		return ret;
	ret = tcp_sysctl_set("tcp_reordering", reordering);
	if (ret)
		tcp_sysctl_set("tcp_recovery", old_recovery);
	return ret;
}

/* A record of @others in namespace @netns with --tcp-dupthresh, or NULL. */
const struct spritz_ctl_state *host_tcp_sharer(const struct spritz_dp_dev *others, size_t n,
					       uint64_t netns)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (others[i].v.netns == netns && (others[i].v.flags & SPRITZ_CTL_DEV_TCP_DUPTHRESH))
			return &others[i].v;
	return NULL;
}

int host_tcp_claim(struct spritz_ctl_state *rec, uint32_t dupthresh,
		   const struct spritz_ctl_state *sharer, bool *wrote, char *err, size_t errlen)
{
	int max, recovery, reordering, ret;

	*wrote = false;
	if (sharer && sharer->tcp_reordering != dupthresh) {
		spritz_seterr(err, errlen,
			      "failed to set TCP loss detection: this network namespace has "
			      "--tcp-dupthresh %u from another device (down it first)",
			      sharer->tcp_reordering);
		return -EEXIST;
	}
	ret = tcp_sysctl_get("tcp_max_reordering", &max) ?: tcp_sysctl_get("tcp_recovery", &recovery) ?:
	      tcp_sysctl_get("tcp_reordering", &reordering);
	if (ret) {
		spritz_seterr(err, errlen, "failed to read net.ipv4 TCP sysctls: %s", strerror(-ret));
		return ret;
	}
	if (dupthresh > (uint32_t)max) {
		spritz_seterr(err, errlen,
			      "failed to set tcp_reordering to %u: above net.ipv4.tcp_max_reordering (%d)",
			      dupthresh, max);
		return -ERANGE;
	}
	rec->flags |= SPRITZ_CTL_DEV_TCP_DUPTHRESH;
	rec->tcp_reordering = dupthresh;
	if (sharer) {
		rec->tcp_recovery_was = sharer->tcp_recovery_was;
		rec->tcp_reordering_was = sharer->tcp_reordering_was;
		return 0;
	}
	rec->tcp_recovery_was = recovery;
	rec->tcp_reordering_was = (uint32_t)reordering;
	ret = tcp_write(0, (int)dupthresh, recovery);
	if (ret) {
		spritz_seterr(err, errlen, "failed to set net.ipv4.tcp_recovery and tcp_reordering: %s",
			      strerror(-ret));
		return ret;
	}
	*wrote = true;
	return 0;
}

int host_tcp_restore(const struct spritz_ctl_state *rec, char *err, size_t errlen)
{
	int recovery, reordering, ret;

	if (!(rec->flags & SPRITZ_CTL_DEV_TCP_DUPTHRESH))
		return 0;
	ret = tcp_sysctl_get("tcp_recovery", &recovery) ?:
	      tcp_sysctl_get("tcp_reordering", &reordering);
	if (!ret && (recovery != 0 || reordering != (int)rec->tcp_reordering))
		return 0; /* changed since up: not ours any more */
	if (!ret)
		ret = tcp_write(rec->tcp_recovery_was, (int)rec->tcp_reordering_was, 0);
	if (ret) {
		spritz_seterr(err, errlen, "failed to restore net.ipv4.tcp_recovery and "
			      "tcp_reordering: %s", strerror(-ret));
		return ret;
	}
	return 1;
}

void host_tcp_set(const struct spritz_ctl_state *rec, bool ours)
{
	if (ours)
		tcp_write(0, (int)rec->tcp_reordering, rec->tcp_recovery_was);
	else
		tcp_write(rec->tcp_recovery_was, (int)rec->tcp_reordering_was, 0);
}
