// SPDX-License-Identifier: GPL-2.0-only
/*
 * Leaves spritz.ko as busy as possible for the next rmmod (run by
 * selftests/kmod/cycles.sh between insmod and rmmod): a live table with a
 * 4096-path list, picks done through a BPF program (then detached),
 * disabled paths with their re-enable timer armed for a minute, a pending
 * sampler rebuild, and an open transaction with a staged list.  A
 * transaction lives as long as its socket, so a child process keeps the
 * socket open through the rmmod; its pid goes to $SPRITZ_HOLDER_PIDFILE,
 * and whoever runs the test kills it after the rmmod.  rmmod must then
 * succeed and free all of it.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "kmod_util.h"
#include "pick.skel.h"
#include "test.h"

static struct spritz_nl_path big[SPRITZ_MAX_PATHS];

/* A child that keeps the open socket (and so its transaction) until killed. */
static void hold_socket(void)
{
	const char *pidfile = getenv("SPRITZ_HOLDER_PIDFILE");
	FILE *f;
	pid_t pid;

	if (!pidfile)
		return;
	pid = fork();
	if (pid == 0) {
		for (;;)
			pause();
	}
	if (!ASSERT_GT(pid, 0, "fork holder"))
		return;
	f = fopen(pidfile, "w");
	if (ASSERT_OK_PTR(f, "pidfile")) {
		fprintf(f, "%d\n", (int)pid);
		fclose(f);
	}
}

static void test_busy(void)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = NULL, .repeat = 10);
	unsigned char pkt[64] = { [12] = 0x86, [13] = 0xdd };
	struct spritz_nl_dest d[2] = {
		{ .dst = 1, .npaths = SPRITZ_MAX_PATHS, .paths = big },
		{ .dst = 2, .npaths = 16, .paths = big },
	};
	struct spritz_nl *nl;
	struct pick *skel;
	char err[256];
	int i;

	for (i = 0; i < SPRITZ_MAX_PATHS; i++)
		big[i] = (struct spritz_nl_path){ .ev = (uint16_t)i, .lat_class = i % 3,
						  .base_weight = SPRITZ_WEIGHT_ONE * (1 + i % 3) };
	if (!ASSERT_OK(spritz_nl_open(&nl, err, sizeof(err)), "open"))
		return;
	if (!ASSERT_OK(spritz_nl_load(nl, 0, 64, d, 2, err, sizeof(err)), "load"))
		printf("# %s\n", err);
	ASSERT_OK(knob_set("disable_ms", 60000), "disable_ms");
	skel = pick__open_and_load();
	if (ASSERT_OK_PTR(skel, "pick__open_and_load")) {
		opts.data_in = pkt;
		opts.data_size_in = sizeof(pkt);
		skel->bss->dst = 1;
		ASSERT_OK(bpf_prog_test_run_opts(bpf_program__fd(skel->progs.pick), &opts), "picks");
		ASSERT_EQ(skel->bss->errors, 0, "pick errors");
		opts.repeat = 1;
		for (i = 0; i < 8; i++) {
			skel->bss->ev = (uint16_t)(i * 7);
			bpf_prog_test_run_opts(bpf_program__fd(skel->progs.timeout), &opts);
			ASSERT_OK(skel->bss->timeout_ret, "timeout");
		}
		pick__destroy(skel);
	}
	ASSERT_OK(knob_set("w_scale", 4), "w_scale (rebuild)");
	ASSERT_OK(spritz_nl_begin(nl, 0, 64, err, sizeof(err)), "begin");
	ASSERT_OK(spritz_nl_set(nl, 3, big, 100, err, sizeof(err)), "staged set");
	ASSERT_EQ(knob_get("staging"), 1, "staged");
	hold_socket();
	spritz_nl_close(nl);
}

static const struct test_case cases[] = {
	{ "busy", test_busy },
};

TEST_MAIN(cases)
