#include "cbi/sim/workload.hpp"

#include "cbi/error.hpp"

#include <limits>

namespace cbi::sim {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max() / 4;

int64_t checked_mul(int64_t a, int64_t b, const std::string &option, const std::string &what) {
  if (a != 0 && b > kMax / a)
    throw UsageError(option, what + " overflows 62 bits; allowed: smaller sizes");
  return a * b;
}

} // namespace

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

void validate(const Workload &w) {
  if (w.width < 1 || w.height < 1)
    throw UsageError("--size", "sizes must be positive; allowed: WxH with W, H >= 1");
  if (w.elem_bytes != 2 && w.elem_bytes != 4 && w.elem_bytes != 8)
    throw UsageError("--elem-bytes", std::to_string(w.elem_bytes) + " is not allowed; allowed: 2, 4, 8");
  if (w.kind == WorkloadKind::stencil) {
    if (w.stencil_w < 1 || w.stencil_h < 1 || w.stencil_w % 2 == 0 || w.stencil_h % 2 == 0)
      throw UsageError("--stencil", std::to_string(w.stencil_w) + "x" + std::to_string(w.stencil_h) +
                                        " is not allowed; allowed: odd sizes such as 3x3, 7x7, 9x9");
  } else if (w.depth < 1) {
    throw UsageError("--depth", "depth must be positive; allowed: D >= 1");
  }
  // The access count and the highest byte address must fit comfortably in 63 bits.
  const int64_t tasks = checked_mul(w.width, w.height, "--size", "the task count");
  const int64_t per_task = w.kind == WorkloadKind::stencil
                               ? checked_mul(w.stencil_w, w.stencil_h, "--stencil", "the stencil")
                               : checked_mul(2, w.depth, "--depth", "the access count");
  checked_mul(tasks, per_task + 1, "--size", "the access count");
  checked_mul(w.footprint_bytes() / w.elem_bytes + 1, w.elem_bytes, "--size", "the address range");
}

int64_t Workload::accesses() const {
  const int64_t per_task =
      kind == WorkloadKind::stencil ? stencil_w * stencil_h : 2 * depth;
  return tasks() * (per_task + (writes ? 1 : 0));
}

int64_t Workload::output_base_bytes() const {
  if (kind == WorkloadKind::matmul)
    return (height * depth + depth * width) * elem_bytes;
  if (boundary == Boundary::none) // shifted input spans (I_h + S_h - 1) rows plus S_w - 1
    return ((height + stencil_h - 1) * width + stencil_w - 1) * elem_bytes;
  return width * height * elem_bytes;
}

int64_t Workload::footprint_bytes() const {
  return output_base_bytes() + (writes ? width * height * elem_bytes : 0);
}

std::string Workload::describe() const {
  std::string s = kind == WorkloadKind::stencil
                      ? "stencil " + std::to_string(stencil_w) + "x" + std::to_string(stencil_h)
                      : "matmul depth " + std::to_string(depth);
  s += " on " + std::to_string(width) + "x" + std::to_string(height) + " " + elem_type_name(elem_bytes);
  if (kind == WorkloadKind::stencil)
    s += boundary == Boundary::clamp ? ", clamp" : ", no boundary";
  return s;
}

AccessGenerator::AccessGenerator(const Workload &w, int64_t unit_bytes, Granularity g)
    : m_w(w), m_granularity(g), m_elems_per_unit(unit_bytes / w.elem_bytes),
      m_b_base_elems(w.height * w.depth), m_output_base_elems(w.output_base_bytes() / w.elem_bytes) {
  const int64_t epu = m_elems_per_unit;
  m_unit_shift = epu > 0 && (epu & (epu - 1)) == 0 ? __builtin_ctzll(static_cast<uint64_t>(epu)) : -1;
  m_row_units = w.kind == WorkloadKind::stencil && epu > 0 && w.width % epu == 0
                    ? static_cast<uint64_t>(w.width / epu)
                    : 0;
  // A row touches at most S_w units, plus one run per clamped end.
  m_pattern_unit.resize(static_cast<std::size_t>(w.stencil_w) + 2);
  m_pattern_count.resize(m_pattern_unit.size());
}

} // namespace cbi::sim
