// The registered workloads. A workload is one header in cbi/sim/workloads/ with the same static
// interface (StencilWorkload is the example): kind and name; validate, task_shape, loads_per_task,
// fp_ops_per_task, model and window_column (the analytical model),
// input_bytes, describe, arrays (diagram labels), window_name (model notes); per thread, loads()
// and load(task, j), its per-instruction program; optionally lane_loads (load for a warp's lanes
// at once, for the GPU model) and a nested Runs class, a faster
// equivalent of merging that program into cache-unit runs. Adding one: its header, its
// WorkloadKind value (workload_params.hpp), and its entry in WorkloadTypes below.
#pragma once

#include "cbi/sim/workloads/matmul.hpp"
#include "cbi/sim/workloads/stencil.hpp"
#include "cbi/sim/workloads/stencil3d.hpp"

#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace cbi::sim {

using WorkloadTypes = std::tuple<StencilWorkload, MatmulWorkload, Stencil3dWorkload>;

template <class W> struct WorkloadTag { using type = W; };

namespace detail {
template <class F, std::size_t... I> void for_each_workload(F &f, std::index_sequence<I...>) {
  (f(WorkloadTag<std::tuple_element_t<I, WorkloadTypes>>{}), ...);
}
template <std::size_t I, class F> decltype(auto) visit_workload_from(WorkloadKind kind, F &&f) {
  using W = std::tuple_element_t<I, WorkloadTypes>;
  if constexpr (I + 1 == std::tuple_size_v<WorkloadTypes>) {
    return f(WorkloadTag<W>{}); // the last type; validate() rejects unknown kinds before
  } else {
    if (kind == W::kind)
      return f(WorkloadTag<W>{});
    return visit_workload_from<I + 1>(kind, std::forward<F>(f));
  }
}
} // namespace detail

// Calls f(WorkloadTag<W>{}) with the workload type registered for `kind`.
template <class F> decltype(auto) visit_workload(WorkloadKind kind, F &&f) {
  return detail::visit_workload_from<0>(kind, std::forward<F>(f));
}

// Calls f(WorkloadTag<W>{}) for every registered W, in registration order.
template <class F> void for_each_workload(F &&f) {
  detail::for_each_workload(f, std::make_index_sequence<std::tuple_size_v<WorkloadTypes>>{});
}

// "stencil", "matmul", "stencil3d"; parse_workload_kind throws UsageError(option) on other names.
const char *to_string(WorkloadKind kind);
std::string workload_names(); // "stencil, matmul, stencil3d"
WorkloadKind parse_workload_kind(const std::string &text,
                                 const std::string &option = "workload.kind");

} // namespace cbi::sim
