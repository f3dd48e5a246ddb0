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

// A workload of your own (cbi/sim/user_workload.hpp) gives its instructions in batches: replay()
// hands the generator a batch of consecutive threads (fill), then takes each lane's accesses as
// unit runs (lane), so the object pays one virtual call per instruction and batch, or with spans()
// one per task. An access of `bytes` counts once per cache unit it touches; consecutive accesses of
// one kind to one unit merge into a run. Thread granularity: the lane's distinct load units
// ascending, then its distinct store units. Memory: instructions x batch addresses (batches shrink
// for long programs: at most 2^19 addresses).
template <> class RunGenerator<UserWorkloadAdapter> {
public:
  RunGenerator(const Workload &w, int64_t unit_bytes, Granularity g)
      : m_user(w.user.get()), m_granularity(g), m_unit_bytes(static_cast<uint64_t>(unit_bytes)),
        m_instructions(w.user->instructions()) {
    m_unit_shift = (unit_bytes & (unit_bytes - 1)) == 0 ? __builtin_ctzll(m_unit_bytes) : -1;
    constexpr int64_t kMaxAddresses = int64_t{1} << 19;
    m_batch = static_cast<int>(
        std::max<int64_t>(1, std::min<int64_t>(32, kMaxAddresses / m_instructions)));
    const int64_t spans = w.user->max_spans();
    if (spans > 0) {
      m_spans.resize(static_cast<std::size_t>(spans));
      m_batch = 32;
    } else {
      m_addr.resize(static_cast<std::size_t>(m_instructions * m_batch));
      m_kind.resize(static_cast<std::size_t>(m_instructions));
    }
  }

  // Most tasks one fill() takes: a warp's lanes at most.
  int batch() const { return m_batch; }

  // Every instruction of tasks[0..n), n <= batch().
  void fill(const remap::Task<int64_t> *tasks, int n) {
    m_lanes = n;
    if (!m_spans.empty()) {
      for (int l = 0; l < n && l < 64; ++l)
        m_tasks[l] = tasks[l];
      return;
    }
    for (int64_t j = 0; j < m_instructions; ++j)
      m_kind[static_cast<std::size_t>(j)] =
          m_user->addresses(tasks, n, j, &m_addr[static_cast<std::size_t>(j * n)]);
  }

  // Lane l's accesses of the last fill(), as sink(unit, count, is_write).
  template <class Sink> void lane(int l, Sink sink) {
    if (m_granularity == Granularity::thread) {
      for (const bool store : {false, true}) {
        m_units.clear();
        each_run(l, [&](uint64_t u, int64_t, bool is_store) {
          if (is_store == store)
            m_units.push_back(u);
        });
        std::sort(m_units.begin(), m_units.end());
        m_units.erase(std::unique(m_units.begin(), m_units.end()), m_units.end());
        for (uint64_t u : m_units)
          sink(u, int64_t{1}, store);
      }
      return;
    }
    uint64_t unit = 0;
    int64_t count = 0;
    bool write = false;
    each_run(l, [&](uint64_t u, int64_t c, bool is_store) {
      if (u == unit && is_store == write && count > 0) {
        count += c;
        return;
      }
      if (count > 0)
        sink(unit, count, write);
      unit = u;
      write = is_store;
      count = c;
    });
    if (count > 0)
      sink(unit, count, write);
  }

  // One thread alone (AccessGenerator; replay() uses fill and lane).
  template <class Sink> void thread(int64_t x, int64_t y, Sink sink) {
    const remap::Task<int64_t> t{x, y};
    fill(&t, 1);
    lane(0, sink);
  }

private:
  uint64_t unit_of(uint64_t byte_addr) const {
    return m_unit_shift >= 0 ? byte_addr >> m_unit_shift : byte_addr / m_unit_bytes;
  }
  // f(unit, count, is_store) for lane l's accesses in program order, as runs on one unit.
  template <class F> void each_run(int l, F &&f) {
    if (!m_spans.empty()) {
      const int n = m_user->spans(m_tasks[l], m_spans.data());
      for (int k = 0; k < n; ++k)
        span_runs(m_spans[static_cast<std::size_t>(k)], f);
      return;
    }
    const std::size_t lanes = static_cast<std::size_t>(m_lanes);
    const uint64_t *a = &m_addr[static_cast<std::size_t>(l)];
    for (std::size_t j = 0; j < m_kind.size(); ++j, a += lanes) {
      if (*a == kNoAccess)
        continue;
      const InstructionKind k = m_kind[j];
      const uint64_t first = unit_of(*a), last = unit_of(*a + static_cast<uint64_t>(k.bytes) - 1);
      for (uint64_t u = first; u <= last; ++u)
        f(u, int64_t{1}, k.is_store);
    }
  }
  // A span's accesses as unit runs: whole runs where power-of-two aligned accesses tile their units
  // (stride 0, or stride = bytes), access by access otherwise.
  template <class F> void span_runs(const AccessSpan &s, F &f) const {
    const uint64_t b = static_cast<uint64_t>(s.bytes);
    if (s.count <= 0)
      return;
    // Power-of-two accesses, aligned, no larger than the (power-of-two) unit: shifts, no division.
    if (m_unit_shift >= 0 && (b & (b - 1)) == 0 && b <= m_unit_bytes &&
        (s.byte_addr & (b - 1)) == 0) {
      const int us = m_unit_shift;
      if (s.stride_bytes == 0) {
        f(s.byte_addr >> us, s.count, s.is_store);
        return;
      }
      if (static_cast<uint64_t>(s.stride_bytes) == b) {
        const int bs = __builtin_ctzll(b);
        const uint64_t last_addr = s.byte_addr + (static_cast<uint64_t>(s.count) - 1) * b;
        uint64_t u = s.byte_addr >> us;
        const uint64_t u_last = last_addr >> us;
        if (u == u_last) {
          f(u, s.count, s.is_store);
          return;
        }
        f(u, static_cast<int64_t>((((u + 1) << us) - s.byte_addr) >> bs), s.is_store);
        const int64_t per_unit = static_cast<int64_t>(m_unit_bytes >> bs);
        for (++u; u < u_last; ++u)
          f(u, per_unit, s.is_store);
        f(u_last, static_cast<int64_t>(((last_addr - (u_last << us)) >> bs) + 1), s.is_store);
        return;
      }
    }
    uint64_t a = s.byte_addr;
    for (int64_t k = 0; k < s.count; ++k, a += static_cast<uint64_t>(s.stride_bytes)) {
      const uint64_t last = unit_of(a + b - 1);
      for (uint64_t u = unit_of(a); u <= last; ++u)
        f(u, int64_t{1}, s.is_store);
    }
  }

  const UserWorkload *m_user;
  Granularity m_granularity;
  uint64_t m_unit_bytes;
  int m_unit_shift;
  int64_t m_instructions;
  int m_batch = 1;
  int m_lanes = 0;
  std::vector<uint64_t> m_addr; // instruction j, lane l at [j * lanes + l]
  std::vector<InstructionKind> m_kind;
  std::vector<AccessSpan> m_spans; // with spans(): one task's
  remap::Task<int64_t> m_tasks[64];
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
    using type = std::variant<RunGenerator<Ws>..., RunGenerator<UserWorkloadAdapter>>;
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
