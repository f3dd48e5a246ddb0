// The GPU execution model (issue 10 §2): the kernels' program replayed as the GPU runs it. Thread
// i of a 1-D launch computes task order.map(i); CTA k holds threads [kB, (k+1)B) and is dealt to
// the SMs in index order up to the device's occupancy, the next CTA taking the place of one that
// finishes. Warps of 32 consecutive threads issue their j-th memory instruction together; the
// lanes' addresses coalesce into one request of 32-byte sectors grouped by 128-byte line. Each SM
// has its own sectored L1 (stores go through to L2 without allocating in L1); one shared, sectored,
// set-hashed L2 sees all SMs' traffic. SMs advance together in time: resident warps take turns
// (the oldest ready warp issues next, one memory instruction per turn), a warp waits for the
// latency of the level that served its slowest sector, and a sector already on its way from L2
// (requested by another warp) counts as a hit, as Nsight counts it, that waits for that fill.
// docs/gpu-model.md says what the model leaves out.
#pragma once

#include "cbi/remap/order.hpp"
#include "cbi/sim/device.hpp"
#include "cbi/sim/simulate.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace cbi::sim {

struct GpuConfig {
  Workload workload;
  remap::Order order;
  Device device;
  int64_t block_threads = 256;
  int64_t l1_bytes = 0; // 0: the device's
  int64_t l1_ways = -1; // -1: the device's; 0 = fully associative
  bool stores = true;   // the kernels store each task's output (to L2)
  // Sampled mode: 0 simulates every SM (exact counts). N, a divisor of the device's SMs, simulates
  // SMs 0, G, 2G, ... (G = SMs / N), each with its exact L1 and the CTAs that SM gets on the full
  // device; the L2 keeps its capacity (the sampled SMs share the same data) and gets 1/G of the
  // DRAM bandwidth; the counts are scaled by
  // CTAs / simulated CTAs. About G times faster (docs/results/gpu-model-speed.md gives its error).
  int64_t sample_sms = 0;
  // Host threads for the replay: 1 runs the SMs one after another; more run the SMs of each
  // 32-cycle window in parallel, the L2 fed in the one-thread order, so the prediction is the same
  // bit for bit on any count (docs/gpu-model.md). The tiny device and an observer take one.
  int jobs = 1;
};

// Throws UsageError naming the field (gpu.block_threads, gpu.l1_bytes, gpu.l1_ways,
// gpu.sample_sms) for a sample that does not divide the device's SMs, for a block
// that is not a positive multiple of
// ... at most the device's threads per SM, and for the workload's own errors.
void validate(const GpuConfig &c);

// The host memory the replay of `c` takes, in bytes (about): the simulated SMs' L1s, the L2, the
// resident warps' lanes and sector sets, and each SM's wheel. `cbi simulate --model gpu` checks it
// against the free memory (exit 2 with the GiB it needs).
double gpu_state_bytes(const GpuConfig &c);

// The remap's instructions per thread in the model's instruction count: beyond the linear
// order's, as measured, for a workload whose kernel's count was measured (instructions_per_task:
// stencil, matmul); the order's estimate (remap_instructions, about 20 a division) for the others.
double remap_instructions_per_thread(const GpuConfig &c);

// Counts named as Nsight Compute names them (`cbi bench --metrics` reads the same names).
struct GpuMetrics {
  int64_t l1_requests = 0;          // l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
  int64_t l1_sectors = 0;           // l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
  int64_t l1_sector_hits = 0;       // l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
  int64_t l1_sector_misses = 0;     // l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum
  int64_t l1_wavefronts = 0;        // L1 cycles: bank wavefronts, or lines / l1_lines_per_cycle
  int64_t l1_pending_hits = 0;      // hits on sectors still on their way (another warp's miss)
  int64_t l2_read_sectors = 0;      // lts__t_sectors_srcunit_tex_op_read.sum (after the coalescer)
  int64_t l2_read_requests = 0;     // lts__t_requests_srcunit_tex_op_read.sum: their line requests
  int64_t l2_requested_sectors = 0; // L2 sectors the L1s' misses ask for, before the coalescer
  int64_t l2_write_sectors = 0;     // global stores that reach L2
  int64_t l2_hits = 0;              // read and write sector hits
  int64_t l2_lookups = 0;           // lts__t_sectors.sum: the tex unit's and the fabric's
  int64_t l2_fabric_sectors = 0;    // lts__t_sectors_srcunit_ltcfabric.sum (between partitions)
  int64_t dram_read_bytes = 0;      // dram__bytes_read.sum
  int64_t l1_store_sectors = 0;     // l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum (all misses)
  // The load-sector hit rate: l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct.
  double l1_hit_pct() const {
    return l1_sectors ? 100.0 * double(l1_sector_hits) / double(l1_sectors) : 0.0;
  }
  // Nsight's l1tex__t_sector_hit_rate.pct: the load hits over every L1 sector, the stores' (which
  // never hit: the L1 does not keep them) included. On the H100 it is exactly hits / (load sectors
  // + store sectors): docs/results/tight/model-fix.md.
  double l1_hit_all_pct() const {
    const int64_t all = l1_sectors + l1_store_sectors;
    return all ? 100.0 * double(l1_sector_hits) / double(all) : 0.0;
  }
  double l2_hit_pct() const { // lts__t_sector_hit_rate.pct
    return l2_lookups ? 100.0 * double(l2_hits) / double(l2_lookups) : 0.0;
  }
  // (ncu metric name, value), in the order of the issue's list.
  std::vector<std::pair<std::string, double>> named() const;
};

// The L2's reads of `m` (after the request coalescer) on device `d`, in cycles of all the SMs'
// shares: their sectors' bytes at l2_to_l1_bytes_per_cycle and their line requests at
// l2_request_cycles each. The slower of the two is the time's L2 bound
// (docs/results/tight/l2-bw.md).
struct L2ReadCycles {
  double bytes = 0, requests = 0;
};
L2ReadCycles l2_read_cycles(const GpuMetrics &m, const Device &d);

// The predicted time and the bounds it is the largest of (all in ms).
struct GpuTime {
  double predicted_ms = 0;
  double simulated_ms = 0;  // cycles of the replay (latencies, turns, one request per SM per turn)
  double l1_ms = 0;         // wavefronts / (SMs x wavefronts per cycle)
  double l2_ms = 0;         // the L2's reads: sectors and line requests (Device::l2_request_cycles)
  double dram_ms = 0;       // DRAM bytes / measured bandwidth
  double arithmetic_ms = 0; // warp instructions / (SMs x issue per cycle)
  // The replay and the issue bound in Device::stream_issue_norm's norm, where the kernel streams
  // DRAM (its DRAM bound at least Device::stream_dram_share of the replay); 0 elsewhere.
  double stream_issue_ms = 0;
  // The CTAs after the first wave over the device launcher's rate (Device::launcher_ctas_per_us;
  // 0 where the row has none): not a term of the largest (the replay waits for the launcher's
  // turns already), but where it is at least 90% of a replay-bound time the bound is named
  // "CTA launcher": the kernel's CTAs are too short for the order to matter much.
  double launcher_ms = 0;
  std::string bound; // the name of the largest term
};

struct GpuResult {
  GpuMetrics metrics;
  GpuTime time;
  int64_t ctas = 0;
  int64_t simulated_ctas = 0; // = ctas unless sampled
  int simulated_sms = 0;
  int64_t ctas_per_sm = 0; // resident at once (occupancy)
  int64_t threads = 0;
  int64_t cycles = 0;
  double seconds = 0; // wall time of the replay
  int jobs = 1;       // host threads the replay ran on (GpuConfig::jobs, or 1 where it takes one)
};

// The observer (for `cbi diagram --model gpu`): one event per sector that a warp load of the
// watched SM requests, in the order the SM issues them. Stores are not reported (they bypass L1).
enum class L1Outcome : uint8_t {
  hit,         // present and filled: lookup_hit
  pending_hit, // allocated by an earlier miss, data still on its way: ncu counts a lookup_hit
  miss,        // not present: lookup_miss, fetched from L2
};
struct GpuSectorEvent {
  int64_t cycle = 0;       // SM cycle at which the request issued
  int64_t issue = 0;       // the SM's request index: 0, 1, 2, ... (one per warp load it issues)
  int sm = 0;              // the watched SM
  int64_t cta = 0;         // CTA index in the launch (threads [cta*B, (cta+1)*B))
  int warp = 0;            // warp index within the CTA (lanes [warp*32, warp*32+32))
  int64_t instruction = 0; // j: the warp's j-th memory instruction (the workload's load(task, j))
  uint64_t sector_byte_addr = 0;
  uint64_t line_byte_addr = 0; // the 128-byte L1 line holding the sector
  L1Outcome l1 = L1Outcome::hit;
  bool l2_hit = false; // for l1 == miss: L2 had the sector (or had it on its way from DRAM)
};
struct GpuObserver {
  int sm = 0;                                            // which SM to watch (0..device.sms-1)
  std::function<void(const GpuSectorEvent &)> on_sector; // called per event; may be empty
};

// Runs the model. With an observer, its on_sector sees every load sector of observer->sm; without,
// the replay pays one pointer test per request.
GpuResult simulate_gpu(const GpuConfig &c, const Progress &progress = {},
                       const GpuObserver *observer = nullptr);

// The coalescer: the distinct sectors (byte address >> sector_shift) that one warp instruction's
// lane addresses touch, sorted ascending into `sectors` (room for `lanes`); returns their count.
// Example: 32 lanes reading consecutive floats from byte 0 touch sectors 0..3.
int coalesce_sectors(const uint64_t *byte_addrs, int lanes, int sector_shift, uint64_t *sectors);

// The wavefronts one warp load takes in the L1's data stage (what ncu counts as
// l1tex__data_pipe_lsu_wavefronts): the L1's 32 banks of 4 bytes each give one word a wavefront,
// so a load takes as many wavefronts as the most distinct 4-byte words that any one bank holds
// (lanes reading the same word share it). `lanes` lanes read `bytes` bytes each from
// byte_addrs[0..lanes). Not the number of 128-byte lines: 32 floats from byte 100 touch two lines
// in one wavefront, and a double column 16 wide on two rows four lines in two.
// kernels/probes/l1_lines on the H100 (docs/results/tight/h100-fresh.md §3): ncu's wavefronts are
// this count on all 48 patterns, and the SM's cycles a request are one a wavefront.
// Examples: 32 consecutive floats: 1; 32 consecutive doubles: 2; 32 floats 256 bytes apart: 32.
int l1_bank_wavefronts(const uint64_t *byte_addrs, int lanes, uint64_t bytes);

// What instruction j of warp `warp` (counted over the whole launch) requests: one request of
// `sectors` sectors in `lines` 128-byte lines and `wavefronts` L1 wavefronts (l1_bank_wavefronts),
// from `lanes` active lanes (a workload of your own may leave lanes out); each lane asks for every
// sector its bytes touch.
struct WarpRequest {
  int lanes = 0;
  int sectors = 0;
  int lines = 0;
  int wavefronts = 0;
};
WarpRequest warp_request(const GpuConfig &c, int64_t warp, int64_t j);

} // namespace cbi::sim
