// The probes' event timing: `go` (a launch) warmed `warm` times, then timed `timed` times, each
// between its own pair of CUDA events. Returns the times in ms, sorted (median: the middle one).
#pragma once

#include "check.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

// The SM clock the device reports (cudaDevAttrClockRate), in kHz: ms x this = SM cycles.
inline int sm_clock_khz() {
  int khz = 0;
  CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));
  return khz;
}

template <class Go> std::vector<float> event_times_ms(Go &&go, int warm, int timed) {
  for (int k = 0; k < warm; ++k)
    go();
  CHECK(cudaDeviceSynchronize());
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  std::vector<float> ms(static_cast<std::size_t>(timed));
  for (float &t : ms) {
    CHECK(cudaEventRecord(e0));
    go();
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    CHECK(cudaEventElapsedTime(&t, e0, e1));
  }
  CHECK(cudaEventDestroy(e0));
  CHECK(cudaEventDestroy(e1));
  std::sort(ms.begin(), ms.end());
  return ms;
}
