// The GPU execution model's front door (sim/include/cbi/sim/gpu_model.hpp): validation, the replay
// (sim/src/gpu/engine.hpp and its rooms), the scaling of sampled counts and the predicted time.
#include "cbi/sim/gpu_model.hpp"

#include "cbi/error.hpp"
#include "cbi/sim/trace.hpp"
#include "gpu/engine.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <type_traits>
#include <utility>
#include <vector>

namespace cbi::sim {
namespace {

// A replay-bound time of which the launcher's turns alone (GpuTime::launcher_ms) are at least this
// share is named "CTA launcher" (docs/results/tight/l-set.md §3: the short-CTA kernels' replay is
// 1.00-1.05 times the launcher's time; kernels of long CTAs are far below this share).
constexpr double kLauncherBoundShare = 0.9;

// Warp instructions per thread of configuration `c` that issued `loads` loads per thread: the
// measured count and the order's measured remap beyond linear's, or, for a workload without a
// measured count, its FMAs, its loads with their address instructions, the remap's estimate and
// the output store.
double instructions_per_thread(const GpuConfig &c, double loads) {
  return visit_workload(c.workload.kind, [&](auto tag) {
    using W = typename decltype(tag)::type;
    if constexpr (gpu::HasInstructionCount<W>::value)
      return gpu::measured_instructions_per_task<W>(c);
    else if constexpr (gpu::HasKernelIssue<W>::value)
      return W::kernel_instructions_per_task(c.workload);
    else
      return double(W::fp_ops_per_task(c.workload)) + loads * (1.0 + W::address_ops_per_load) +
             remap_instructions_per_thread(c) + 3.0;
  });
}

// Whether configuration `c`'s issue bound counts its kernel's measured instructions
// (gpu::HasInstructionCount: the naive stencil and matmul).
bool has_measured_instructions(const GpuConfig &c) {
  return visit_workload(c.workload.kind, [](auto tag) {
    return gpu::HasInstructionCount<typename decltype(tag)::type>::value;
  });
}

// Warp instructions an SM issues per cycle for configuration `c` (gpu::issue_per_cycle_of):
// the kernel's measured rate, the device's for a measured count, or its estimated one.
double issue_per_cycle_of(const GpuConfig &c) {
  return visit_workload(c.workload.kind, [&](auto tag) {
    return gpu::issue_per_cycle_of<typename decltype(tag)::type>(c.device);
  });
}

} // namespace

double remap_instructions_per_thread(const GpuConfig &c) {
  return has_measured_instructions(c) ? remap::fast_remap_instructions(c.order)
                                      : remap::remap_instructions(c.order);
}

int coalesce_sectors(const uint64_t *byte_addrs, int lanes, int sector_shift, uint64_t *sectors) {
  int count = 0;
  for (int l = 0; l < lanes; ++l) {
    const uint64_t sector = byte_addrs[l] >> sector_shift;
    if (count > 0 && sectors[count - 1] == sector)
      continue;
    // Insertion into the sorted prefix (lanes mostly arrive in ascending order).
    int k = count;
    while (k > 0 && sectors[k - 1] > sector)
      --k;
    if (k > 0 && sectors[k - 1] == sector)
      continue;
    for (int m = count; m > k; --m)
      sectors[m] = sectors[m - 1];
    sectors[k] = sector;
    ++count;
  }
  return count;
}

int l1_bank_wavefronts(const uint64_t *byte_addrs, int lanes, uint64_t bytes) {
  // Every 4-byte word each lane reads, then the distinct words (the coalescer's sort with 4-byte
  // "sectors"), then the most of them on one bank.
  const uint64_t span = std::max<uint64_t>(bytes, 1);
  if (lanes <= 0)
    return 0;
  // Words within 32 consecutive ones lie on distinct banks: one wavefront, without the sort (a
  // warp's 128 bytes, shifted or not, and a broadcast, the loads of most requests).
  uint64_t lo = ~uint64_t{0}, hi = 0;
  for (int l = 0; l < lanes; ++l) {
    lo = std::min(lo, byte_addrs[l] >> 2);
    hi = std::max(hi, (byte_addrs[l] + span - 1) >> 2);
  }
  if (hi - lo < 32)
    return 1;
  constexpr int kRoom = 512;
  uint64_t buf[2 * kRoom];
  std::vector<uint64_t> more;
  uint64_t *words = buf;
  const uint64_t room = static_cast<uint64_t>(lanes) * ((span + 3) / 4 + 1);
  if (room > kRoom) {
    more.resize(2 * static_cast<std::size_t>(room));
    words = more.data();
  }
  uint64_t *distinct = words + (room > kRoom ? room : kRoom);
  int n = 0;
  for (int l = 0; l < lanes; ++l)
    for (uint64_t w = byte_addrs[l] >> 2; w <= (byte_addrs[l] + span - 1) >> 2; ++w)
      words[n++] = w << 2;
  const int count = coalesce_sectors(words, n, 2, distinct);
  int per_bank[32] = {};
  int most = 0;
  for (int k = 0; k < count; ++k)
    most = std::max(most, ++per_bank[distinct[k] & 31]);
  return most;
}

WarpRequest warp_request(const GpuConfig &c, int64_t warp, int64_t j) {
  validate(c);
  const Device &d = c.device;
  return visit_workload(c.workload.kind, [&](auto tag) {
    using W = typename decltype(tag)::type;
    const W program(c.workload);
    const remap::Shape<int64_t> shape = W::task_shape(c.workload);
    const int64_t threads = shape.width * shape.height;
    const int64_t warps_per_cta = (c.block_threads + d.warp_size - 1) / d.warp_size;
    const int64_t cta = warp / warps_per_cta;
    const int64_t first = cta * c.block_threads + (warp % warps_per_cta) * d.warp_size;
    const int64_t last = std::min({first + d.warp_size, (cta + 1) * c.block_threads, threads});
    // Every sector each active lane's bytes touch (a workload of your own may leave lanes out and
    // cross sectors), as the engine's coalescer asks for them.
    const int sector_shift = __builtin_ctzll(static_cast<uint64_t>(d.l1_sector_bytes));
    std::vector<uint64_t> sectors, addrs;
    uint64_t lane_bytes = 1;
    WarpRequest r;
    remap::visit(c.order, [&](auto order) {
      for (int64_t i = first; i < last; ++i) {
        const MemAccess a = program.load(order.map(i, shape), j);
        if (a.byte_addr == kNoAccess)
          continue;
        ++r.lanes;
        const uint64_t bytes = static_cast<uint64_t>(std::max(1, a.bytes));
        addrs.push_back(a.byte_addr);
        lane_bytes = std::max(lane_bytes, bytes);
        for (uint64_t s = a.byte_addr >> sector_shift;
             s <= (a.byte_addr + bytes - 1) >> sector_shift; ++s)
          sectors.push_back(s);
      }
      return 0;
    });
    std::sort(sectors.begin(), sectors.end());
    sectors.erase(std::unique(sectors.begin(), sectors.end()), sectors.end());
    r.sectors = static_cast<int>(sectors.size());
    const int spl_shift =
        __builtin_ctzll(static_cast<uint64_t>(d.l1_line_bytes / d.l1_sector_bytes));
    for (int k = 0; k < r.sectors; ++k)
      r.lines += k == 0 || (sectors[k] >> spl_shift) != (sectors[k - 1] >> spl_shift);
    r.wavefronts = l1_bank_wavefronts(addrs.data(), r.lanes, lane_bytes);
    return r;
  });
}

L2ReadCycles l2_read_cycles(const GpuMetrics &m, const Device &d) {
  return {double(m.l2_read_sectors * d.l1_sector_bytes) / d.l2_to_l1_bytes_per_cycle,
          double(m.l2_read_requests) * d.l2_request_cycles};
}

std::vector<std::pair<std::string, double>> GpuMetrics::named() const {
  return {{"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", double(l1_requests)},
          {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", double(l1_sectors)},
          {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", double(l1_sector_hits)},
          {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum", double(l1_sector_misses)},
          {"l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct", l1_hit_pct()},
          {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", double(l1_store_sectors)},
          {"l1tex__t_sector_hit_rate.pct", l1_hit_all_pct()},
          {"lts__t_sectors_srcunit_tex_op_read.sum", double(l2_read_sectors)},
          {"lts__t_requests_srcunit_tex_op_read.sum", double(l2_read_requests)},
          {"lts__t_sector_hit_rate.pct", l2_hit_pct()},
          {"dram__bytes_read.sum", double(dram_read_bytes)}};
}

void validate(const GpuConfig &c) {
  validate(c.workload);
  const Device &d = c.device;
  // A block larger than the device launches (1024 threads, as bench and sweep cap it) or than an
  // SM holds is refused, in simulate --model gpu, tune and sweep alike.
  const int most = std::min(d.max_threads_per_block, d.max_threads_per_sm);
  // A trace (or a workload of your own that names its block) fixes the block, and --block is
  // refused with it: the refusal names the trace, not an option the user did not give.
  const UserWorkload *user = c.workload.user.get();
  if (user && user->block_threads() > 0 && (c.block_threads < 1 || c.block_threads > most)) {
    const TraceInfo *t = trace_info(*user);
    throw UsageError("workload.block_threads",
                     (t ? t->path + ": its thread blocks of " : "its thread blocks of ") +
                         std::to_string(c.block_threads) + " threads do not run on " + d.name +
                         "; allowed: blocks of 1.." + std::to_string(most) + " threads");
  }
  if (c.block_threads < 1 || c.block_threads > most)
    throw UsageError(
        "gpu.block_threads",
        std::to_string(c.block_threads) + " threads per block is not allowed on " + d.name +
            "; allowed: " + (most == 1 ? "1, " : "1 to " + std::to_string(most) + ", ") + d.name +
            "'s largest block");
  if (c.l1_bytes < 0 || (c.l1_bytes > 0 && c.l1_bytes % d.l1_line_bytes != 0))
    throw UsageError("gpu.l1_bytes", "the L1 size must be a positive multiple of the " +
                                         std::to_string(d.l1_line_bytes) + "-byte line");
  const int64_t lines = (c.l1_bytes > 0 ? c.l1_bytes : d.l1_bytes) / d.l1_line_bytes;
  const int64_t ways = c.l1_ways >= 0 ? c.l1_ways : d.l1_ways;
  if (ways > 0 && lines % ways != 0)
    throw UsageError("gpu.l1_ways", std::to_string(ways) + " ways do not divide " +
                                        std::to_string(lines) + " lines; allowed: a divisor");
  if (c.sample_sms < 0 || (c.sample_sms > 0 && d.sms % c.sample_sms != 0))
    throw UsageError("gpu.sample_sms", std::to_string(c.sample_sms) + " SMs do not divide the " +
                                           sms_of(d) + "; allowed: 0 (all) or a divisor");
  if (d.l2_sector_bytes > 32)
    throw UsageError("--device", d.name + " has " + std::to_string(d.l2_sector_bytes) +
                                     "-byte L2 sectors; the model allows at most 32");
  validate(c.order);
}

double gpu_state_bytes(const GpuConfig &c) {
  validate(c);
  const Device &d = c.device;
  const int64_t group = c.sample_sms > 0 ? d.sms / c.sample_sms : 1;
  const double sms = double((d.sms + group - 1) / group);
  const int64_t ctas = visit_workload(c.workload.kind, [&](auto tag) {
    return gpu::ctas_per_sm_of<typename decltype(tag)::type>(c);
  });
  const double warps = double(ctas * ((c.block_threads + d.warp_size - 1) / d.warp_size));
  // Per warp slot: its lanes (16 bytes each), its sector sets (at most 2 classes x 8 residues x
  // 32 bytes) and its state; per SM the scheduler's wheel and the parallel replay's log.
  const double per_sm = warps * (double(d.warp_size) * 16 + 2 * 8 * 32 + 64) +
                        gpu::WarpScheduler::kWheel * 4 + 16 * 1024;
  return gpu::MemoryHierarchy::state_bytes(c, static_cast<int>(sms)) + sms * per_sm;
}

GpuResult simulate_gpu(const GpuConfig &c, const Progress &progress, const GpuObserver *observer) {
  validate(c);
  if (observer && (observer->sm < 0 || observer->sm >= c.device.sms))
    throw UsageError("gpu.observe_sm", "SM " + std::to_string(observer->sm) + " is not on " +
                                           c.device.name + "; allowed: 0.." +
                                           std::to_string(c.device.sms - 1));
  const auto start = std::chrono::steady_clock::now();
  GpuResult r = visit_workload(c.workload.kind, [&](auto tag) {
    using W = typename decltype(tag)::type;
    const W program(c.workload);
    return remap::visit(c.order, [&](auto order) {
      gpu::Engine<W, decltype(order)> engine(c, program, order, observer);
      return engine.run(progress);
    });
  });
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (r.simulated_ctas != r.ctas && r.simulated_ctas > 0) {
    // Sampled: the simulated CTAs stand for all of them.
    const double scale = double(r.ctas) / double(r.simulated_ctas);
    GpuMetrics &m = r.metrics;
    for (int64_t *v :
         {&m.l1_requests, &m.l1_sectors, &m.l1_sector_hits, &m.l1_sector_misses, &m.l1_wavefronts,
          &m.l1_pending_hits, &m.l2_read_sectors, &m.l2_read_requests, &m.l2_requested_sectors,
          &m.l2_write_sectors, &m.l2_hits, &m.l2_lookups, &m.l2_fabric_sectors, &m.dram_read_bytes,
          &m.l1_store_sectors})
      *v = static_cast<int64_t>(double(*v) * scale + 0.5);
  }

  // The predicted time: the largest of the replay's own cycle count and four throughput bounds.
  const Device &d = c.device;
  const double hz = d.sm_clock_mhz * 1e6;
  GpuTime &t = r.time;
  const GpuMetrics &m = r.metrics;
  t.simulated_ms = 1e3 * double(r.cycles) / hz;
  // The L1: its wavefronts, or its requests at l1_request_cycles each where that is slower (a
  // bound: a request of one wavefront holds the L1 that long, one of more its wavefronts).
  const double l1_request_cycles = double(m.l1_requests) * d.l1_request_cycles;
  const bool l1_requests = l1_request_cycles > double(m.l1_wavefronts);
  t.l1_ms = 1e3 * std::max(double(m.l1_wavefronts), l1_request_cycles) /
            (double(d.sms) * d.l1_wavefronts_per_cycle * hz);
  // The L2's reads, as the L2 sees them (after the request coalescer): their sectors' bytes at
  // l2_to_l1_bytes_per_cycle an SM or their line requests at l2_request_cycles each, whichever is
  // slower. kernels/probes/l2_bw on the H100 (docs/results/tight/l2-bw.md): the whole device's L2
  // serves 31 bytes a cycle an SM of requests for 2 or 4 sectors of a line and 17.2 of requests
  // for one; the float matmul N1 at linear gets 65 M sectors from the L2 in 0.315 ms (6.6 TB/s)
  // while its L1s miss 91 M, which at 9.2 TB/s would be beyond what the probe ever gets: the
  // coalescer's merged reads cost the L2 nothing.
  const L2ReadCycles l2 = l2_read_cycles(m, d);
  t.l2_ms = 1e3 * std::max(l2.bytes, l2.requests) / (double(d.sms) * hz);
  // DRAM carries the reads and, sooner or later, every sector the stores wrote (the L2 writes
  // back what it holds; a kernel that writes as much as it reads, as the stencils do, is bound by
  // both: the 9x9 smem stencil moves 537 MB at 8192, 268 MB of them written).
  t.dram_ms =
      1e3 * double(m.dram_read_bytes + m.l2_write_sectors * d.l2_sector_bytes) / (d.dram_gbs * 1e9);
  // Instruction issue: warp instructions / (SMs x issue rate) (instructions_per_thread), at the
  // rate that goes with a measured count or with an estimated one.
  const double loads = double(r.metrics.l1_requests) * d.warp_size / double(r.threads);
  const double instructions = instructions_per_thread(c, loads);
  t.arithmetic_ms = 1e3 * double(r.threads) / d.warp_size * instructions /
                    (double(d.sms) * issue_per_cycle_of(c) * hz);
  // A kernel that streams DRAM cannot hide all of its instructions behind its loads (Device::
  // stream_issue_norm): the replay and the issue bound in a norm, where DRAM holds the replay.
  // Only where the issue bound counts measured instructions, as the probe's did (the naive
  // stencil and matmul); an estimated count (the tiled kernels, stencil3d, your own workloads)
  // keeps the largest of the bounds.
  if (d.stream_issue_norm > 0 && t.dram_ms >= d.stream_dram_share * t.simulated_ms &&
      has_measured_instructions(c)) {
    const double n = d.stream_issue_norm;
    t.stream_issue_ms =
        std::pow(std::pow(t.simulated_ms, n) + std::pow(t.arithmetic_ms, n), 1.0 / n);
  }
  const std::pair<double, const char *> terms[] = {
      {t.simulated_ms, "replay"},
      {t.l1_ms, l1_requests ? "L1 requests" : "L1 wavefronts"},
      {t.l2_ms, "L2->L1 bandwidth"},
      {t.dram_ms, "DRAM bandwidth"},
      {t.arithmetic_ms, "instruction issue"},
      {t.stream_issue_ms, "DRAM stream and issue"}};
  const auto *top = std::max_element(std::begin(terms), std::end(terms));
  t.predicted_ms = top->first;
  t.bound = top->second;
  if (d.launcher_ctas_per_us > 0) {
    const int64_t first_wave = std::min(r.ctas, r.ctas_per_sm * int64_t{d.sms});
    t.launcher_ms = double(r.ctas - first_wave) / d.launcher_ctas_per_us / 1e3;
    if (top == std::begin(terms) && t.launcher_ms >= kLauncherBoundShare * t.simulated_ms)
      t.bound = "CTA launcher";
  }
  return r;
}

} // namespace cbi::sim
