// L1 calibration probe (issue 10 §1): one thread chases pointers through a buffer of growing
// footprint and reports the mean cycles per load. Loads use the default global-load path
// (ld.global, cached in L1 on sm_90), in a kernel without shared memory, as the cbi kernels are.
// Where the latency jumps from the L1 to the L2 level is the L1 capacity that such a kernel sees; a
// second sweep of k lines spaced `stride` bytes apart shows the associativity if the set index is
// plain.
//
// Usage: l1_chase [--carveout PCT] > chase.csv   (PCT:
// cudaFuncAttributePreferredSharedMemoryCarveout;
//        omitted = the driver's default for a kernel with no shared memory)
#include "check.cuh"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

// next[] holds byte offsets to the next element (as 32-bit indices in 4-byte words). The first
// pass warms the cache; the second is timed with clock64.
__global__ void chase(const unsigned *__restrict__ next, int loads, long long *cycles,
                      unsigned *sink) {
  unsigned p = 0;
  for (int k = 0; k < loads; ++k)
    p = next[p];
  const long long start = clock64();
  for (int k = 0; k < loads; ++k)
    p = next[p];
  const long long stop = clock64();
  *cycles = stop - start;
  *sink = p;
}

// One chain visiting `count` elements spaced `stride_bytes` apart, cyclically, in address order.
static double cycles_per_load(unsigned *dev, std::size_t words, std::size_t count,
                              std::size_t stride_bytes, int rounds, long long *d_cycles,
                              unsigned *d_sink) {
  const std::size_t stride_words = stride_bytes / 4;
  std::vector<unsigned> host(words, 0);
  for (std::size_t k = 0; k < count; ++k)
    host[k * stride_words] = static_cast<unsigned>(((k + 1) % count) * stride_words);
  CHECK(cudaMemcpy(dev, host.data(), words * 4, cudaMemcpyHostToDevice));
  const int loads = static_cast<int>(count) * rounds;
  chase<<<1, 1>>>(dev, loads, d_cycles, d_sink);
  CHECK(cudaGetLastError());
  long long cycles = 0;
  CHECK(cudaMemcpy(&cycles, d_cycles, sizeof cycles, cudaMemcpyDeviceToHost));
  return double(cycles) / loads;
}

int main(int argc, char **argv) {
  int carveout = -1;
  for (int a = 1; a < argc; ++a)
    if (!std::strcmp(argv[a], "--carveout") && a + 1 < argc)
      carveout = std::atoi(argv[++a]);
  if (carveout >= 0)
    CHECK(cudaFuncSetAttribute(chase, cudaFuncAttributePreferredSharedMemoryCarveout, carveout));
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("# device,%s,sms,%d,l2_bytes,%d,shared_per_sm,%zu,carveout,%d\n", prop.name,
              prop.multiProcessorCount, prop.l2CacheSize, prop.sharedMemPerMultiprocessor,
              carveout);
  const std::size_t max_bytes = 64u << 20;
  unsigned *dev = nullptr, *d_sink = nullptr;
  long long *d_cycles = nullptr;
  CHECK(cudaMalloc(&dev, max_bytes));
  CHECK(cudaMalloc(&d_cycles, sizeof(long long)));
  CHECK(cudaMalloc(&d_sink, sizeof(unsigned)));
  std::printf("sweep,footprint_bytes,stride_bytes,lines,cycles_per_load\n");
  // Capacity: 128-byte stride (one load per line), footprints 8 KiB .. 320 KiB in 4 KiB steps,
  // and a few L2-sized points.
  for (std::size_t kib = 8; kib <= 320; kib += 4) {
    const std::size_t bytes = kib << 10, count = bytes / 128;
    const double c = cycles_per_load(dev, bytes / 4, count, 128, 8, d_cycles, d_sink);
    std::printf("capacity,%zu,128,%zu,%.2f\n", bytes, count, c);
  }
  // Sector granularity: 32-byte stride over 64 KiB and 512 KiB.
  for (std::size_t kib : {64, 512}) {
    const std::size_t bytes = kib << 10, count = bytes / 32;
    std::printf("sector,%zu,32,%zu,%.2f\n", bytes, count,
                cycles_per_load(dev, bytes / 4, count, 32, 4, d_cycles, d_sink));
  }
  // Associativity: k lines spaced `stride` apart (k up to 64).
  for (std::size_t stride : {2048, 4096, 8192, 16384, 32768, 65536, 131072}) {
    for (std::size_t k = 1; k <= 64; ++k) {
      if (k * stride > max_bytes)
        break;
      std::printf("ways,%zu,%zu,%zu,%.2f\n", k * stride, stride, k,
                  cycles_per_load(dev, k * stride / 4, k, stride, 64, d_cycles, d_sink));
    }
  }
  CHECK(cudaFree(dev));
  return 0;
}
