#include "cbi/sim/workload.hpp"

#include "cbi/error.hpp"
#include "cbi/order_text.hpp"

#include <limits>
#include <vector>

namespace cbi::sim {

namespace detail {
int64_t checked_mul(int64_t a, int64_t b, const std::string &field, const std::string &what) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max() / 4;
  if (a != 0 && b > kMax / a)
    throw UsageError(field, what + " overflows 62 bits; allowed: smaller sizes");
  return a * b;
}
} // namespace detail

const char *elem_type_name(int elem_bytes) {
  switch (elem_bytes) {
  case 2:
    return "half";
  case 8:
    return "double";
  default:
    return "float";
  }
}

const char *to_string(WorkloadKind kind) {
  return visit_workload(kind, [](auto tag) { return decltype(tag)::type::name; });
}

std::string workload_names(bool tiled) {
  std::string names;
  for_each_workload([&](auto tag) {
    using W = typename decltype(tag)::type;
    if (tiled || !W::has_block_order)
      names += (names.empty() ? "" : ", ") + std::string(W::name);
  });
  return names;
}

std::string kernel_workload_names(bool tiled) {
  std::string names;
  for_each_workload([&](auto tag) {
    using W = typename decltype(tag)::type;
    if (const char *k = W::kernel; k && (tiled || !W::has_block_order))
      names += (names.empty() ? "" : ", ") + std::string(k);
  });
  return names;
}

std::optional<WorkloadKind> workload_of_kernel(const std::string &kernel) {
  std::optional<WorkloadKind> found;
  for_each_workload([&](auto tag) {
    using W = typename decltype(tag)::type;
    const char *k = W::kernel;
    if (k && kernel == k)
      found = kind_of<W>();
  });
  return found;
}

WorkloadKind parse_workload_kind(const std::string &text, const std::string &option) {
  WorkloadKind found{};
  bool ok = false;
  for_each_workload([&](auto tag) {
    if (text == decltype(tag)::type::name) {
      found = kind_of<typename decltype(tag)::type>();
      ok = true;
    }
  });
  if (!ok)
    throw UsageError(option, "unknown workload '" + text + "'; allowed: " + workload_names());
  return found;
}

namespace {
// "sgemm-tiled and stencil-smem": the workloads whose CTAs a block order orders.
std::string tiled_workload_names() {
  std::vector<std::string> names;
  for_each_workload([&](auto tag) {
    if (decltype(tag)::type::has_block_order)
      names.push_back(decltype(tag)::type::name);
  });
  std::string s;
  for (std::size_t i = 0; i < names.size(); ++i)
    s += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return s;
}
} // namespace

void validate(const Workload &w) {
  if (w.width < 1 || w.height < 1)
    throw UsageError("workload.size", "sizes must be positive; allowed: WxH with W, H >= 1");
  if (w.elem_bytes != 2 && w.elem_bytes != 4 && w.elem_bytes != 8)
    throw UsageError("workload.elem_bytes",
                     std::to_string(w.elem_bytes) + " is not allowed; allowed: 2, 4, 8");
  if (w.kind != kUserWorkloadKind &&
      (w.kind.index < 0 || w.kind.index >= static_cast<int>(std::tuple_size_v<WorkloadTypes>)))
    throw UsageError("workload.kind", "unknown workload kind; allowed: " + workload_names());
  visit_workload(w.kind, [&](auto tag) { decltype(tag)::type::validate(w); });
  if (!workload_traits(w.kind).has_block_order && w.block_order.kind != remap::OrderKind::linear)
    throw UsageError("workload.block_order",
                     std::string(to_string(w.kind)) +
                         " has no tiles to order; allowed: a block order for " +
                         tiled_workload_names() + " only");
  const remap::Order &b = w.block_order;
  if (!remap::valid(b)) // the order's own rule (order_traits.hpp): positive sizes and the like
    throw UsageError("workload.block_order", "width and tile sizes must be positive; allowed: " +
                                                 std::string(remap::order_syntax()));
  // The access count and the highest byte address must fit comfortably in 63 bits.
  const int64_t per_task =
      visit_workload(w.kind, [&](auto tag) { return decltype(tag)::type::loads_per_task(w); });
  detail::checked_mul(visit_workload(w.kind,
                                     [&](auto tag) {
                                       const auto s = decltype(tag)::type::task_shape(w);
                                       return detail::checked_mul(
                                           s.width, s.height, "workload.size", "the task count");
                                     }),
                      per_task + 1, "workload.size", "the access count");
  detail::checked_mul(w.footprint_bytes() / w.elem_bytes + 1, w.elem_bytes, "workload.size",
                      "the address range");
}

int64_t Workload::tasks() const {
  const remap::Shape<int64_t> s =
      visit_workload(kind, [&](auto tag) { return decltype(tag)::type::task_shape(*this); });
  return s.width * s.height;
}

int64_t Workload::accesses() const {
  const int64_t per_task =
      visit_workload(kind, [&](auto tag) { return decltype(tag)::type::loads_per_task(*this); });
  return tasks() * (per_task + (writes ? 1 : 0));
}

int64_t Workload::output_base_bytes() const {
  return visit_workload(kind, [&](auto tag) { return decltype(tag)::type::input_bytes(*this); });
}

int64_t Workload::footprint_bytes() const {
  return output_base_bytes() + (writes ? tasks() * elem_bytes : 0);
}

std::vector<ArrayLabel> Workload::arrays() const {
  std::vector<ArrayLabel> labels =
      visit_workload(kind, [&](auto tag) { return decltype(tag)::type::arrays(*this); });
  if (writes) // the stores: one element per task, task-linear from output_base_bytes()
    labels.push_back({"output", output_base_bytes(), (tasks() + width - 1) / width, width});
  return labels;
}

std::string Workload::describe() const {
  return visit_workload(kind, [&](auto tag) { return decltype(tag)::type::describe(*this); });
}

} // namespace cbi::sim
