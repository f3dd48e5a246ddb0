#include "cbi/sim/simulate.hpp"

#include "cbi/error.hpp"
#include "engine.hpp"

#include <chrono>

namespace cbi::sim {

void validate(const remap::Order &o) {
  if (!remap::valid(o)) // each order's own rule (order_traits.hpp)
    throw UsageError("order",
                     "parameters out of range; allowed: " + std::string(remap::order_syntax()));
}

double state_bytes(const SimConfig &c) {
  double bytes = 0;
  for (const CacheConfig &level : c.levels)
    bytes += state_bytes(level) +
             (c.classify_misses ? MissClassifier::state_bytes(level, c.workload.footprint_bytes())
                                : 0.0);
  return bytes;
}

void validate(const SimConfig &c) {
  validate(c.workload);
  if (c.levels.empty())
    throw UsageError("cache.levels", "at least one cache level is needed");
  for (std::size_t k = 0; k < c.levels.size(); ++k) {
    validate(c.levels[k]);
    const int64_t unit = c.levels[k].unit_bytes();
    if (unit % c.workload.elem_bytes != 0)
      throw UsageError(c.levels[k].sector_bytes ? "cache.sector_bytes" : "cache.line_bytes",
                       "a cache unit of " + std::to_string(unit) + " B does not hold whole " +
                           std::to_string(c.workload.elem_bytes) +
                           " B elements; allowed: a multiple of the element size (--type)");
  }
  validate(c.order);
}

SimResult result_of(const SimConfig &c, const Hierarchy &h) {
  SimResult r;
  r.levels = h.stats();
  r.threads = c.workload.tasks();
  r.accesses = r.levels[0].accesses;
  int64_t load_bytes_per_access = c.workload.elem_bytes; // L1: per access
  int64_t store_bytes_per_access = c.workload.elem_bytes;
  if (c.granularity == Granularity::thread)
    load_bytes_per_access = store_bytes_per_access = c.levels[0].unit_bytes();
  for (std::size_t k = 0; k < r.levels.size(); ++k) {
    CacheStats &s = r.levels[k];
    if (k > 0) { // what level k asks of level k+1: its misses, a unit each
      const CacheStats &above = r.levels[k - 1];
      const int64_t above_unit = c.levels[k - 1].unit_bytes();
      s.load_bytes = above.load_misses * above_unit;
      s.store_bytes = above.store_misses * above_unit;
      continue;
    }
    s.load_bytes = s.loads * load_bytes_per_access;
    s.store_bytes = s.stores * store_bytes_per_access;
  }
  return r;
}

SimResult simulate(const SimConfig &c, const Progress &progress) {
  validate(c);
  Hierarchy h(c.levels, c.classify_misses);
  const auto start = std::chrono::steady_clock::now();
  // The L1 engine is fixed once here, so the per-access path is inlined.
  detail::Engines::with_typed_access(h, [&](auto access) {
    replay(
        c, h.level(0).config().unit_bytes(), [](int64_t, remap::Task<int64_t>) {}, access,
        progress);
  });
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  SimResult r = result_of(c, h);
  r.seconds = seconds;
  return r;
}

} // namespace cbi::sim
