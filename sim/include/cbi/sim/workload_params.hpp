// What a workload is, as data: the kind and the sizes of its task grid and arrays, plus the access
// record that every workload's per-instruction program yields. The workloads themselves (one header
// each) live in cbi/sim/workloads/; cbi/sim/workloads.hpp registers them.
#pragma once

#include "cbi/remap/dispatch.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cbi::sim {

// A registered workload type, as its position in WorkloadTypes (cbi/sim/workloads.hpp): its name
// and properties follow from the registration, so a new workload adds no value here. kind_of<W>()
// gives a type's kind; the default, index 0, is the first registered (stencil).
struct WorkloadKind {
  int index = 0;
  friend constexpr bool operator==(WorkloadKind a, WorkloadKind b) { return a.index == b.index; }
  friend constexpr bool operator!=(WorkloadKind a, WorkloadKind b) { return a.index != b.index; }
};
// The kind of a workload of your own (cbi/sim/user_workload.hpp): not in WorkloadTypes, so never a
// --workload value; Workload::user holds it.
inline constexpr WorkloadKind kUserWorkloadKind{-1};
class UserWorkload;
enum class Boundary { clamp, none };
enum class Granularity { exact, thread };

struct ArrayLabel;

struct Workload {
  WorkloadKind kind;                   // stencil (the first registered)
  int64_t width = 16;                  // I_w: tasks (output elements) per row
  int64_t height = 16;                 // I_h: rows of tasks (stencil3d: rows of one plane)
  int64_t stencil_w = 7;               // S_w (stencil only, odd)
  int64_t stencil_h = 7;               // S_h (stencil only, odd)
  int64_t depth = 16;                  // D (matmul: A is I_h x D, B is D x I_w); stencil3d: planes
  int elem_bytes = 4;                  // 2, 4 or 8: half, float, double
  Boundary boundary = Boundary::clamp; // stencils only
  bool writes = false;                 // also emit each task's output store
  // Tiled kernels (sgemm-tiled, stencil-smem): CTA k computes the tile block_order.map(k) of the
  // grid of tiles, as `cbi bench --block-order` launches them; linear for the other workloads.
  remap::Order block_order;
  // kind == kUserWorkloadKind: the workload of your own (make_workload); sizes above unused.
  std::shared_ptr<const UserWorkload> user;

  int64_t tasks() const; // threads: the task grid's I_w x I_h after folding (§4.1.2)
  // Loads (and stores, if writes) of the whole trace in exact granularity.
  int64_t accesses() const;
  // Bytes spanned by the inputs (and output if writes), from address 0.
  int64_t footprint_bytes() const;
  // Byte address where the output array starts (after all inputs).
  int64_t output_base_bytes() const;
  std::string describe() const; // "stencil 9x9 on 1024x1024 float, clamp"
  // The named arrays of its address space (diagram labels): the workload's own (its arrays()),
  // then the output, one row of I_w elements per row of tasks, if writes.
  std::vector<ArrayLabel> arrays() const;
};

// One memory instruction of one thread: its byte address and width.
struct MemAccess {
  uint64_t byte_addr = 0;
  int32_t bytes = 0;
  bool is_store = false;
};

// A named array of the workload's address space, for diagram labels: `rows` rows of `row_elems`
// elements, row `first_row` column 0 at byte `first_byte`. The rows are numbered from `first_row`
// and the columns from `first_col` (negative for the unclamped stencil's halo, whose element 0 is
// row -S_h/2, column -S_w/2).
struct ArrayLabel {
  std::string name;
  int64_t first_byte = 0;
  int64_t rows = 0;
  int64_t row_elems = 0;
  int64_t first_row = 0;
  int64_t first_col = 0;
};

// Throws UsageError naming the wrong field (workload.size, .stencil, .depth, .elem_bytes; the CLI
// maps fields to its options) for sizes that are zero, even stencils, a trace whose access count or
// addresses would overflow 63 bits, and element sizes other than 2, 4, 8.
void validate(const Workload &w);

const char *elem_type_name(int elem_bytes); // "half", "float", "double"

namespace detail {
// a * b, or UsageError(field, what overflows) when it would leave 62 bits.
int64_t checked_mul(int64_t a, int64_t b, const std::string &field, const std::string &what);
} // namespace detail

} // namespace cbi::sim
