// SPDX-License-Identifier: GPL-2.0-only
/*
 * spritzctl up / down: bring the host datapath up on one device and take
 * it down again (Documentation/deployment.rst).
 *
 * up, in order, each step undone in reverse if a later one fails:
 *   1. spritz.ko: "modprobe spritz", else finit_module of $SPRITZ_KO or of
 *      kmod/$(uname -r)/spritz.ko next to the spritzctl binary (an
 *      uninstalled checkout: build/spritzctl, build/kmod/KVER/spritz.ko);
 *   2. this host's table (source switch N) pushed over netlink;
 *   3. the BPF object ($SPRITZ_BPF_OBJ, else bpf/spritz.bpf.o next to the
 *      binary) loaded, spritz_dir filled from the address plan;
 *   4. its maps pinned under /sys/fs/bpf/spritz/;
 *   5. spritz_egress and spritz_ingress attached (spritz_attach.h).
 * Running up on a device where Spritz is already up changes nothing; up on
 * a second device is refused (one device per host for now).
 *
 * down detaches from the device(s), unpins, flushes the table and unloads
 * spritz.ko (if nothing else holds it).
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <spritz/knobs.h>
#include <spritz/maps.h>
#include <spritz/netlink.h>

#include "spritz_attach.h"
#include "spritz_nl.h"
#include "spritzctl.h"

static const char *const map_names[] = { SPRITZ_MAP_DIR, SPRITZ_MAP_UDP, SPRITZ_MAP_FLOWS,
					 SPRITZ_MAP_STATS };
#define NMAPS 4

static int quiet_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

/* dir of the running binary into buf */
static int exe_dir(char *buf, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return -errno;
	exe[n] = 0;
	snprintf(buf, len, "%s", dirname(exe));
	return 0;
}

static bool module_loaded(void)
{
	return access("/sys/module/spritz", F_OK) == 0;
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

/* Load spritz.ko: 1 loaded now, 0 already there, -1 failed (printed). */
static int load_module(void)
{
	static const char *const modprobe[] = { "modprobe", "-q", "spritz", NULL };
	char dir[PATH_MAX], ko[PATH_MAX + 64];
	const char *env = getenv("SPRITZ_KO");
	struct utsname u;
	int fd, err;

	if (module_loaded())
		return 0;
	uname(&u);
	if (run_quiet(modprobe) == 0 && module_loaded())
		return 1;
	if (env) {
		snprintf(ko, sizeof(ko), "%s", env);
	} else {
		if (exe_dir(dir, sizeof(dir)))
			dir[0] = 0;
		snprintf(ko, sizeof(ko), "%s/kmod/%s/spritz.ko", dir, u.release);
	}
	fd = open(ko, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ctl_err("failed to load module spritz: not installed for kernel %s "
			"(modprobe spritz failed and %s is missing; install spritz.ko "
			"for this kernel, e.g. \"make kmod KVER=%s\" in the checkout)",
			u.release, ko, u.release);
		return -1;
	}
	err = (int)syscall(SYS_finit_module, fd, "", 0);
	err = err ? errno : 0;
	close(fd);
	if (err && err != EEXIST) {
		ctl_err("failed to load module %s: %s", ko, strerror(err));
		return -1;
	}
	return err ? 0 : 1;
}

/* rmmod spritz, retrying while BPF programs drop their references. */
static int unload_module(void)
{
	int i;

	for (i = 0; i < 50 && module_loaded(); i++) {
		if (!syscall(SYS_delete_module, "spritz", O_NONBLOCK))
			return 0;
		if (errno == ENOENT)
			return 0;
		usleep(100000);
	}
	return module_loaded() ? -errno : 0;
}

static unsigned int knob_w_scale(void)
{
	char buf[32] = "";
	int fd = open("/sys/kernel/spritz/w_scale", O_RDONLY);

	if (fd >= 0) {
		if (read(fd, buf, sizeof(buf) - 1) < 0)
			buf[0] = 0;
		close(fd);
	}
	return atoi(buf) > 0 ? (unsigned int)atoi(buf) : SPRITZ_DEF_W_SCALE;
}

/* Push the table of source switch src. */
static int push_table(struct spritz_topo *t, int src)
{
	struct spritz_nl_dest *dests = NULL;
	struct spritz_nl_path *paths = NULL;
	struct spritz_table *tb = NULL;
	struct spritz_nl *nl = NULL;
	unsigned int ws = knob_w_scale();
	char err[256] = "";
	size_t nd = 0, k = 0;
	int d, ret;

	ret = spritz_table_build(t, src, &tb);
	if (ret) {
		ctl_err("failed to build table of switch %d: %s", src, strerror(-ret));
		return -1;
	}
	dests = calloc((size_t)tb->nsw, sizeof(*dests));
	paths = calloc(tb->npaths ? tb->npaths : 1, sizeof(*paths));
	if (!dests || !paths) {
		ctl_err("failed to build table of switch %d: out of memory", src);
		ret = -1;
		goto out;
	}
	for (d = 0; d < tb->nsw; d++) {
		uint32_t i, n = tb->off[d + 1] - tb->off[d];
		const struct spritz_path *p = tb->paths + tb->off[d];
		uint32_t longest;

		if (!n || d == src)
			continue;
		longest = spritz_paths_longest(p, (int)n);
		dests[nd] = (struct spritz_nl_dest){ .dst = (uint32_t)d, .npaths = n,
						     .paths = paths + k };
		for (i = 0; i < n; i++, k++)
			paths[k] = (struct spritz_nl_path){
				.ev = p[i].ev, .lat_class = p[i].lat_class,
				.base_weight = (uint32_t)(spritz_weight(p[i].latency_ps, longest, ws) *
							  SPRITZ_WEIGHT_ONE + 0.5) ?: 1 };
		nd++;
	}
	ret = spritz_nl_open(&nl, err, sizeof(err));
	if (!ret)
		ret = spritz_nl_load(nl, (uint32_t)src, (uint32_t)tb->nsw, dests, nd, err,
				     sizeof(err));
	if (ret) {
		ctl_err("failed to load table into spritz.ko: %s", err[0] ? err : strerror(-ret));
		ret = -1;
	}
out:
	spritz_nl_close(nl);
	free(paths);
	free(dests);
	spritz_table_free(tb);
	return ret;
}

static void flush_table(void)
{
	struct spritz_nl *nl;
	char err[256];

	if (!spritz_nl_open(&nl, err, sizeof(err))) {
		spritz_nl_flush(nl, SPRITZ_NL_ALL, err, sizeof(err));
		spritz_nl_close(nl);
	}
}

/* The algorithm knob; 0 or -1 with errno set. */
static int read_algorithm(char *buf, size_t len)
{
	int fd = open("/sys/kernel/spritz/algorithm", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

static int write_algorithm(const char *name)
{
	int fd = open("/sys/kernel/spritz/algorithm", O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, name, strlen(name));
	close(fd);
	return n < 0 ? -1 : 0;
}

struct addr_plan {
	uint8_t prefix[16];
	int plen;
};

/* "PREFIX/L", L <= 48 */
static int parse_plan(const char *s, struct addr_plan *ap)
{
	char buf[64], *slash;
	long l;

	if (snprintf(buf, sizeof(buf), "%s", s) >= (int)sizeof(buf))
		return -1;
	slash = strchr(buf, '/');
	if (!slash)
		return -1;
	*slash = 0;
	l = ctl_parse_long(slash + 1, 48);
	if (l < 0 || inet_pton(AF_INET6, buf, ap->prefix) != 1)
		return -1;
	ap->plen = (int)l;
	return 0;
}

/* Switch s's /64: the 16 bits after the prefix hold s, the rest up to /64 zero. */
static void plan_addr(const struct addr_plan *ap, int s, uint8_t out[16])
{
	int bit, i;

	memset(out, 0, 16);
	for (bit = 0; bit < ap->plen; bit++)
		if (ap->prefix[bit / 8] & (0x80 >> (bit % 8)))
			out[bit / 8] |= (uint8_t)(0x80 >> (bit % 8));
	for (i = 0; i < 16; i++) {
		bit = ap->plen + i;
		if (s & (0x8000 >> i))
			out[bit / 8] |= (uint8_t)(0x80 >> (bit % 8));
	}
}

static int fill_dir(struct bpf_object *obj, const struct addr_plan *ap, int nsw, int self)
{
	struct bpf_map *m = bpf_object__find_map_by_name(obj, SPRITZ_MAP_DIR);
	int s;

	for (s = 0; m && s < nsw; s++) {
		struct spritz_dir_key k = { .prefixlen = 64 };
		struct spritz_dir_val v = { .dst_switch = (uint32_t)s };

		if (s == self)
			continue;
		plan_addr(ap, s, k.addr);
		if (bpf_map_update_elem(bpf_map__fd(m), &k, &v, BPF_ANY)) {
			ctl_err("failed to fill host directory: %s", strerror(errno));
			return -1;
		}
	}
	if (!m) {
		ctl_err("failed to fill host directory: no map %s", SPRITZ_MAP_DIR);
		return -1;
	}
	return 0;
}

static struct bpf_object *load_obj(void)
{
	char dir[PATH_MAX], path[PATH_MAX + 32];
	const char *env = getenv("SPRITZ_BPF_OBJ");
	struct bpf_object *obj;

	if (env) {
		snprintf(path, sizeof(path), "%s", env);
	} else {
		if (exe_dir(dir, sizeof(dir)))
			dir[0] = 0;
		snprintf(path, sizeof(path), "%s/bpf/spritz.bpf.o", dir);
	}
	obj = bpf_object__open_file(path, NULL);
	if (!obj) {
		ctl_err("failed to open BPF object %s: %s", path, strerror(errno));
		return NULL;
	}
	if (bpf_object__load(obj)) {
		ctl_err("failed to load BPF object %s: %s", path, strerror(errno));
		bpf_object__close(obj);
		return NULL;
	}
	return obj;
}

static bool is_up(int ifindex)
{
	char path[256];

	snprintf(path, sizeof(path), SPRITZ_PIN_DIR "/%s", SPRITZ_MAP_DIR);
	return access(path, F_OK) == 0 && module_loaded() &&
	       spritz_attached(ifindex, SPRITZ_HOOK_EGRESS, SPRITZ_PIN_DIR) != SPRITZ_ATTACH_NONE &&
	       spritz_attached(ifindex, SPRITZ_HOOK_INGRESS, SPRITZ_PIN_DIR) != SPRITZ_ATTACH_NONE;
}

enum { OPT_DEV = OPT_FIRST_CMD, OPT_TOPO, OPT_SWITCH, OPT_ADDR_PLAN, OPT_ALGORITHM };

static bool need_root(const char *what)
{
	if (geteuid() == 0)
		return true;
	ctl_err("failed to %s: permission denied (must be root)", what);
	return false;
}

int cmd_up(int argc, char **argv)
{
	static const struct option longopts[] = {
		CTL_COMMON_LONGOPTS,
		{ "dev", required_argument, NULL, OPT_DEV },
		{ "topo", required_argument, NULL, OPT_TOPO },
		{ "switch", required_argument, NULL, OPT_SWITCH },
		{ "addr-plan", required_argument, NULL, OPT_ADDR_PLAN },
		{ "algorithm", required_argument, NULL, OPT_ALGORITHM },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const algos[] = SPRITZ_ALGO_NAMES;
	const char *dev = NULL, *topo = NULL, *plan = NULL, *algo = NULL;
	struct spritz_topo *t = NULL;
	struct bpf_object *obj = NULL;
	struct ctl_link_opts lo;
	struct addr_plan ap;
	int opt, ifindex, loaded = 0, ret = EXIT_FAIL, err;
	bool table = false, pinned = false, eg = false, algo_set = false;
	char prev_algo[32];
	long sw = -1;
	size_t i;

	ctl_link_opts_init(&lo);
	while ((opt = getopt_long(argc, argv, CTL_COMMON_SHORTOPTS, longopts, NULL)) != -1) {
		int r = ctl_common_opt(opt, optarg, &lo, "up");

		if (r < 0)
			return EXIT_USAGE;
		if (r)
			continue;
		switch (opt) {
		case OPT_DEV: dev = optarg; break;
		case OPT_TOPO: topo = optarg; break;
		case OPT_SWITCH:
			sw = ctl_parse_long(optarg, 1 << 30);
			if (sw < 0) {
				ctl_err("failed to parse --switch \"%s\": expected a switch id", optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_ADDR_PLAN: plan = optarg; break;
		case OPT_ALGORITHM: algo = optarg; break;
		default:
			ctl_cmd_usage("up", stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc || !dev || !topo || sw < 0 || !plan) {
		ctl_err("failed to parse up arguments: --dev, --topo, --switch and --addr-plan "
			"are required");
		ctl_cmd_usage("up", stderr);
		return EXIT_USAGE;
	}
	if (parse_plan(plan, &ap)) {
		ctl_err("failed to parse --addr-plan \"%s\": expected an IPv6 PREFIX/L with "
			"L <= 48, e.g. fd00::/16", plan);
		return EXIT_USAGE;
	}
	if (algo) {
		for (i = 0; i < sizeof(algos) / sizeof(algos[0]); i++)
			if (!strcmp(algo, algos[i]))
				break;
		if (i == sizeof(algos) / sizeof(algos[0])) {
			ctl_err("failed to parse --algorithm \"%s\": expected scout, spray, ops, "
				"ecmp or flicr", algo);
			return EXIT_USAGE;
		}
	}
	ret = ctl_load_topo(topo, &lo, &t);
	if (ret)
		return ret;
	ret = EXIT_USAGE;
	if (sw >= t->nsw) {
		ctl_err("failed to bring up switch %ld: switch id out of range (topology has "
			"%d switches, 0..%d)", sw, t->nsw, t->nsw - 1);
		goto out;
	}
	if (t->nsw > 65536) {
		ctl_err("failed to apply --addr-plan: %d switches do not fit in 16 bits", t->nsw);
		goto out;
	}
	ret = EXIT_FAIL;
	if (!need_root("bring up spritz"))
		goto out;
	ifindex = (int)if_nametoindex(dev);
	if (!ifindex) {
		ctl_err("failed to find device %s: %s", dev, strerror(errno));
		goto out;
	}
	libbpf_set_print(quiet_print);
	if (is_up(ifindex)) {
		printf("spritz is already up on %s\n", dev);
		ret = EXIT_OK;
		goto out;
	}
	if (access(SPRITZ_PIN_DIR "/" SPRITZ_MAP_DIR, F_OK) == 0) {
		/* one device per host for now: its maps and table are shared */
		ctl_err("failed to bring up spritz on %s: already up on another device "
			"(%s exists; spritzctl down first)", dev, SPRITZ_PIN_DIR);
		goto out;
	}
	/* 1. module */
	loaded = load_module();
	if (loaded < 0) {
		loaded = 0;
		goto rollback;
	}
	/* 2. table (+ algorithm) */
	if (push_table(t, (int)sw))
		goto rollback;
	table = true;
	if (algo) {
		if (read_algorithm(prev_algo, sizeof(prev_algo)) ||
		    write_algorithm(algo)) {
			ctl_err("failed to set algorithm: %s", strerror(errno));
			goto rollback;
		}
		algo_set = true;
	}
	/* 3. BPF object, directory */
	obj = load_obj();
	if (!obj || fill_dir(obj, &ap, t->nsw, (int)sw))
		goto rollback;
	/* 4. pins */
	err = spritz_pin_maps(obj, SPRITZ_PIN_DIR, map_names, NMAPS);
	if (err) {
		ctl_err("failed to pin maps under %s: %s%s", SPRITZ_PIN_DIR, strerror(-err),
			err == -EEXIST ? " (a pin path is occupied; spritzctl down, or "
					 "remove it)" : "");
		goto rollback;
	}
	pinned = true;
	/* 5. attach */
	err = spritz_attach(bpf_program__fd(bpf_object__find_program_by_name(obj,
			    "spritz_egress")), ifindex, SPRITZ_HOOK_EGRESS, SPRITZ_PIN_DIR, NULL);
	if (err) {
		ctl_err("failed to attach egress program to %s: %s", dev, strerror(-err));
		goto rollback;
	}
	eg = true;
	err = spritz_attach(bpf_program__fd(bpf_object__find_program_by_name(obj,
			    "spritz_ingress")), ifindex, SPRITZ_HOOK_INGRESS, SPRITZ_PIN_DIR, NULL);
	if (err) {
		ctl_err("failed to attach ingress program to %s: %s", dev, strerror(-err));
		goto rollback;
	}
	ret = EXIT_OK;
	goto out;

rollback:
	if (eg)
		spritz_detach(ifindex, SPRITZ_HOOK_EGRESS, SPRITZ_PIN_DIR);
	if (pinned)
		spritz_unpin_maps(SPRITZ_PIN_DIR, map_names, NMAPS);
	rmdir(SPRITZ_PIN_DIR); /* if up created it and it is empty */
	bpf_object__close(obj);
	obj = NULL;
	if (algo_set)
		write_algorithm(prev_algo);
	if (table)
		flush_table();
	if (loaded)
		unload_module();
out:
	bpf_object__close(obj);
	spritz_topo_free(t);
	return ret;
}

int cmd_down(int argc, char **argv)
{
	static const struct option longopts[] = {
		CTL_COMMON_LONGOPTS,
		{ "dev", required_argument, NULL, OPT_DEV },
		{ NULL, 0, NULL, 0 },
	};
	struct if_nameindex *ifs, *p;
	struct ctl_link_opts lo;
	const char *dev = NULL;
	int opt, ret = EXIT_OK, err, h;

	ctl_link_opts_init(&lo);
	while ((opt = getopt_long(argc, argv, CTL_COMMON_SHORTOPTS, longopts, NULL)) != -1) {
		int r = ctl_common_opt(opt, optarg, &lo, "down");

		if (r < 0)
			return EXIT_USAGE;
		if (r)
			continue;
		if (opt == OPT_DEV) {
			dev = optarg;
			continue;
		}
		ctl_cmd_usage("down", stderr);
		return EXIT_USAGE;
	}
	if (optind < argc) {
		ctl_err("failed to parse down arguments: unexpected \"%s\"", argv[optind]);
		return EXIT_USAGE;
	}
	if (!need_root("take spritz down"))
		return EXIT_FAIL;
	if (dev && !if_nametoindex(dev)) {
		ctl_err("failed to find device %s: %s", dev, strerror(errno));
		return EXIT_FAIL;
	}
	libbpf_set_print(quiet_print);
	ifs = if_nameindex();
	for (p = ifs; p && p->if_index; p++) {
		if (dev && strcmp(dev, p->if_name))
			continue;
		for (h = SPRITZ_HOOK_INGRESS; h <= SPRITZ_HOOK_EGRESS; h++) {
			err = spritz_detach((int)p->if_index, h, SPRITZ_PIN_DIR);
			if (err) {
				ctl_err("failed to detach %s program from %s: %s",
					spritz_hook_name(h), p->if_name, strerror(-err));
				ret = EXIT_FAIL;
			}
		}
	}
	if (ifs)
		if_freenameindex(ifs);
	if (ret)
		return ret;
	if (dev) {
		/* other devices may still use the maps and module */
		DIR *d = opendir(SPRITZ_PIN_DIR);
		struct dirent *e;
		bool others = false;

		while (d && (e = readdir(d)))
			if (!strncmp(e->d_name, "link_", 5))
				others = true;
		if (d)
			closedir(d);
		if (others)
			return EXIT_OK;
	}
	err = spritz_unpin_maps(SPRITZ_PIN_DIR, map_names, NMAPS);
	if (err) {
		ctl_err("failed to unpin maps under %s: %s", SPRITZ_PIN_DIR, strerror(-err));
		return EXIT_FAIL;
	}
	rmdir(SPRITZ_PIN_DIR);
	if (module_loaded()) {
		flush_table();
		err = unload_module();
		if (err) {
			ctl_err("failed to unload module spritz: %s", strerror(-err));
			return EXIT_FAIL;
		}
	}
	return EXIT_OK;
}
