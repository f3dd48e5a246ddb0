// CPU references in double and the error measure used by every correctness check.
#include "cbi/kernels/reference.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <thread>

namespace cbi::kernels {

namespace {

// Runs body(first_row, last_row) over [0, rows) on up to `threads` threads.
template <class F> void parallel_rows(int64_t rows, int threads, F body) {
  if (threads <= 0)
    threads = int(std::max(1u, std::thread::hardware_concurrency()));
  threads = int(std::min<int64_t>(threads, std::max<int64_t>(1, rows / 16)));
  if (threads <= 1) {
    body(int64_t{0}, rows);
    return;
  }
  std::vector<std::thread> pool;
  const int64_t chunk = (rows + threads - 1) / threads;
  for (int t = 0; t < threads; ++t) {
    const int64_t first = t * chunk, last = std::min(rows, first + chunk);
    if (first < last)
      pool.emplace_back(body, first, last);
  }
  for (std::thread &th : pool)
    th.join();
}

int64_t clamp(int64_t v, int64_t hi) { return std::min(hi, std::max<int64_t>(0, v)); }

} // namespace

std::vector<double> stencil_reference(const std::vector<double> &in, int64_t width, int64_t height,
                                      int stencil_w, int stencil_h, int threads) {
  const int64_t rx = stencil_w / 2, ry = stencil_h / 2;
  // The box sum separates: first each row's S_w window, then S_h of those. Clamping commutes
  // with the split because listing 3 clamps x and y independently.
  std::vector<double> rows(in.size()), out(in.size());
  parallel_rows(height, threads, [&](int64_t y0, int64_t y1) {
    for (int64_t y = y0; y < y1; ++y)
      for (int64_t x = 0; x < width; ++x) {
        double s = 0;
        for (int64_t dx = -rx; dx <= rx; ++dx)
          s += in[y * width + clamp(x + dx, width - 1)];
        rows[y * width + x] = s;
      }
  });
  const double scale = 1.0 / (double(stencil_w) * double(stencil_h));
  parallel_rows(height, threads, [&](int64_t y0, int64_t y1) {
    for (int64_t y = y0; y < y1; ++y)
      for (int64_t x = 0; x < width; ++x) {
        double s = 0;
        for (int64_t dy = -ry; dy <= ry; ++dy)
          s += rows[clamp(y + dy, height - 1) * width + x];
        out[y * width + x] = s * scale;
      }
  });
  return out;
}

std::vector<double> matmul_reference_rows(const std::vector<double> &a,
                                          const std::vector<double> &b, int64_t width,
                                          int64_t depth, const std::vector<int64_t> &rows) {
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  RowMajor a_rows(Eigen::Index(rows.size()), Eigen::Index(depth));
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (int64_t i = 0; i < depth; ++i)
      a_rows(Eigen::Index(r), Eigen::Index(i)) = a[rows[r] * depth + i];
  const Eigen::Map<const RowMajor> b_map(b.data(), Eigen::Index(depth), Eigen::Index(width));
  std::vector<double> out(rows.size() * std::size_t(width));
  Eigen::Map<RowMajor> out_map(out.data(), Eigen::Index(rows.size()), Eigen::Index(width));
  out_map.noalias() = a_rows * b_map;
  return out;
}

double relative_error(const std::vector<double> &out, const std::vector<double> &ref) {
  if (out.size() != ref.size())
    return std::numeric_limits<double>::infinity();
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (!std::isfinite(out[i]))
      return std::numeric_limits<double>::infinity();
    diff += (out[i] - ref[i]) * (out[i] - ref[i]);
    norm += ref[i] * ref[i];
  }
  if (norm == 0)
    return diff == 0 ? 0 : std::numeric_limits<double>::infinity();
  return std::sqrt(diff / norm);
}

double error_bound(ElemType type, KernelKind kernel) {
  switch (type) {
  case ElemType::half:
    return 2e-3; // storing the output in half rounds by up to 2^-11 relative
  case ElemType::float64:
    return 1e-12;
  default:
    return is_stencil(kernel) ? 1e-5 : 1e-4; // matmul sums D products: error grows with D
  }
}

uint16_t float_to_half_bits(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const uint32_t abs = x & 0x7fffffffu;
  if (abs >= 0x7f800000u) // inf or NaN
    return uint16_t(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0u));
  if (abs >= 0x477ff000u) // rounds to >= 65520: overflow to infinity
    return uint16_t(sign | 0x7c00u);
  if (abs < 0x38800000u) { // below the smallest normal half 2^-14: subnormal or zero
    if (abs < 0x33000000u) // below half of the smallest subnormal 2^-25 rounds to zero
      return uint16_t(sign);
    const uint32_t mant = (abs & 0x7fffffu) | 0x800000u;
    const int shift = 126 - int(abs >> 23); // 14..24: value = mant * 2^(e-150), unit 2^-24
    const uint32_t q = mant >> shift, rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
    return uint16_t(sign | (q + (rem > half || (rem == half && (q & 1)))));
  }
  const uint32_t biased = abs - 0x38000000u; // rebias exponent 127 -> 15 (shifted by 13)
  const uint32_t q = biased >> 13, rem = biased & 0x1fffu;
  return uint16_t(sign | (q + (rem > 0x1000u || (rem == 0x1000u && (q & 1)))));
}

float half_bits_to_float(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
  float value;
  if (exp == 0)
    value = std::ldexp(float(mant), -24);
  else if (exp == 31)
    value = mant ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
  else
    value = std::ldexp(float(mant | 0x400u), int(exp) - 25);
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  bits |= sign;
  std::memcpy(&value, &bits, 4);
  return value;
}

double round_to(ElemType t, double v) {
  switch (t) {
  case ElemType::half:
    return half_bits_to_float(float_to_half_bits(float(v)));
  case ElemType::float32:
    return double(float(v));
  default:
    return v;
  }
}

} // namespace cbi::kernels
