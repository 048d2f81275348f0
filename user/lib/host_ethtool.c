// SPDX-License-Identifier: GPL-2.0-only
/*
 * TSO and GSO of a device, for up --per-packet and the lab's hosts
 * (spritz_host.h).
 *
 * By feature name (ETHTOOL_GSTRINGS of ETH_SS_FEATURES, then
 * ETHTOOL_{G,S}FEATURES), not by the legacy ETHTOOL_{G,S}TSO: the legacy
 * call covers the TSO features of its day only, and a kernel that adds
 * one (tx-tcp-accecn-segmentation, Linux 6.18) keeps segmenting with it
 * after "TSO off".  TSO is every "tx-tcp*-segmentation" feature, GSO
 * "tx-generic-segmentation".
 */
#include <errno.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/ethtool.h>
#include <linux/sockios.h>

#include "spritz_host.h"

/* Features the kernel names, at most (Linux 6.18 has 68). */
#define FEAT_MAX 256
#define FEAT_BLOCKS (FEAT_MAX / 32)

struct feat {
	int fd;
	struct ifreq ifr;
	uint32_t tso[FEAT_BLOCKS], gso[FEAT_BLOCKS];	/* masks by name */
	struct ethtool_get_features_block b[FEAT_BLOCKS];	/* the device's */
	uint32_t words;		/* blocks the kernel has: SFEATURES wants as many */
};

static int feat_get(struct feat *f);

static int feat_ioctl(struct feat *f, void *cmd)
{
	f->ifr.ifr_data = cmd;
	/* SFEATURES may return ETHTOOL_F_* flags: checked by reading back */
	return ioctl(f->fd, SIOCETHTOOL, &f->ifr) < 0 ? -errno : 0;
}

/* Is @name one of TSO's features ("tx-tcp*-segmentation")? */
static bool is_tso(const char *name)
{
	size_t n = strnlen(name, ETH_GSTRING_LEN);

	return n >= 19 && !strncmp(name, "tx-tcp", 6) &&
	       !strncmp(name + n - 13, "-segmentation", 13);
}

/* Open @ifindex's feature set, find TSO's and GSO's bits by name, read
 * the device's features. */
static int feat_open(struct feat *f, uint32_t ifindex)
{
	uint64_t ibuf[(sizeof(struct ethtool_sset_info) + sizeof(uint32_t) + 7) / 8] = { 0 };
	struct ethtool_sset_info *info = (void *)ibuf;
	struct ethtool_gstrings *gs;
	uint32_t i, n;
	int err;

	memset(f, 0, sizeof(*f));
	if (!if_indextoname(ifindex, f->ifr.ifr_name))
		return -errno;
	f->fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (f->fd < 0)
		return -errno;
	info->cmd = ETHTOOL_GSSET_INFO;
	info->sset_mask = 1ULL << ETH_SS_FEATURES;
	err = feat_ioctl(f, info);
	n = info->data[0];
	if (!err && (!info->sset_mask || n > FEAT_MAX))
		err = -EOPNOTSUPP;
	gs = err ? NULL : calloc(1, sizeof(*gs) + (size_t)n * ETH_GSTRING_LEN);
	if (!err && !gs)
		err = -ENOMEM;
	if (!err) {
		gs->cmd = ETHTOOL_GSTRINGS;
		gs->string_set = ETH_SS_FEATURES;
		gs->len = n;
		err = feat_ioctl(f, gs);
	}
	for (i = 0; !err && i < n && i < gs->len; i++) {
		const char *name = (const char *)gs->data + (size_t)i * ETH_GSTRING_LEN;

		if (is_tso(name))
			f->tso[i / 32] |= 1U << (i % 32);
		else if (!strncmp(name, "tx-generic-segmentation", ETH_GSTRING_LEN))
			f->gso[i / 32] |= 1U << (i % 32);
	}
	free(gs);
	if (!err)
		err = feat_get(f);
	if (err)
		close(f->fd);
	return err;
}

/* Each block's available, requested and active bits, and how many. */
static int feat_get(struct feat *f)
{
	uint64_t gbuf[(sizeof(struct ethtool_gfeatures) +
		       FEAT_BLOCKS * sizeof(struct ethtool_get_features_block) + 7) / 8] = { 0 };
	struct ethtool_gfeatures *g = (void *)gbuf;
	int err;

	g->cmd = ETHTOOL_GFEATURES;
	g->size = FEAT_BLOCKS;
	err = feat_ioctl(f, g);
	if (!err && g->size > FEAT_BLOCKS)
		err = -EOPNOTSUPP;
	if (!err) {
		memcpy(f->b, g->features, sizeof(f->b));
		f->words = g->size;
	}
	return err;
}

int spritz_offload_get(uint32_t ifindex, bool *tso, bool *gso)
{
	struct feat f;
	int i, err;

	*tso = *gso = false;
	err = feat_open(&f, ifindex);
	if (err)
		return err;
	for (i = 0; i < FEAT_BLOCKS; i++) {
		*tso |= !!(f.b[i].active & f.tso[i]);
		*gso |= !!(f.b[i].active & f.gso[i]);
	}
	close(f.fd);
	return 0;
}

int spritz_offload_set(uint32_t ifindex, bool tso, bool gso)
{
	uint64_t sbuf[(sizeof(struct ethtool_sfeatures) +
		       FEAT_BLOCKS * sizeof(struct ethtool_set_features_block) + 7) / 8] = { 0 };
	struct ethtool_sfeatures *s = (void *)sbuf;
	struct feat f;
	int i, err;

	err = feat_open(&f, ifindex);
	if (err)
		return err;
	/* only what the device can change: a fixed bit fails the call */
	for (i = 0; i < FEAT_BLOCKS; i++) {
		s->features[i].valid = (f.tso[i] | f.gso[i]) & f.b[i].available;
		s->features[i].requested = ((tso ? f.tso[i] : 0) | (gso ? f.gso[i] : 0)) &
					   s->features[i].valid;
	}
	s->cmd = ETHTOOL_SFEATURES;
	s->size = f.words;
	err = feat_ioctl(&f, s);
	if (!err)
		err = feat_get(&f);
	/* what was turned off is off (turning on may depend on other features) */
	for (i = 0; !err && i < FEAT_BLOCKS; i++)
		if (f.b[i].active & s->features[i].valid &
		    ((tso ? 0 : f.tso[i]) | (gso ? 0 : f.gso[i])))
			err = -EBUSY;
	close(f.fd);
	return err;
}
