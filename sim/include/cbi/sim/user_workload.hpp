// A workload of your own, without editing cbi (issue 19 §2): the launch geometry and, per task, its
// ordered memory instructions (byte address, bytes, load or store). It is the description that the
// built-in workloads give, so every engine takes it: sim::simulate (sequential), sim::simulate_gpu
// (--model gpu), sim::mrc, the diagrams. Wrap it with make_workload() and use the Workload as any
// other (SimConfig::workload, GpuConfig::workload).
//
// The interface is a batch: the engines ask for instruction j of up to 64 tasks at once (a warp's
// lanes, or a run of consecutive threads of the visiting order), so a workload pays one virtual
// call per batch, never one per access. Example, a 5-point Jacobi on an N x N float grid:
//
//   struct Jacobi : cbi::sim::UserWorkload {
//     int64_t n;
//     std::string describe() const override { return "jacobi " + std::to_string(n); }
//     std::vector<int64_t> task_dims() const override { return {n, n}; }
//     int64_t instructions() const override { return 6; } // 5 loads, then the store
//     cbi::sim::InstructionKind addresses(const cbi::remap::Task<int64_t> *t, int lanes,
//                                         int64_t j, uint64_t *byte_addr) const override {
//       static const int dx[] = {0, -1, 1, 0, 0}, dy[] = {-1, 0, 0, 1, 0};
//       for (int l = 0; l < lanes; ++l) { ... }
//       return {j == 5, 4}; // {is_store, bytes per lane}
//     }
//   };
//   cbi::sim::SimConfig c;
//   c.workload = cbi::sim::make_workload(std::make_shared<Jacobi>(...));
#pragma once

#include "cbi/remap/fold.hpp"
#include "cbi/remap/shape.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace cbi::sim {

// A lane that does not run an instruction: predicated off, an inactive lane of a traced warp, or a
// task with fewer instructions than instructions().
inline constexpr uint64_t kNoAccess = ~uint64_t{0};

// What one memory instruction does, the same for every lane of one call.
struct InstructionKind {
  bool is_store = false;
  int32_t bytes = 4; // bytes each lane reads or writes (1..128)
};

// `count` accesses of `bytes` each at byte_addr, byte_addr + stride_bytes, ... (stride 0: the same
// address again), all loads or all stores: a task's instructions in a few spans (spans()).
struct AccessSpan {
  uint64_t byte_addr = 0;
  int64_t stride_bytes = 0;
  int64_t count = 1;
  int32_t bytes = 4;
  bool is_store = false;
};

class UserWorkload {
public:
  virtual ~UserWorkload() = default;

  // One line for titles and tables: "transpose 1024x1024 float".
  virtual std::string describe() const = 0;
  // The tasks: {W, H} for a 2-D grid, or N extents ([0] fastest), folded as thesis §4.1.2 does
  // (I_w = dims[0], I_h = the product of the rest) so that every thread order applies.
  virtual std::vector<int64_t> task_dims() const = 0;
  // Memory instructions per task: every task runs instructions 0..instructions()-1 in this order.
  virtual int64_t instructions() const = 0;
  // The batch: instruction j of the `lanes` tasks tasks[0..lanes-1] (1..64 of them), writing
  // byte_addr[l] for tasks[l] (kNoAccess where task l does not run it), and returning what the
  // instruction does. The engines call it from one thread at a time per object, in any order of j
  // and tasks; the tasks of one call are lanes of one warp when block_threads() is set.
  virtual InstructionKind addresses(const remap::Task<int64_t> *tasks, int lanes, int64_t j,
                                    uint64_t *byte_addr) const = 0;

  // Optional, the sequential engines' fast path. Task t's instructions, in program order, as at
  // most max_spans() spans (see AccessSpan) written to out; returns how many. The spans must give
  // the same accesses as addresses() for j = 0..instructions()-1 (inactive lanes left out). With
  // max_spans() == 0 (the default) the engines use addresses() alone.
  virtual int64_t max_spans() const { return 0; }
  virtual int spans(remap::Task<int64_t> t, AccessSpan *out) const {
    (void)t;
    (void)out;
    return 0;
  }

  // Optional. Bytes of the address space from 0 that the workload touches (diagram labels; 0:
  // not known).
  virtual int64_t footprint_bytes() const { return 0; }
  // Optional. Threads per block the workload was recorded with (a trace's launch); 0: any block.
  virtual int64_t block_threads() const { return 0; }
  // Optional. The most bytes one lane of an instruction reads or writes (1..128): cbi mrc's
  // memory bound counts the lines one access may touch from it (128, the most, when not known).
  virtual int32_t widest_access_bytes() const { return 128; }
  // Optional. Lines for the command's notes (a trace's skipped and not-modelled instructions).
  virtual std::vector<std::string> notes() const { return {}; }

  // The folded task grid (§4.1.2).
  remap::Shape<int64_t> task_shape() const {
    const std::vector<int64_t> d = task_dims();
    return remap::fold(d.data(), static_cast<int>(d.size()));
  }
};

} // namespace cbi::sim
