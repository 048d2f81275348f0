// SPDX-License-Identifier: GPL-2.0-only
/*
 * TSO and GSO of a device, for up --per-packet (spritz_host.h).
 */
#include <errno.h>
#include <net/if.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/ethtool.h>
#include <linux/sockios.h>

#include "spritz_host.h"

/* One ETHTOOL_{G,S}{TSO,GSO} ioctl on @ifindex. */
static int ethtool_value(uint32_t ifindex, uint32_t cmd, uint32_t *data)
{
	struct ethtool_value ev = { .cmd = cmd, .data = *data };
	struct ifreq ifr = { 0 };
	int fd, err = 0;

	if (!if_indextoname(ifindex, ifr.ifr_name))
		return -errno;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	ifr.ifr_data = (void *)&ev;
	if (ioctl(fd, SIOCETHTOOL, &ifr))
		err = -errno;
	close(fd);
	*data = ev.data;
	return err;
}

int spritz_offload_get(uint32_t ifindex, bool *tso, bool *gso)
{
	uint32_t t = 0, g = 0;
	int err = ethtool_value(ifindex, ETHTOOL_GTSO, &t) ?: ethtool_value(ifindex, ETHTOOL_GGSO, &g);

	*tso = t;
	*gso = g;
	return err;
}

int spritz_offload_set(uint32_t ifindex, bool tso, bool gso)
{
	uint32_t t = tso, g = gso;

	return ethtool_value(ifindex, ETHTOOL_STSO, &t) ?: ethtool_value(ifindex, ETHTOOL_SGSO, &g);
}

