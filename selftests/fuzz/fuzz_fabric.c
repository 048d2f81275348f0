// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fabric files (user/lib/fabric.c, Documentation/fabric-file.rst).  Every
 * input goes through spritz_fabric_parse(); for an accepted fabric the
 * paths from switch 0 to its first FUZZ_MAX_DST destinations are listed
 * and each EV is followed hop by hop (spritz_ev_route()).
 *
 * Promises checked: an error names the file, builds nothing and says why;
 * every listed path routes to its destination over local_hops +
 * global_hops hops whose latencies add up (in 64 bits) to latency_ps; lists
 * are sorted minimal first, then by latency.
 */
#include <errno.h>

#include "fuzz.h"
#include "paths.h"

#define FUZZ_MAX_DST 32

static void check_paths(struct spritz_topo *t)
{
	int cap = spritz_paths_cap(t, 0), d, i, k;
	struct spritz_path *p = malloc(sizeof(*p) * (cap ? cap : 1));
	int seq[SPRITZ_PATH_MAX_HOPS + 2];

	if (!p)
		return;
	for (d = 1; d < t->nsw && d <= FUZZ_MAX_DST; d++) {
		int n = spritz_paths_list(t, 0, d, p, cap);

		FUZZ_CHECK(n >= 0 && n <= cap, "0 -> %d: %d paths, cap %d", d, n, cap);
		for (i = 0; i < n; i++) {
			int len = spritz_ev_route(t, 0, d, p[i].ev, seq,
						  (int)(ARRAY_SIZE(seq)));
			uint64_t lat = 0;

			FUZZ_CHECK(len >= 2 && seq[len - 1] == d, "0 -> %d: EV 0x%04x routes to %d",
				   d, p[i].ev, len >= 1 ? seq[len - 1] : -1);
			FUZZ_CHECK(len - 1 == p[i].local_hops + p[i].global_hops,
				   "0 -> %d: EV 0x%04x: %d hops", d, p[i].ev, len - 1);
			for (k = 0; k + 1 < len; k++)
				lat += spritz_topo_hop_ps(
					t, seq[k], spritz_topo_port_of(t, seq[k], seq[k + 1]));
			FUZZ_CHECK(lat == p[i].latency_ps,
				   "0 -> %d: EV 0x%04x: %llu ps, listed %llu", d, p[i].ev,
				   (unsigned long long)lat, (unsigned long long)p[i].latency_ps);
			if (i && spritz_path_minimal(t, 0, d, &p[i - 1]) ==
					 spritz_path_minimal(t, 0, d, &p[i]))
				FUZZ_CHECK(p[i - 1].latency_ps <= p[i].latency_ps,
					   "0 -> %d: not sorted by latency", d);
			if (i)
				FUZZ_CHECK(spritz_path_minimal(t, 0, d, &p[i - 1]) ||
						   !spritz_path_minimal(t, 0, d, &p[i]),
					   "0 -> %d: minimal path after a non-minimal one", d);
		}
	}
	free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct spritz_topo *t = NULL;
	char *text = fuzz_string(data, size), err[512] = "";
	int ret;

	if (!text)
		return 0;
	ret = spritz_fabric_parse(text, "fuzz", &t, err, sizeof(err));
	if (ret) {
		FUZZ_CHECK(ret < 0, "ret %d", ret);
		FUZZ_CHECK(!t, "a rejected file built a fabric");
		FUZZ_CHECK(!strncmp(err, "fuzz:", 5), "message \"%s\" does not name the file", err);
	} else {
		FUZZ_CHECK(t && t->nsw >= 1, "no fabric");
		check_paths(t);
	}
	spritz_topo_free(t);
	free(text);
	return 0;
}
