// The GPU model's replay (cbi/sim/gpu_model.hpp): SMs advance together in time, each issuing one
// warp memory instruction per cycle at most. The rooms it joins: CTA dispatch (dispatch.hpp), warp
// scheduling (scheduler.hpp), the coalescer and the memory hierarchy (coalescer.hpp, memory.hpp)
// and the observer (observer.hpp).
#pragma once

#include "cbi/error.hpp"
#include "cbi/sim/gpu_model.hpp"
#include "coalescer.hpp"
#include "dispatch.hpp"
#include "memory.hpp"
#include "observer.hpp"
#include "scheduler.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace cbi::sim::gpu {

constexpr int64_t kNever = INT64_MAX;
constexpr int64_t kWindow = 32; // cycles an SM runs before the next SM's turn

struct Warp {
  int64_t next = 0;      // next instruction
  int64_t group_end = 0; // when the loads issued since the last wait have all arrived
  int64_t cta = 0;       // index in the launch
  int cta_slot = 0;
  int lanes = 0;      // active lanes
  int until_wait = 0; // loads left before the warp waits for its group
};

struct Sm {
  Sm(sim::WarpScheduler policy, int warps, int warps_per_cta)
      : scheduler(policy, warps, warps_per_cta) {}
  std::vector<Warp> warps;
  std::vector<remap::Task<int64_t>> tasks; // warp w's lanes at [w * warp_size, ...)
  std::vector<int> cta_live_warps;         // per CTA slot
  WarpScheduler scheduler;
  int64_t pipe_free = 0;
  struct Launch {
    int64_t at = 0; // when the CTA starts
    int64_t cta = 0;
    int slot = 0;
  };
  std::vector<Launch> launches; // CTAs given to this SM that have not started yet
  int64_t dispatch_at = kNever; // the earliest of their starts
};

// Occupancy: CTAs of `block` threads resident on one SM of `d` at once.
inline int64_t ctas_per_sm(const Device &d, int64_t block) {
  const int64_t warps_per_cta = (block + d.warp_size - 1) / d.warp_size;
  return std::max<int64_t>(
      1, std::min<int64_t>({d.max_threads_per_sm / block, d.max_warps_per_sm / warps_per_cta,
                            int64_t{d.max_ctas_per_sm}}));
}

template <class W, class Order> class Engine {
public:
  Engine(const GpuConfig &c, const W &program, Order order, const GpuObserver *observer)
      : m_c(c), m_d(c.device), m_order(order), m_shape(W::task_shape(c.workload)),
        m_threads(m_shape.width * m_shape.height), m_block(c.block_threads),
        m_warp_size(c.device.warp_size),
        m_warps_per_cta(static_cast<int>((c.block_threads + m_warp_size - 1) / m_warp_size)),
        m_loads(program.loads()), m_group(c.sample_sms > 0 ? c.device.sms / c.sample_sms : 1),
        m_dispatch((m_threads + m_block - 1) / m_block, c.device.sms,
                   ctas_per_sm(c.device, c.block_threads), m_group),
        m_coalescer(program, c, m_shape,
                    m_dispatch.simulated_sms() *
                        static_cast<int>(ctas_per_sm(c.device, c.block_threads)) * m_warps_per_cta),
        m_memory(c, m_dispatch.simulated_sms(), m_group),
        m_events(observer, m_group, __builtin_ctzll(static_cast<uint64_t>(c.device.l1_line_bytes)),
                 __builtin_ctzll(static_cast<uint64_t>(c.device.l1_sector_bytes))) {
    m_ctas_per_sm = ctas_per_sm(m_d, m_block);
    // Cycles the L1 is busy with a request of n lines (wavefronts).
    for (int n = 0; n <= Coalescer<W>::kMaxLanes; ++n)
      m_busy_cycles[static_cast<std::size_t>(n)] =
          static_cast<int64_t>(n / m_d.l1_wavefronts_per_cycle + 0.999);
    const int sms = m_dispatch.simulated_sms();
    const int warps = static_cast<int>(m_ctas_per_sm * m_warps_per_cta);
    m_sms.reserve(static_cast<std::size_t>(sms));
    for (int s = 0; s < sms; ++s) {
      m_sms.emplace_back(m_d.scheduler, warps, m_warps_per_cta);
      Sm &sm = m_sms.back();
      sm.warps.resize(static_cast<std::size_t>(warps));
      sm.tasks.resize(static_cast<std::size_t>(warps) * static_cast<std::size_t>(m_warp_size));
      sm.cta_live_warps.assign(static_cast<std::size_t>(m_ctas_per_sm), 0);
    }
  }

  GpuResult run(const Progress &progress) {
    m_dispatch.first_wave(m_d.cta_dispatch_cycles, [&](int s, int slot, int64_t cta, int64_t at) {
      Sm &sm = m_sms[static_cast<std::size_t>(s)];
      if (at == 0) {
        start_cta(s, slot, 0, cta);
      } else {
        sm.launches.push_back({at, cta, slot});
        sm.dispatch_at = std::min(sm.dispatch_at, at);
      }
    });
    // SMs advance together in windows of kWindow cycles: each SM runs its window's cycles (in each
    // it may issue one request), then the next SM. Within a window L2 sees the SMs' requests in
    // SM order rather than cycle order; the window is short against the L2 latency, and it keeps
    // one SM's L1 in the host's caches for a while (docs/results/gpu-model-speed.md).
    int64_t now = 0, reported = 0;
    const int64_t progress_step = std::max<int64_t>(1, m_dispatch.ctas() / 100);
    for (; m_dispatch.live() > 0; now += kWindow) {
      if (now + kWindow + WarpScheduler::kWheel + m_d.dram_cycles >
          int64_t{0xFFFFFFFF} - (int64_t{1} << 24))
        throw UsageError("gpu.block_threads", "the replay passed 2^32 cycles, the model's limit");
      for (std::size_t s = 0; s < m_sms.size(); ++s)
        for (int64_t t = now; t < now + kWindow; ++t)
          cycle(static_cast<int>(s), t);
      if (progress && m_dispatch.done() - reported >= progress_step) {
        reported = m_dispatch.done();
        progress(std::min(m_threads, reported * m_block), m_threads);
      }
    }
    if (progress)
      progress(m_threads, m_threads);
    GpuResult r;
    r.metrics = m_memory.metrics();
    r.simulated_ctas = m_dispatch.done();
    r.simulated_sms = static_cast<int>(m_sms.size());
    r.ctas = m_dispatch.ctas();
    r.ctas_per_sm = m_ctas_per_sm;
    r.threads = m_threads;
    r.cycles = std::max(now, m_last_event);
    return r;
  }

private:
  void start_cta(int s, int slot, int64_t now, int64_t cta) {
    Sm &sm = m_sms[static_cast<std::size_t>(s)];
    int live = 0;
    for (int w = 0; w < m_warps_per_cta; ++w) {
      const int64_t first = cta * m_block + int64_t{w} * m_warp_size;
      const int64_t last = std::min({first + m_warp_size, (cta + 1) * m_block, m_threads});
      if (first >= last)
        break;
      const int id = slot * m_warps_per_cta + w;
      sm.warps[static_cast<std::size_t>(id)] =
          Warp{0, now, cta, slot, static_cast<int>(last - first), m_d.loads_in_flight_per_warp};
      remap::Task<int64_t> *t = &sm.tasks[static_cast<std::size_t>(id) * m_warp_size];
      for (int64_t i = first; i < last; ++i)
        t[i - first] = m_order.map(i, m_shape);
      m_coalescer.warp_started(key(s, id), t, static_cast<int>(last - first));
      sm.scheduler.make_ready(id); // ready at once
      ++live;
    }
    sm.cta_live_warps[static_cast<std::size_t>(slot)] = live;
    sm.scheduler.cta_started(slot);
  }

  // One cycle of SM s: dispatch due CTAs, wake the warps whose wait ends now, issue the picked
  // ready warp's next memory instruction if the L1 can take a request.
  [[gnu::always_inline]] void cycle(int s, int64_t now) {
    Sm &sm = m_sms[static_cast<std::size_t>(s)];
    if (sm.dispatch_at <= now) {
      sm.dispatch_at = kNever;
      for (std::size_t k = 0; k < sm.launches.size();) {
        const Sm::Launch l = sm.launches[k];
        if (l.at <= now) {
          start_cta(s, l.slot, now, l.cta);
          sm.launches[k] = sm.launches.back();
          sm.launches.pop_back();
        } else {
          sm.dispatch_at = std::min(sm.dispatch_at, l.at);
          ++k;
        }
      }
    }
    sm.scheduler.wake(now);
    if (sm.pipe_free > now)
      return;
    const int id = sm.scheduler.pick();
    if (id < 0)
      return;
    Warp &warp = sm.warps[static_cast<std::size_t>(id)];
    const remap::Task<int64_t> *lanes = &sm.tasks[static_cast<std::size_t>(id) * m_warp_size];
    int sectors = 0;
    const int lines = m_coalescer.load(key(s, id), lanes, warp.lanes, warp.next, m_lines, sectors);
    int64_t arrives;
    if (m_events.watches(s)) {
      m_events.begin(now, s, warp.cta, id % m_warps_per_cta, warp.next);
      arrives = m_memory.load(s, m_lines, lines, sectors, now,
                              [&](uint64_t line, uint32_t mask, const SectorCache::Result &r,
                                  uint32_t l2_miss) { m_events.line(line, mask, r, l2_miss); });
    } else {
      arrives = m_memory.load(s, m_lines, lines, sectors, now,
                              [](uint64_t, uint32_t, const SectorCache::Result &, uint32_t) {});
    }
    sm.pipe_free = now + m_busy_cycles[static_cast<std::size_t>(lines)];
    m_last_event = std::max(m_last_event, arrives);
    warp.group_end = std::max(warp.group_end, arrives);
    if (++warp.next < m_loads) {
      // Loads do not block: a warp issues up to loads_in_flight of them, then waits for all.
      const bool wait = --warp.until_wait == 0;
      if (wait)
        warp.until_wait = m_d.loads_in_flight_per_warp;
      sm.scheduler.schedule(id, wait ? warp.group_end : now + m_d.issue_cycles, now);
      return;
    }
    if (m_c.stores) {
      const int n = m_coalescer.store(lanes, warp.lanes, m_writes);
      m_memory.store(m_writes, n, warp.group_end);
    }
    int &left = sm.cta_live_warps[static_cast<std::size_t>(warp.cta_slot)];
    int64_t cta = 0;
    if (--left == 0 && m_dispatch.refill(cta)) {
      // The freed slot's next CTA starts cta_launch_cycles later. A sampled SM's group takes
      // `group` CTAs: the SMs it stands for take the rest.
      const int64_t at = std::max(warp.group_end, now) + m_d.cta_launch_cycles;
      sm.launches.push_back({at, cta, warp.cta_slot});
      sm.dispatch_at = std::min(sm.dispatch_at, at);
    }
  }

  // The coalescer's key of warp slot `id` of SM s.
  int key(int s, int id) const {
    return s * static_cast<int>(m_ctas_per_sm) * m_warps_per_cta + id;
  }

  const GpuConfig &m_c;
  const Device &m_d;
  Order m_order;
  remap::Shape<int64_t> m_shape;
  int64_t m_threads, m_block;
  int m_warp_size, m_warps_per_cta;
  int64_t m_loads;
  int64_t m_group; // device SMs that one simulated SM stands for (1: every SM simulated)
  CtaDispatcher m_dispatch;
  Coalescer<W> m_coalescer;
  MemoryHierarchy m_memory;
  SectorEvents m_events;
  std::vector<Sm> m_sms;
  int64_t m_ctas_per_sm = 0;
  int64_t m_last_event = 0;
  int64_t m_busy_cycles[Coalescer<W>::kMaxLanes + 1];
  LineRequest m_lines[Coalescer<W>::kMaxLanes];
  SectorWrite m_writes[2 * Coalescer<W>::kMaxLanes];
};

} // namespace cbi::sim::gpu
