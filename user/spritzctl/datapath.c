// SPDX-License-Identifier: GPL-2.0-only
/*
 * The pinned datapath object, spritz.ko, endpoint tables and the host
 * directory: the pieces up, down, reload and show share (datapath.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>

#include <spritz/maps.h>
#include <spritz/netlink.h>

#include "datapath.h"
#include "paths.h"
#include "spritz.skel.h"
#include "spritzctl.h"

/* Every map of the object, pinned under its name. */
static const char *const map_names[] = { SPRITZ_MAP_DEVS,  SPRITZ_MAP_DIR,   SPRITZ_MAP_UDP,
					 SPRITZ_MAP_FLOWS, SPRITZ_MAP_INNER, SPRITZ_MAP_STATS,
					 SPRITZ_MAP_KNOBS, SPRITZ_MAP_STATE };
#define NMAPS ((int)(sizeof(map_names) / sizeof(map_names[0])))

/* Pinned program names = the programs' names, by enum spritz_hook. */
static const char *const prog_names[] = { "spritz_ingress", "spritz_egress" };

bool ctl_need_root(const char *what)
{
	if (geteuid() == 0)
		return true;
	ctl_err("failed to %s: permission denied (must be root)", what);
	return false;
}

int ctl_lock(void)
{
	int fd = open(CTL_LOCK_PATH, O_RDWR | O_CREAT | O_CLOEXEC, 0600);

	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX)) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

/* ------------------------------------------------------------ the object */

void ctl_dp_init(struct ctl_dp *dp)
{
	dp->prog[0] = dp->prog[1] = dp->devs = dp->dir = dp->state = -1;
	dp->obj = NULL;
}

void ctl_dp_close(struct ctl_dp *dp)
{
	int *fds[] = { &dp->prog[0], &dp->prog[1], &dp->devs, &dp->dir, &dp->state };
	size_t i;

	for (i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
		if (*fds[i] >= 0)
			close(*fds[i]);
	bpf_object__close(dp->obj);
	ctl_dp_init(dp);
}

static int pin_path(char *buf, size_t len, const char *name)
{
	int n = snprintf(buf, len, "%s/%s", SPRITZ_PIN_DIR, name);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static int pin_get(const char *name)
{
	char path[256];
	int fd;

	if (pin_path(path, sizeof(path), name))
		return -ENAMETOOLONG;
	fd = bpf_obj_get(path);
	return fd < 0 ? -errno : fd;
}

int ctl_dp_open(struct ctl_dp *dp)
{
	int *fds[] = { &dp->prog[SPRITZ_HOOK_EGRESS], &dp->prog[SPRITZ_HOOK_INGRESS], &dp->devs,
		       &dp->dir, &dp->state };
	const char *names[] = { prog_names[SPRITZ_HOOK_EGRESS], prog_names[SPRITZ_HOOK_INGRESS],
				SPRITZ_MAP_DEVS, SPRITZ_MAP_DIR, SPRITZ_MAP_STATE };
	size_t i;

	ctl_dp_init(dp);
	for (i = 0; i < sizeof(fds) / sizeof(fds[0]); i++) {
		int fd = pin_get(names[i]);

		if (fd < 0) {
			ctl_dp_close(dp);
			/* some pins but not all: an incomplete object */
			return i && fd == -ENOENT ? -ESTALE : fd;
		}
		*fds[i] = fd;
	}
	return 0;
}

static void unpin_names(const char *const *names, int n)
{
	char path[256];
	int i;

	for (i = 0; i < n; i++)
		if (!pin_path(path, sizeof(path), names[i]))
			unlink(path);
}

int ctl_dp_create(struct ctl_dp *dp, uint32_t host_flags)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts, .object_name = "spritz");
	const char *env = getenv("SPRITZ_BPF_OBJ");
	const char *what = env && *env ? env : "spritz (built in)";
	struct spritz_ctl_state host = { .flags = host_flags };
	uint32_t key = SPRITZ_CTL_HOST_KEY;
	struct bpf_object *obj;
	char path[256];
	int err, h, pinned_progs = 0;

	ctl_dp_init(dp);
	if (env && *env) {
		obj = bpf_object__open_file(env, NULL);
	} else {
		size_t sz;
		const void *bytes = spritz__elf_bytes(&sz);

		obj = bpf_object__open_mem(bytes, sz, &opts);
	}
	if (!obj) {
		ctl_err("failed to open BPF object %s: %s", what, strerror(errno));
		return -errno;
	}
	if (bpf_object__load(obj)) {
		err = -errno;
		ctl_err("failed to load BPF object %s: %s", what, strerror(-err));
		goto close_obj;
	}
	h = bpf_object__find_map_fd_by_name(obj, SPRITZ_MAP_STATE);
	if (h < 0 || bpf_map_update_elem(h, &key, &host, BPF_ANY)) {
		err = h < 0 ? -ENOENT : -errno;
		ctl_err("failed to write host record: %s", strerror(-err));
		goto close_obj;
	}
	err = spritz_pin_maps(obj, SPRITZ_PIN_DIR, map_names, NMAPS);
	if (err) {
		ctl_err("failed to pin maps under %s: %s%s", SPRITZ_PIN_DIR, strerror(-err),
			err == -EEXIST ? " (a pin path is occupied; spritzctl down, or remove it)" :
					 "");
		goto remove_dir;
	}
	for (h = SPRITZ_HOOK_INGRESS; h <= SPRITZ_HOOK_EGRESS; h++) {
		struct bpf_program *p = bpf_object__find_program_by_name(obj, prog_names[h]);

		err = p ? 0 : -ENOENT;
		if (!err)
			err = pin_path(path, sizeof(path), prog_names[h]);
		if (!err && bpf_obj_pin(bpf_program__fd(p), path))
			err = -errno;
		if (err) {
			ctl_err("failed to pin program %s under %s: %s", prog_names[h],
				SPRITZ_PIN_DIR, strerror(-err));
			goto unpin_progs;
		}
		pinned_progs++;
	}
	bpf_object__close(obj);
	err = ctl_dp_open(dp);
	if (err) {
		ctl_err("failed to open pinned datapath under %s: %s", SPRITZ_PIN_DIR,
			strerror(-err));
		unpin_names(prog_names, 2);
		unpin_names(map_names, NMAPS);
		rmdir(SPRITZ_PIN_DIR);
	}
	return err;

unpin_progs:
	unpin_names(prog_names, pinned_progs);
	unpin_names(map_names, NMAPS);
remove_dir:
	rmdir(SPRITZ_PIN_DIR); /* if empty, i.e. this run created it */
close_obj:
	bpf_object__close(obj);
	return err;
}

int ctl_dp_unpin(void)
{
	DIR *d = opendir(SPRITZ_PIN_DIR);
	struct dirent *e;
	char path[512];
	int err = 0;

	if (!d)
		return errno == ENOENT ? 0 : -errno;
	/* tcx links left by devices that are gone: detach, unpin */
	while ((e = readdir(d))) {
		int fd;

		if (strncmp(e->d_name, "link_", 5))
			continue;
		snprintf(path, sizeof(path), "%s/%s", SPRITZ_PIN_DIR, e->d_name);
		fd = bpf_obj_get(path);
		if (fd >= 0) {
			bpf_link_detach(fd);
			close(fd);
		}
		if (unlink(path) && errno != ENOENT && !err)
			err = -errno;
	}
	closedir(d);
	unpin_names(prog_names, 2);
	if (!err)
		err = spritz_unpin_maps(SPRITZ_PIN_DIR, map_names, NMAPS);
	if (!err && rmdir(SPRITZ_PIN_DIR) && errno != ENOENT)
		err = -errno;
	return err;
}

int ctl_devices(const struct ctl_dp *dp, struct ctl_dev **out, size_t *n)
{
	struct ctl_dev *v = calloc(SPRITZ_DEVS_MAX + 1, sizeof(*v));
	uint32_t key, next;
	void *prev = NULL;
	size_t k = 0;

	if (!v)
		return -ENOMEM;
	while (k < SPRITZ_DEVS_MAX + 1 && !bpf_map_get_next_key(dp->state, prev, &next)) {
		key = next;
		prev = &key;
		if (key == SPRITZ_CTL_HOST_KEY || bpf_map_lookup_elem(dp->state, &key, &v[k].v))
			continue;
		v[k++].ifindex = key;
	}
	*out = v;
	*n = k;
	return 0;
}

int ctl_host_flags(const struct ctl_dp *dp, uint32_t *flags)
{
	struct spritz_ctl_state v;
	uint32_t key = SPRITZ_CTL_HOST_KEY;

	if (bpf_map_lookup_elem(dp->state, &key, &v))
		return -errno;
	*flags = v.flags;
	return 0;
}

/* ---------------------------------------------------- network namespaces */

static uint64_t ns_ino(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : (uint64_t)st.st_ino;
}

uint64_t ctl_netns_self_ino(void)
{
	return ns_ino("/proc/self/ns/net");
}

uint64_t ctl_netns_self(void)
{
	uint64_t cookie = 0;
	socklen_t len = sizeof(cookie);
	int s = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (s >= 0) {
		if (getsockopt(s, SOL_SOCKET, SO_NETNS_COOKIE, &cookie, &len))
			cookie = 0;
		close(s);
	}
	/* kernels before 5.14: the inode, unique while the namespace lives */
	return cookie ? cookie : ctl_netns_self_ino();
}

/* Enter @fd; if it is the namespace with cookie @cookie run @fn; come back. */
static bool try_netns(int fd, int back, uint64_t cookie, int (*fn)(void *), void *arg, int *ret)
{
	bool found = false;

	if (setns(fd, CLONE_NEWNET))
		return false;
	if (ctl_netns_self() == cookie) {
		*ret = fn(arg);
		found = true;
	}
	if (setns(back, CLONE_NEWNET)) {
		/* cannot go on in the wrong namespace */
		ctl_err("failed to return to the network namespace: %s", strerror(errno));
		exit(EXIT_FAIL);
	}
	return found;
}

int ctl_in_netns(const struct spritz_ctl_state *v, int (*fn)(void *), void *arg)
{
	static const char *const dirs[] = { "/run/netns", "/proc" };
	char path[PATH_MAX];
	bool found = false;
	struct dirent *e;
	int back, fd, ret = -ENOENT;
	size_t i;
	DIR *d;

	if (v->netns == ctl_netns_self())
		return fn(arg);
	back = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (back < 0)
		return -errno;
	for (i = 0; !found && i < 2; i++) {
		d = opendir(dirs[i]);
		while (!found && d && (e = readdir(d))) {
			if (e->d_name[0] == '.' ||
			    (i == 1 && (e->d_name[0] < '0' || e->d_name[0] > '9')))
				continue;
			snprintf(path, sizeof(path), "%s/%s%s", dirs[i], e->d_name,
				 i == 1 ? "/ns/net" : "");
			if (ns_ino(path) != v->netns_ino)
				continue;
			fd = open(path, O_RDONLY | O_CLOEXEC);
			if (fd < 0)
				continue;
			found = try_netns(fd, back, v->netns, fn, arg, &ret);
			close(fd);
		}
		if (d)
			closedir(d);
	}
	close(back);
	return found ? ret : -ENOENT;
}

static int ifindex_exists(void *arg)
{
	char name[IF_NAMESIZE];

	return if_indextoname(*(uint32_t *)arg, name) ? 1 : 0;
}

bool ctl_dev_alive(const struct ctl_dev *d)
{
	uint32_t ifindex = d->ifindex;

	return ctl_in_netns(&d->v, ifindex_exists, &ifindex) == 1;
}

int ctl_nl_open(struct spritz_nl **nl, char *err, size_t errlen)
{
	int ret = spritz_nl_open(nl, err, errlen), self, init;

	if (ret != -ENOENT || ns_ino("/proc/1/ns/net") == ctl_netns_self_ino())
		return ret;
	/* the family lives in the initial network namespace only */
	self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	init = open("/proc/1/ns/net", O_RDONLY | O_CLOEXEC);
	if (self >= 0 && init >= 0 && !setns(init, CLONE_NEWNET)) {
		ret = spritz_nl_open(nl, err, errlen);
		if (setns(self, CLONE_NEWNET)) {
			ctl_err("failed to return to the network namespace: %s", strerror(errno));
			exit(EXIT_FAIL);
		}
	}
	if (self >= 0)
		close(self);
	if (init >= 0)
		close(init);
	return ret;
}

/* ---------------------------------------------------------------- module */

bool ctl_module_loaded(void)
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

int ctl_module_load(void)
{
	static const char *const modprobe[] = { "modprobe", "-q", SPRITZ_MODULE_NAME, NULL };
	char dir[PATH_MAX], ko[PATH_MAX + 64];
	const char *env = getenv("SPRITZ_KO");
	struct utsname u;
	int fd, err;

	if (ctl_module_loaded())
		return 0;
	uname(&u);
	if (run_quiet(modprobe) == 0 && ctl_module_loaded())
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
		ctl_err("failed to load module spritz: not installed for kernel %s "
			"(modprobe spritz failed and %s is missing): install the packages "
			"dkms and linux-headers-%s, then \"make install-dkms\" in the Spritz "
			"sources (Documentation/deployment.rst, \"Installing\")",
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
int ctl_module_unload(void)
{
	int i;

	for (i = 0; i < 50 && ctl_module_loaded(); i++) {
		if (!syscall(SYS_delete_module, SPRITZ_MODULE_NAME, O_NONBLOCK))
			return 0;
		if (errno == ENOENT)
			return 0;
		usleep(100000);
	}
	return ctl_module_loaded() ? -errno : 0;
}

/* ---------------------------------------------------------------- tables */

void ctl_table_free(struct ctl_table *tb)
{
	free(tb->dests);
	free(tb->paths);
	memset(tb, 0, sizeof(*tb));
}

/*
 * Eq. 1 base weights without w_scale: longest / latency, 1.0 for the
 * longest paths.  The module multiplies the others by the w_scale knob
 * (kmod/table.c), so the knob needs no reload.
 */
int ctl_table_build(struct spritz_topo *t, uint32_t src, struct ctl_table *tb)
{
	struct spritz_table *st = NULL;
	size_t k = 0;
	int d, ret;

	memset(tb, 0, sizeof(*tb));
	ret = spritz_table_build(t, (int)src, &st);
	if (ret) {
		ctl_err("failed to build table of switch %u: %s", src, strerror(-ret));
		return ret;
	}
	tb->src = src;
	tb->nsw = (uint32_t)st->nsw;
	tb->dests = calloc((size_t)st->nsw, sizeof(*tb->dests));
	tb->paths = calloc(st->npaths ? st->npaths : 1, sizeof(*tb->paths));
	if (!tb->dests || !tb->paths) {
		ctl_err("failed to build table of switch %u: out of memory", src);
		ret = -ENOMEM;
		goto free_table;
	}
	for (d = 0; d < st->nsw; d++) {
		uint32_t i, n = st->off[d + 1] - st->off[d];
		const struct spritz_path *p = st->paths + st->off[d];
		uint64_t longest;

		if (!n || d == (int)src)
			continue;
		longest = spritz_paths_longest(p, (int)n);
		tb->dests[tb->nd] = (struct spritz_nl_dest){ .dst = (uint32_t)d,
							     .npaths = n,
							     .paths = tb->paths + k };
		for (i = 0; i < n; i++, k++)
			tb->paths[k] = (struct spritz_nl_path){
				.ev = p[i].ev,
				.lat_class = p[i].lat_class,
				.base_weight = spritz_base_weight(p[i].latency_ps, longest)
			};
		tb->nd++;
	}
	spritz_table_free(st);
	return 0;

free_table:
	ctl_table_free(tb);
	spritz_table_free(st);
	return ret;
}

/*
 * Do the EV lists @a and @b hold the same EVs with the same latency
 * classes, in order, and with @weights also the same base weights?
 */
static bool paths_same(const struct spritz_nl_dest *a, const struct spritz_nl_dest *b,
		       bool weights)
{
	uint32_t k;

	if (a->npaths != b->npaths)
		return false;
	for (k = 0; k < a->npaths; k++)
		if (a->paths[k].ev != b->paths[k].ev ||
		    a->paths[k].lat_class != b->paths[k].lat_class ||
		    (weights && a->paths[k].base_weight != b->paths[k].base_weight))
			return false;
	return true;
}

struct cmp_ctx {
	const struct ctl_table *tb;
	size_t i;
	bool any, same;
};

static int cmp_cb(const struct spritz_nl_dest *d, void *arg)
{
	struct cmp_ctx *c = arg;
	const struct spritz_nl_dest *w;

	c->any = true;
	if (!c->same)
		return 0;
	if (c->i >= c->tb->nd || d->num_switches != c->tb->nsw) {
		c->same = false;
		return 0;
	}
	w = &c->tb->dests[c->i++];
	if (w->dst != d->dst || !paths_same(w, d, true))
		c->same = false;
	return 0;
}

int ctl_table_live(struct spritz_nl *nl, const struct ctl_table *tb)
{
	struct cmp_ctx c = { .tb = tb, .same = true };
	int ret = spritz_nl_dump(nl, tb->src, cmp_cb, &c, NULL, 0);

	if (ret)
		return ret;
	if (!c.any)
		return -ENOENT;
	return c.same && c.i == tb->nd;
}

struct diff_ctx {
	const struct ctl_table *tb;
	const int *at; /* dst -> index in tb->dests, or -1 */
	uint8_t *changed;
	bool any;
};

static int diff_cb(const struct spritz_nl_dest *d, void *arg)
{
	struct diff_ctx *c = arg;

	c->any = true;
	if (d->num_switches != c->tb->nsw) {
		memset(c->changed, 1, c->tb->nsw);
		return 0;
	}
	/* a new base weight alone keeps the EVs valid */
	if (d->dst < c->tb->nsw &&
	    (c->at[d->dst] < 0 || !paths_same(&c->tb->dests[c->at[d->dst]], d, false)))
		c->changed[d->dst] = 1;
	return 0;
}

int ctl_table_diff(struct spritz_nl *nl, const struct ctl_table *tb, uint8_t *changed)
{
	struct diff_ctx c = { .tb = tb, .changed = changed };
	int *at, ret;
	size_t i;

	at = malloc(tb->nsw * sizeof(*at));
	if (!at)
		return -ENOMEM;
	for (i = 0; i < tb->nsw; i++)
		at[i] = -1;
	for (i = 0; i < tb->nd; i++)
		if (tb->dests[i].dst < tb->nsw)
			at[tb->dests[i].dst] = (int)i;
	c.at = at;
	memset(changed, 0, tb->nsw);
	/* a destination the live table lacks: its flows had no EVs to keep */
	ret = spritz_nl_dump(nl, tb->src, diff_cb, &c, NULL, 0);
	free(at);
	if (ret)
		return ret;
	if (!c.any)
		memset(changed, 1, tb->nsw);
	return 0;
}

int ctl_table_push(struct spritz_nl *nl, const struct ctl_table *tb)
{
	char err[256] = "";
	int ret = spritz_nl_load(nl, tb->src, tb->nsw, tb->dests, tb->nd, err, sizeof(err));

	if (ret)
		ctl_err("failed to load table of switch %u into spritz.ko: %s", tb->src,
			err[0] ? err : strerror(-ret));
	return ret;
}

void ctl_table_flush(uint32_t src)
{
	struct spritz_nl *nl;
	char err[256];

	if (!ctl_nl_open(&nl, err, sizeof(err))) {
		spritz_nl_flush(nl, src, err, sizeof(err));
		spritz_nl_close(nl);
	}
}

/* ------------------------------------------------------------- directory */

int ctl_dir_source(const char *plan, const char *hosts, uint32_t nsw, struct spritz_dir_list *out)
{
	char err[512] = "";
	struct spritz_plan p;
	int ret;

	if (plan) {
		if (spritz_plan_parse(plan, &p)) {
			ctl_err("failed to parse --addr-plan \"%s\": expected an IPv6 PREFIX/L "
				"with L <= 48, e.g. fd00::/16",
				plan);
			return EXIT_USAGE;
		}
		if (nsw > 65536) {
			ctl_err("failed to apply --addr-plan: %u switches do not fit in 16 bits",
				nsw);
			return EXIT_USAGE;
		}
		if (spritz_plan_entries(&p, nsw, out)) {
			ctl_err("failed to apply --addr-plan: out of memory");
			return EXIT_FAIL;
		}
		return EXIT_OK;
	}
	ret = spritz_hosts_load(hosts, nsw, out, err, sizeof(err));
	if (ret) {
		ctl_err("failed to %s hosts file %s", ret == -EINVAL ? "parse" : "read", err);
		return ret == -EINVAL ? EXIT_USAGE : EXIT_FAIL;
	}
	return EXIT_OK;
}

static void to_key(const struct spritz_dir_entry *e, struct spritz_dir_key *k)
{
	memset(k, 0, sizeof(*k));
	k->prefixlen = e->prefixlen;
	memcpy(k->addr, e->addr, 16);
}

int ctl_dir_conflict(int fd, const struct spritz_dir_list *l, char *why, size_t len)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		struct spritz_dir_key k;
		struct spritz_dir_val v;
		char pfx[64];

		to_key(&l->e[i], &k);
		if (bpf_map_lookup_elem(fd, &k, &v)) {
			if (errno == ENOENT)
				continue;
			return -errno;
		}
		if (v.dst_switch == l->e[i].sw)
			continue;
		spritz_dir_format(k.addr, k.prefixlen, pfx, sizeof(pfx));
		snprintf(why, len, "%s is switch %u in the directory, %u here", pfx, v.dst_switch,
			 l->e[i].sw);
		return 1;
	}
	return 0;
}

int ctl_dir_add_missing(int fd, const struct spritz_dir_list *l, struct spritz_dir_list *added)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		struct spritz_dir_val v = { .dst_switch = l->e[i].sw };
		struct spritz_dir_key k;

		to_key(&l->e[i], &k);
		if (bpf_map_update_elem(fd, &k, &v, BPF_NOEXIST)) {
			if (errno == EEXIST)
				continue;
			return -errno;
		}
		if (added->n == added->cap) {
			size_t cap = added->cap ? 2 * added->cap : 64;
			void *p = realloc(added->e, cap * sizeof(*added->e));

			if (!p) {
				bpf_map_delete_elem(fd, &k);
				return -ENOMEM;
			}
			added->e = p;
			added->cap = cap;
		}
		added->e[added->n++] = l->e[i];
	}
	return 0;
}

void ctl_dir_remove(int fd, const struct spritz_dir_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		struct spritz_dir_key k;

		to_key(&l->e[i], &k);
		bpf_map_delete_elem(fd, &k);
	}
}

int ctl_dir_replace(int fd, const struct spritz_dir_list *l)
{
	struct spritz_dir_key *stale = NULL, k, next;
	size_t i, n = 0, cap = 0;
	void *prev = NULL;
	int err = 0;

	for (i = 0; i < l->n; i++) {
		struct spritz_dir_val v = { .dst_switch = l->e[i].sw };

		to_key(&l->e[i], &k);
		if (bpf_map_update_elem(fd, &k, &v, BPF_ANY))
			return -errno;
	}
	/* then the entries the new directory does not have */
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		k = next;
		prev = &k;
		if (spritz_dir_find(l, k.addr, k.prefixlen))
			continue;
		if (n == cap) {
			void *p;

			cap = cap ? 2 * cap : 64;
			p = realloc(stale, cap * sizeof(*stale));
			if (!p) {
				err = -ENOMEM;
				goto free_stale;
			}
			stale = p;
		}
		stale[n++] = k;
	}
	for (i = 0; i < n; i++)
		if (bpf_map_delete_elem(fd, &stale[i]) && errno != ENOENT && !err)
			err = -errno;
free_stale:
	free(stale);
	return err;
}

/* Does one of @stale mark the pair (@src, @dst)? */
static bool pair_stale(const struct ctl_stale *stale, size_t nstale, uint32_t src, uint32_t dst)
{
	size_t i;

	for (i = 0; i < nstale; i++)
		if (stale[i].src == src && dst < stale[i].nsw && stale[i].dst[dst])
			return true;
	return false;
}

int ctl_flows_resync(int dir_fd, long src, const struct ctl_stale *stale, size_t nstale)
{
	struct spritz_flow_key *drop = NULL, k, next;
	size_t i, n = 0, cap = 0;
	struct spritz_flow f;
	void *prev = NULL;
	int fd, err = 0;

	fd = pin_get(SPRITZ_MAP_FLOWS);
	if (fd < 0)
		return fd;
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		struct spritz_dir_key dk = { .prefixlen = 128 };
		struct spritz_dir_val dv;

		k = next;
		prev = &k;
		if (bpf_map_lookup_elem(fd, &k, &f))
			continue;
		memcpy(dk.addr, k.daddr, sizeof(dk.addr));
		/* an LPM lookup with a full-length key: the longest match */
		if (!bpf_map_lookup_elem(dir_fd, &dk, &dv) && dv.dst_switch == f.dst_switch &&
		    (src < 0 || f.src_switch != (uint32_t)src) &&
		    !pair_stale(stale, nstale, f.src_switch, f.dst_switch))
			continue;
		if (n == cap) {
			void *p;

			cap = cap ? 2 * cap : 64;
			p = realloc(drop, cap * sizeof(*drop));
			if (!p) {
				err = -ENOMEM;
				goto free_drop;
			}
			drop = p;
		}
		drop[n++] = k;
	}
	for (i = 0; i < n; i++)
		bpf_map_delete_elem(fd, &drop[i]);
free_drop:
	free(drop);
	close(fd);
	return err ? err : (int)n;
}

/*
 * An update of a map-in-map returns only after an RCU grace period
 * (the kernel's maybe_wait_bpf_programs(), there so that userspace knows
 * every program now sees the new value), and tc programs run inside RCU
 * read-side sections: a throwaway one is the datapath barrier.
 */
int ctl_dp_sync(void)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts);
	int inner, outer, err = 0;
	uint32_t zero = 0;

	inner = bpf_map_create(BPF_MAP_TYPE_ARRAY, "spritz_sync_in", 4, 4, 1, NULL);
	if (inner < 0)
		return -errno;
	opts.inner_map_fd = inner;
	outer = bpf_map_create(BPF_MAP_TYPE_ARRAY_OF_MAPS, "spritz_sync", 4, 4, 1, &opts);
	if (outer < 0) {
		err = -errno;
		goto close_inner;
	}
	if (bpf_map_update_elem(outer, &zero, &inner, BPF_ANY))
		err = -errno;
	close(outer);
close_inner:
	close(inner);
	return err;
}

long ctl_dir_max_switch(int fd)
{
	struct spritz_dir_key k, next;
	struct spritz_dir_val v;
	void *prev = NULL;
	long max = -1;

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		k = next;
		prev = &k;
		if (!bpf_map_lookup_elem(fd, &k, &v) && (long)v.dst_switch > max)
			max = v.dst_switch;
	}
	return max;
}

/* ---------------------------------------------------------- offloads */

/* One ETHTOOL_{G,S}{TSO,GSO} ioctl on @ifindex. */
static int ethtool_value(uint32_t ifindex, uint32_t cmd, uint32_t *data)
{
	struct ethtool_value ev = { .cmd = cmd, .data = *data };
	struct ifreq ifr = { 0 };
	int fd, err = 0;

	if (!if_indextoname(ifindex, ifr.ifr_name))
		return -errno;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	ifr.ifr_data = (void *)&ev;
	if (ioctl(fd, SIOCETHTOOL, &ifr))
		err = -errno;
	close(fd);
	*data = ev.data;
	return err;
}

int ctl_offload_get(uint32_t ifindex, bool *tso, bool *gso)
{
	uint32_t t = 0, g = 0;
	int err = ethtool_value(ifindex, ETHTOOL_GTSO, &t) ?: ethtool_value(ifindex, ETHTOOL_GGSO, &g);

	*tso = t;
	*gso = g;
	return err;
}

int ctl_offload_set(uint32_t ifindex, bool tso, bool gso)
{
	uint32_t t = tso, g = gso;

	return ethtool_value(ifindex, ETHTOOL_STSO, &t) ?: ethtool_value(ifindex, ETHTOOL_SGSO, &g);
}
