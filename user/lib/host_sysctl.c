// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sysctls of the calling thread's network namespace (/proc/sys/net is the
 * namespace of whoever opens it), by dotted key: up --tcp-dupthresh
 * (host_tcp.c) and the lab's labctl sysctl.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spritz_host.h"

#define PROC_SYS "/proc/sys/"

/* /proc/sys path of dotted @key ("net.ipv4.tcp_recovery"), or -EINVAL. */
static int sysctl_path(const char *key, char *path, size_t len)
{
	size_t i, n;

	if (!*key || strlen(key) + sizeof(PROC_SYS) > len)
		return -EINVAL;
	n = (size_t)snprintf(path, len, PROC_SYS "%s", key);
	for (i = sizeof(PROC_SYS) - 1; i < n; i++)
		if (path[i] == '.')
			path[i] = '/';
	return 0;
}

int spritz_sysctl_write(const char *key, const char *val, bool dry)
{
	char path[256];
	int fd, ret = sysctl_path(key, path, sizeof(path));
	ssize_t len = (ssize_t)strlen(val);

	if (ret)
		return ret;
	if (dry)
		return access(path, W_OK) ? -errno : 0;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	errno = 0;
	if (write(fd, val, (size_t)len) != len)
		ret = errno ? -errno : -EIO;
	close(fd);
	return ret;
}

int spritz_sysctl_read_int(const char *key, int *val)
{
	char path[256], buf[32], *end;
	int fd, ret = sysctl_path(key, path, sizeof(path));
	ssize_t n;
	long v;

	if (ret)
		return ret;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	ret = n < 0 ? -errno : 0;
	close(fd);
	if (ret)
		return ret;
	buf[n] = '\0';
	errno = 0;
	v = strtol(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n') || v < -(1L << 30) || v > 1L << 30)
		return -EINVAL;
	*val = (int)v;
	return 0;
}
