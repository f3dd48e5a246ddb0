#include "cbi/sim/simulate.hpp"

#include "cbi/error.hpp"
#include "engine.hpp"

#include <chrono>

namespace cbi::sim {

void validate(const remap::Order &o) {
  if (o.kind != remap::OrderKind::linear &&
      (o.param_w < 1 || (o.kind == remap::OrderKind::tile && o.param_h < 1)))
    throw UsageError("order", "width and tile sizes must be positive; allowed: " +
                                    std::string(remap::order_syntax()));
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
                           " B elements; allowed: a multiple of --elem-bytes");
  }
  validate(c.order);
}

SimResult simulate(const SimConfig &c, const Progress &progress) {
  validate(c);
  Hierarchy h(c.levels);
  const auto start = std::chrono::steady_clock::now();
  // The L1 engine is fixed once here, so the per-access path is inlined.
  detail::Engines::with_typed_access(h, [&](auto access) {
    replay(
        c, h.level(0).config().unit_bytes(), [](int64_t, remap::Task<int64_t>) {},
        [access](uint64_t unit, int64_t count, bool) { access(unit, count); }, progress);
  });
  SimResult r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.levels = h.stats();
  r.threads = c.workload.tasks();
  r.accesses = r.levels[0].accesses;
  return r;
}

} // namespace cbi::sim
