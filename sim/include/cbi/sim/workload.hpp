// Workloads (cbi/sim/workloads.hpp registers them) and the adapter that only the sequential replay
// uses: a thread's per-instruction program merged into runs of consecutive accesses to one cache
// unit. Memory use is bounded by one thread's accesses, never by the trace.
#pragma once

#include "cbi/sim/workload_params.hpp"
#include "cbi/sim/workloads.hpp"

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <variant>
#include <vector>

namespace cbi::sim {

namespace detail {
template <class W, class = void> struct HasRuns : std::false_type {};
template <class W> struct HasRuns<W, std::void_t<typename W::Runs>> : std::true_type {};
} // namespace detail

// One thread's accesses as runs of `count` consecutive accesses to the same cache unit of
// `unit_bytes`: sink(unit, count, is_write). Consecutive accesses to one unit are what makes the
// simulator fast: after the first, they are hits that leave every policy's state unchanged (the
// unit is already most recent), so the cache sees them once.
//
// Exact granularity keeps program order (the workload's load(t, 0..loads()-1), then the output
// store if writes). Thread granularity (§3.2) collapses the thread's accesses to its distinct units
// in ascending address order, each with count 1, the store last.
template <class W> class RunGenerator {
public:
  RunGenerator(const Workload &w, int64_t unit_bytes, Granularity g)
      : m_program(w), m_runs(make_runs(w, unit_bytes)), m_granularity(g),
        m_unit_bytes(static_cast<uint64_t>(unit_bytes)), m_writes(w.writes),
        m_width(W::task_shape(w).width), m_elem_bytes(w.elem_bytes),
        m_output_base(static_cast<uint64_t>(w.output_base_bytes())) {
    m_unit_shift = (unit_bytes & (unit_bytes - 1)) == 0 ? __builtin_ctzll(m_unit_bytes) : -1;
  }

  // Sinks are taken by value (closures of a few pointers; capture state by reference): a sink held
  // in registers stays there across the cache's stores, where one reached through a reference
  // would be reloaded for every run (the 4-way cache was 16% slower that way).
  template <class Sink> void thread(int64_t x, int64_t y, Sink sink) {
    if (m_granularity == Granularity::thread) {
      m_units.clear();
      loads(x, y, [this](uint64_t unit, int64_t) { m_units.push_back(unit); });
      std::sort(m_units.begin(), m_units.end());
      m_units.erase(std::unique(m_units.begin(), m_units.end()), m_units.end());
      for (uint64_t u : m_units)
        sink(u, int64_t{1}, false);
    } else {
      loads(x, y, [sink](uint64_t unit, int64_t count) { sink(unit, count, false); });
    }
    if (m_writes)
      sink(unit_of(m_output_base + static_cast<uint64_t>((y * m_width + x) * m_elem_bytes)),
           int64_t{1}, true);
  }

private:
  struct NoRuns {};
  static auto make_runs(const Workload &w, int64_t unit_bytes) {
    if constexpr (detail::HasRuns<W>::value)
      return typename W::Runs(w, unit_bytes);
    else
      return NoRuns{};
  }

  uint64_t unit_of(uint64_t byte_addr) const {
    return m_unit_shift >= 0 ? byte_addr >> m_unit_shift : byte_addr / m_unit_bytes;
  }

  // The loads as unit runs: the workload's own fast path, or its program merged unit by unit.
  template <class Sink> void loads(int64_t x, int64_t y, Sink sink) {
    if constexpr (detail::HasRuns<W>::value) {
      m_runs.thread(x, y, sink);
    } else {
      const remap::Task<int64_t> t{x, y};
      const int64_t n = m_program.loads();
      uint64_t unit = unit_of(m_program.load(t, 0).byte_addr);
      int64_t count = 1;
      for (int64_t j = 1; j < n; ++j) {
        const uint64_t u = unit_of(m_program.load(t, j).byte_addr);
        if (u == unit) {
          ++count;
          continue;
        }
        sink(unit, count);
        unit = u;
        count = 1;
      }
      sink(unit, count);
    }
  }

  W m_program;
  decltype(make_runs(std::declval<const Workload &>(), 0)) m_runs;
  Granularity m_granularity;
  uint64_t m_unit_bytes;
  int m_unit_shift;
  bool m_writes;
  int64_t m_width;
  int m_elem_bytes;
  uint64_t m_output_base;
  std::vector<uint64_t> m_units;
};

// RunGenerator for a workload chosen at run time (tests, benchmarks, tools). Replay loops use
// visit_workload and RunGenerator<W> so that the per-thread path is inlined.
class AccessGenerator {
public:
  AccessGenerator(const Workload &w, int64_t unit_bytes, Granularity g)
      : m_gen(make(w, unit_bytes, g)) {}

  template <class Sink> void thread(int64_t x, int64_t y, Sink &&sink) {
    std::visit([&](auto &gen) { gen.thread(x, y, sink); }, m_gen);
  }

private:
  template <class T> struct VariantOf;
  template <class... Ws> struct VariantOf<std::tuple<Ws...>> {
    using type = std::variant<RunGenerator<Ws>...>;
  };
  using Variant = typename VariantOf<WorkloadTypes>::type;
  static Variant make(const Workload &w, int64_t unit_bytes, Granularity g) {
    return visit_workload(w.kind, [&](auto tag) -> Variant {
      return RunGenerator<typename decltype(tag)::type>(w, unit_bytes, g);
    });
  }
  Variant m_gen;
};

} // namespace cbi::sim
