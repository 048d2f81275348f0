// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpf/spritz.bpf.c built for selftests/bench/bench_datapath: identical but
 * for one store - egress advances the TCP sequence number of the packet it
 * just handled, so each repeat of BPF_PROG_TEST_RUN is a new data send
 * rather than a retransmission of the previous one.
 */
#define SPRITZ_BENCH 1
#include "spritz.bpf.c"
