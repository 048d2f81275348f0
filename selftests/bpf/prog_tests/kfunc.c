// SPDX-License-Identifier: GPL-2.0-only
/*
 * A tc program calling a spritz.ko kfunc loads, runs under
 * BPF_PROG_TEST_RUN and sees the module's answer; while it is loaded the
 * module cannot be unloaded.  Runs in the VM with spritz.ko inserted.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <spritz/abi.h>

#include "kfunc_smoke.skel.h"
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
	{ "unload_refused", test_unload_refused },
	{ "destroy", test_destroy },
};

TEST_MAIN(cases)
