// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulator's endpoint tables: libspritz's EV lists per (host,
 * destination switch), built, sampled and kept above their floor by the
 * code spritz.ko runs (include/spritz/sampler.h: spritz_sampler_build(),
 * spritz_sampler_pick(), spritz_floor_enable()) and disabled on TIMEOUT
 * the way spritz_path_timeout() does (kmod/table.c): a repeated timeout
 * extends the disable, a destination keeps spritz_min_enabled() of its
 * paths enabled (knob min_enabled_pct): past that, the least recently
 * disabled one comes back first.  Differences from
 * the module (Documentation/sim.rst): samplers are rebuilt at once, not
 * by a work item, and expiries are noticed at the next pick.
 */
#include <cerrno>
#include <cstring>

#include "model.h"

namespace spritz_sim {

bool scheme_parse(const std::string &n, Scheme *s)
{
	static const struct {
		const char *name;
		uint32_t mode;
		int algo, weighted;
	} tab[] = {
		{ "ecmp", SPRITZ_SW_MODE_ECMP, -1, 0 },
		{ "minimal", SPRITZ_SW_MODE_MINIMAL, -1, 0 },
		{ "valiant", SPRITZ_SW_MODE_VALIANT, -1, 0 },
		{ "ugal-l", SPRITZ_SW_MODE_UGAL_L, -1, 0 },
		{ "ops-u", SPRITZ_SW_MODE_SPRITZ, SPRITZ_ALGO_OPS, 0 },
		{ "ops-w", SPRITZ_SW_MODE_SPRITZ, SPRITZ_ALGO_OPS, 1 },
		{ "flicr", SPRITZ_SW_MODE_SPRITZ, SPRITZ_ALGO_FLICR, 1 },
		{ "scout", SPRITZ_SW_MODE_SPRITZ, SPRITZ_ALGO_SCOUT, 1 },
		{ "spray-u", SPRITZ_SW_MODE_SPRITZ, SPRITZ_ALGO_SPRAY, 0 },
		{ "spray-w", SPRITZ_SW_MODE_SPRITZ, SPRITZ_ALGO_SPRAY, 1 },
	};

	for (const auto &e : tab) {
		if (n == e.name) {
			s->name = n;
			s->sw_mode = e.mode;
			s->algo = e.algo;
			s->weighted = e.weighted;
			return true;
		}
	}
	return false;
}

Tables::~Tables()
{
	for (Dest *d : d_)
		delete d;
}

/* Host @host's list to @dst, built from libspritz on first use; NULL if none. */
Dest *Tables::dest(uint32_t host, uint32_t src, uint32_t dst)
{
	uint32_t nsw = t_->nsw;
	int cap, n, i;

	if (host >= (uint64_t)t_->nhosts || src >= nsw || dst >= nsw || src == dst)
		return nullptr;
	if (d_.empty())
		d_.assign((size_t)t_->nhosts * nsw, nullptr);
	Dest *&d = d_[(size_t)host * nsw + dst];
	if (d)
		return d->n && d->src == src ? d : nullptr;
	d = new Dest();
	d->src = src;
	cap = spritz_paths_cap(t_, src);
	std::vector<spritz_path> p(cap > 0 ? cap : 1);
	n = spritz_paths_list(t_, src, dst, p.data(), cap);
	if (n <= 0)
		return nullptr;
	if (n > SPRITZ_MAX_PATHS)
		n = SPRITZ_MAX_PATHS; /* as spritzctl loads them: the module's limit */
	uint64_t longest = spritz_paths_longest(p.data(), n);
	d->n = n;
	d->nenabled = n;
	for (i = 0; i < n; i++) {
		d->ev.push_back(p[i].ev);
		d->cls.push_back(p[i].lat_class);
		d->base.push_back(spritz_base_weight(p[i].latency_ps, longest));
	}
	d->until.assign(n, 0);
	d->at.assign(n, 0);
	d->picks.assign(n, 0);
	d->timeouts.assign(n, 0);
	for (auto &c : d->col)
		c.resize(n);
	rebuild(d);
	return d;
}

/*
 * The sampler core's view of a destination (spritz_sampler_build(),
 * spritz_sampler_pick(), spritz_floor_enable()): random words, states.
 */
struct PickCtx {
	Rng *rng;
	Dest *d;
};

static uint32_t pick_rnd(void *c)
{
	return static_cast<PickCtx *>(c)->rng->next();
}

static int pick_off(void *c, uint32_t i)
{
	return static_cast<PickCtx *>(c)->d->until[i] != 0;
}

static uint16_t pick_ev(void *c, uint32_t i)
{
	return static_cast<PickCtx *>(c)->d->ev[i];
}

static uint32_t pick_base(void *c, uint32_t i)
{
	return static_cast<PickCtx *>(c)->d->base[i];
}

static uint8_t pick_class(void *c, uint32_t i)
{
	return static_cast<PickCtx *>(c)->d->cls[i];
}

static __u64 pick_at(void *c, uint32_t i)
{
	return static_cast<PickCtx *>(c)->d->at[i];
}

/* Every variant's alias table from the paths' state (kmod spritz_dest_build()). */
void Tables::rebuild(Dest *d)
{
	PickCtx c = { nullptr, d };

	w_.resize(d->n);
	small_.resize(d->n);
	large_.resize(d->n);
	for (uint32_t v = 0; v < SPRITZ_V_NR; v++)
		spritz_sampler_build(d->col[v].data(), w_.data(), small_.data(), large_.data(),
				     d->n, v, &k_, &c, pick_off, pick_base, pick_class);
	d->built = true;
}

/* Enable the paths whose disable expired by @now (the module's work item). */
void Tables::expire(Dest *d, uint64_t now)
{
	uint64_t next = 0;
	bool any = false;

	if (!d->next_expiry || d->next_expiry > now)
		return;
	for (uint32_t i = 0; i < d->n; i++) {
		if (!d->until[i])
			continue;
		if (d->until[i] <= now) {
			d->until[i] = 0;
			d->nenabled++;
			enables++;
			any = true;
		} else if (!next || d->until[i] < next) {
			next = d->until[i];
		}
	}
	d->next_expiry = next;
	if (any)
		rebuild(d);
}

/*
 * As spritz_pick() (kmod/table.c), by spritz_sampler_pick().  Every
 * disable rebuilds the samplers here, so only avoided paths are drawn
 * again.
 */
int Tables::pick(uint32_t host, uint32_t src, uint32_t dst, uint32_t flags, uint64_t avoid,
		 uint64_t now, Rng &rng)
{
	Dest *d = dest(host, src, dst);
	PickCtx c = { &rng, d };
	uint32_t i;

	if (!d)
		return -ENOENT;
	if (!spritz_pick_args_ok(flags, avoid))
		return -EINVAL;
	expire(d, now);
	i = spritz_sampler_pick(d->col[spritz_flags_variant(flags)].data(), d->n, avoid, &c,
				pick_rnd, pick_off, pick_ev);
	d->picks[i]++;
	return d->ev[i] | (uint32_t)d->cls[i] << 16;
}

int Tables::timeout(uint32_t host, uint32_t src, uint32_t dst, uint16_t ev, uint64_t now)
{
	Dest *d = dest(host, src, dst);
	PickCtx c = { nullptr, d };
	uint32_t i, p = UINT32_MAX;
	int q;

	if (!d)
		return -ENOENT;
	expire(d, now);
	for (i = 0; i < d->n && p == UINT32_MAX; i++)
		if (d->ev[i] == ev)
			p = i;
	if (p == UINT32_MAX)
		return -ENOENT;
	d->timeouts[p]++;
	if (!d->until[p]) {
		q = spritz_floor_enable(d->n, d->nenabled, k_.min_enabled_pct, p, &c, pick_off,
					pick_at);
		if (q == SPRITZ_FLOOR_KEEP)
			return SPRITZ_TIMEOUT_KEPT;
		if (q >= 0) {
			d->until[q] = 0;
			d->nenabled++;
			enables++;
			floor_enables++;
		}
		d->nenabled--;
		disables++;
	}
	d->at[p] = now;
	d->until[p] = now + (uint64_t)k_.disable_ms * 1000000ULL;
	if (!d->next_expiry || d->until[p] < d->next_expiry)
		d->next_expiry = d->until[p];
	rebuild(d);
	return 0;
}

std::vector<Tables::Key> Tables::disabled_now() const
{
	std::vector<Key> v;
	uint32_t nsw = t_->nsw;

	for (size_t i = 0; i < d_.size(); i++) {
		const Dest *d = d_[i];

		for (uint32_t j = 0; d && j < d->n; j++)
			if (d->until[j])
				v.push_back({ (uint32_t)(i / nsw), d->src, (uint32_t)(i % nsw), d->ev[j],
					      d->cls[j] });
	}
	return v;
}

} // namespace spritz_sim
