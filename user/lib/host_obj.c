// SPDX-License-Identifier: GPL-2.0-only
/*
 * The pinned datapath object, its device records and the host lock
 * (spritz_host.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <spritz/abi.h>
#include <spritz/maps.h>
#include <spritz/flowtab.h>

#include "spritz.skel.h"
#include "spritz_err.h"
#include "spritz_host.h"

/* Every map of the object, pinned under its name. */
static const char *const map_names[] = { SPRITZ_MAP_DEVS,    SPRITZ_MAP_DIR,   SPRITZ_MAP_UDP,
					 SPRITZ_MAP_FLOWS,   SPRITZ_MAP_INNER, SPRITZ_MAP_PEERS,
					 SPRITZ_MAP_SYNACKS, SPRITZ_MAP_STATS, SPRITZ_MAP_KNOBS,
					 SPRITZ_MAP_STATE };
#define NMAPS ((int)ARRAY_SIZE(map_names))

/* Pinned program names = the programs' names, by enum spritz_hook. */
static const char *const prog_names[] = { "spritz_ingress", "spritz_egress" };

int spritz_dp_lock(void)
{
	int fd = open(SPRITZ_LOCK_PATH, O_RDWR | O_CREAT | O_CLOEXEC, 0600);

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

void spritz_dp_init(struct spritz_dp *dp)
{
	dp->prog[0] = dp->prog[1] = dp->devs = dp->dir = dp->state = -1;
}

void spritz_dp_close(struct spritz_dp *dp)
{
	int *fds[] = { &dp->prog[0], &dp->prog[1], &dp->devs, &dp->dir, &dp->state };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fds); i++)
		if (*fds[i] >= 0)
			close(*fds[i]);
	spritz_dp_init(dp);
}

static int pin_path(char *buf, size_t len, const char *name)
{
	int n = snprintf(buf, len, "%s/%s", SPRITZ_PIN_DIR, name);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int spritz_dp_pin_get(const char *name)
{
	char path[256];
	int fd;

	if (pin_path(path, sizeof(path), name))
		return -ENAMETOOLONG;
	fd = bpf_obj_get(path);
	return fd < 0 ? -errno : fd;
}

int spritz_dp_open(struct spritz_dp *dp)
{
	int *fds[] = { &dp->prog[SPRITZ_HOOK_EGRESS], &dp->prog[SPRITZ_HOOK_INGRESS], &dp->devs,
		       &dp->dir, &dp->state };
	const char *names[] = { prog_names[SPRITZ_HOOK_EGRESS], prog_names[SPRITZ_HOOK_INGRESS],
				SPRITZ_MAP_DEVS, SPRITZ_MAP_DIR, SPRITZ_MAP_STATE };
	size_t i;

	spritz_dp_init(dp);
	for (i = 0; i < ARRAY_SIZE(fds); i++) {
		int fd = spritz_dp_pin_get(names[i]);

		if (fd < 0) {
			spritz_dp_close(dp);
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

int spritz_dp_create(struct spritz_dp *dp, uint32_t host_flags, char *errbuf, size_t errlen)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts, .object_name = "spritz");
	const char *env = getenv("SPRITZ_BPF_OBJ");
	const char *what = env && *env ? env : "spritz (built in)";
	struct spritz_ctl_state host = { .flags = host_flags };
	uint32_t key = SPRITZ_CTL_HOST_KEY;
	struct bpf_object *obj;
	char path[256];
	int err, h, pinned_progs = 0;

	spritz_dp_init(dp);
	if (env && *env) {
		obj = bpf_object__open_file(env, NULL);
	} else {
		size_t sz;
		const void *bytes = spritz__elf_bytes(&sz);

		obj = bpf_object__open_mem(bytes, sz, &opts);
	}
	if (!obj) {
		err = -errno;
		spritz_seterr(errbuf, errlen, "failed to open BPF object %s: %s", what, strerror(-err));
		return err;
	}
	err = spritz_flowtab_seed(obj);
	if (err) {
		spritz_seterr(errbuf, errlen, "failed to draw flow table keys for %s: %s", what,
			      strerror(-err));
		goto close_obj;
	}
	if (bpf_object__load(obj)) {
		err = -errno;
		spritz_seterr(errbuf, errlen, "failed to load BPF object %s: %s", what, strerror(-err));
		goto close_obj;
	}
	h = bpf_object__find_map_fd_by_name(obj, SPRITZ_MAP_STATE);
	if (h < 0 || bpf_map_update_elem(h, &key, &host, BPF_ANY)) {
		err = h < 0 ? -ENOENT : -errno;
		spritz_seterr(errbuf, errlen, "failed to write host record: %s", strerror(-err));
		goto close_obj;
	}
	err = spritz_pin_maps(obj, SPRITZ_PIN_DIR, map_names, NMAPS);
	if (err) {
		spritz_seterr(errbuf, errlen, "failed to pin maps under %s: %s%s", SPRITZ_PIN_DIR, strerror(-err),
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
			spritz_seterr(errbuf, errlen, "failed to pin program %s under %s: %s", prog_names[h],
				SPRITZ_PIN_DIR, strerror(-err));
			goto unpin_progs;
		}
		pinned_progs++;
	}
	bpf_object__close(obj);
	err = spritz_dp_open(dp);
	if (err) {
		spritz_seterr(errbuf, errlen, "failed to open pinned datapath under %s: %s", SPRITZ_PIN_DIR,
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

int spritz_dp_unpin(void)
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

int spritz_dp_devices(const struct spritz_dp *dp, struct spritz_dp_dev **out, size_t *n)
{
	struct spritz_dp_dev *v = calloc(SPRITZ_DEVS_MAX + 1, sizeof(*v));
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

int spritz_dp_host_flags(const struct spritz_dp *dp, uint32_t *flags)
{
	struct spritz_ctl_state v;
	uint32_t key = SPRITZ_CTL_HOST_KEY;

	if (bpf_map_lookup_elem(dp->state, &key, &v))
		return -errno;
	*flags = v.flags;
	return 0;
}

