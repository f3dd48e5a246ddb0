// The registered workloads. A workload is one header in cbi/sim/workloads/ with the same static
// interface (StencilWorkload is the example): name; size_dims, has_window, has_depth and
// table_lines, has_block_order, kernel, has_boundary (what the options, the kernels and the
// thesis's cache apply: WorkloadTraits); validate,
// task_shape, loads_per_task, fp_ops_per_task, address_ops_per_load (the GPU model), model and
// window_column (the analytical model), input_bytes, describe, arrays (diagram labels), window_name
// (model notes); per thread, loads() and load(task, j), its per-instruction program; optionally
// lane_loads (load for a warp's lanes at once, for the GPU model), a nested Runs class (a faster
// equivalent of merging that program into cache-unit runs) and validated_time_error (the GPU
// model's measured error for it, cbi tune's tie groups). Adding one: its header and its entry in
// WorkloadTypes below; its WorkloadKind, name, --workload value and help follow from the entry.
#pragma once

#include "cbi/sim/workloads/matmul.hpp"
#include "cbi/sim/workloads/sgemm_tiled.hpp"
#include "cbi/sim/workloads/stencil.hpp"
#include "cbi/sim/workloads/stencil3d.hpp"
#include "cbi/sim/workloads/stencil_smem.hpp"
#include "cbi/sim/workloads/user.hpp"

#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace cbi::sim {

using WorkloadTypes = std::tuple<StencilWorkload, MatmulWorkload, Stencil3dWorkload,
                                 SgemmTiledWorkload, StencilSmemWorkload>;

template <class W> struct WorkloadTag { using type = W; };

namespace detail {
template <class W, class... Ts> constexpr int index_in(std::tuple<Ts...> *) {
  int i = 0, found = -1;
  ((std::is_same_v<W, Ts> ? (found = i, ++i) : ++i), ...);
  return found;
}
} // namespace detail

// The kind of a registered workload type: its position in WorkloadTypes.
// Example: kind_of<MatmulWorkload>() == WorkloadKind{1}.
template <class W> constexpr WorkloadKind kind_of() {
  constexpr int i = detail::index_in<W>(static_cast<WorkloadTypes *>(nullptr));
  static_assert(i >= 0, "not a registered workload: add it to WorkloadTypes");
  return WorkloadKind{i};
}

namespace detail {
template <class F, std::size_t... I> void for_each_workload(F &f, std::index_sequence<I...>) {
  (f(WorkloadTag<std::tuple_element_t<I, WorkloadTypes>>{}), ...);
}
template <std::size_t I, class F> decltype(auto) visit_workload_from(WorkloadKind kind, F &&f) {
  using W = std::tuple_element_t<I, WorkloadTypes>;
  if constexpr (I + 1 == std::tuple_size_v<WorkloadTypes>) {
    return f(WorkloadTag<W>{}); // the last type; validate() rejects unknown kinds before
  } else {
    if (kind.index == static_cast<int>(I))
      return f(WorkloadTag<W>{});
    return visit_workload_from<I + 1>(kind, std::forward<F>(f));
  }
}
} // namespace detail

// Calls f(WorkloadTag<W>{}) with the workload type registered for `kind`; kUserWorkloadKind gives
// UserWorkloadAdapter (a workload of your own, cbi/sim/user_workload.hpp).
template <class F> decltype(auto) visit_workload(WorkloadKind kind, F &&f) {
  if (kind == kUserWorkloadKind)
    return f(WorkloadTag<UserWorkloadAdapter>{});
  return detail::visit_workload_from<0>(kind, std::forward<F>(f));
}

// Calls f(WorkloadTag<W>{}) for every registered W, in registration order (the built-ins only).
template <class F> void for_each_workload(F &&f) {
  detail::for_each_workload(f, std::make_index_sequence<std::tuple_size_v<WorkloadTypes>>{});
}

// What the command-line options and the thesis's cache need to know of a workload, read from its
// type's static interface.
struct WorkloadTraits {
  const char *name;
  int size_dims;   // --size extents: 2 (a task grid; N-d sizes fold) or 3 (a volume, P in depth)
  bool has_window; // the stencil window S_w x S_h applies
  bool has_depth;  // `depth` applies (matmul's D, stencil3d's planes)
  int64_t table_lines;  // Tables 3.1/3.2: the thesis's cache capacity in lines
  bool has_block_order; // tiled kernels: Workload::block_order orders the CTAs over the tiles
  const char *kernel;   // the CUDA kernel that runs it (--kernel, kernels/), or nullptr: none
  bool has_boundary;    // Boundary::none applies (--boundary none)
};
inline WorkloadTraits workload_traits(WorkloadKind kind) {
  return visit_workload(kind, [](auto tag) {
    using W = typename decltype(tag)::type;
    return WorkloadTraits{W::name,        W::size_dims,       W::has_window, W::has_depth,
                          W::table_lines, W::has_block_order, W::kernel,     W::has_boundary};
  });
}

// "stencil", "matmul", "stencil3d", "sgemm-tiled", "stencil-smem"; parse_workload_kind throws
// UsageError(option) on other names.
const char *to_string(WorkloadKind kind);
// "stencil, matmul, stencil3d, sgemm-tiled, stencil-smem"; without `tiled`, the tiled kernels
// (has_block_order) left out.
std::string workload_names(bool tiled = true);
// The workloads that a CUDA kernel runs (WorkloadTraits::kernel): "stencil, matmul, sgemm-tiled,
// stencil-smem", and the one a kernel of that name runs (none for a kernel the simulator does not
// model: stencil-2d, cublas).
std::string kernel_workload_names(bool tiled = true);
std::optional<WorkloadKind> workload_of_kernel(const std::string &kernel);
WorkloadKind parse_workload_kind(const std::string &text,
                                 const std::string &option = "workload.kind");

} // namespace cbi::sim
