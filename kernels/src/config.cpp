// Names, parsing and validation of bench configurations, and the work they count.
#include "cbi/kernels/config.hpp"

#include "cbi/error.hpp"
#include "cbi/order_text.hpp"

#include <limits>

namespace cbi::kernels {

namespace {

struct KernelName {
  KernelKind kind;
  const char *name;
};

constexpr KernelName kKernels[] = {
    {KernelKind::stencil, "stencil"},           {KernelKind::stencil_2d, "stencil-2d"},
    {KernelKind::stencil_smem, "stencil-smem"}, {KernelKind::matmul, "matmul"},
    {KernelKind::sgemm_tiled, "sgemm-tiled"},   {KernelKind::cublas, "cublas"},
};

constexpr int64_t kMaxIndex = std::numeric_limits<int32_t>::max();

} // namespace

const char *to_string(KernelKind k) {
  for (const KernelName &n : kKernels)
    if (n.kind == k)
      return n.name;
  return "?";
}

const char *to_string(ElemType t) {
  switch (t) {
  case ElemType::half:
    return "half";
  case ElemType::float64:
    return "double";
  default:
    return "float";
  }
}

const char *kernel_syntax() {
  return "stencil, stencil-2d, stencil-smem, matmul, sgemm-tiled, cublas";
}

KernelKind parse_kernel(const std::string &text, const std::string &option) {
  for (const KernelName &n : kKernels)
    if (text == n.name)
      return n.kind;
  throw UsageError(option, "unknown kernel '" + text + "'; allowed: " + kernel_syntax());
}

ElemType parse_type(const std::string &text, const std::string &option) {
  if (text == "half")
    return ElemType::half;
  if (text == "float")
    return ElemType::float32;
  if (text == "double")
    return ElemType::float64;
  throw UsageError(option, "unknown type '" + text + "'; allowed: half, float, double");
}

int elem_bytes(ElemType t) { return t == ElemType::half ? 2 : t == ElemType::float32 ? 4 : 8; }

bool is_stencil(KernelKind k) {
  return k == KernelKind::stencil || k == KernelKind::stencil_2d || k == KernelKind::stencil_smem;
}

bool is_remapped(KernelKind k) { return k == KernelKind::stencil || k == KernelKind::matmul; }

bool is_block_ordered(KernelKind k) {
  return k == KernelKind::stencil_smem || k == KernelKind::sgemm_tiled;
}

std::string BenchConfig::describe() const {
  std::string s = to_string(kernel);
  if (is_stencil(kernel))
    s += " " + std::to_string(stencil_w) + "x" + std::to_string(stencil_h);
  s += " on " + std::to_string(width) + "x" + std::to_string(height);
  if (!is_stencil(kernel))
    s += " (D=" + std::to_string(effective_depth()) + ")";
  s += std::string(" ") + to_string(type);
  if (is_remapped(kernel))
    s += ", order " + remap::to_string(order);
  if (is_remapped(kernel) && remap_math == remap::RemapMath::div)
    s += " (div math)";
  if (is_block_ordered(kernel) && block_order.kind != remap::OrderKind::linear)
    s += ", block order " + remap::to_string(block_order);
  if (kernel != KernelKind::cublas)
    s += ", block " + (kernel == KernelKind::stencil_2d
                           ? std::to_string(block_x) + "x" + std::to_string(block_threads / block_x)
                           : std::to_string(block_threads));
  return s;
}

void validate(const BenchConfig &c) {
  if (c.width < 1 || c.height < 1)
    throw UsageError("kernel.size", "both extents must be positive");
  if (c.width * c.height > kMaxIndex)
    throw UsageError("kernel.size", std::to_string(c.width) + "x" + std::to_string(c.height) +
                                        " has more tasks than 32-bit thread ids reach; allowed: "
                                        "W*H <= 2147483647");
  if (is_stencil(c.kernel)) {
    const int max_s = c.kernel == KernelKind::stencil_smem ? 65 : 255;
    for (int s : {c.stencil_w, c.stencil_h})
      if (s < 1 || s % 2 == 0 || s > max_s)
        throw UsageError("kernel.stencil",
                         std::to_string(c.stencil_w) + "x" + std::to_string(c.stencil_h) +
                             " is not allowed; allowed: odd sizes from 1 to " +
                             std::to_string(max_s) + " for " + to_string(c.kernel));
  } else {
    const int64_t d = c.effective_depth();
    if (d < 1 || d * c.width > kMaxIndex || d * c.height > kMaxIndex)
      throw UsageError("kernel.depth",
                       "D=" + std::to_string(d) +
                           " makes A or B larger than 32-bit "
                           "indexing reaches; allowed: D*I_w and D*I_h <= 2147483647");
  }
  const bool fixed_block = c.kernel == KernelKind::stencil_smem ||
                           c.kernel == KernelKind::sgemm_tiled || c.kernel == KernelKind::cublas;
  if (fixed_block && c.block_threads != 256)
    throw UsageError("kernel.block",
                     std::string(to_string(c.kernel)) +
                         " uses its own fixed block; allowed: 256 or leave --block out");
  if (!fixed_block && (c.block_threads < 1 || c.block_threads > kMaxBlockThreads))
    throw UsageError("kernel.block", std::to_string(c.block_threads) +
                                         " threads is not allowed; allowed: 1 to 1024 (" +
                                         kBlockThreadsWhy + ")");
  if (c.kernel == KernelKind::stencil_2d &&
      (c.block_x < 1 || c.block_x > c.block_threads || c.block_threads % c.block_x != 0))
    throw UsageError("kernel.block", "a 2D block of " + std::to_string(c.block_threads) +
                                         " threads cannot be " + std::to_string(c.block_x) +
                                         " wide; allowed: WxH with W*H from 1 to 1024");
  if (c.kernel == KernelKind::sgemm_tiled && c.type != ElemType::float32)
    throw UsageError("kernel.type", std::string(to_string(c.type)) +
                                        " is not offered by sgemm-tiled; allowed: float");
  if (!is_remapped(c.kernel) && c.order.kind != remap::OrderKind::linear)
    throw UsageError("kernel.order",
                     std::string(to_string(c.kernel)) +
                         " is not remapped; allowed: linear (or leave --order out)");
  if (!is_block_ordered(c.kernel) && c.block_order.kind != remap::OrderKind::linear)
    throw UsageError("kernel.block_order",
                     std::string(to_string(c.kernel)) +
                         " has no thread blocks to order; allowed: linear (or "
                         "leave --block-order out), or a kernel of "
                         "stencil-smem, sgemm-tiled");
  if (is_remapped(c.kernel) && c.remap_math == remap::RemapMath::div &&
      !remap::exact_math_fits(c.order, c.width, c.height)) // the order's own bound; fast
                                                           // Params clamp first
    throw UsageError("kernel.remap_math", "listing 5's 32-bit arithmetic overflows for order " +
                                              remap::to_string(c.order) + " on " +
                                              std::to_string(c.width) + "x" +
                                              std::to_string(c.height) +
                                              "; allowed: fast, or a parameter within the size");
  if (c.min_samples < 1 || c.max_samples < c.min_samples)
    throw UsageError("kernel.min_samples", "allowed: 1 <= min samples <= max samples");
  if (!(c.max_noise >= 0) || !(c.max_seconds > 0))
    throw UsageError("kernel.max_noise", "allowed: a noise target >= 0 and a positive time budget");
}

double min_bytes(const BenchConfig &c) {
  const double e = elem_bytes(c.type);
  const double w = double(c.width), h = double(c.height);
  if (is_stencil(c.kernel))
    return 2 * w * h * e; // one read of the input, one write of the output
  const double d = double(c.effective_depth());
  return (h * d + d * w + h * w) * e;
}

double flops(const BenchConfig &c) {
  const double tasks = double(c.width) * double(c.height);
  if (is_stencil(c.kernel))
    return tasks * c.stencil_w * c.stencil_h; // S_w*S_h - 1 adds and one scale per output
  return 2 * tasks * double(c.effective_depth());
}

} // namespace cbi::kernels
