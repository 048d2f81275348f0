// SPDX-License-Identifier: GPL-2.0-only
/*
 * A tc program calling a spritz.ko kfunc loads, runs under
 * BPF_PROG_TEST_RUN and sees the module's answer; bpf_spritz_knobs() on a
 * map value the program did not check for NULL refuses a missed lookup;
 * while a program is loaded the module cannot be unloaded.  Runs in the VM
 * with spritz.ko inserted.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <spritz/abi.h>
#include <spritz/knobs.h> /* before the skeletons */

#include "kfunc_smoke.skel.h"
#include "knobs_null.skel.h"
#include "test.h"

static struct kfunc_smoke *skel;

/* A minimal Ethernet frame: tc test runs need at least ETH_HLEN bytes. */
static unsigned char pkt[64] = { [12] = 0x86, [13] = 0xdd };

static void test_load(void)
{
	skel = kfunc_smoke__open_and_load();
	ASSERT_OK_PTR(skel, "kfunc_smoke__open_and_load (needs spritz.ko with module BTF)");
}

static void test_run(void)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = pkt, .data_size_in = sizeof(pkt),
		    .repeat = 3);
	int err;

	if (!ASSERT_OK_PTR(skel, "skeleton"))
		return;
	err = bpf_prog_test_run_opts(bpf_program__fd(skel->progs.kfunc_smoke), &opts);
	ASSERT_OK(err, "bpf_prog_test_run_opts");
	ASSERT_EQ(opts.retval, 0, "retval");
	ASSERT_EQ(skel->bss->runs, 3, "runs");
	ASSERT_EQ(skel->bss->abi_version, SPRITZ_ABI_VERSION, "abi_version from kfunc");
}

/*
 * bpf_spritz_knobs(v, sizeof(*v)) with v straight from a hash map lookup:
 * the verifier accepts it (the memory of a pointer + __sz pair may be
 * NULL), so a missing key hands the kfunc NULL, which it refuses with
 * -EINVAL (before the fix: an oops); a present key gets the knobs.
 */
static void test_knobs_maybe_null(void)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = pkt, .data_size_in = sizeof(pkt),
		    .repeat = 1);
	struct spritz_knob_values v = { 0 };
	struct knobs_null *k;
	__u32 key = 0;
	int fd;

	k = knobs_null__open_and_load();
	if (!ASSERT_OK_PTR(k, "knobs_null__open_and_load (a maybe-NULL map value is accepted)"))
		return;
	fd = bpf_program__fd(k->progs.knobs_lookup);
	k->bss->key = 1;
	ASSERT_OK(bpf_prog_test_run_opts(fd, &opts), "run, key missing");
	ASSERT_EQ(k->data->ret, -EINVAL, "NULL map value refused");

	ASSERT_OK(bpf_map_update_elem(bpf_map__fd(k->maps.knob_vals), &key, &v, BPF_ANY),
		  "insert key 0");
	k->bss->key = 0;
	ASSERT_OK(bpf_prog_test_run_opts(fd, &opts), "run, key present");
	ASSERT_EQ(k->data->ret, 0, "map value filled");
	ASSERT_OK(bpf_map_lookup_elem(bpf_map__fd(k->maps.knob_vals), &key, &v), "lookup");
	/* the module was just loaded: the defaults */
	ASSERT_EQ(v.w_scale, SPRITZ_DEF_W_SCALE, "w_scale");
	ASSERT_EQ(v.disable_ms, SPRITZ_DEF_DISABLE_MS, "disable_ms");
	knobs_null__destroy(k);
}

static void test_unload_refused(void)
{
	long ret;

	if (!ASSERT_OK_PTR(skel, "skeleton"))
		return;
	/* The loaded program holds a reference on the kfuncs' module. */
	ret = syscall(SYS_delete_module, SPRITZ_MODULE_NAME, O_NONBLOCK);
	ASSERT_EQ(ret, -1, "delete_module while a program uses kfuncs");
	ASSERT_TRUE(errno == EWOULDBLOCK || errno == EBUSY, "errno is EBUSY/EWOULDBLOCK");
}

static void test_destroy(void)
{
	kfunc_smoke__destroy(skel);
	skel = NULL;
}

static const struct test_case cases[] = {
	{ "load", test_load },
	{ "run", test_run },
	{ "knobs_maybe_null", test_knobs_maybe_null },
	{ "unload_refused", test_unload_refused },
	{ "destroy", test_destroy },
};

TEST_MAIN(cases)
