// SPDX-License-Identifier: GPL-2.0-only
/*
 * user/lib/spritz_attach: spritz_egress and spritz_ingress attached to a
 * dummy device - through pinned tcx links on kernels >= 6.6, as clsact
 * filters before - re-attached in place, detached with nothing left (no
 * pinned link, no filter, no clsact qdisc), 50 attach/detach cycles, and the
 * maps pinned and unpinned, with an occupied pin path refused and rolled
 * back.
 *
 * Runs in the VM as root with spritz.ko inserted (with-module.sh).
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <spritz/maps.h>

#include "spritz_attach.h"
#include "test.h"

/*
 * The object is opened by file rather than through the skeleton so that
 * this test depends only on the program and map names of spritz.bpf.c.
 */
struct spritz {
	struct bpf_object *obj;
	int egress_fd, ingress_fd;
};

/* $OUT/bpf/spritz.bpf.o, from this binary at $OUT/selftests/bpf/attach. */
static struct spritz *dp_open_load(void)
{
	char exe[PATH_MAX], path[PATH_MAX + 32];
	struct spritz *s;
	ssize_t n;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return NULL;
	exe[n] = 0;
	snprintf(path, sizeof(path), "%s/../../bpf/spritz.bpf.o", dirname(exe));
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->obj = bpf_object__open_file(path, NULL);
	if (!s->obj || bpf_object__load(s->obj)) {
		printf("# failed to load %s: %s\n", path, strerror(errno));
		bpf_object__close(s->obj);
		free(s);
		return NULL;
	}
	s->egress_fd = bpf_program__fd(bpf_object__find_program_by_name(s->obj, "spritz_egress"));
	s->ingress_fd = bpf_program__fd(bpf_object__find_program_by_name(s->obj, "spritz_ingress"));
	return s;
}

static void spritz__destroy(struct spritz *s)
{
	if (!s)
		return;
	bpf_object__close(s->obj);
	free(s);
}

#define DEV "spztest0"
#define PIN "/sys/fs/bpf/spritz_test_attach"

static const char *const map_names[] = { SPRITZ_MAP_DIR, SPRITZ_MAP_UDP, SPRITZ_MAP_FLOWS,
					 SPRITZ_MAP_STATS };

/* tcx is expected from 6.6 on. */
static enum spritz_attach_mode want_mode(void)
{
	struct utsname u;
	int maj = 0, min = 0;

	uname(&u);
	sscanf(u.release, "%d.%d", &maj, &min);
	return maj > 6 || (maj == 6 && min >= 6) ? SPRITZ_ATTACH_TCX : SPRITZ_ATTACH_CLSACT;
}

/* BPF links of type tcx (BPF_LINK_TYPE_TCX = 11, Linux 6.6) in the system. */
static int tcx_links(void)
{
	__u32 id = 0;
	int n = 0;

	while (!bpf_link_get_next_id(id, &id)) {
		struct bpf_link_info info = {};
		__u32 len = sizeof(info);
		int fd = bpf_link_get_fd_by_id(id);

		if (fd < 0)
			continue;
		if (!bpf_obj_get_info_by_fd(fd, &info, &len) && info.type == 11)
			n++;
		close(fd);
	}
	return n;
}

static int sh(const char *cmd)
{
	int r = system(cmd);

	return WIFEXITED(r) ? WEXITSTATUS(r) : -1;
}

static int setup(struct spritz **skel)
{
	mkdir("/sys/fs/bpf", 0755);
	if (sh("mount | grep -q ' /sys/fs/bpf type bpf'"))
		mount("bpf", "/sys/fs/bpf", "bpf", 0, NULL);
	sh("ip link del " DEV " 2>/dev/null");
	if (!ASSERT_OK(sh("ip link add " DEV " type dummy && ip link set " DEV " up"), "dummy"))
		return -1;
	*skel = dp_open_load();
	if (!ASSERT_OK_PTR(*skel, "load"))
		return -1;
	return (int)if_nametoindex(DEV);
}

static void teardown(struct spritz *skel)
{
	spritz__destroy(skel);
	sh("ip link del " DEV " 2>/dev/null");
	rmdir(PIN);
}

/* Nothing of ours left on the device or in the pin directory. */
static void check_clean(int ifindex)
{
	char path[256];
	int h;

	for (h = SPRITZ_HOOK_INGRESS; h <= SPRITZ_HOOK_EGRESS; h++) {
		ASSERT_EQ(spritz_attached(ifindex, h, PIN), SPRITZ_ATTACH_NONE, "detached");
		spritz_link_pin_path(path, sizeof(path), PIN, ifindex, h);
		ASSERT_TRUE(access(path, F_OK) != 0, "link unpinned");
	}
	ASSERT_TRUE(sh("tc filter show dev " DEV " ingress | grep -q .") != 0, "no ingress filter");
	ASSERT_TRUE(sh("tc filter show dev " DEV " egress | grep -q .") != 0, "no egress filter");
	ASSERT_TRUE(sh("tc qdisc show dev " DEV " | grep -q clsact") != 0, "no clsact");
	ASSERT_EQ(tcx_links(), 0, "no tcx link");
}

static int attach_both(struct spritz *skel, int ifindex, enum spritz_attach_mode *m)
{
	int err;

	err = spritz_attach(skel->egress_fd, ifindex,
			    SPRITZ_HOOK_EGRESS, PIN, &m[0]);
	if (!err)
		err = spritz_attach(skel->ingress_fd, ifindex,
				    SPRITZ_HOOK_INGRESS, PIN, &m[1]);
	return err;
}

static void test_attach_detach(void)
{
	enum spritz_attach_mode m[2], want = want_mode();
	struct spritz *skel = NULL;
	int ifindex;

	ifindex = setup(&skel);
	if (ifindex <= 0)
		goto out;
	printf("# mode: %s\n", spritz_attach_mode_name(want));
	if (!ASSERT_OK(attach_both(skel, ifindex, m), "attach"))
		goto out;
	ASSERT_EQ(m[0], want, "egress mode");
	ASSERT_EQ(m[1], want, "ingress mode");
	ASSERT_EQ(spritz_attached(ifindex, SPRITZ_HOOK_EGRESS, PIN), want, "egress attached");
	ASSERT_EQ(spritz_attached(ifindex, SPRITZ_HOOK_INGRESS, PIN), want, "ingress attached");
	if (want == SPRITZ_ATTACH_CLSACT) {
		ASSERT_OK(sh("tc filter show dev " DEV " egress | grep -q 'spritz_egress'"),
			  "egress filter");
		ASSERT_OK(sh("tc filter show dev " DEV " ingress | grep -q 'spritz_ingress'"),
			  "ingress filter");
	}
	/* again: replaced in place, still exactly one of each */
	ASSERT_OK(attach_both(skel, ifindex, m), "attach again");
	ASSERT_EQ(m[0], want, "egress mode again");
	if (want == SPRITZ_ATTACH_CLSACT)
		ASSERT_OK(sh("test $(tc filter show dev " DEV " egress | grep -c 'spritz_egress') = 1"),
			  "one egress filter");
	else
		ASSERT_EQ(tcx_links(), 2, "two tcx links");
	ASSERT_OK(spritz_detach(ifindex, SPRITZ_HOOK_EGRESS, PIN), "detach egress");
	ASSERT_OK(spritz_detach(ifindex, SPRITZ_HOOK_INGRESS, PIN), "detach ingress");
	check_clean(ifindex);
	/* detaching twice is fine */
	ASSERT_OK(spritz_detach(ifindex, SPRITZ_HOOK_EGRESS, PIN), "detach again");
out:
	teardown(skel);
}

/* A foreign filter on clsact keeps the qdisc (6.1 only). */
static void test_foreign_filter(void)
{
	enum spritz_attach_mode m[2];
	struct spritz *skel = NULL;
	int ifindex;

	if (want_mode() != SPRITZ_ATTACH_CLSACT) {
		test__skip("tcx kernel");
		return;
	}
	ifindex = setup(&skel);
	if (ifindex <= 0)
		goto out;
	ASSERT_OK(sh("tc qdisc add dev " DEV " clsact && tc filter add dev " DEV
		     " ingress prio 7 matchall action pass"), "foreign filter");
	ASSERT_OK(attach_both(skel, ifindex, m), "attach");
	ASSERT_OK(spritz_detach(ifindex, SPRITZ_HOOK_EGRESS, PIN), "detach egress");
	ASSERT_OK(spritz_detach(ifindex, SPRITZ_HOOK_INGRESS, PIN), "detach ingress");
	ASSERT_OK(sh("tc filter show dev " DEV " ingress | grep -q matchall"), "foreign kept");
	ASSERT_OK(sh("tc qdisc show dev " DEV " | grep -q clsact"), "clsact kept");
	ASSERT_TRUE(sh("tc filter show dev " DEV " egress | grep -q .") != 0, "ours gone");
out:
	teardown(skel);
}

static void test_cycles(void)
{
	enum spritz_attach_mode m[2];
	struct spritz *skel = NULL;
	int ifindex, i;

	ifindex = setup(&skel);
	if (ifindex <= 0)
		goto out;
	for (i = 0; i < 50; i++) {
		if (!ASSERT_OK(attach_both(skel, ifindex, m), "attach"))
			break;
		if (!ASSERT_OK(spritz_detach(ifindex, SPRITZ_HOOK_EGRESS, PIN), "detach egress") ||
		    !ASSERT_OK(spritz_detach(ifindex, SPRITZ_HOOK_INGRESS, PIN), "detach ingress"))
			break;
	}
	ASSERT_EQ(i, 50, "cycles");
	check_clean(ifindex);
out:
	teardown(skel);
}

static void test_pin_maps(void)
{
	struct spritz *skel = NULL;
	char path[256];
	int i, ifindex;

	ifindex = setup(&skel);
	if (ifindex <= 0)
		goto out;
	if (!ASSERT_OK(spritz_pin_maps(skel->obj, PIN, map_names, 4), "pin"))
		goto out;
	for (i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), PIN "/%s", map_names[i]);
		ASSERT_OK(access(path, F_OK), "pinned");
	}
	ASSERT_EQ(spritz_pin_maps(skel->obj, PIN, map_names, 4), -EEXIST, "pin twice");
	ASSERT_OK(access(PIN "/" SPRITZ_MAP_DIR, F_OK), "first pin kept");
	ASSERT_OK(spritz_unpin_maps(PIN, map_names, 4), "unpin");
	for (i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), PIN "/%s", map_names[i]);
		ASSERT_TRUE(access(path, F_OK) != 0, "unpinned");
	}
	/* occupied path in the middle: refused, the ones before rolled back */
	ASSERT_OK(bpf_obj_pin(bpf_map__fd(bpf_object__find_map_by_name(skel->obj, SPRITZ_MAP_STATS)), PIN "/" SPRITZ_MAP_FLOWS),
		  "occupy");
	ASSERT_EQ(spritz_pin_maps(skel->obj, PIN, map_names, 4), -EEXIST, "occupied");
	ASSERT_TRUE(access(PIN "/" SPRITZ_MAP_DIR, F_OK) != 0, "rolled back");
	ASSERT_TRUE(access(PIN "/" SPRITZ_MAP_UDP, F_OK) != 0, "rolled back");
	ASSERT_OK(access(PIN "/" SPRITZ_MAP_FLOWS, F_OK), "foreign pin kept");
	unlink(PIN "/" SPRITZ_MAP_FLOWS);
out:
	teardown(skel);
}

static const struct test_case cases[] = {
	{ "attach_detach", test_attach_detach },
	{ "foreign_filter", test_foreign_filter },
	{ "cycles", test_cycles },
	{ "pin_maps", test_pin_maps },
};

TEST_MAIN(cases)
