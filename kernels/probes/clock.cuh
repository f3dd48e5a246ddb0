// The probes' readings of where and when a warp runs: the SM it is on (%smid) and the device-wide
// nanosecond timer (%globaltimer, comparable across SMs).
#pragma once

__device__ inline unsigned smid() {
  unsigned r;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
  return r;
}

__device__ inline unsigned long long globaltimer() {
  unsigned long long r;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(r));
  return r;
}
