// A hint to the host CPU: fetch the cache line at `p` into its caches, without waiting for it.
// Written as an asm statement rather than __builtin_prefetch, which GCC 12 deleted from the
// replay's prefetch loops as code without effect (docs/results/gpu-model-speed.md, 2026-11-26
// 21:30): the result stays the same either way, only the time changes.
#pragma once

namespace cbi::sim::gpu {

inline void host_prefetch(const void *p) {
#if defined(__x86_64__) || defined(__i386__)
  asm volatile("prefetcht0 %0" : : "m"(*static_cast<const char *>(p)));
#else
  __builtin_prefetch(p);
#endif
}

} // namespace cbi::sim::gpu
