// The simulator's front door: a workload, a thread order and a cache hierarchy in, exact per-level
// statistics out. simulate_observed() lets viz/ watch every thread and access as it happens.
#pragma once

#include "cbi/order_text.hpp" // sim spells orders in its errors and descriptions
#include "cbi/remap/order.hpp"
#include "cbi/sim/hierarchy.hpp"
#include "cbi/sim/workload.hpp"

#include <algorithm>
#include <functional>
#include <vector>

namespace cbi::sim {

struct SimConfig {
  Workload workload;
  remap::Order order;
  Granularity granularity = Granularity::exact;
  std::vector<CacheConfig> levels = std::vector<CacheConfig>(1); // Table 3.1 cache
  // Sort every level's misses into compulsory, capacity and conflict (CacheStats). Off by default:
  // the replay then runs as fast as without it.
  bool classify_misses = false;
};

// Checks the whole configuration (workload, every level, order parameters, unit sizes against the
// element size). Throws UsageError naming the offending option.
void validate(const SimConfig &c);
// Bytes a replay of `c` allocates that grow with the cache or the footprint: every level's state
// and, with classify_misses, every level's classifier (its shadow and its bitmap over the
// workload's addresses). An upper bound, for the memory check before a run.
double state_bytes(const SimConfig &c);
// Order parameters: widths and tile sizes positive. Throws UsageError naming --order.
void validate(const remap::Order &o);

struct SimResult {
  std::vector<CacheStats> levels;
  int64_t threads = 0;
  int64_t accesses = 0; // L1 accesses (= loads + stores in exact granularity)
  double seconds = 0;   // wall time of the replay
};

// The result of a finished replay through h: per-level stats with their byte counts filled in
// (L1: accesses times the element size, or times the unit size in thread granularity, where each
// access is a whole unit; level k+1: level k's misses of that kind times level k's unit bytes).
SimResult result_of(const SimConfig &c, const Hierarchy &h);

// progress(threads_done, threads_total) is called every few million threads, if given.
using Progress = std::function<void(int64_t, int64_t)>;
SimResult simulate(const SimConfig &c, const Progress &progress = {});

// The one replay loop: every thread in the order's visiting order, mapped to its task, its accesses
// merged into runs of `unit_bytes` units. on_thread(i, task) before each thread (an empty lambda
// costs nothing); on_run(unit, count, is_write) per run; progress every 2^20 threads, or fewer
// where a thread makes many accesses (about 2^24 accesses a call).
template <class OnThread, class OnRun>
void replay(const SimConfig &c, int64_t unit_bytes, OnThread &&on_thread, OnRun &&on_run,
            const Progress &progress = {}) {
  visit_workload(c.workload.kind, [&](auto tag) {
    using W = typename decltype(tag)::type;
    const remap::Shape<int64_t> shape = W::task_shape(c.workload);
    const int64_t threads = shape.width * shape.height;
    RunGenerator<W> gen(c.workload, unit_bytes, c.granularity);
    constexpr int64_t kChunk = 1 << 20;
    if constexpr (std::is_same_v<W, UserWorkloadAdapter>) {
      // A workload of your own: batches of consecutive threads, each within one warp of a block
      // when the workload names its block (a trace), so that one call asks for one warp's lanes.
      const int64_t block = c.workload.user->block_threads();
      const int batch = gen.batch();
      remap::visit(c.order, [&](auto order) {
        remap::Task<int64_t> tasks[64];
        for (int64_t begin = 0; begin < threads; begin += kChunk) {
          const int64_t end = std::min(threads, begin + kChunk);
          for (int64_t i = begin; i < end;) {
            int64_t stop = std::min(end, i + batch);
            if (block > 0) {
              const int64_t in_block = i % block;
              stop = std::min(stop, i - in_block + std::min(block, (in_block / 32 + 1) * 32));
            }
            const int n = static_cast<int>(stop - i);
            for (int l = 0; l < n; ++l)
              tasks[l] = order.map(i + l, shape);
            gen.fill(tasks, n);
            for (int l = 0; l < n; ++l) {
              on_thread(i + l, tasks[l]);
              gen.lane(l, on_run);
            }
            i = stop;
          }
          if (progress)
            progress(end, threads);
        }
        return 0;
      });
      return;
    }
    // Progress by work, not threads: about 2^24 accesses a call (a 4096 matmul's threads make
    // 8192 accesses each, and 2^20 of them ran minutes before the first report).
    const int64_t per_thread =
        std::max<int64_t>(1, c.workload.accesses() / std::max<int64_t>(1, threads));
    const int64_t chunk = std::clamp<int64_t>((int64_t{1} << 24) / per_thread, 1, kChunk);
    remap::visit(c.order, [&](auto order) {
      for (int64_t begin = 0; begin < threads; begin += chunk) {
        const int64_t end = std::min(threads, begin + chunk);
        for (int64_t i = begin; i < end; ++i) {
          const remap::Task<int64_t> t = order.map(i, shape);
          on_thread(i, t);
          gen.thread(t.x, t.y, on_run);
        }
        if (progress)
          progress(end, threads);
      }
      return 0;
    });
  });
}

// Observer interface (duck-typed): on_thread(int64_t i, remap::Task<int64_t> task) before each
// thread's accesses; on_access(uint64_t l1_unit, int64_t count, bool is_write, int served_level)
// after each run of accesses, where served_level is 0 for an L1 hit, k for level k+1, levels() for
// memory. The hierarchy is live, so an observer may inspect residency. Counts equal simulate()'s
// (tests/sim/test_simulate.cpp).
template <class Observer>
SimResult simulate_observed(const SimConfig &c, Hierarchy &h, Observer &obs) {
  validate(c);
  replay(
      c, h.level(0).config().unit_bytes(),
      [&](int64_t i, remap::Task<int64_t> t) { obs.on_thread(i, t); },
      [&](uint64_t unit, int64_t count, bool is_write) {
        obs.on_access(unit, count, is_write, h.access(unit, count, is_write));
      });
  return result_of(c, h);
}

} // namespace cbi::sim
