#include "cbi/sim/device.hpp"

#include "cbi/error.hpp"
#include "cbi/text.hpp"

#include <cctype>
#include <initializer_list>
#include <utility>

namespace cbi::sim {
namespace {

Device h100() {
  Device d;
  d.name = "h100";
  d.gpu_name_part = "h100";
  d.description = "NVIDIA H100 SXM5 80GB (GH100, sm_90)";
  d.sms = 132;
  d.max_threads_per_sm = 2048;
  d.max_warps_per_sm = 64;
  d.max_ctas_per_sm = 32;
  // CUDA C Programming Guide, compute capability 9.0: 64 K registers and 228 KiB of shared memory
  // an SM, 1 KiB of it kept by the runtime for each CTA.
  d.shared_bytes_per_sm = 228 << 10;
  d.shared_bytes_reserved_per_cta = 1 << 10;
  d.l1_bytes = 216 << 10; // measured: kernels/probes/l1_chase, all hits up to 216 KiB
  d.l1_ways = 16;
  // kernels/probes/l1_warps: past its capacity the L1 keeps part of a cyclic footprint (48-70% of
  // the loads of 256 KiB per SM hit, 6-44% of 320 KiB), as random replacement does (53% and 33%
  // in a replay of the probe) and LRU does not (0%): docs/results/tight/model-fix.md.
  d.l1_random_replacement = true;
  d.l2_bytes = 52428800; // cudaGetDeviceProperties l2CacheSize (50 MiB), two partitions
  d.l2_partitions = 2;
  // The partitions, their fabric and the GPCs: kernels/probes/l2_parts on the H200 (the same
  // GH100 die; no H100 was lent to probe them), docs/results/tight/l2-partitions.md. A line homed
  // in the other partition takes 457 cycles to a hit against 274 in the near one (median); the
  // first wave deals CTAs a GPC at a time, 8-18 SMs, and the GPCs of CTAs 0-131 are these, of
  // which GPCs 0-2 and 7 (66 SMs) are near partition 0 and GPCs 3-6 (66 SMs) near partition 1.
  d.l2_fabric_cycles = 183;
  for (const auto &[count, gpc] : std::initializer_list<std::pair<int, int>>{
           {8, 0}, {16, 1}, {18, 2}, {18, 3}, {8, 0}, {16, 4}, {8, 0}, {16, 5}, {16, 6}, {8, 7}})
    d.sm_gpc.insert(d.sm_gpc.end(), static_cast<std::size_t>(count), gpc);
  d.gpc_l2_partition = {0, 0, 0, 1, 1, 1, 1, 0};
  d.sm_clock_mhz = 1980;
  d.l1_hit_cycles = 40;  // l1_chase: 40 cycles per dependent load below 216 KiB
  d.l2_hit_cycles = 276; // l1_chase: 276 cycles per load above 288 KiB (L2 hits)
  // The L2 request coalescer merges reads of a sector sent at about the same time (ncu's lrc__*
  // counters on the H100: docs/results/tight/heldout-scores.md §3.2). The window is the replay's
  // own time resolution (32 cycles, engine.hpp's kWindow), chosen over 8, 128 and 276 on the
  // measured merge fractions (docs/results/tight/model-fix.md §2).
  d.l2_coalesce_cycles = 32;
  // It merges at most 4 reads of a sector into one L2 read: N SMs of one GPC (a thread-block
  // cluster) reading the same lines together send ceil(N / 4) L2 reads a sector, N = 1..16
  // (kernels/probes/lrc_cap on the H100, docs/results/tight/lrc-cap.md).
  d.l2_coalesce_max_reads = 4;
  // lts__t_sectors_srcunit_tex_op_write_lookup_miss is 0 in every kernel measured, also the smem
  // stencil's 8.4 M store sectors at 8192 to an output the L2 never held: every store is a hit
  // (kernels/probes/l2_count.sh on the H200, docs/results/tight/model-vs-tiled.md).
  d.l2_store_counts_as_hit = true;
  // DRAM latency where the line's L2 home is near, l2_fabric_cycles more where far: kernels/probes/
  // dram_lat on the H200 chases 8 M lines of 1 GiB at 690 cycles a load, (600 + 783) / 2 = 691.5
  // for lines homed half on each side (docs/results/tight/dram-rw.md §2; assumed before).
  d.dram_cycles = 600;
  // Loaded: kernels/probes/dram_lat on the H200 streams reads on every SM with 1-8 CTAs and 1-8
  // loads in flight a thread; Little's law gives 832 cycles at 28% of the peak, 892-971 at 49-53%,
  // 1108-1288 at 73-85% (the latency includes the loop): 626 + 685 x load, load relative to the
  // probe's 4532 GB/s, is 641 x load relative to dram_gbs (docs/results/tight/dram-rw.md §7).
  d.dram_loaded_cycles = 641;
  // A copy whose index takes 8-64 more dependent instructions before its load (as a remap's work),
  // the same bytes in the same pattern: kernels/probes/dram_pages on the H200 (docs/results/tight/
  // dram-pages.md §2) runs in (T_mem^6 + T_issue^6)^(1/6), T_mem its time without them and T_issue
  // its ncu-counted instructions at its own issue rate (mean |ln| error 4.4%, bias +0.5%, worst
  // +8.4% over 20 points; n 4: bias +4.9%, n 8: -1.3%). The larger of the two, as for the other
  // bounds, was short by up to 15% (mean 6.5%) where the issue takes 40-90% of the memory time.
  // The probe's copies hold DRAM for 0.57 (float) to 0.82 (double) of their time, so the term
  // applies from a DRAM share of 0.57 up, where it was measured. The h100 row takes the H200's
  // (the same SM; not probed on an H100).
  d.stream_issue_norm = 6;
  d.stream_dram_share = 0.57;
  d.cta_launch_cycles = 600; // kernels/probes/cta_sm: successors start 256-416 ns after an end
  d.cta_dispatch_cycles =
      2; // kernels/probes/cta_sm: the first wave's 1056 CTAs start within 1.1 us
  // After the first wave the launcher starts the CTAs of one SM 64 ns (127 cycles) apart:
  // kernels/probes/cta_launch on the H200 (docs/results/tight/dram-rw.md §5), CTAs of 128-512
  // threads spinning 0-16000 cycles, 2-15 slots an SM: the median spacing of an SM's starts is
  // 64 ns in every case with more than one slot (a freed slot's CTA starts 256 ns after the end,
  // cta_launch_cycles; the device starts up to 1660 CTAs a us). 832 cycles before (2026-11-28,
  // tail-float.md: the float matmuls' second-wave starts 0.16-0.72 us a slot apart, kernels/
  // probes/cta_steps), which put a floor of 832 cycles a CTA an SM under kernels of many short
  // CTAs: the H200's half 5x5 stencil at block 224 ran in 0.090 ms where that floor gave 0.147.
  d.cta_refill_round_cycles = 127;
  // The device's launcher starts at most 1660 CTAs a us after the first wave: kernels/probes/
  // cta_launch on the H200 (dram-rw.md §5), CTAs of 128 threads that do nothing, 15 slots an SM:
  // 1660 a us, a freed slot's next CTA 1024 ns after its end where it is 256 ns for CTAs that spin
  // (so the slots wait for the launcher). The H200's half 3x3 stencil at block 96 (100 k CTAs)
  // runs every order in 0.0644 ms, the launcher's 100523 / 1660 = 0.0606 ms and a wave's CTAs
  // (docs/results/tight/l-set.md); the model without it gave 0.050. The h100 row takes the H200's
  // (the same GH100; not probed on an H100).
  d.launcher_ctas_per_us = 1660;
  d.l1_wavefronts_per_cycle = 1;
  // 128 bytes of lane data per cycle from the L1 to the registers (one line's width, as the tag
  // stage's one line a cycle): a double matmul's warp, its A element a broadcast of 256 bytes and
  // its B row 256 bytes, takes 4 cycles a k step (3 without this field), a float one 2. The H200's
  // double matmuls run at 4.0-4.6 cycles per warp and k step, the float ones at 2.1-2.3
  // (kernels/probes/cta_steps, docs/results/tight/tails.md §1).
  d.l1_data_bytes_per_cycle = 128;
  // The L1's input takes a request 1.1 cycles at least, whatever its wavefronts (one of two
  // wavefronts takes two). kernels/probes/l1_rate on the H200 (docs/results/tight/l1-rate.md): a
  // request of one line, of one broadcast sector or the two alternating costs the same, 1.30-1.42
  // cycles at 16-32 warps an SM; two wavefronts 2.00 (at 48-64 warps the probe's CTA spans
  // undercount: its two-wavefront control reads 1.57-1.87). l1_lines on the H100: 1.32 by ncu
  // (h100-fresh.md §3); ncu holds the float naive matmul at 75-78% of a request a cycle in every
  // order (dram-rw.md §3). The value is the one of 1.0-1.32 with the least time and L1 hit error
  // on the float matmul groups of the H100 Q, R, N and H200 T sets (sampled): below the probes'
  // floor by about the stalls that the replay already loses to latency and the GPU hides.
  d.l1_request_cycles = 1.1;
  d.l1_mixed_request_wavefronts = 1; // kernels/probes/l1_fill on the H200 (miss-cost.md)
  // kernels/probes/l1_spread on the H200 (docs/results/tight/l1-issue.md §7): a warp load of N
  // lines on N distinct banks (one wavefront) takes 1.17 cycles up to N = 4, then 2.04, 4.04 and
  // 8.05 for 8, 16 and 32 lines, float or half: the tag stage looks up four lines a cycle. The
  // h100 row's, as the h200's (not probed on an H100).
  d.l1_lines_per_cycle = 4;
  // kernels/probes/l1_miss_lines on the H200 (docs/results/tight/miss-lines.md): 16 warps an SM,
  // every request missing its 4 or 8 lines (a word each, on distinct banks, in L2) take 1.13 and
  // 1.05 cycles a line, where 1 and 2 lines take the loop's floor: the L1 takes about one
  // waiting line a cycle. The h100 row's, as the h200's (not probed on an H100).
  d.l1_miss_lines_per_cycle = 1;
  // Issue oldest CTA first, the L1 in issue order (oldest_issues_first; the issue stage at
  // issue_per_cycle with the measured instruction counts): on the H200 the CTAs that share an SM
  // reach every k of a double matmul together in every wave (the L1's data stage is the
  // bottleneck: its queue is in order), and those of a float matmul only in the first: after it
  // the older CTA runs at its own pace and the younger 20% slower (kernels/probes/cta_steps:
  // docs/results/tight/tails.md §1, tail-float.md). Ready longest first before (2026-11-26):
  // over-predicted the float and half matmuls' wide and linear orders by up to 37 points.
  d.scheduler = WarpScheduler::oldest_issues_first;
  // The L2's reads: kernels/probes/l2_bw on the H100 (docs/results/tight/l2-bw.md), every SM
  // loading lines that miss its L1 and hit the L2, 64 warps an SM: 30.8-31.4 bytes a cycle an SM
  // where a request reads 2 or 4 sectors of each line, 17.2 where it reads 1 sector of each (4, 16
  // or 32 lines). So two limits, the slower of which holds: 31.0 bytes a cycle an SM, and a line
  // request each 1.86 cycles of an SM's share. One SM alone gets 50-90 bytes a cycle: the limits
  // are the device's, not an SM's. Fitted on the times of the fig5.1a/fig5.1b configurations before
  // (25.5 bytes a cycle of the L1s' misses, with the model's misses then too few).
  d.l2_to_l1_bytes_per_cycle = 31.0;
  d.l2_request_cycles = 1.86;
  d.dram_gbs = 2985; // cbi bench: measured device-to-device copy (docs/results/kernels-h100)
  // The issue rate: 2.4 warp instructions per SM per cycle, of
  // the 4 schedulers' ceiling. The naive stencils issue at 1.4-2.5, the matmuls at 0.5-2.4 (ncu,
  // the instructions the stencil and matmul workloads now count: docs/results/tight/sm.md §2);
  // 2.4 has the least mean |ln(predicted/measured)| of 2.2-2.75 over the time data that chose it
  // (sm.md §1; 2.75 before, fitted with instruction counts 1.4-1.9x the stencils' own).
  d.issue_per_cycle = 2.4;
  // Fitted with the estimated counts on the fig5.1a/fig5.1b times (as the L2->L1 bandwidth): the
  // rate for the kernels whose count is still estimated (the tiled kernels' steps, validated with
  // it in docs/results/tight/model-vs-tiled.md).
  d.estimated_issue_per_cycle = 2.75;
  d.sources =
      "occupancy: CUDA C Programming Guide, compute capability 9.0 table; SMs, L2: "
      "cudaGetDeviceProperties on the H100 (docs/results/gpu-model-h100); L1 capacity and "
      "latencies: kernels/probes/l1_chase on the H100; DRAM: cbi bench's measured copy; "
      "CTA launcher rate: kernels/probes/cta_sm; L2 reads (bytes and line requests a cycle): "
      "kernels/probes/l2_bw (docs/results/tight/l2-bw.md); issue rate: chosen over the naive "
      "kernels' times with "
      "their ncu-measured instruction counts (docs/results/tight/sm.md); L1 ways, DRAM latency, L1 "
      "throughput: model choices; L1 data stage (128 bytes per cycle), warp scheduler (issue "
      "oldest CTA first, the L1 in issue order) and the launcher's refill round: "
      "kernels/probes/cta_steps on the H200 (docs/results/tight/tails.md, tail-float.md)";
  return d;
}

// The H100's SM in a package with 141 GB of HBM3e (GH100, as the H100 SXM): every SM-side field is
// the h100 row's, for the same reason (the same SM); the memory side is the H200's own. Which
// fields the H200 measurements changed: docs/results/tight/h200.md.
Device h200() {
  Device d = h100();
  d.name = "h200";
  d.gpu_name_part = "h200";
  d.description = "NVIDIA H200 SXM 141GB (GH100, sm_90)";
  d.sms = 132; // datasheet; PyTorch on the lent H200 (.library/device/KINDS.md, 2026-10-28)
  d.l2_bytes = 62914560; // 60 MiB: torch.cuda.get_device_properties on the lent H200 (KINDS.md)
  d.l2_partitions = 2;
  d.sm_clock_mhz = 1980; // nvidia-smi and cbi bench on the lent H200 (docs/results/tight/h200)
  // Measured on the lent H200 (docs/results/tight/h200.md): the L2 hit latency (l1_chase: 287
  // cycles per load above 224 KiB; the h100 row's 276 before) and cbi bench's device-to-device copy
  // (4241 GB/s; 4300 from KINDS.md before, 4.8 TB/s in the datasheet).
  d.l2_hit_cycles = 287;
  d.l2_coalesce_cycles = 32; // the h100 row's (the same L2 request coalescer)
  // The h100 row's 4 (not probed with lrc_cap on the H200; its l2_parts run of the 66 SMs of one
  // side reading together, 0.265 of the reads reaching the L2, is what 4 gives: 0.258).
  d.l2_coalesce_max_reads = 4;
  // The L2's reads: kernels/probes/l2_bw on the H200 (2026-11-29, docs/results/tight/
  // miss-lines.md §6), every SM loading lines that miss its L1 and hit the L2, 64 warps an SM:
  // 36.6-37.7 bytes a cycle an SM where a request reads 2 or 4 sectors of each line, 20.2 where it
  // reads 1 (4, 16 or 32 lines): 37.0 bytes a cycle and a line request each 32 / 20.2 = 1.58
  // cycles (the h100 row's 31.0 and 1.86 before, not probed on the H200 until then).
  d.l2_to_l1_bytes_per_cycle = 37.0;
  d.l2_request_cycles = 1.58;
  d.dram_gbs = 4241;
  d.sources =
      "SMs, HBM3e 141 GB at 4.8 TB/s: NVIDIA H200 datasheet (nvidia.com/en-us/data-center/"
      "h200); occupancy: CUDA C Programming Guide, compute capability 9.0 table; L1 capacity "
      "(216 KiB) and L1 hit latency (40 cycles): the h100 row, confirmed by kernels/probes/"
      "l1_chase on the H200; L2 hit latency: l1_chase on the H200; L2 (60 MiB): "
      "cudaGetDeviceProperties on the H200; DRAM: cbi bench's measured copy on the H200; CTA "
      "launcher, issue rate: the h100 row (the same SM, Hopper tuning guide; not probed on the "
      "H200); L2 read rates: kernels/probes/l2_bw on the H200";
  return d;
}

Device rtx2080super() {
  Device d;
  d.name = "rtx2080super";
  d.gpu_name_part = "2080 super";
  d.description = "NVIDIA GeForce RTX 2080 Super (TU104, sm_75), the thesis's GPU";
  d.sms = 48;
  d.max_threads_per_sm = 1024;
  d.max_warps_per_sm = 32;
  d.max_ctas_per_sm = 16;
  d.shared_bytes_per_sm = 64 << 10; // compute capability 7.5 table
  d.l1_bytes = 64 << 10; // thesis §5 and Turing tuning guide: 64 KiB L1 with 32 KiB shared
  d.l1_ways = 16;
  d.l2_bytes = 4 << 20;
  d.l2_partitions = 1;
  d.l2_store_counts_as_hit = true; // NVIDIA's counting (the h100 row); not measured on Turing
  d.sm_clock_mhz = 1815;           // boost clock
  d.l1_hit_cycles = 32;
  d.l2_hit_cycles = 190;
  d.dram_cycles = 450;
  d.l1_wavefronts_per_cycle = 1;
  d.l2_to_l1_bytes_per_cycle = 64;
  d.dram_gbs = 496;                                    // 256-bit GDDR6 at 15.5 Gbit/s (datasheet)
  d.issue_per_cycle = d.estimated_issue_per_cycle = 4; // four schedulers per SM (whitepaper)
  d.sources = "occupancy: CUDA C Programming Guide, compute capability 7.5 table; SMs, L1, L2, "
              "clock, DRAM: Turing whitepaper and the RTX 2080 Super datasheet; latencies: Jia et "
              "al. 2019 (Turing microbenchmarks); L1 ways, throughputs: model choices";
  return d;
}

Device a100() {
  Device d;
  d.name = "a100";
  d.gpu_name_part = "a100";
  d.description = "NVIDIA A100 SXM4 40GB (GA100, sm_80)";
  d.sms = 108;
  d.max_threads_per_sm = 2048;
  d.max_warps_per_sm = 64;
  d.max_ctas_per_sm = 32;
  d.shared_bytes_per_sm = 164 << 10; // compute capability 8.0 table
  d.shared_bytes_reserved_per_cta = 1 << 10;
  d.l1_bytes = 192 << 10; // 192 KiB L1/shared per SM (whitepaper); all of it L1 without shared
  d.l1_ways = 16;
  d.l2_bytes = 40 << 20;
  d.l2_partitions = 2;
  d.l2_store_counts_as_hit = true; // NVIDIA's counting (the h100 row); not measured on the A100
  d.sm_clock_mhz = 1410;
  d.l1_hit_cycles = 33;
  d.l2_hit_cycles = 200;
  d.dram_cycles = 480;
  d.l1_wavefronts_per_cycle = 1;
  d.l2_to_l1_bytes_per_cycle = 64;
  d.dram_gbs = 1555;
  d.issue_per_cycle = d.estimated_issue_per_cycle = 4; // four schedulers per SM (whitepaper)
  d.sources = "occupancy: CUDA C Programming Guide, compute capability 8.0 table; SMs, L1, L2, "
              "clock, DRAM: A100 whitepaper; latencies: Citadel-style microbenchmark reports "
              "(approximate); L1 ways, throughputs: model choices";
  return d;
}

Device v100() {
  Device d;
  d.name = "v100";
  d.gpu_name_part = "v100";
  d.description = "NVIDIA V100 SXM2 16GB (GV100, sm_70)";
  d.sms = 80;
  d.max_threads_per_sm = 2048;
  d.max_warps_per_sm = 64;
  d.max_ctas_per_sm = 32;
  d.shared_bytes_per_sm = 96 << 10; // compute capability 7.0 table
  d.l1_bytes = 128 << 10;           // 128 KiB L1/shared per SM (whitepaper)
  d.l1_ways = 16;
  d.l2_bytes = 6 << 20;
  d.l2_partitions = 1;
  d.l2_store_counts_as_hit = true; // Accel-Sim's finding on Volta; not measured here
  d.sm_clock_mhz = 1530;
  d.l1_hit_cycles = 28;
  d.l2_hit_cycles = 193;
  d.dram_cycles = 400;
  d.l1_wavefronts_per_cycle = 1;
  d.l2_to_l1_bytes_per_cycle = 64;
  d.dram_gbs = 900;
  d.issue_per_cycle = d.estimated_issue_per_cycle = 4; // four schedulers per SM (whitepaper)
  d.sources = "occupancy: CUDA C Programming Guide, compute capability 7.0 table; SMs, L1, L2, "
              "clock, DRAM: V100 whitepaper; latencies: Jia et al. 2018 (Volta "
              "microbenchmarks); L1 ways, throughputs: model choices";
  return d;
}

Device tiny() {
  Device d;
  d.name = "tiny";
  d.description = "test device: warp size 1, one SM, one resident warp (sequential replay)";
  d.sms = 1;
  d.warp_size = 1;
  d.max_threads_per_sm = 1;
  d.max_warps_per_sm = 1;
  d.max_ctas_per_sm = 1;
  d.l1_bytes = 64 << 10;
  d.l1_ways = 0;
  d.l2_bytes = 1 << 20;
  d.l2_ways = 16;
  d.l1_set_hash = d.l2_set_hash = SetHash::none; // sim::Cache's mapping
  d.cta_launch_cycles = 0;
  d.cta_dispatch_cycles = 0;
  d.loads_in_flight_per_warp = 1; // one load at a time: the sequential order
  d.sources = "made up for tests";
  return d;
}

} // namespace

const char *to_string(SetHash h) {
  switch (h) {
  case SetHash::none:
    return "none";
  case SetHash::fibonacci:
    return "fibonacci";
  case SetHash::xor_fold:
    return "xor";
  case SetHash::ipoly:
    return "ipoly";
  }
  return "none";
}

const std::vector<Device> &devices() {
  static const std::vector<Device> table = {h100(), h200(), rtx2080super(), a100(), v100(), tiny()};
  return table;
}

std::string sms_of(const Device &d) {
  return std::to_string(d.sms) + (d.sms == 1 ? " SM of " : " SMs of ") + d.name;
}

std::string device_names() {
  return join(devices(), ", ", [](const Device &d) { return d.name; });
}

const Device *device_of_gpu(const std::string &gpu_name) {
  std::string lower;
  for (char c : gpu_name)
    lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const Device &d : devices())
    if (!d.gpu_name_part.empty() && lower.find(d.gpu_name_part) != std::string::npos)
      return &d;
  return nullptr;
}

const Device &find_device(const std::string &name, const std::string &option) {
  for (const Device &d : devices())
    if (d.name == name)
      return d;
  throw UsageError(option, "unknown device '" + name + "'; allowed: " + device_names());
}

} // namespace cbi::sim
