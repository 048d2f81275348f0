// SPDX-License-Identifier: GPL-2.0-only
/*
 * Network namespaces: tell them apart, find them again, run in one
 * (a process that cannot return to its own namespace exits: it would go on
 * in the wrong one) (spritz_host.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "spritz_host.h"

static uint64_t ns_ino(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : (uint64_t)st.st_ino;
}

uint64_t spritz_netns_self_ino(void)
{
	return ns_ino("/proc/self/ns/net");
}

uint64_t spritz_netns_self(void)
{
	uint64_t cookie = 0;
	socklen_t len = sizeof(cookie);
	int s = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (s >= 0) {
		if (getsockopt(s, SOL_SOCKET, SO_NETNS_COOKIE, &cookie, &len))
			cookie = 0;
		close(s);
	}
	/* kernels before 5.14: the inode, unique while the namespace lives */
	return cookie ? cookie : spritz_netns_self_ino();
}

int spritz_netns_enter(const char *name)
{
	char path[PATH_MAX];
	int fd, err = 0;

	if (snprintf(path, sizeof(path), "/run/netns/%s", name) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (setns(fd, CLONE_NEWNET))
		err = -errno;
	close(fd);
	return err;
}

/* Enter @fd; if it is the namespace with cookie @cookie run @fn; come back. */
static bool try_netns(int fd, int back, uint64_t cookie, int (*fn)(void *), void *arg, int *ret)
{
	bool found = false;

	if (setns(fd, CLONE_NEWNET))
		return false;
	if (spritz_netns_self() == cookie) {
		*ret = fn(arg);
		found = true;
	}
	if (setns(back, CLONE_NEWNET)) {
		/* cannot go on in the wrong namespace */
		fprintf(stderr, "libspritz: failed to return to the network namespace: %s\n",
			strerror(errno));
		exit(1);
	}
	return found;
}

int spritz_in_netns(const struct spritz_ctl_state *v, int (*fn)(void *), void *arg)
{
	static const char *const dirs[] = { "/run/netns", "/proc" };
	char path[PATH_MAX];
	bool found = false;
	struct dirent *e;
	int back, fd, ret = -ENOENT;
	size_t i;
	DIR *d;

	if (v->netns == spritz_netns_self())
		return fn(arg);
	back = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (back < 0)
		return -errno;
	for (i = 0; !found && i < 2; i++) {
		d = opendir(dirs[i]);
		while (!found && d && (e = readdir(d))) {
			if (e->d_name[0] == '.' ||
			    (i == 1 && (e->d_name[0] < '0' || e->d_name[0] > '9')))
				continue;
			snprintf(path, sizeof(path), "%s/%s%s", dirs[i], e->d_name,
				 i == 1 ? "/ns/net" : "");
			if (ns_ino(path) != v->netns_ino)
				continue;
			fd = open(path, O_RDONLY | O_CLOEXEC);
			if (fd < 0)
				continue;
			found = try_netns(fd, back, v->netns, fn, arg, &ret);
			close(fd);
		}
		if (d)
			closedir(d);
	}
	close(back);
	return found ? ret : -ENOENT;
}

static int ifindex_exists(void *arg)
{
	char name[IF_NAMESIZE];

	return if_indextoname(*(uint32_t *)arg, name) ? 1 : 0;
}

bool spritz_dp_dev_alive(const struct spritz_dp_dev *d)
{
	uint32_t ifindex = d->ifindex;

	return spritz_in_netns(&d->v, ifindex_exists, &ifindex) == 1;
}

int spritz_nl_open_init(struct spritz_nl **nl, char *err, size_t errlen)
{
	int ret = spritz_nl_open(nl, err, errlen), self, init;

	if (ret != -ENOENT || ns_ino("/proc/1/ns/net") == spritz_netns_self_ino())
		return ret;
	/* the family lives in the initial network namespace only */
	self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	init = open("/proc/1/ns/net", O_RDONLY | O_CLOEXEC);
	if (self >= 0 && init >= 0 && !setns(init, CLONE_NEWNET)) {
		ret = spritz_nl_open(nl, err, errlen);
		if (setns(self, CLONE_NEWNET)) {
			fprintf(stderr, "libspritz: failed to return to the network namespace: %s\n",
				strerror(errno));
			exit(1);
		}
	}
	if (self >= 0)
		close(self);
	if (init >= 0)
		close(init);
	return ret;
}

