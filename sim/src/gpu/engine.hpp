// The GPU model's replay (cbi/sim/gpu_model.hpp): SMs advance together in time, each issuing one
// warp memory instruction per cycle at most. The rooms it joins: CTA dispatch (dispatch.hpp), warp
// scheduling (scheduler.hpp), the coalescer and the memory hierarchy (coalescer.hpp, memory.hpp)
// and the observer (observer.hpp).
//
// With GpuConfig::jobs > 1 the SMs of a window run on several host threads (run_parallel): each
// SM runs its window against its own L1 and logs what it asks of the L2 (its L1 misses, its
// stores, its finished CTAs); one thread replays the logs in SM order, the order in which the
// one-thread replay meets them, so the prediction is the same bit for bit on any thread count
// (tests/sim/test_gpu_parallel.cpp).
#pragma once

#include "cbi/error.hpp"
#include "cbi/remap/dispatch.hpp"
#include "cbi/sim/gpu_model.hpp"
#include "coalescer.hpp"
#include "dispatch.hpp"
#include "memory.hpp"
#include "observer.hpp"
#include "scheduler.hpp"
#include "turns.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <thread>
#include <type_traits>
#include <vector>

namespace cbi::sim::gpu {

constexpr int64_t kNever = INT64_MAX;
constexpr int64_t kWindow = 32; // cycles an SM runs before the next SM's turn
// The parallel replay: an L1 sector whose fill time is kTicketBase + t waits for ticket t of its
// SM's open window, an L2 fetch not yet made. Real times stay below it (the engine's 2^32 check).
constexpr uint32_t kTicketBase = 0xFF000000u;

struct Warp {
  int64_t next = 0;      // next instruction
  int64_t group_end = 0; // when the loads issued since the last wait have all arrived
  int64_t cta = 0;       // index in the launch
  int cta_slot = 0;
  int lanes = 0;           // active lanes
  int until_wait = 0;      // loads left before the warp waits for its group
  bool unresolved = false; // parallel replay: group_end waits for a ticket of the open window
};

struct alignas(64) Sm { // aligned: SMs on different host threads share no cache line
  Sm(sim::WarpScheduler policy, int warps, int warps_per_cta, double issue_cycles_per_load)
      : scheduler(policy, warps, warps_per_cta, issue_cycles_per_load) {}
  std::vector<Warp> warps;
  std::vector<remap::Task<int64_t>> tasks; // warp w's lanes at [w * warp_size, ...)
  std::vector<int> cta_live_warps;         // per CTA slot
  // A kernel whose loads slide (Engine::m_slide): warp w's last loads' arrival times, load n's at
  // [w * kSlideMax + n % kSlideMax]; the parallel replay marks one not known until the window's
  // end kNever.
  std::vector<int64_t> arrivals;
  WarpScheduler scheduler;
  int64_t pipe_free = 0;
  // The part of a cycle (in 1/kPipeFraction) that the L1's last request held it past pipe_free,
  // carried to the next request while the L1 stays busy (Engine::occupy_l1).
  int pipe_fraction = 0;
  struct Launch {
    int64_t at = 0; // when the CTA starts
    int64_t cta = 0;
    int slot = 0;
  };
  std::vector<Launch> launches; // CTAs given to this SM that have not started yet
  std::vector<Launch> due;      // take_due's launches due now, sorted
  int64_t dispatch_at = kNever; // the earliest of their starts

  // The parallel replay's log of the open window, in issue order (Engine::resolve).
  struct Ticket { // the L2 fetch of one L1 line's missing sectors
    uint64_t line = 0;
    uint32_t *fill = nullptr; // the L1 line's fill times
    int64_t now = 0;
    int64_t arrives = 0; // set by resolve
    uint32_t mask = 0;
  };
  // schedule_slide: the warp's next load waits for an earlier load of the open window
  // (a sliding window's oldest), scheduled once resolve() knows when it arrives.
  enum class Then : uint8_t { nothing, schedule_at, schedule_group_end, schedule_slide };
  struct Record { // a request that left something for the window's end
    int64_t now = 0;
    int64_t known = 0; // its ready time as far as the L1 knows
    int64_t when = 0;  // Then::schedule_at: when the warp is ready
    int warp = 0;
    int tickets_begin = 0, tickets_end = 0; // its own L2 fetches
    int deps_begin = 0, deps_end = 0;       // the tickets it waits for (in deps)
    int load = 0;                           // a sliding window: the load's index modulo kSlideMax
    Then then = Then::nothing;
    bool last = false; // the warp's last load: its store and its CTA's end follow
  };
  std::vector<Ticket> tickets;
  std::vector<Record> records;
  std::vector<int> deps;
  std::vector<Launch> window_launches; // `launches` as the window began
  std::vector<int64_t> dispatched;     // the cycles of the window at which CTAs started
  int64_t last_event = 0;
  int64_t launcher_visit = -1; // the last of the launcher's visits that started a CTA here
  // Steps shared by the live CTAs (Engine::m_shared_steps): per CTA slot, the cycles from step to
  // step of its CTA, set from the CTAs live as the SM's window began (begin_window) and those
  // started since.
  std::vector<int64_t> slot_step_cycles;
  int window_live = 0, window_started = 0;
};

// Occupancy: CTAs of `block` threads resident on one SM of `d` at once. A kernel that says what
// it takes, `regs` registers a thread and `shared` bytes of shared memory a CTA (0: not said),
// fits fewer where the SM's registers or shared memory run out first (CUDA's occupancy
// calculator, without its allocation granularities).
inline int64_t ctas_per_sm(const Device &d, int64_t block, int64_t regs = 0, int64_t shared = 0) {
  const int64_t warps_per_cta = (block + d.warp_size - 1) / d.warp_size;
  int64_t n = std::min<int64_t>({d.max_threads_per_sm / block, d.max_warps_per_sm / warps_per_cta,
                                 int64_t{d.max_ctas_per_sm}});
  if (regs > 0 && d.registers_per_sm > 0)
    n = std::min(n, d.registers_per_sm / (regs * warps_per_cta * d.warp_size));
  if (shared > 0 && d.shared_bytes_per_sm > 0)
    n = std::min(n, d.shared_bytes_per_sm / (shared + d.shared_bytes_reserved_per_cta));
  return std::max<int64_t>(1, n);
}

// Workloads whose kernel's registers and shared memory are known (the tiled kernels).
template <class W, class = void> struct HasKernelResources : std::false_type {};
template <class W>
struct HasKernelResources<W, std::void_t<decltype(W::registers_per_thread),
                                         decltype(W::shared_bytes_per_cta(Workload{}))>>
    : std::true_type {};

// Workloads whose kernel loads in steps with arithmetic between them (the tiled kernels'
// loads_per_step: the loads before a barrier that needs their data).
template <class W, class = void> struct HasSteps : std::false_type {};
template <class W>
struct HasSteps<W, std::void_t<decltype(W::loads_per_step(Workload{}))>> : std::true_type {};

// Workloads whose kernel's executed instructions and issue rate were measured as a whole
// (kernel_instructions_per_task(w), kernel_issue_per_cycle: the smem stencil): the issue bound and
// the steps take them instead of the estimate from the loop's arithmetic.
template <class W, class = void> struct HasKernelIssue : std::false_type {};
template <class W>
struct HasKernelIssue<W, std::void_t<decltype(W::kernel_instructions_per_task(Workload{})),
                                     decltype(W::kernel_issue_per_cycle)>> : std::true_type {};

// Workloads whose CTA alone on an SM issues a measured fraction of the SM's rate (the tiled SGEMM:
// solo_cta_issue_fraction, against the rate of a full SM).
template <class W, class = void> struct HasSoloIssue : std::false_type {};
template <class W>
struct HasSoloIssue<W, std::void_t<decltype(W::solo_cta_issue_fraction)>> : std::true_type {};

// Workloads whose kernel keeps a sliding window of loads in flight (sliding_loads_in_flight(w):
// a warp issues its next load when its oldest of that many has arrived; 0: the device's
// loads_in_flight_per_warp, issued and then waited for together).
template <class W, class = void> struct HasSlidingLoads : std::false_type {};
template <class W>
struct HasSlidingLoads<W, std::void_t<decltype(W::sliding_loads_in_flight(Workload{}))>>
    : std::true_type {};
constexpr int kSlideMax = 16;      // the most loads a sliding window holds
constexpr int kPipeFraction = 256; // the L1's busy time in parts of a cycle (Sm::pipe_fraction)

// Whether the L2 request coalescer merges the workload's reads: a workload may say it does not
// (l2_coalescable = false: the smem stencil's cp.async copies).
template <class W, class = void> struct L2Coalescable : std::true_type {};
template <class W>
struct L2Coalescable<W, std::void_t<decltype(W::l2_coalescable)>>
    : std::bool_constant<W::l2_coalescable> {};

// Workloads whose kernel's warp instructions per task were measured under the linear order
// (instructions_per_task(w): stencil, matmul); the remap of another order adds its
// fast_remap_instructions (remap/order_traits.hpp).
template <class W, class = void> struct HasInstructionCount : std::false_type {};
template <class W>
struct HasInstructionCount<W, std::void_t<decltype(W::instructions_per_task(Workload{}))>>
    : std::true_type {};

// Warp instructions per task of configuration `c` whose workload W has a measured count.
template <class W> double measured_instructions_per_task(const GpuConfig &c) {
  return W::instructions_per_task(c.workload) + remap::fast_remap_instructions(c.order);
}

// Warp instructions an SM issues per cycle for a W on device `d`: the kernel's own measured rate,
// the device's rate for a measured instruction count, or the one fitted with the estimated counts
// (Device). The issue bound (gpu_model.cpp) and the steps of a kernel that loads in steps take it.
template <class W> double issue_per_cycle_of(const Device &d) {
  if constexpr (HasKernelIssue<W>::value)
    return W::kernel_issue_per_cycle;
  else
    return HasInstructionCount<W>::value ? d.issue_per_cycle : d.estimated_issue_per_cycle;
}

// The occupancy of configuration `c`, whose workload is a W.
template <class W> int64_t ctas_per_sm_of(const GpuConfig &c) {
  if constexpr (HasKernelResources<W>::value)
    return ctas_per_sm(c.device, c.block_threads, W::registers_per_thread,
                       W::shared_bytes_per_cta(c.workload));
  else
    return ctas_per_sm(c.device, c.block_threads);
}

template <class W, class Order> class Engine {
public:
  Engine(const GpuConfig &c, const W &program, Order order, const GpuObserver *observer)
      : m_c(c), m_d(c.device), m_program(program), m_order(order),
        m_shape(W::task_shape(c.workload)), m_threads(m_shape.width * m_shape.height),
        m_block(c.block_threads), m_warp_size(c.device.warp_size),
        m_warps_per_cta(static_cast<int>((c.block_threads + m_warp_size - 1) / m_warp_size)),
        m_loads(program.loads()), m_group(c.sample_sms > 0 ? c.device.sms / c.sample_sms : 1),
        m_dispatch((m_threads + m_block - 1) / m_block, c.device.sms, ctas_per_sm_of<W>(c),
                   m_group),
        m_coalescer(program, c, m_shape,
                    m_dispatch.simulated_sms() * static_cast<int>(ctas_per_sm_of<W>(c)) *
                        m_warps_per_cta),
        m_memory(c, m_dispatch.simulated_sms(), m_group, L2Coalescable<W>::value),
        m_events(observer, m_group, __builtin_ctzll(static_cast<uint64_t>(c.device.l1_line_bytes)),
                 __builtin_ctzll(static_cast<uint64_t>(c.device.l1_sector_bytes))) {
    m_ctas_per_sm = ctas_per_sm_of<W>(c);
    m_warp_slots = static_cast<int>(m_ctas_per_sm) * m_warps_per_cta;
    m_loads_per_wait = m_d.loads_in_flight_per_warp;
    if constexpr (HasSteps<W>::value) {
      // A kernel that loads in steps: a warp waits for each step's loads, and its next step starts
      // no sooner than the SM can issue the step's arithmetic for all its resident warps (the
      // instructions that the issue bound counts, gpu_model.cpp, spread over the steps).
      const Workload &w = c.workload;
      // A device that takes one load at a time (the tiny device's sequential replay) keeps that.
      if (m_d.loads_in_flight_per_warp > 1)
        m_loads_per_wait = static_cast<int>(W::loads_per_step(w));
      const double steps = double(W::loads_per_task(w)) / double(W::loads_per_step(w));
      double per_step = (double(W::fp_ops_per_task(w)) +
                         double(W::loads_per_task(w)) * (1.0 + W::address_ops_per_load)) /
                        steps;
      if constexpr (HasKernelIssue<W>::value)
        per_step = W::kernel_instructions_per_task(w) / steps;
      m_step_cycles = static_cast<int64_t>(per_step * double(m_ctas_per_sm * m_warps_per_cta) /
                                           issue_per_cycle_of<W>(m_d));
      if constexpr (HasSoloIssue<W>::value)
        if (m_d.scheduler == sim::WarpScheduler::oldest_issues_first)
          share_steps(per_step, W::solo_cta_issue_fraction);
    }
    if constexpr (HasSlidingLoads<W>::value)
      if (m_d.loads_in_flight_per_warp > 1) { // the tiny device keeps its one load at a time
        m_slide = std::clamp(W::sliding_loads_in_flight(c.workload), 0, kSlideMax);
        m_slide_body = std::max(0, W::sliding_loads_per_body(c.workload));
      }
    m_jobs = static_cast<int>(std::clamp<int64_t>(c.jobs, 1, m_dispatch.simulated_sms()));
    if constexpr (kUser)
      m_user_writes.resize(static_cast<std::size_t>(Coalescer<W>::kMaxLanes) *
                           static_cast<std::size_t>(128 / m_d.l2_sector_bytes + 2));
    m_request_floor = static_cast<int>(std::lround(m_d.l1_request_cycles * kPipeFraction));
    if (m_d.launcher_ctas_per_us > 0)
      m_launcher_interval = std::llround(m_d.sm_clock_mhz / m_d.launcher_ctas_per_us *
                                         double(m_group) * double(kLauncherFraction));
    // Cycles the L1 is busy with a request of n wavefronts (l1_bank_wavefronts).
    for (int n = 0; n <= Coalescer<W>::kMaxLanes; ++n)
      m_busy_cycles[static_cast<std::size_t>(n)] = wavefront_cycles(n);
    // Cycles the L1's data stage takes to return n lanes' elements to the registers.
    for (int n = 0; n <= Coalescer<W>::kMaxLanes; ++n)
      m_data_cycles[static_cast<std::size_t>(n)] =
          m_d.l1_data_bytes_per_cycle > 0 && !kUser
              ? (int64_t{n} * c.workload.elem_bytes + m_d.l1_data_bytes_per_cycle - 1) /
                    m_d.l1_data_bytes_per_cycle
              : 0;
    const int sms = m_dispatch.simulated_sms();
    const int warps = static_cast<int>(m_ctas_per_sm * m_warps_per_cta);
    // The issue stage of oldest_issues_first: a warp's measured instructions per load at the
    // device's issue rate (the rate of the issue bound, gpu_model.cpp), and at least the L1's
    // l1_request_cycles: the stage hands the L1 a load no faster than its input takes them, the
    // oldest CTA's first (so float CTAs that share an SM drift apart as on the H200, where the
    // floor at the L1's in-order queue kept them in step: docs/results/tight/l1-rate.md).
    // Workloads without a measured count have none (the scheduler then takes the warp ready
    // longest, and the L1 itself takes a request l1_request_cycles at least: occupy_l1).
    double issue_cycles_per_load = 0;
    if constexpr (HasInstructionCount<W>::value)
      issue_cycles_per_load =
          std::max(measured_instructions_per_task<W>(c) / double(m_loads) / m_d.issue_per_cycle,
                   m_d.l1_request_cycles);
    m_sms.reserve(static_cast<std::size_t>(sms));
    for (int s = 0; s < sms; ++s) {
      m_sms.emplace_back(m_d.scheduler, warps, m_warps_per_cta, issue_cycles_per_load);
      Sm &sm = m_sms.back();
      sm.warps.resize(static_cast<std::size_t>(warps));
      sm.tasks.resize(static_cast<std::size_t>(warps) * static_cast<std::size_t>(m_warp_size));
      sm.cta_live_warps.assign(static_cast<std::size_t>(m_ctas_per_sm), 0);
      sm.slot_step_cycles.assign(static_cast<std::size_t>(m_ctas_per_sm), m_step_cycles);
      if (m_slide > 0)
        sm.arrivals.assign(static_cast<std::size_t>(warps) * kSlideMax, 0);
    }
    if (!m_sms.empty() && m_sms.front().scheduler.has_issue_stage())
      m_request_floor = 0; // the issue stage keeps the floor
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
    int64_t now = 0, reported = 0, windows = 0;
    const int64_t progress_step = std::max<int64_t>(1, m_dispatch.ctas() / 100);
    // Progress every 1% of the CTAs, and every 1024 windows besides (the first wave's CTAs end
    // together, seconds into a large launch): the caller's interrupt check runs that often.
    const auto next_window = [&]() {
      if (now > 0 && progress &&
          (m_dispatch.done() - reported >= progress_step || (++windows & 1023) == 0)) {
        reported = m_dispatch.done();
        progress(std::min(m_threads, reported * m_block), m_threads);
      }
      if (m_dispatch.live() == 0)
        return false;
      if (now + kWindow + WarpScheduler::kWheel + m_d.dram_cycles + m_d.dram_loaded_cycles >
              int64_t{kTicketBase} - (int64_t{1} << 24) ||
          m_last_event >= int64_t{kTicketBase})
        throw UsageError("gpu.block_threads", "the replay passed 2^32 cycles, the model's limit");
      return true;
    };
    const bool parallel = m_jobs > 1 && parallel_exact();
    if (parallel) {
      run_parallel(now, next_window);
    } else {
      for (; next_window(); now += kWindow)
        for (std::size_t s = 0; s < m_sms.size(); ++s) {
          prefetch(static_cast<int>(s), static_cast<int>(m_sms.size()), now);
          begin_window(m_sms[s]);
          for (int64_t t = now; t < now + kWindow; t = next_cycle(m_sms[s], t, now + kWindow))
            cycle(static_cast<int>(s), t);
        }
    }
    for (const Sm &sm : m_sms)
      m_last_event = std::max(m_last_event, sm.last_event);
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
    r.jobs = parallel ? m_jobs : 1;
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
          Warp{0, now, cta, slot, static_cast<int>(last - first), m_loads_per_wait};
      remap::Task<int64_t> *t = &sm.tasks[static_cast<std::size_t>(id) * m_warp_size];
      for (int64_t i = first; i < last; ++i)
        t[i - first] = m_order.map(i, m_shape);
      m_coalescer.warp_started(key(s, id), t, static_cast<int>(last - first));
      sm.scheduler.make_ready(id); // ready at once
      ++live;
    }
    sm.cta_live_warps[static_cast<std::size_t>(slot)] = live;
    sm.scheduler.cta_started(slot);
    if (m_shared_steps) { // as many CTAs as were live as the window began and started since
      const int n = std::min<int>(sm.window_live + ++sm.window_started, int(m_ctas_per_sm));
      sm.slot_step_cycles[static_cast<std::size_t>(slot)] = shared_step(n);
    }
  }

  // Steps shared by the n CTAs live on an SM: kernels/probes/sgemm_steps on the H200
  // (docs/results/tight/y-set.md §7): a CTA alone runs 0.8324 of a pair's throughput, so the SM
  // issues min(1, n * solo) of its rate, shared evenly (the probe's older CTA, 1 / 0.921 times
  // faster than the younger, is left out: the CTAs in step predict the SGEMM's DRAM bytes closer).
  // With every slot live the steps are m_step_cycles; a CTA alone runs faster.
  void share_steps(double per_step, double solo) {
    m_shared_steps = true;
    const int k = static_cast<int>(m_ctas_per_sm);
    const double full = per_step * double(m_warps_per_cta) / issue_per_cycle_of<W>(m_d);
    m_shared_step_cycles.assign(static_cast<std::size_t>(k), 0);
    for (int n = 1; n <= k; ++n)
      m_shared_step_cycles[static_cast<std::size_t>(n - 1)] =
          static_cast<int64_t>(full * double(n) / std::min(1.0, double(n) * solo));
  }
  int64_t shared_step(int n) const { return m_shared_step_cycles[static_cast<std::size_t>(n - 1)]; }
  // The cycles from step to step of `warp`'s CTA.
  int64_t step_cycles(const Sm &sm, const Warp &warp) const {
    return m_shared_steps ? sm.slot_step_cycles[static_cast<std::size_t>(warp.cta_slot)]
                          : m_step_cycles;
  }
  // As SM `sm`'s window begins: its live CTAs set their steps for the window. The parallel replay
  // ends CTAs at the window's end (resolve), the one-thread replay within it; counts taken at the
  // window's start are the same in both.
  void begin_window(Sm &sm) {
    if (!m_shared_steps)
      return;
    int n = 0;
    for (int slot = 0; slot < int(m_ctas_per_sm); ++slot)
      n += sm.cta_live_warps[static_cast<std::size_t>(slot)] > 0;
    for (int slot = 0; slot < int(m_ctas_per_sm); ++slot)
      if (sm.cta_live_warps[static_cast<std::size_t>(slot)] > 0)
        sm.slot_step_cycles[static_cast<std::size_t>(slot)] = shared_step(n);
    sm.window_live = n;
    sm.window_started = 0;
  }

  // CTAs given to SM s that start at `now`.
  void dispatch(Sm &sm, int s, int64_t now) {
    if (sm.dispatch_at <= now)
      take_due(sm, now, [&](const Sm::Launch &l) { start_cta(s, l.slot, now, l.cta); });
  }

  // Takes the launches due at `now` off sm.launches (a taken one's place goes to the last) and
  // start(launch) for each in CTA index order, whatever the list's order: the parallel replay's
  // list lacks the refills its window made until the window's end, which would change the order
  // in which CTAs due at one cycle start (their age, which the scheduler ranks warps by).
  // dispatch_at becomes the earliest left.
  template <class Start> static void take_due(Sm &sm, int64_t now, Start &&start) {
    sm.dispatch_at = kNever;
    sm.due.clear();
    for (std::size_t k = 0; k < sm.launches.size();) {
      const Sm::Launch l = sm.launches[k];
      if (l.at <= now) {
        sm.due.push_back(l);
        sm.launches[k] = sm.launches.back();
        sm.launches.pop_back();
      } else {
        sm.dispatch_at = std::min(sm.dispatch_at, l.at);
        ++k;
      }
    }
    std::sort(sm.due.begin(), sm.due.end(),
              [](const Sm::Launch &a, const Sm::Launch &b) { return a.cta < b.cta; });
    for (const Sm::Launch &l : sm.due)
      start(l);
  }

  // The warp SM `sm` issues at `now`, after waking the warps due then; -1 if none is ready or the
  // L1 is still busy with the last request.
  [[gnu::always_inline]] int pick(Sm &sm, int64_t now) {
    sm.scheduler.wake(now);
    sm.scheduler.issue(now);
    return sm.pipe_free > now ? -1 : sm.scheduler.pick();
  }

  // Warp `id` of SM s's next load as lines into `out`; returns the line count.
  [[gnu::always_inline]] int coalesce(Sm &sm, int s, int id, LineRequest *out, int &sectors,
                                      int &wavefronts) {
    const Warp &warp = sm.warps[static_cast<std::size_t>(id)];
    return m_coalescer.load(key(s, id), &sm.tasks[static_cast<std::size_t>(id) * m_warp_size],
                            warp.lanes, warp.next, out, sectors, wavefronts);
  }

  // The next cycle after `t` (at most `end`) at which SM `sm` does something: a CTA starts, warps
  // wake, or a ready warp finds the L1 free. The cycles between change nothing (cycle() would
  // return at once), so the replay skips them: a latency-bound launch (matmul column:4 waits on
  // most cycles) costs its requests, not its SM-cycles.
  [[gnu::always_inline]] static int64_t next_cycle(const Sm &sm, int64_t t, int64_t end) {
    const bool ready = sm.scheduler.has_ready();
    if (ready && sm.pipe_free <= t + 1) // a busy SM: the next cycle, without a look at the wheel
      return t + 1;
    int64_t next = std::min(sm.scheduler.next_wake(t + 1, end), sm.scheduler.next_issue(t + 1));
    if (sm.dispatch_at < next)
      next = std::max(t + 1, sm.dispatch_at);
    if (ready)
      next = std::min(next, std::max(t + 1, sm.pipe_free));
    return next;
  }

  // Fetches into the host's caches what the next SMs' windows will read first, in two stages so
  // that each stage's reads are already in the host's caches: SM s + 2's warp states, and SM
  // s + 1's L1 set summaries and its warps' next sector sets (which the warp states, fetched a
  // window earlier, name). The replay calls it as SM s's window begins, so that the next SMs' host
  // cache misses overlap this one's work. A hint: it changes nothing. (Fetching SM s + 1's L1
  // records for its warps' next lines as a third stage was slower: 2.98-3.57 s against 2.53-2.87 s
  // on matmul 1024 x 1024 x 256.)
  void prefetch(int s, int end, int64_t now) const {
    if (s + 2 < end) {
      const std::vector<Warp> &warps = m_sms[static_cast<std::size_t>(s + 2)].warps;
      const char *first = reinterpret_cast<const char *>(warps.data());
      for (std::size_t b = 0; b < warps.size() * sizeof(Warp); b += 64)
        host_prefetch(first + b);
    }
    if (s + 1 >= end)
      return;
    const Sm &next = m_sms[static_cast<std::size_t>(s + 1)];
    m_memory.prefetch_l1(s + 1);
    next.scheduler.for_each_upcoming(now, now + kWindow, [&](int id) {
      const int64_t j = next.warps[static_cast<std::size_t>(id)].next;
      if (j < m_loads)
        m_coalescer.prefetch(key(s + 1, id), j);
    });
  }

  // One cycle of SM s: dispatch due CTAs, wake the warps whose wait ends now, issue the picked
  // ready warp's next memory instruction if the L1 can take a request.
  [[gnu::always_inline]] void cycle(int s, int64_t now) {
    Sm &sm = m_sms[static_cast<std::size_t>(s)];
    dispatch(sm, s, now);
    const int id = pick(sm, now);
    if (id < 0)
      return;
    Warp &warp = sm.warps[static_cast<std::size_t>(id)];
    const remap::Task<int64_t> *lanes = &sm.tasks[static_cast<std::size_t>(id) * m_warp_size];
    int sectors = 0, wavefronts = 0;
    int lines = 0;
    if constexpr (kUser) {
      // A workload of your own: the stores before its next load go now; a warp with no load left
      // takes this turn to finish, with no request.
      user_drain(s, lanes, warp);
      if (warp.next < m_loads) {
        const uint64_t bytes = static_cast<uint64_t>(m_user_kind.bytes);
        const std::size_t room =
            static_cast<std::size_t>(m_coalescer.max_lines(m_user_lanes, bytes));
        if (m_user_lines.size() < room)
          m_user_lines.resize(room);
        lines = m_coalescer.lines_of(m_user_addr, m_user_lanes, bytes, m_user_lines.data(), sectors,
                                     wavefronts);
      } else {
        lines = -1;
      }
    } else {
      lines = coalesce(sm, s, id, m_lines, sectors, wavefronts);
    }
    int64_t arrives = now;
    const LineRequest *request = kUser ? m_user_lines.data() : m_lines;
    if (lines < 0) {
      warp.next = m_loads - 1; // finished below
      lines = 0;
    } else if (m_events.watches(s)) {
      m_events.begin(now, s, warp.cta, id % m_warps_per_cta, warp.next);
      arrives = m_memory.load(s, request, lines, sectors, wavefronts, now,
                              [&](uint64_t line, uint32_t mask, const SectorCache::Result &r,
                                  uint32_t l2_miss) { m_events.line(line, mask, r, l2_miss); });
    } else {
      arrives = m_memory.load(s, request, lines, sectors, wavefronts, now,
                              [](uint64_t, uint32_t, const SectorCache::Result &, uint32_t) {});
    }
    occupy_l1(sm, now, wavefronts, warp.lanes);
    m_last_event = std::max(m_last_event, arrives);
    warp.group_end = std::max(warp.group_end, arrives);
    ++warp.next;
    if constexpr (kUser)
      user_drain(s, lanes, warp); // the stores after this load issue with it, as the output store
    if (warp.next < m_loads && m_slide > 0) {
      // A sliding window: the next load issues when the load m_slide before it has arrived.
      int64_t *arrival = arrivals_of(sm, id);
      arrival[(warp.next - 1) % kSlideMax] = arrives;
      sm.scheduler.schedule(id, slide_next(warp, arrival, now), now);
      return;
    }
    if (warp.next < m_loads) {
      // Loads do not block: a warp issues up to loads_in_flight of them, then waits for all.
      const bool wait = --warp.until_wait == 0;
      if (wait)
        warp.until_wait = m_loads_per_wait;
      sm.scheduler.schedule(
          id, wait ? std::max(warp.group_end, now + step_cycles(sm, warp)) : now + m_d.issue_cycles,
          now);
      return;
    }
    finish_warp(sm, id, now);
  }

  // Whether load `next` begins a new loop body of a sliding kernel, whose loads wait for all
  // before.
  bool body_ends(int64_t next) const { return m_slide_body > 0 && next % m_slide_body == 0; }

  // A sliding window: when a warp that issued load `next` - 1 at `now` may issue load `next`, given
  // its loads' arrival times (Sm::arrivals; the one it waits for is known).
  int64_t slide_ready(const int64_t *arrival, int64_t next, int64_t now) const {
    const int64_t issue = now + m_d.issue_cycles;
    return next < m_slide ? issue : std::max(issue, arrival[(next - m_slide) % kSlideMax]);
  }

  // When `warp` of a sliding kernel, which issued its load warp.next - 1 at `now`, issues its next:
  // after all its loads where a loop body ends, else as the window slides (the loads it waits for
  // are known).
  int64_t slide_next(const Warp &warp, const int64_t *arrival, int64_t now) const {
    return body_ends(warp.next) ? std::max(warp.group_end, now + m_step_cycles)
                                : slide_ready(arrival, warp.next, now);
  }

  // Warp `id`'s arrival times in Sm::arrivals.
  static int64_t *arrivals_of(Sm &sm, int id) {
    return &sm.arrivals[static_cast<std::size_t>(id) * kSlideMax];
  }

  // Warp `id` of SM `sm` issued its last load at `now`: its output store, and its CTA's end (a
  // kernel that loads in steps computes its last step first).
  void finish_warp(Sm &sm, int id, int64_t now) {
    Warp &warp = sm.warps[static_cast<std::size_t>(id)];
    warp.group_end = std::max(warp.group_end, now + step_cycles(sm, warp));
    sm.last_event = std::max(sm.last_event, warp.group_end);
    const remap::Task<int64_t> *lanes = &sm.tasks[static_cast<std::size_t>(id) * m_warp_size];
    if constexpr (HasLaneStores<W>::value) { // the kernel's own stores (the tiled kernels)
      for (int64_t j = 0; m_c.stores && j < m_program.stores(); ++j) {
        const int n = m_coalescer.workload_store(lanes, warp.lanes, j, m_writes);
        m_memory.store(sm_index(sm), m_writes, n, warp.group_end);
      }
    } else if (!kUser && m_c.stores) {
      const int n = m_coalescer.store(lanes, warp.lanes, m_writes);
      m_memory.store(sm_index(sm), m_writes, n, warp.group_end);
    }
    int &left = sm.cta_live_warps[static_cast<std::size_t>(warp.cta_slot)];
    int64_t cta = 0;
    if (--left == 0 && m_dispatch.refill(cta)) {
      // The freed slot's next CTA starts cta_launch_cycles later, at the launcher's next visit to
      // the SM (launcher_visit). A sampled SM's group takes
      // `group` CTAs: the SMs it stands for take the rest.
      const int64_t at =
          launcher_turn(launcher_visit(sm, std::max(warp.group_end, now) + m_d.cta_launch_cycles));
      sm.launches.push_back({at, cta, warp.cta_slot});
      sm.dispatch_at = std::min(sm.dispatch_at, at);
    }
  }

  // The first of the CTA launcher's visits to SM `sm` at or after `at` that has not started a CTA
  // yet (cta_refill_round_cycles; 0: `at`). After the first wave the launcher visits the SMs in
  // turn, device SM d at d / SMs of each round, and starts one CTA a visit: slots of one SM freed
  // together (the co-resident CTAs of a wave that ran in step) refill a round apart, as on the
  // H200 (kernels/probes/cta_steps: docs/results/tight/tail-float.md). Per SM: the parallel
  // replay's resolve() and cycle() call it in the same order.
  int64_t launcher_visit(Sm &sm, int64_t at) const {
    const int64_t round = m_d.cta_refill_round_cycles;
    if (round <= 0)
      return at;
    const int64_t offset = int64_t{sm_index(sm)} * m_group * round / m_d.sms;
    int64_t visit = offset + std::max<int64_t>(0, (at - offset + round - 1) / round) * round;
    if (visit <= sm.launcher_visit)
      visit = sm.launcher_visit + round;
    sm.launcher_visit = visit;
    return visit;
  }

  // The device launcher's first turn at or after `at` (launcher_ctas_per_us over all SMs; a sampled
  // SM's share of it for the SMs it stands for): turns go to the refills in the order the replay
  // ends CTAs, SM by SM within a window, which the parallel replay's resolve() keeps.
  int64_t launcher_turn(int64_t at) {
    if (m_launcher_interval <= 0)
      return at;
    const int64_t start = std::max(at * kLauncherFraction, m_launcher_free);
    m_launcher_free = start + m_launcher_interval;
    return (start + kLauncherFraction - 1) / kLauncherFraction;
  }

  // Whether the parallel replay gives what cycle() gives, bit for bit: no L2 answer arrives
  // inside the window that asked for it (every fill is at least l2_hit_cycles after its request),
  // a refilled CTA slot starts after the window that freed it, and no observer watches an SM
  // (its events name L2 outcomes as they happen), and the workload is not one of your own (its
  // stores reach the L2 between its loads). The tiny device (no launch gap) runs on one thread.
  bool parallel_exact() const {
    return m_d.l2_hit_cycles >= kWindow && m_d.cta_launch_cycles >= kWindow && !m_events.active() &&
           !kUser;
  }

  // One cycle of SM s in the parallel replay, window [.., window_end): as cycle(), but what
  // needs the L2 is logged (Sm::tickets, Sm::records) for resolve(). An L1 miss's fill time is
  // the ticket's placeholder until then; a request that waits for one (its own miss, or another
  // warp's sector still on its way) finishes in resolve(); so do the warp schedules that land at
  // or after window_end (in issue order, so that each wheel slot keeps cycle()'s order) and
  // every warp's last load (the store goes to the L2, the CTA's end to the dispatcher).
  void cycle_logged(int s, int64_t now, int64_t window_end) {
    Sm &sm = m_sms[static_cast<std::size_t>(s)];
    if (sm.dispatch_at <= now) {
      sm.dispatched.push_back(now);
      dispatch(sm, s, now);
    }
    const int id = pick(sm, now);
    if (id < 0)
      return;
    Warp &warp = sm.warps[static_cast<std::size_t>(id)];
    int sectors = 0, wavefronts = 0;
    LineRequest *req = &m_sm_lines[static_cast<std::size_t>(s) * Coalescer<W>::kMaxLanes];
    const int lines = coalesce(sm, s, id, req, sectors, wavefronts);
    Sm::Record rec;
    rec.now = now;
    rec.warp = id;
    rec.tickets_begin = static_cast<int>(sm.tickets.size());
    rec.deps_begin = static_cast<int>(sm.deps.size());
    int64_t known = now + m_d.l1_hit_cycles;
    m_memory.l1_lookups(
        s, req, lines, sectors, wavefronts, now, [&](int k, const SectorCache::Result &r) {
          if (r.pending) {
            if (r.pending_ready < kTicketBase) {
              known = std::max<int64_t>(known, r.pending_ready);
            } else {
              for (uint32_t m = r.pending; m; m &= m - 1) {
                const uint32_t f = r.fill[__builtin_ctz(m)];
                if (f >= kTicketBase)
                  sm.deps.push_back(static_cast<int>(f - kTicketBase));
                else
                  known = std::max<int64_t>(known, f);
              }
            }
          }
          if (r.miss) {
            const int t = static_cast<int>(sm.tickets.size());
            sm.tickets.push_back({req[k].line, r.fill, now, 0, r.miss});
            for (uint32_t m = r.miss; m; m &= m - 1)
              SectorCache::set_fill(r, __builtin_ctz(m), kTicketBase + static_cast<uint32_t>(t));
            sm.deps.push_back(t);
          }
        });
    rec.tickets_end = static_cast<int>(sm.tickets.size());
    rec.deps_end = static_cast<int>(sm.deps.size());
    rec.known = known;
    occupy_l1(sm, now, wavefronts, warp.lanes);
    if (rec.deps_end > rec.deps_begin) {
      warp.unresolved = true;
    } else {
      sm.last_event = std::max(sm.last_event, known);
      warp.group_end = std::max(warp.group_end, known);
    }
    if (m_slide > 0 && ++warp.next < m_loads) {
      int64_t *arrival = arrivals_of(sm, id);
      rec.load = static_cast<int>((warp.next - 1) % kSlideMax);
      arrival[rec.load] = rec.deps_end > rec.deps_begin ? kNever : known;
      const bool body_end = body_ends(warp.next);
      if (body_end && warp.unresolved) {
        rec.then = Sm::Then::schedule_group_end; // the body's loads arrive after the window
      } else if (!body_end && warp.next >= m_slide &&
                 arrival[(warp.next - m_slide) % kSlideMax] == kNever) {
        rec.then = Sm::Then::schedule_slide; // its oldest load arrives after the window
      } else {
        const int64_t when = slide_next(warp, arrival, now);
        if (WarpScheduler::due(when, now) < window_end) {
          sm.scheduler.schedule(id, when, now);
        } else {
          rec.then = Sm::Then::schedule_at;
          rec.when = when;
        }
      }
    } else if (m_slide > 0) {
      rec.last = true;
    } else if (++warp.next < m_loads) {
      const bool wait = --warp.until_wait == 0;
      if (wait)
        warp.until_wait = m_loads_per_wait;
      if (wait && warp.unresolved) {
        rec.then = Sm::Then::schedule_group_end;
      } else {
        const int64_t when =
            wait ? std::max(warp.group_end, now + step_cycles(sm, warp)) : now + m_d.issue_cycles;
        if (WarpScheduler::due(when, now) < window_end) {
          sm.scheduler.schedule(id, when, now);
        } else {
          rec.then = Sm::Then::schedule_at;
          rec.when = when;
        }
      }
    } else {
      rec.last = true;
    }
    if (rec.last || rec.then != Sm::Then::nothing || rec.deps_end > rec.deps_begin ||
        rec.tickets_end > rec.tickets_begin)
      sm.records.push_back(rec);
  }

  // The end of SM s's window in the parallel replay: its L2 fetches in issue order, the fill
  // times and ready times they give, the warp schedules, stores and CTA ends it logged. Run for
  // SM 0, 1, ... in turn on one thread: the L2, DRAM and the dispatcher see cycle()'s order.
  void resolve(int s) {
    Sm &sm = m_sms[static_cast<std::size_t>(s)];
    // The CTA list as cycle() leaves it: the window's dispatches replayed around the refills
    // (which cycle() makes inside the window, at the record's cycle), since the order of the list
    // is the order in which CTAs due at one cycle start.
    sm.launches = sm.window_launches;
    m_memory.prefetch_l2(s, static_cast<int>(sm.tickets.size()),
                         [&](int k) { return sm.tickets[static_cast<std::size_t>(k)].line; });
    std::size_t d = 0;
    const auto dispatched_until = [&](int64_t t) {
      for (; d < sm.dispatched.size() && sm.dispatched[d] <= t; ++d)
        take_due(sm, sm.dispatched[d], [](const Sm::Launch &) {});
    };
    for (const Sm::Record &rec : sm.records) {
      dispatched_until(rec.now);
      for (int t = rec.tickets_begin; t < rec.tickets_end; ++t) {
        Sm::Ticket &k = sm.tickets[static_cast<std::size_t>(t)];
        uint32_t l2_miss = 0;
        k.arrives = m_memory.fetch(s, k.line, k.mask, k.now, l2_miss);
        const uint32_t placeholder = kTicketBase + static_cast<uint32_t>(t);
        for (uint32_t m = k.mask; m; m &= m - 1) {
          uint32_t &f = k.fill[__builtin_ctz(m)];
          if (f == placeholder) // else a later miss of the window took the slot
            f = static_cast<uint32_t>(k.arrives);
        }
      }
      Warp &warp = sm.warps[static_cast<std::size_t>(rec.warp)];
      int64_t ready = rec.known;
      for (int d = rec.deps_begin; d < rec.deps_end; ++d)
        ready = std::max(
            ready,
            sm.tickets[static_cast<std::size_t>(sm.deps[static_cast<std::size_t>(d)])].arrives);
      sm.last_event = std::max(sm.last_event, ready);
      warp.group_end = std::max(warp.group_end, ready);
      if (m_slide > 0 && !rec.last) {
        int64_t *arrival = arrivals_of(sm, rec.warp);
        if (rec.deps_end > rec.deps_begin)
          arrival[rec.load] = ready;
        if (rec.then == Sm::Then::schedule_slide) {
          // load rec.load + 1 waits for load rec.load + 1 - m_slide, resolved above (earlier in
          // the window: the warp cannot have issued past it)
          const int64_t next = rec.load + 1 + kSlideMax; // modulo kSlideMax, not below m_slide
          sm.scheduler.schedule(rec.warp, slide_ready(arrival, next, rec.now), rec.now);
        }
      }
      if (rec.then == Sm::Then::schedule_group_end)
        sm.scheduler.schedule(rec.warp, std::max(warp.group_end, rec.now + step_cycles(sm, warp)),
                              rec.now);
      else if (rec.then == Sm::Then::schedule_at)
        sm.scheduler.schedule(rec.warp, rec.when, rec.now);
      if (rec.last)
        finish_warp(sm, rec.warp, rec.now);
    }
    dispatched_until(kNever);
    sm.records.clear();
    sm.tickets.clear();
    sm.deps.clear();
    for (Warp &w : sm.warps)
      w.unresolved = false;
  }

  // Fetches into the host's caches the L1 fill times that resolve() writes for SM `sm`'s tickets
  // (the SM's own L1: only the thread that owns the SM calls it), one SM ahead. A hint: it changes
  // nothing. (Fetching the window log's vectors too gave nothing: its misses are the L1's.)
  static void prefetch_fills(const Sm &sm) {
    for (const Sm::Ticket &k : sm.tickets)
      host_prefetch(k.fill);
  }

  // The parallel replay. Thread j owns a fixed range of SMs (thread 0 the last): per window it
  // runs its SMs' cycles (cycle_logged), then resolves them one by one, each when the SM before it
  // is resolved (a token passed from thread to thread), so that the L2, DRAM and the dispatcher
  // see SM 0, 1, ... as in cycle()'s replay, while an SM's own state stays on its thread. A thread
  // that has resolved its SMs runs them in the next window at once; thread 0, which resolves the
  // last SM, decides whether a next window exists (next_window). Which thread runs an SM changes
  // nothing in the result.
  template <class NextWindow> void run_parallel(int64_t &now, NextWindow &&next_window) {
    const int sms = static_cast<int>(m_sms.size());
    m_sm_lines.resize(static_cast<std::size_t>(sms) * Coalescer<W>::kMaxLanes);
    if (!next_window())
      return;
    Turns turns; // (window, SM) pairs resolved: window * SMs + SM
    // Thread j's SMs: j - 1's share for the workers, the last share for thread 0.
    const auto range = [&](int j) {
      const int64_t part = j == 0 ? m_jobs - 1 : j - 1;
      return std::pair<int, int>{static_cast<int>(sms * part / m_jobs),
                                 static_cast<int>(sms * (part + 1) / m_jobs)};
    };
    // Runs thread j's windows until the replay ends; thread 0 returns the last window.
    const auto work = [&](int j) -> int64_t {
      const auto [lo, hi] = range(j);
      for (int64_t window = 0;; ++window) {
        const int64_t start = window * kWindow;
        for (int s = lo; s < hi; ++s) {
          prefetch(s, hi, start);
          Sm &sm = m_sms[static_cast<std::size_t>(s)];
          sm.window_launches = sm.launches;
          sm.dispatched.clear();
          begin_window(sm);
          for (int64_t t = start; t < start + kWindow; t = next_cycle(sm, t, start + kWindow))
            cycle_logged(s, t, start + kWindow);
        }
        for (int s = lo; s < hi; ++s) {
          const int64_t turn = window * sms + s;
          if (s == lo)
            prefetch_fills(m_sms[static_cast<std::size_t>(s)]);
          if (!turns.wait(turn))
            return window;
          if (s + 1 < hi)
            prefetch_fills(m_sms[static_cast<std::size_t>(s + 1)]);
          resolve(s);
          if (s == sms - 1) { // thread 0: the window's end
            now = start + kWindow;
            bool more = false;
            try {
              more = next_window();
            } catch (...) {
              turns.stop();
              throw;
            }
            if (!more) {
              turns.stop();
              return window;
            }
          }
          turns.pass(turn + 1);
        }
      }
    };
    std::vector<std::thread> workers;
    for (int j = 1; j < m_jobs; ++j)
      workers.emplace_back([&, j]() { work(j); });
    try {
      work(0);
    } catch (...) {
      for (std::thread &t : workers)
        t.join();
      throw;
    }
    for (std::thread &t : workers)
      t.join();
  }

  // A workload of your own: from instruction warp.next on, issues the stores (into L2 at
  // warp.group_end, as the built-ins' output store) and skips the instructions that no lane runs,
  // up to the next load, whose active lanes' addresses it leaves in m_user_addr.
  void user_drain(int s, const remap::Task<int64_t> *lanes, Warp &warp) {
    if constexpr (kUser) {
      for (; warp.next < m_loads; ++warp.next) {
        InstructionKind &kind = m_user_kind;
        m_user_lanes = m_program.lane_instruction(lanes, warp.lanes, warp.next, m_user_addr, kind);
        if (m_user_lanes > 0 && !kind.is_store)
          return;
        if (m_user_lanes > 0) {
          const int n = m_coalescer.store_bytes(
              m_user_addr, m_user_lanes, static_cast<uint64_t>(kind.bytes), m_user_writes.data());
          m_memory.store(s, m_user_writes.data(), n, warp.group_end);
        }
      }
    }
  }

  // Cycles the L1 is busy with a request of `wavefronts` wavefronts (l1_bank_wavefronts: the
  // banks' conflicts, not its lines) for `lanes` active lanes: a cycle per wavefront
  // (kernels/probes/l1_lines on the H100, docs/results/tight/h100-fresh.md §3), and at least its
  // lanes' bytes at the data stage's rate.
  int64_t busy_cycles(int wavefronts, int lanes) const {
    const int64_t tag = wavefronts <= Coalescer<W>::kMaxLanes
                            ? m_busy_cycles[static_cast<std::size_t>(wavefronts)]
                            : wavefront_cycles(wavefronts);
    return std::max(tag, m_data_cycles[static_cast<std::size_t>(lanes)]);
  }

  // The L1 takes a request at `now`: busy for its wavefronts and its lanes' bytes (busy_cycles),
  // and at least l1_request_cycles, whose part of a cycle carries to the SM's next request while
  // the L1 stays busy (a request issued after an idle cycle starts afresh).
  void occupy_l1(Sm &sm, int64_t now, int wavefronts, int lanes) {
    const int64_t busy = busy_cycles(wavefronts, lanes);
    if (busy * kPipeFraction >= m_request_floor) {
      sm.pipe_free = now + busy;
      sm.pipe_fraction = 0;
      return;
    }
    const int held = (now > sm.pipe_free ? 0 : sm.pipe_fraction) + m_request_floor;
    sm.pipe_free = now + held / kPipeFraction;
    sm.pipe_fraction = held % kPipeFraction;
  }

  // Cycles of n wavefronts at the L1's l1_wavefronts_per_cycle (m_busy_cycles holds them up to
  // kMaxLanes).
  int64_t wavefront_cycles(int n) const {
    return static_cast<int64_t>(n / m_d.l1_wavefronts_per_cycle + 0.999);
  }

  // The index of SM `sm` in m_sms.
  int sm_index(const Sm &sm) const { return static_cast<int>(&sm - m_sms.data()); }

  // The coalescer's key of warp slot `id` of SM s.
  int key(int s, int id) const { return s * m_warp_slots + id; }

  static constexpr bool kUser = std::is_same_v<W, UserWorkloadAdapter>;
  const GpuConfig &m_c;
  const Device &m_d;
  const W &m_program;
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
  int m_warp_slots = 0;        // warp slots per SM: CTAs resident at once * warps per CTA
  int m_loads_per_wait = 1;    // loads a warp issues before it waits for them
  int64_t m_step_cycles = 0;   // a kernel that loads in steps: the least cycles from step to step
  bool m_shared_steps = false; // steps shared by the live CTAs (share_steps)
  std::vector<int64_t> m_shared_step_cycles; // [n - 1]: n CTAs live
  int64_t m_last_event = 0;
  // The device's CTA launcher (launcher_turn), in 1/kLauncherFraction cycles: the time between
  // two of its starts, and its next free turn.
  static constexpr int64_t kLauncherFraction = 1024;
  int64_t m_launcher_interval = 0;
  int64_t m_launcher_free = 0;
  int m_jobs = 1;
  // A kernel whose loads slide (HasSlidingLoads): the loads a warp keeps in flight; 0: the device's
  // loads_in_flight_per_warp, issued and then waited for together (m_loads_per_wait).
  int m_slide = 0;
  int m_slide_body = 0; // loads of the sliding kernel's loop body, which waits for all at its end
  std::vector<LineRequest> m_sm_lines; // parallel replay: each SM's request being coalesced
  int64_t m_busy_cycles[Coalescer<W>::kMaxLanes + 1];
  int m_request_floor = 0; // l1_request_cycles in 1/kPipeFraction cycles (0: no floor)
  int64_t m_data_cycles[Coalescer<W>::kMaxLanes + 1];
  LineRequest m_lines[Coalescer<W>::kMaxLanes];
  SectorWrite m_writes[2 * Coalescer<W>::kMaxLanes];
  // A workload of your own: the next load's active lanes (user_drain), and room for a store of up
  // to 128 bytes per lane.
  uint64_t m_user_addr[Coalescer<W>::kMaxLanes];
  int m_user_lanes = 0;
  InstructionKind m_user_kind;           // of the next load
  std::vector<LineRequest> m_user_lines; // its lines (lanes may cross sectors: more than lanes)
  std::vector<SectorWrite> m_user_writes;
};

} // namespace cbi::sim::gpu
