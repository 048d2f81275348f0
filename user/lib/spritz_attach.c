// SPDX-License-Identifier: GPL-2.0-only
/*
 * Attach the datapath programs (tcx links or clsact filters) and pin the
 * datapath maps; see spritz_attach.h.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <libmnl/libmnl.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>

#include "spritz_attach.h"

/* Debian 12's uapi predates tcx (Linux 6.6). */
#define SPRITZ_BPF_TCX_INGRESS 46
#define SPRITZ_BPF_TCX_EGRESS 47
#define SPRITZ_BPF_LINK_TYPE_TCX 11

const char *spritz_hook_name(enum spritz_hook hook)
{
	return hook == SPRITZ_HOOK_EGRESS ? "egress" : "ingress";
}

const char *spritz_attach_mode_name(enum spritz_attach_mode mode)
{
	switch (mode) {
	case SPRITZ_ATTACH_TCX:
		return "tcx";
	case SPRITZ_ATTACH_CLSACT:
		return "clsact";
	default:
		return "none";
	}
}

int spritz_link_pin_path(char *buf, size_t len, const char *pin_dir, int ifindex,
			 enum spritz_hook hook)
{
	int n = snprintf(buf, len, "%s/link_%d_%s", pin_dir, ifindex, spritz_hook_name(hook));

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/*
 * Is pinned link @fd a tcx link still attached to @ifindex?  A tcx link
 * whose device went away stays pinned but reports ifindex 0.  struct
 * bpf_link_info's tcx member (not in Debian 12's uapi) is {ifindex,
 * attach_type} at the start of its union, byte 16.
 */
static bool link_live(int fd, int ifindex)
{
	__u64 info[32] = { 0 };
	__u32 len = sizeof(info), *w = (__u32 *)info;

	if (bpf_obj_get_info_by_fd(fd, info, &len))
		return true; /* cannot tell: as before */
	return w[0] != SPRITZ_BPF_LINK_TYPE_TCX || w[4] == (__u32)ifindex;
}

static int mkdir_p(const char *dir)
{
	char tmp[256];
	char *p;

	if (snprintf(tmp, sizeof(tmp), "%s", dir) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0700) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, 0700) && errno != EEXIST)
		return -errno;
	return 0;
}

static void tc_opts(int ifindex, enum spritz_hook hook, struct bpf_tc_hook *h,
		    struct bpf_tc_opts *o)
{
	memset(h, 0, sizeof(*h));
	h->sz = sizeof(*h);
	h->ifindex = ifindex;
	h->attach_point = hook == SPRITZ_HOOK_EGRESS ? BPF_TC_EGRESS : BPF_TC_INGRESS;
	memset(o, 0, sizeof(*o));
	o->sz = sizeof(*o);
	o->handle = SPRITZ_TC_HANDLE;
	o->priority = SPRITZ_TC_PRIO;
}

/* Our cls_bpf filter at the hook: 1 present, 0 absent, <0 error. */
static int tc_present(int ifindex, enum spritz_hook hook)
{
	struct bpf_tc_hook h;
	struct bpf_tc_opts o;
	int err;

	tc_opts(ifindex, hook, &h, &o);
	err = bpf_tc_query(&h, &o);
	if (!err)
		return 1;
	return err == -ENOENT || err == -EINVAL ? 0 : err;
}

static int attach_clsact(int prog_fd, int ifindex, enum spritz_hook hook)
{
	struct bpf_tc_hook h;
	struct bpf_tc_opts o;
	int err;

	tc_opts(ifindex, hook, &h, &o);
	err = bpf_tc_hook_create(&h);
	if (err && err != -EEXIST)
		return err;
	o.prog_fd = prog_fd;
	o.flags = BPF_TC_F_REPLACE;
	return bpf_tc_attach(&h, &o);
}

int spritz_attach(int prog_fd, int ifindex, enum spritz_hook hook, const char *pin_dir,
		  enum spritz_attach_mode *mode)
{
	int type = hook == SPRITZ_HOOK_EGRESS ? SPRITZ_BPF_TCX_EGRESS : SPRITZ_BPF_TCX_INGRESS;
	char path[256];
	int fd, err;

	if (mode)
		*mode = SPRITZ_ATTACH_NONE;
	err = spritz_link_pin_path(path, sizeof(path), pin_dir, ifindex, hook);
	if (err)
		return err;
	/* Already attached through a pinned link: swap the program in place. */
	fd = bpf_obj_get(path);
	if (fd >= 0 && link_live(fd, ifindex)) {
		err = bpf_link_update(fd, prog_fd, NULL);
		close(fd);
		if (!err && mode)
			*mode = SPRITZ_ATTACH_TCX;
		return err ? -errno : 0;
	}
	if (fd >= 0) {
		/* the pin of a device that is gone (same ifindex reused) */
		close(fd);
		if (unlink(path) && errno != ENOENT)
			return -errno;
	}
	fd = bpf_link_create(prog_fd, ifindex, (enum bpf_attach_type)type, NULL);
	if (fd < 0) {
		err = -errno;
		if (err != -EINVAL)
			return err;
		/* no tcx in this kernel (< 6.6): clsact */
		err = attach_clsact(prog_fd, ifindex, hook);
		if (!err && mode)
			*mode = SPRITZ_ATTACH_CLSACT;
		return err;
	}
	err = mkdir_p(pin_dir);
	if (!err && bpf_obj_pin(fd, path))
		err = -errno;
	close(fd); /* unpinned: closing the last reference detaches */
	if (!err && mode)
		*mode = SPRITZ_ATTACH_TCX;
	return err;
}

enum spritz_attach_mode spritz_attached(int ifindex, enum spritz_hook hook, const char *pin_dir)
{
	char path[256];
	int fd;

	if (!spritz_link_pin_path(path, sizeof(path), pin_dir, ifindex, hook)) {
		fd = bpf_obj_get(path);
		if (fd >= 0) {
			bool live = link_live(fd, ifindex);

			close(fd);
			if (live)
				return SPRITZ_ATTACH_TCX;
		}
	}
	return tc_present(ifindex, hook) > 0 ? SPRITZ_ATTACH_CLSACT : SPRITZ_ATTACH_NONE;
}

int spritz_tc_dump(int type, const struct tcmsg *req, mnl_cb_t cb, void *data)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	unsigned int seq = (unsigned int)time(NULL), portid;
	struct mnl_socket *nl;
	struct nlmsghdr *nlh;
	struct tcmsg *tcm;
	int ret;

	nl = mnl_socket_open(NETLINK_ROUTE);
	if (!nl)
		return -errno;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		ret = -errno;
		goto close_sock;
	}
	portid = mnl_socket_get_portid(nl);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = (__u16)type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = seq;
	tcm = mnl_nlmsg_put_extra_header(nlh, sizeof(*tcm));
	*tcm = *req;
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
		ret = -errno;
		goto close_sock;
	}
	do {
		ssize_t n = mnl_socket_recvfrom(nl, buf, sizeof(buf));

		if (n < 0) {
			ret = -errno;
			break;
		}
		ret = mnl_cb_run(buf, (size_t)n, seq, portid, cb, data);
		if (ret < 0)
			ret = -errno;
	} while (ret > 0);
close_sock:
	mnl_socket_close(nl);
	return ret < 0 ? ret : 0;
}

static int count_cb(const struct nlmsghdr *nlh, void *data)
{
	(void)nlh;
	(*(int *)data)++;
	return MNL_CB_OK;
}

/* Filters under clsact's hook (any owner); <0 on error. */
static int count_filters(int ifindex, enum spritz_hook hook)
{
	struct tcmsg req = {
		.tcm_family = AF_UNSPEC,
		.tcm_ifindex = ifindex,
		.tcm_parent = TC_H_MAKE(TC_H_CLSACT, hook == SPRITZ_HOOK_EGRESS ? TC_H_MIN_EGRESS :
										   TC_H_MIN_INGRESS),
	};
	int n = 0, err;

	err = spritz_tc_dump(RTM_GETTFILTER, &req, count_cb, &n);
	return err ? err : n;
}

int spritz_detach(int ifindex, enum spritz_hook hook, const char *pin_dir)
{
	struct bpf_tc_hook h;
	struct bpf_tc_opts o;
	char path[256];
	int fd, err;

	err = spritz_link_pin_path(path, sizeof(path), pin_dir, ifindex, hook);
	if (err)
		return err;
	fd = bpf_obj_get(path);
	if (fd >= 0) {
		/* detach now rather than when the last reference goes */
		bpf_link_detach(fd);
		close(fd);
		if (unlink(path) && errno != ENOENT)
			return -errno;
		return 0;
	}
	if (tc_present(ifindex, hook) <= 0)
		return 0;
	tc_opts(ifindex, hook, &h, &o);
	err = bpf_tc_detach(&h, &o);
	if (err && err != -ENOENT)
		return err;
	/* Remove clsact once neither of its hooks has a filter left. */
	if (count_filters(ifindex, SPRITZ_HOOK_INGRESS) == 0 &&
	    count_filters(ifindex, SPRITZ_HOOK_EGRESS) == 0) {
		h.attach_point = BPF_TC_INGRESS | BPF_TC_EGRESS;
		err = bpf_tc_hook_destroy(&h);
		if (err == -ENOENT || err == -EINVAL)
			err = 0;
	}
	return err;
}

int spritz_pin_maps(struct bpf_object *obj, const char *pin_dir, const char *const *names,
		    int n)
{
	char path[256];
	int i, err;

	err = mkdir_p(pin_dir);
	if (err)
		return err;
	for (i = 0; i < n; i++) {
		struct bpf_map *m = bpf_object__find_map_by_name(obj, names[i]);

		if (!m) {
			err = -ENOENT;
			break;
		}
		if (snprintf(path, sizeof(path), "%s/%s", pin_dir, names[i]) >=
		    (int)sizeof(path)) {
			err = -ENAMETOOLONG;
			break;
		}
		if (access(path, F_OK) == 0) {
			err = -EEXIST;
			break;
		}
		err = bpf_map__pin(m, path);
		if (err)
			break;
	}
	if (err)
		spritz_unpin_maps(pin_dir, names, i);
	return err;
}

int spritz_unpin_maps(const char *pin_dir, const char *const *names, int n)
{
	char path[256];
	int i, err = 0;

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", pin_dir, names[i]);
		if (unlink(path) && errno != ENOENT && !err)
			err = -errno;
	}
	return err;
}
