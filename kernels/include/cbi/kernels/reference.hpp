// CPU references in double for the kernels' correctness checks: a plain loop for the stencil
// (listing 3), Eigen for the matmul (listing 4), and the error measure with its bound per type.
#pragma once

#include "cbi/kernels/config.hpp"

#include <cstdint>
#include <vector>

namespace cbi::kernels {

// Listing 3 in double: out(x, y) = mean of in over the S_w x S_h window centred on (x, y), with
// coordinates clamped to the array. Row-major, width x height. Runs on `threads` CPU threads.
std::vector<double> stencil_reference(const std::vector<double> &in, int64_t width, int64_t height,
                                      int stencil_w, int stencil_h, int threads = 0);

// Listing 4 in double for the given output rows only: out(x, y) = sum_i a[y*D + i] * b[i*I_w + x],
// A is height x depth, B is depth x width, row-major. Returns rows.size() x width values.
std::vector<double> matmul_reference_rows(const std::vector<double> &a,
                                          const std::vector<double> &b, int64_t width,
                                          int64_t depth, const std::vector<int64_t> &rows);

// ||out - ref||_2 / ||ref||_2; NaN or infinity anywhere in out gives +infinity.
double relative_error(const std::vector<double> &out, const std::vector<double> &ref);

// The relative-error bound a correct kernel of this type meets on uniform [-1, 1) inputs: storage
// rounding of the output dominates for half; accumulation order for float and double.
double error_bound(ElemType type, KernelKind kernel);

// IEEE binary16 conversions on the host (round to nearest even), so the CPU side needs no CUDA
// headers. Inputs are rounded to the element type before the reference sees them.
uint16_t float_to_half_bits(float f);
float half_bits_to_float(uint16_t h);

// Rounds v to the nearest value of type t (identity for double).
double round_to(ElemType t, double v);

} // namespace cbi::kernels
