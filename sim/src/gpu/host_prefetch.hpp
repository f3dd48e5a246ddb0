// A hint to the host CPU: fetch the cache line at `p` into its caches, without waiting for it.
// Written as an asm statement rather than __builtin_prefetch: GCC 12.2 at -O3 left the replay's
// __builtin_prefetch loops out of the binary (docs/results/gpu-model-speed.md, "the prefetches
// that were not there"). The result stays the same either way, only the time changes.
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
