// A 3-D 7-point stencil (the N-dimensional case of §4.1.2): task (x, y, z) of an I_w x I_h x P
// volume reads its centre and its six face neighbours, coordinates clamped, in ascending address
// order (z-1, y-1, x-1, centre, x+1, y+1, z+1). The volume folds into the 2-D task grid
// I_w x (I_h P) with remap's fold (the first dimension stays horizontal), so every thread order
// applies unchanged. Input row-major (x fastest, then y, then z) at byte 0. `depth` holds P.
#pragma once

#include "cbi/error.hpp"
#include "cbi/remap/fold.hpp"
#include "cbi/sim/model_types.hpp"
#include "cbi/sim/workload_params.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace cbi::sim {

class Stencil3dWorkload {
public:
  static constexpr const char *name = "stencil3d";
  // A volume I_w x I_h x P (P in `depth`); the window does not apply (7 points); Table 3.1's
  // 24 lines.
  static constexpr int size_dims = 3;
  static constexpr bool has_window = false;
  static constexpr bool has_depth = true;
  static constexpr int64_t table_lines = 24;
  // No tiles: Workload::block_order does not apply (--block-order is refused).
  static constexpr bool has_block_order = false;
  // No CUDA kernel runs it (simulated only: --workload, not --kernel); always clamped.
  static constexpr const char *kernel = nullptr;
  static constexpr bool has_boundary = false;
  // The GPU model's address instructions per load: no CUDA kernel exists for it; counted as the 2-D
  // stencil's (clamp, index, pointer), an estimate.
  static constexpr double address_ops_per_load = 6.0;

  static void validate(const Workload &w) {
    if (w.depth < 1)
      throw UsageError("workload.depth", "planes must be positive; allowed: P >= 1");
    if (w.boundary != Boundary::clamp)
      throw UsageError("workload.boundary", "stencil3d clamps its coordinates; allowed: clamp");
    detail::checked_mul(w.height, w.depth, "workload.size", "the plane count");
  }
  static remap::Shape<int64_t> task_shape(const Workload &w) {
    const int64_t dims[3] = {w.width, w.height, w.depth};
    return remap::fold(dims, 3);
  }
  static int64_t loads_per_task(const Workload &) { return 7; }
  // Floating-point instructions per task (the GPU model's arithmetic bound).
  static int64_t fp_ops_per_task(const Workload &) {
    return 7; // one add per point
  }
  static int64_t input_bytes(const Workload &w) {
    return w.width * w.height * w.depth * w.elem_bytes;
  }
  static std::string describe(const Workload &w) {
    return "stencil3d 7-point on " + std::to_string(w.width) + "x" + std::to_string(w.height) +
           "x" + std::to_string(w.depth) + " " + elem_type_name(w.elem_bytes) + ", clamp";
  }
  static std::vector<ArrayLabel> arrays(const Workload &w) {
    return {{"input", 0, w.height * w.depth, w.width}};
  }
  static constexpr const char *window_name = "z-neighbour column";

  // The thesis models 2-D stencils and matmul only; §4.1.2 folds N-d inputs but gives no fetch
  // formula for them, so this workload states that and nothing more.
  static void model(const ModelContext &ctx) {
    ctx.note("the thesis gives no fetch model for the 3-D 7-point stencil (§4.1.2 only folds it "
             "into the 2-D task grid); compare orders by simulation");
  }
  static WindowColumn window_column(const Workload &w, int64_t x) {
    return {x, w.width * w.height, std::min<int64_t>(3, w.depth)};
  }

  explicit Stencil3dWorkload(const Workload &w) : m_w(w) {}

  int64_t loads() const { return 7; }
  MemAccess load(remap::Task<int64_t> t, int64_t j) const {
    const int64_t dims[3] = {m_w.width, m_w.height, m_w.depth};
    int64_t c[3];
    remap::unfold(t, dims, 3, c);
    // j = 0..6: -z, -y, -x, centre, +x, +y, +z.
    static constexpr int kAxis[7] = {2, 1, 0, 0, 0, 1, 2};
    static constexpr int kStep[7] = {-1, -1, -1, 0, 1, 1, 1};
    c[kAxis[j]] = std::min(dims[kAxis[j]] - 1, std::max<int64_t>(0, c[kAxis[j]] + kStep[j]));
    const int64_t elem = (c[2] * m_w.height + c[1]) * m_w.width + c[0];
    return {static_cast<uint64_t>(elem * m_w.elem_bytes), m_w.elem_bytes, false};
  }

private:
  Workload m_w;
};

} // namespace cbi::sim
