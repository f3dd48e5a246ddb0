// Speed of the cache simulator on issue 2's reference trace (9x9 clamped stencil, 1024x1024 float,
// linear order, 84,934,656 loads): whole simulate() runs, plus the generator and the caches alone.
// Run: build/bin/sim_bench --benchmark_repetitions=3 (single-threaded; see
// docs/results/sim-speed.md).
#include "cbi/sim/simulate.hpp"

#include "../src/engine.hpp"
#include "user_stencil.hpp"

#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

namespace {

using namespace cbi;
using sim::CacheConfig;

sim::Workload reference_trace() {
  sim::Workload w;
  w.width = w.height = 1024;
  w.stencil_w = w.stencil_h = 9;
  return w;
}

CacheConfig level(int64_t capacity_bytes, int64_t line_bytes, int64_t ways) {
  CacheConfig c;
  c.line_bytes = line_bytes;
  c.capacity_lines = capacity_bytes / line_bytes;
  c.ways = ways;
  return c;
}

struct Case {
  const char *name;
  std::vector<CacheConfig> levels;
  std::vector<int64_t> misses; // per level, from pycachesim and DineroIV (issue 2, section 6)
};

const std::vector<Case> &cases() {
  static const std::vector<Case> all = {
      {"a_fully_assoc_24x16B", {level(24 * 16, 16, 0)}, {27892352}},
      {"b_256KiB_4way_128B", {level(256 << 10, 128, 4)}, {32768}},
      {"b_256KiB_8way_128B", {level(256 << 10, 128, 8)}, {32768}},
      {"c_L1_32KiB_8way_L2_4MiB_16way",
       {level(32 << 10, 128, 8), level(4 << 20, 128, 16)},
       {11371328, 32768}},
  };
  return all;
}

// The whole simulator, as `cbi simulate` runs it. Fails the benchmark if a count is off. The user
// paths run the same stencil written as a workload of your own (user_stencil.hpp, issue 19 §2),
// through its span fill (one call per task) or its per-instruction address batches.
enum class Path { builtin, user_spans, user_addresses };
void simulate(benchmark::State &state, const Case &k, Path path) {
  sim::SimConfig c;
  c.workload = reference_trace();
  if (path != Path::builtin)
    c.workload = sim::make_workload(std::make_shared<bench::UserStencil>(
        c.workload.width, c.workload.height, c.workload.stencil_w, c.workload.stencil_h,
        c.workload.elem_bytes, false, path == Path::user_spans));
  c.levels = k.levels;
  for (auto _ : state) {
    const sim::SimResult r = sim::simulate(c);
    for (std::size_t l = 0; l < k.misses.size(); ++l)
      if (r.levels[l].misses != k.misses[l])
        state.SkipWithError(("wrong miss count at L" + std::to_string(l + 1)).c_str());
    benchmark::DoNotOptimize(r.levels.data());
  }
  state.counters["accesses_per_second"] = benchmark::Counter(
      double(c.workload.accesses()) * double(state.iterations()), benchmark::Counter::kIsRate);
}

// The same with each task's output store replayed too (--writes): 1,048,576 stores through the
// hierarchy's counted store path.
void simulate_writes(benchmark::State &state, const Case &k) {
  sim::SimConfig c;
  c.workload = reference_trace();
  c.workload.writes = true;
  c.levels = k.levels;
  for (auto _ : state) {
    const sim::SimResult r = sim::simulate(c);
    if (r.accesses != c.workload.accesses())
      state.SkipWithError("wrong access count");
    benchmark::DoNotOptimize(r.levels.data());
  }
  state.counters["accesses_per_second"] = benchmark::Counter(
      double(c.workload.accesses()) * double(state.iterations()), benchmark::Counter::kIsRate);
}

// The whole simulator with every level's misses classified (compulsory, capacity, conflict). Fails
// the benchmark if a count differs from the unclassified run or the classes do not sum.
void simulate_classified(benchmark::State &state, const Case &k) {
  sim::SimConfig c;
  c.workload = reference_trace();
  c.levels = k.levels;
  c.classify_misses = true;
  for (auto _ : state) {
    const sim::SimResult r = sim::simulate(c);
    for (std::size_t l = 0; l < k.misses.size(); ++l) {
      const sim::CacheStats &s = r.levels[l];
      if (s.misses != k.misses[l] ||
          s.misses_compulsory + s.misses_capacity + s.misses_conflict != s.misses)
        state.SkipWithError(("wrong counts at L" + std::to_string(l + 1)).c_str());
    }
    benchmark::DoNotOptimize(r.levels.data());
  }
  state.counters["accesses_per_second"] = benchmark::Counter(
      double(c.workload.accesses()) * double(state.iterations()), benchmark::Counter::kIsRate);
}

// The access generator alone: unit runs for `unit_bytes` units, summed instead of simulated.
void generator(benchmark::State &state) {
  const sim::Workload w = reference_trace();
  const int64_t unit_bytes = state.range(0);
  for (auto _ : state) {
    sim::AccessGenerator gen(w, unit_bytes, sim::Granularity::exact);
    uint64_t sum = 0;
    int64_t runs = 0;
    for (int64_t y = 0; y < w.height; ++y)
      for (int64_t x = 0; x < w.width; ++x)
        gen.thread(x, y, [&](uint64_t unit, int64_t count, bool) {
          sum += unit * static_cast<uint64_t>(count);
          ++runs;
        });
    benchmark::DoNotOptimize(sum);
    state.counters["runs"] = double(runs);
  }
  state.counters["accesses_per_second"] = benchmark::Counter(
      double(w.accesses()) * double(state.iterations()), benchmark::Counter::kIsRate);
}

// The cache levels alone, replaying the first 128 Ki threads' unit runs recorded in memory.
void caches(benchmark::State &state, const Case &k) {
  const sim::Workload w = reference_trace();
  std::vector<std::pair<uint32_t, uint32_t>> runs; // (unit, count)
  sim::AccessGenerator gen(w, k.levels[0].unit_bytes(), sim::Granularity::exact);
  for (int64_t i = 0; i < (int64_t{1} << 17); ++i)
    gen.thread(i % w.width, i / w.width, [&](uint64_t unit, int64_t count, bool) {
      runs.emplace_back(static_cast<uint32_t>(unit), static_cast<uint32_t>(count));
    });
  int64_t accesses = 0;
  for (const auto &r : runs)
    accesses += r.second;
  for (auto _ : state) {
    sim::Hierarchy h(k.levels);
    sim::detail::Engines::with_typed_access(h, [&](auto access) {
      for (const auto &r : runs)
        access(r.first, r.second, false);
    });
    benchmark::DoNotOptimize(h.stats());
  }
  state.counters["runs"] = double(runs.size());
  state.counters["accesses_per_second"] = benchmark::Counter(
      double(accesses) * double(state.iterations()), benchmark::Counter::kIsRate);
}

int register_all() {
  for (const Case &k : cases()) {
    benchmark::RegisterBenchmark((std::string("simulate/") + k.name).c_str(), simulate, k,
                                 Path::builtin)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark((std::string("user_spans/") + k.name).c_str(), simulate, k,
                                 Path::user_spans)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark((std::string("user_addresses/") + k.name).c_str(), simulate, k,
                                 Path::user_addresses)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark((std::string("writes/") + k.name).c_str(), simulate_writes, k)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark((std::string("classify/") + k.name).c_str(), simulate_classified,
                                 k)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark((std::string("caches/") + k.name).c_str(), caches, k)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
  benchmark::RegisterBenchmark("generator/unit_bytes", generator)
      ->Arg(16)
      ->Arg(128)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  return 0;
}
const int registered = register_all();

} // namespace

BENCHMARK_MAIN();
