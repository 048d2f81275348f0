// SPDX-License-Identifier: GPL-2.0-only
/*
 * The Spritz simulator's model (Documentation/sim.rst): one fabric, its
 * switches and hosts, shared between the ns-3 glue (sim/spritz-sim.cc) and
 * the plain parts that need no ns-3 (fabric, path tables, samplers).
 *
 * Everything a switch or a host decides comes from the shared cores:
 * include/spritz/switch_core.h (switch), lb.h and feedback.h (host send
 * and feedback), sampler.h (gen(w), as spritz.ko); the fabric, port order,
 * default routes and EV lists come from libspritz (user/lib), the same as
 * `spritzctl paths` and the lab's switch tables.
 */
#ifndef SPRITZ_SIM_MODEL_H
#define SPRITZ_SIM_MODEL_H

#include <cstdint>
#include <string>
#include <vector>

extern "C" {
#include "paths.h"
#include "swtables.h"
#include "topo.h"
}

#include <spritz/feedback.h>
#include <spritz/lb.h>
#include <spritz/sampler.h>
#include <spritz/switch_core.h>

namespace spritz_sim {

/* Host-side scheme: what the hosts run (lb.h algorithm or nothing). */
struct Scheme {
	std::string name;	/* lab/run's name */
	uint32_t sw_mode;	/* enum spritz_sw_mode */
	int algo;		/* enum spritz_algo, -1: hosts do not steer */
	int weighted;		/* gen(w) by Eq. 1 weights */
};

/* Parse a lab/run scheme name; false if unknown. */
bool scheme_parse(const std::string &name, Scheme *s);

/* What a switch port's queue does with an arriving packet. */
enum PortVerdict { PORT_ENQUEUE, PORT_MARK, PORT_DROP };

/* Table II's ECN marking thresholds, fractions of a port's queue. */
constexpr double PORT_ECN_MIN = 0.2, PORT_ECN_MAX = 0.8;

/*
 * Table II's port queue: @n packets wait of at most @cap; a packet is
 * marked CE with a probability rising linearly from 0 at PORT_ECN_MIN of
 * the queue to 1 at PORT_ECN_MAX (@u: a uniform draw in [0, 1)); one that
 * is not ECN-capable (!@ect) is dropped where it would be marked, as RED
 * with ECN does; a full queue drops.
 */
inline PortVerdict port_verdict(uint32_t n, uint32_t cap, double u, bool ect)
{
	const double kmin = PORT_ECN_MIN * cap, kmax = PORT_ECN_MAX * cap;

	if (n >= cap)
		return PORT_DROP;
	if (n < kmin || (n < kmax && u >= (n - kmin) / (kmax - kmin)))
		return PORT_ENQUEUE;
	return ect ? PORT_MARK : PORT_DROP;
}

/* A 64-bit xorshift* generator: the simulator's only random source. */
struct Rng {
	uint64_t s;
	explicit Rng(uint64_t seed) : s(seed * 0x9e3779b97f4a7c15ULL + 1) {}
	uint32_t next()
	{
		s ^= s >> 12;
		s ^= s << 25;
		s ^= s >> 27;
		return (uint32_t)((s * 0x2545f4914f6cdd1dULL) >> 32);
	}
};

/*
 * One destination list of one endpoint with its samplers and path state:
 * what spritz.ko keeps per destination switch on each host (kmod/table.c).
 */
struct Dest {
	uint32_t n = 0;
	std::vector<uint16_t> ev;
	std::vector<uint8_t> cls;
	std::vector<uint32_t> base;	     /* Eq. 1, SPRITZ_WEIGHT_ONE = 1.0 */
	std::vector<uint64_t> until;	     /* ns; 0 = enabled */
	std::vector<uint64_t> at;	     /* ns of the last disable */
	std::vector<uint64_t> picks, timeouts;
	uint32_t nenabled = 0;
	uint64_t next_expiry = 0;	     /* earliest until, 0 = none */
	uint32_t src = 0;		     /* the host's switch */
	std::vector<spritz_alias> col[SPRITZ_V_NR];
	bool built = false;
};

/*
 * The endpoint table of every host (its own spritz.ko: a host's TIMEOUTs
 * disable paths for its flows only), a destination's list built on first
 * use from the host's switch.  @host is the host number, @src its switch.
 */
class Tables {
public:
	Tables(spritz_topo *t, const spritz_knob_values &k) : t_(t), k_(k) {}
	~Tables();
	/* gen(w) but the EVs of @avoid: EV | lat_class << 16, or -errno. */
	int pick(uint32_t host, uint32_t src, uint32_t dst, uint32_t flags, uint64_t avoid,
		 uint64_t now, Rng &rng);
	/* A TIMEOUT on (host, dst, ev): disable it for disable_ms. 0 or -ENOENT. */
	int timeout(uint32_t host, uint32_t src, uint32_t dst, uint16_t ev, uint64_t now);
	uint64_t disables = 0, enables = 0;
	uint64_t floor_enables = 0; /* enables by the min_enabled_pct floor */
	/* every path disabled now: (host, its switch, dst, ev) */
	struct Key {
		uint32_t host, src, dst;
		uint16_t ev;
		uint8_t cls; /* latency class, 0 = minimal */
	};
	std::vector<Key> disabled_now() const;
	/* The knobs from now on, as a sysfs write (tests). */
	void set_knobs(const spritz_knob_values &k) { k_ = k; }

private:
	Dest *dest(uint32_t host, uint32_t src, uint32_t dst);
	void rebuild(Dest *d);
	void expire(Dest *d, uint64_t now);
	spritz_topo *t_;
	spritz_knob_values k_;
	std::vector<Dest *> d_;	/* host * nsw + dst */
	std::vector<__u64> w_;
	std::vector<uint16_t> small_, large_;
};

} // namespace spritz_sim

#endif
