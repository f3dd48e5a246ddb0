// Device-side element types: half, float and double are stored as given and summed in an
// accumulator type (float for half, so that a 9x9 window or a D-long dot product keeps float
// precision; the type itself otherwise).
#pragma once

#include "cbi/kernels/config.hpp"

#include <cuda_fp16.h>

namespace cbi::kernels::detail {

template <class T> struct Accumulator { using type = T; };
template <> struct Accumulator<__half> { using type = float; };
template <class T> using acc_t = typename Accumulator<T>::type;

__device__ __forceinline__ float to_acc(__half v) { return __half2float(v); }
__device__ __forceinline__ float to_acc(float v) { return v; }
__device__ __forceinline__ double to_acc(double v) { return v; }

template <class T> __device__ __forceinline__ T from_acc(acc_t<T> v) { return T(v); }
template <> __device__ __forceinline__ __half from_acc<__half>(float v) {
  return __float2half_rn(v);
}

template <class T> constexpr const char *type_name();
template <> constexpr const char *type_name<__half>() { return "half"; }
template <> constexpr const char *type_name<float>() { return "float"; }
template <> constexpr const char *type_name<double>() { return "double"; }

// Calls f(T{}) with the storage type of `t`.
template <class F> decltype(auto) visit_type(ElemType t, F &&f) {
  switch (t) {
  case ElemType::half:
    return f(__half{});
  case ElemType::float64:
    return f(double{});
  default:
    return f(float{});
  }
}

} // namespace cbi::kernels::detail
