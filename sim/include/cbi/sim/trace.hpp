// Memory traces as workloads (issue 19 §3; docs/traces.md): cbi's own trace format, which
// write_trace() produces from any workload and order, and the kernel traces of Accel-Sim's NVBit
// tracer (kernel-N.traceg). open_trace() checks the whole file in one streaming pass, then replays
// it from the file, one thread block at a time, so that memory stays bounded by the blocks in use,
// never by the trace's length.
#pragma once

#include "cbi/remap/order.hpp"
#include "cbi/sim/user_workload.hpp"
#include "cbi/sim/workload_params.hpp"

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace cbi::sim {

// What the checking pass found. Counts of warp instructions unless named otherwise.
struct TraceInfo {
  std::string path;
  std::string format; // "cbi-trace 1" or "accel-sim 4" (the tracer version read)
  std::string kernel; // the kernel's name or cbi's description of the workload
  int64_t grid[3] = {1, 1, 1};
  int64_t block[3] = {1, 1, 1};
  int elem_bytes = 4;       // cbi: the workload's element size; Accel-Sim: 4 (byte counts only)
  int64_t blocks = 0;       // thread blocks in the file
  int64_t warps = 0;        // warps in the file
  int64_t program = 0;      // the most modelled memory instructions of one warp
  int64_t instructions = 0; // every warp instruction in the file
  int64_t global_loads = 0, global_stores = 0; // modelled
  int64_t lane_accesses = 0;                   // active lanes of the modelled instructions
  int32_t widest_bytes = 0; // the most bytes one active lane of them reads or writes
  // The modelled accesses' lowest and highest byte. The replay subtracts `base`, the lowest byte
  // rounded down to 1 MiB (so alignment to any cache unit up to 1 MiB is kept): traced virtual
  // addresses (0x7f...) index the miss-ratio curve's per-line table from 0.
  uint64_t lowest_byte = ~uint64_t{0}, highest_byte = 0, base = 0;
  int64_t skipped = 0; // not memory instructions (Accel-Sim)
  // Memory instructions the simulators do not model (Accel-Sim): reported, never replayed.
  int64_t local = 0, shared = 0, atomic = 0, other = 0;
  int64_t block_threads() const { return block[0] * block[1] * block[2]; }
  int64_t grid_blocks() const { return grid[0] * grid[1] * grid[2]; }
};

// A trace as a workload: task (x, y) is thread x of thread block y (blocks by linear id
// x + y G_x + z G_x G_y, threads likewise), so the linear order with block_threads() threads per
// block replays the traced launch: sequentially thread by thread, in the GPU model warp by warp.
// Throws UsageError("--trace", "FILE:LINE: what was expected") for a missing, truncated, malformed
// or foreign file, before any result. `progress`, if given, is called as the checking pass goes
// (thread blocks checked, the grid's blocks) and may throw to stop it (cbi.read_trace's Ctrl-C).
std::shared_ptr<const UserWorkload>
open_trace(const std::string &path, const std::function<void(int64_t, int64_t)> &progress = {});
// The checking pass's findings for a workload from open_trace() (nullptr for other workloads).
const TraceInfo *trace_info(const UserWorkload &w);

// Writes cbi's trace of `w` visited in `order`, thread blocks of `block_threads` threads (warps
// of 32 lanes): every memory instruction of every warp, lanes that stride evenly as one run. The
// output store is the last instruction when w.writes. `progress`, if given, is called as it goes
// (threads written, all threads) and may throw to stop it.
void write_trace(std::ostream &out, const Workload &w, const remap::Order &order,
                 int64_t block_threads, const std::function<void(int64_t, int64_t)> &progress = {});

} // namespace cbi::sim
