// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench_paths: time and peak memory to build one switch's complete
 * endpoint table (every destination's EV entry list, sorted, with
 * latencies) for the paper's two large fabrics: Slim Fly q = 29 and
 * Dragonfly a = 20, h = 10 (issue goal: <= 0.3 s and <= 64 MiB each on one
 * core).  Each case runs in its own child process so that getrusage()'s
 * peak RSS is that case's alone.  Prints figures; never fails on a number.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "paths.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Build the fabric and switch src's table; print one line. */
static int run(const char *spec, int src)
{
	struct spritz_table *tb;
	struct spritz_topo *t;
	struct rusage ru;
	double t0, t1, t2;
	char err[256];

	t0 = now();
	if (spritz_topo_parse(spec, &t, err, sizeof(err))) {
		fprintf(stderr, "bench_paths: failed to build %s: %s\n", spec, err);
		return 1;
	}
	t1 = now();
	if (spritz_table_build(t, src, &tb)) {
		fprintf(stderr, "bench_paths: failed to build the table of %s\n", spec);
		return 1;
	}
	t2 = now();
	getrusage(RUSAGE_SELF, &ru);
	printf("%-26s switch %d: %zu paths in %d lists (%.2f MiB at 3 B/entry); "
	       "fabric %.3f s + table %.3f s = %.3f s; peak RSS %.1f MiB\n",
	       spec, src, tb->npaths, t->nsw - 1,
	       tb->npaths * SPRITZ_EV_ENTRY_BYTES / 1048576.0, t1 - t0, t2 - t1, t2 - t0,
	       ru.ru_maxrss / 1024.0);
	fflush(stdout); /* the child leaves with _exit() */
	spritz_table_free(tb);
	spritz_topo_free(t);
	return 0;
}

int main(void)
{
	static const char *specs[] = { "slimfly:q=29,p=22", "dragonfly:p=10,a=20,h=10" };
	size_t i;
	int rc = 0;

	printf("# one switch's complete table, one core; goal <= 0.3 s and <= 64 MiB each\n");
	fflush(stdout);
	for (i = 0; i < ARRAY_SIZE(specs); i++) {
		pid_t pid = fork();
		int st;

		if (pid == 0)
			_exit(run(specs[i], 0));
		if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			rc = 1;
	}
	return rc;
}
