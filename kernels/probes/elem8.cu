// 8-byte element probe (issue 20 §1): how does Nsight count a warp load of 32 doubles, which spans
// two 128-byte lines (8 sectors)? One request or two, 8 sectors, and when one of the two lines is
// already in L1, are its 4 sectors hits while the other line's 4 miss?
//
// One warp, one launch per case (ncu, cache control all: cold caches; print order = launch order):
//   0 float-then-double: 32 floats (line 0), then 32 doubles (lines 0 and 1):
//       expected requests 2, sectors 4 + 8, lookup_hit 4, lookup_miss 8;
//   1 double-twice: 32 doubles, then the same 32 doubles again (after the first arrived):
//       requests 2, sectors 16, hits 8, misses 8;
//   2 double-stride2: lane l reads double 2l (512 bytes, 4 lines, 16 sectors): requests 1;
//   3 double-broadcast: every lane reads double 0: 1 request, 1 sector.
// Usage: elem8 > elem8.txt
#include "check.cuh"

#include <cuda_runtime.h>

#include <cstdio>

__global__ void probe_elem8(const void *__restrict__ buf, int mode, double *sink) {
  const int lane = threadIdx.x;
  const float *f = static_cast<const float *>(buf);
  const double *d = static_cast<const double *>(buf);
  double s = 0;
  switch (mode) {
  case 0:
    s = f[lane];
    s += d[lane + static_cast<int>(s)]; // s is 0: the address waits for the first load
    break;
  case 1:
    s = d[lane];
    s += d[lane + static_cast<int>(s)]; // s is 0: the same address, issued after the first
    break;
  case 2:
    s = d[2 * lane];
    break;
  default:
    s = d[0];
    break;
  }
  if (s == 12345.0)
    *sink = s;
}

int main() {
  void *buf;
  double *sink;
  CHECK(cudaMalloc(&buf, 4096));
  CHECK(cudaMemset(buf, 0, 4096));
  CHECK(cudaMalloc(&sink, sizeof(double)));
  const char *names[] = {"float-then-double", "double-twice", "double-stride2", "double-broadcast"};
  std::printf("launch,case\n");
  for (int mode = 0; mode < 4; ++mode) {
    probe_elem8<<<1, 32>>>(buf, mode, sink);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::printf("%d,%s\n", mode, names[mode]);
  }
  return 0;
}
