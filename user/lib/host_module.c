// SPDX-License-Identifier: GPL-2.0-only
/*
 * spritz.ko: load (modprobe, else a built module), unload (spritz_host.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <spritz/abi.h>

#include "spritz_err.h"
#include "spritz_host.h"

bool spritz_module_loaded(void)
{
	return access("/sys/module/" SPRITZ_MODULE_NAME, F_OK) == 0;
}

/* Directory of the running binary. */
static int exe_dir(char *buf, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return -errno;
	exe[n] = '\0';
	snprintf(buf, len, "%s", dirname(exe));
	return 0;
}

static int run_quiet(const char *const argv[])
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return -1;
	if (!pid) {
		int fd = open("/dev/null", O_WRONLY);

		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int spritz_module_load(char *errbuf, size_t errlen)
{
	static const char *const modprobe[] = { "modprobe", "-q", SPRITZ_MODULE_NAME, NULL };
	char dir[PATH_MAX], ko[PATH_MAX + 64];
	const char *env = getenv("SPRITZ_KO");
	struct utsname u;
	int fd, err;

	if (spritz_module_loaded())
		return 0;
	uname(&u);
	if (run_quiet(modprobe) == 0 && spritz_module_loaded())
		return 1;
	if (env) {
		snprintf(ko, sizeof(ko), "%s", env);
	} else {
		if (exe_dir(dir, sizeof(dir)))
			dir[0] = '\0';
		snprintf(ko, sizeof(ko), "%s/kmod/%s/spritz.ko", dir, u.release);
	}
	fd = open(ko, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		spritz_seterr(errbuf, errlen, "failed to load module spritz: not installed for kernel %s "
			"(modprobe spritz failed and %s is missing): install the packages "
			"dkms and linux-headers-%s, then \"make install-dkms\" in the Spritz "
			"sources (Documentation/deployment.rst, \"Installing\")",
			u.release, ko, u.release);
		return -ENOENT;
	}
	err = (int)syscall(SYS_finit_module, fd, "", 0);
	err = err ? errno : 0;
	close(fd);
	if (err && err != EEXIST) {
		spritz_seterr(errbuf, errlen, "failed to load module %s: %s", ko, strerror(err));
		return -err;
	}
	return err ? 0 : 1;
}

/* rmmod spritz, retrying while BPF programs drop their references. */
int spritz_module_unload(void)
{
	int i;

	for (i = 0; i < 50 && spritz_module_loaded(); i++) {
		if (!syscall(SYS_delete_module, SPRITZ_MODULE_NAME, O_NONBLOCK))
			return 0;
		if (errno == ENOENT)
			return 0;
		usleep(100000);
	}
	return spritz_module_loaded() ? -errno : 0;
}

