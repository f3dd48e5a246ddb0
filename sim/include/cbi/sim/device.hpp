// Devices are data: one row per GPU with the cache and occupancy facts the GPU model
// (cbi/sim/gpu_model.hpp) replays against. Every field's source is in docs/devices.md; the row
// itself names the source of each group in `sources`.
#pragma once

#include "cbi/sim/set_hash.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace cbi::sim {

// Which ready warp an SM issues next. oldest_cta_first: a ready warp of the CTA that started
// earliest (as greedy-then-oldest schedulers favour old warps); it lets co-resident CTAs drift
// apart, as the H100's float matmuls do after the first wave (docs/results/gpu-model-h100.md).
// round_robin: the warp that has been ready longest, which keeps co-resident CTAs in step, as
// the H200's double matmuls are in every wave (docs/results/tight/tails.md §1): the h100 and h200
// rows' choice from 2026-11-26 to 2026-11-28.
// oldest_issues_first: two stages. The SM's warp schedulers issue a ready warp's instructions up
// to its next load at the device's issue rate, a warp of the oldest CTA first; the L1 takes the
// loads in the order they were issued. Where the L1 is the bottleneck (double matmuls: 4 cycles a
// warp and k step) loads wait in its queue in order and co-resident CTAs stay in step; where issue
// is (float and half matmuls) the oldest CTA runs at its own pace and the younger take what is
// left (kernels/probes/cta_steps: docs/results/tight/tail-float.md). Workloads without a measured
// instruction count (the tiled kernels, your own) have no issue stage: the warp ready longest.
enum class WarpScheduler { oldest_cta_first, round_robin, oldest_issues_first };

struct Device {
  std::string name;        // "h100"
  std::string description; // "NVIDIA H100 SXM5 (GH100, sm_90)"
  // Part of the CUDA device name (lower case) of the GPU this row describes ("2080 super"), by
  // which `cbi reproduce` finds the row of the GPU it measured; "" for a row of no real GPU.
  std::string gpu_name_part;
  // Occupancy.
  int sms = 1;
  int warp_size = 32;
  int max_threads_per_sm = 2048;
  int max_threads_per_block = 1024; // CUDA's limit on every device since compute capability 2.0
  int max_warps_per_sm = 64;
  int max_ctas_per_sm = 32;
  // What an SM holds for its resident CTAs: registers, and shared memory (of which the runtime
  // keeps shared_bytes_reserved_per_cta for each CTA). Where a workload says what its kernel
  // takes (the tiled kernels: registers a thread, shared memory a CTA), they limit the CTAs
  // resident on an SM as CUDA's occupancy calculator does; 0 = no limit.
  int64_t registers_per_sm = 65536;
  int64_t shared_bytes_per_sm = 0;
  int64_t shared_bytes_reserved_per_cta = 0;
  // L1 as a kernel without shared memory sees it (per SM): sectored lines.
  int64_t l1_bytes = 0;
  int64_t l1_line_bytes = 128;
  int64_t l1_sector_bytes = 32;
  int64_t l1_ways = 16;                     // 0 = fully associative
  SetHash l1_set_hash = SetHash::fibonacci; // the set-index function (cbi/sim/set_hash.hpp)
  // The L1's victim in a full set: a random way rather than the least recently used one (the
  // H100's L1 keeps 48-70% of a cyclic footprint 1.2 times its capacity, where LRU keeps none:
  // kernels/probes/l1_warps, docs/results/tight/probes.md §2).
  bool l1_random_replacement = false;
  // The L2: l2_bytes in l2_partitions partitions (sim/src/gpu/memory.hpp). With two, each SM is
  // near one partition, each line homed in one; a sector an SM misses in its near partition and
  // homed in the other is looked up there over the fabric (l2_fabric_cycles more), and the near
  // partition keeps a copy.
  int64_t l2_bytes = 0;
  int64_t l2_line_bytes = 128;
  int64_t l2_sector_bytes = 32;
  int64_t l2_ways = 16;
  int l2_partitions = 1;
  int l2_fabric_cycles = 0;
  // Per SM, in the order in which the first wave's CTAs are dealt to them (the SM that takes CTA
  // s of the first wave: dispatch.hpp), its GPC; per GPC, the L2 partition it is near. Empty: one
  // GPC, and the SMs split evenly in order among the partitions.
  std::vector<int> sm_gpc;
  std::vector<int> gpc_l2_partition;
  SetHash l2_set_hash = SetHash::fibonacci; // none: line mod sets, for exact comparisons
  // The L2 request coalescer (Hopper's LRC, between the crossbar and the L2): an L1's read of an
  // L2 sector that another SM of its GPC (sm_gpc) read less than this many cycles before is merged
  // with that read and never reaches the L2's tags. 0: no coalescer (every L1 miss sector is an
  // L2 read).
  int l2_coalesce_cycles = 0;
  // The most L1 reads of one sector that one L2 read serves (its own and those merged with it);
  // the next read within the window reaches the L2 and opens a window of its own. 0: no limit.
  int l2_coalesce_max_reads = 0;
  // How the profiler counts a store in lts__t_sector_hit_rate.pct: true where every store sector
  // that reaches the L2 counts as a hit, also one the L2 did not hold (it allocates the sector
  // without reading it: NVIDIA counts a write-allocating store as a hit, Accel-Sim's finding;
  // measured on the H100 and H200 in docs/results/tight/model-vs-tiled.md); false counts a store
  // to an absent sector as a miss (the sequential simulator's rule).
  bool l2_store_counts_as_hit = false;
  // Clocks, latencies (cycles of the SM clock) and throughputs.
  double sm_clock_mhz = 1000;
  int l1_hit_cycles = 40;
  int l2_hit_cycles = 270;
  int dram_cycles = 500;
  // DRAM's latency under load: dram_cycles + this x the load of DRAM over the last 1024 cycles
  // (its reads and the sectors stored, as a fraction of dram_gbs; at most 1). 0: a fixed latency.
  int dram_loaded_cycles = 0;
  int cta_launch_cycles = 600; // from a CTA's end to its successor's start on that SM
  int cta_dispatch_cycles = 2; // the device's CTA launcher: one CTA per this many cycles
  // After the first wave, cycles between two of the launcher's visits to one SM, each visit
  // starting at most one CTA there (0: a freed slot's CTA starts cta_launch_cycles after the end).
  int cta_refill_round_cycles = 0;
  // CTAs the device's launcher starts a microsecond after the first wave, over all SMs together
  // (0: no such limit; each SM's refills then wait only for their launcher visit). Kernels of many
  // short CTAs (small blocks, few loads a thread) run at this rate.
  double launcher_ctas_per_us = 0;
  int issue_cycles = 4;             // between two loads of one warp that do not wait
  int loads_in_flight_per_warp = 8; // loads a warp issues before it waits for their data
  WarpScheduler scheduler = WarpScheduler::oldest_cta_first; // h100, h200: oldest_issues_first
  double l1_wavefronts_per_cycle = 1; // wavefronts (l1_bank_wavefronts) an SM's L1 serves a cycle
  // Lines an SM's L1 looks up a cycle (0: no such limit, where not probed): a request of more
  // lines than that takes ceil(lines / l1_lines_per_cycle) cycles where that is more than its
  // wavefronts (32 lines on distinct banks: one wavefront, 8 cycles at 4).
  int l1_lines_per_cycle = 0;
  // Lines with sectors missing or on their way (another load's misses) that an SM's L1 takes a
  // cycle (0: no such limit, where not probed): a request of more such lines takes
  // ceil(lines / l1_miss_lines_per_cycle) cycles where that is more than its wavefronts.
  int l1_miss_lines_per_cycle = 0;
  // Bytes of lane data the L1 returns to the registers per cycle (0: no such limit): a request
  // takes at least its lanes' bytes over this many cycles, also where one line serves them all (a
  // warp's 8-byte broadcast of one A element returns 256 bytes, two cycles at 128).
  int l1_data_bytes_per_cycle = 0;
  // Cycles the L1's input takes for a request at least, whatever its wavefronts and bytes (0: no
  // such limit): a request of one wavefront holds it this long, one of two wavefronts two cycles.
  double l1_request_cycles = 0;
  // Wavefronts the L1's data stage adds to a request that mixes sectors ready in L1 with sectors
  // still on their way, or its own misses with another request's pending sectors (0: none, where
  // not probed): kernels/probes/l1_fill, docs/results/tight/miss-cost.md.
  int l1_mixed_request_wavefronts = 0;
  double l2_to_l1_bytes_per_cycle = 64; // per SM: the L2's read sectors (32 bytes each)
  // Cycles of an SM's share of the L2 that each line request takes: the device's L2 reads take
  // max(sectors x 32 / l2_to_l1_bytes_per_cycle, line requests x this) / SMs cycles; 0, the bytes
  // alone, where not measured.
  double l2_request_cycles = 0;
  double dram_gbs = 100; // measured copy bandwidth where we have it
  // DRAM streams and instruction issue overlap only in part: a kernel whose DRAM bound is at
  // least `stream_dram_share` of its replay time takes (replay^n + issue^n)^(1/n) at least, n =
  // `stream_issue_norm` (0: no such term, the larger of the two as for every other bound, where
  // not probed), where its issue bound counts measured instructions (the naive kernels).
  // kernels/probes/dram_pages (docs/results/tight/dram-pages.md).
  double stream_issue_norm = 0;
  double stream_dram_share = 0;
  double issue_per_cycle = 4; // warp instructions an SM issues per cycle (4 schedulers)
  // The same for a kernel whose instruction count the model estimates (the tiled kernels' steps
  // and issue bound, stencil3d, your own workloads) rather than takes from a measurement (the
  // naive stencil and matmul: their workloads' instructions_per_task). The two differ where the
  // rate was fitted together with the estimate (h100, h200).
  double estimated_issue_per_cycle = 4;
  std::string sources; // one line per group: where the numbers come from
};

// The device table: h100, h200, rtx2080super, a100, v100, and `tiny` (warp size 1, one SM, one
// resident warp, unhashed L2: it replays threads in sequential order, for tests).
const std::vector<Device> &devices();
// The row named `name`; throws UsageError(option) listing the names otherwise.
const Device &find_device(const std::string &name, const std::string &option = "--device");
std::string device_names(); // "h100, h200, rtx2080super, a100, v100, tiny"
// A device's SMs as messages say them: "132 SMs of h100", "1 SM of tiny".
std::string sms_of(const Device &d);
// The row of a GPU by its CUDA device name ("NVIDIA H100 80GB HBM3" -> the h100 row), matched by
// gpu_name_part ignoring case; nullptr when no row describes it.
const Device *device_of_gpu(const std::string &gpu_name);

} // namespace cbi::sim
