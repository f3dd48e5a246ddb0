// CBI_HD marks index math that must run on both the host and the device: __host__ __device__ under
// nvcc, nothing under a plain C++ compiler.
#pragma once

#if defined(__CUDACC__)
#define CBI_HD __host__ __device__ __forceinline__
#else
#define CBI_HD inline
#endif
