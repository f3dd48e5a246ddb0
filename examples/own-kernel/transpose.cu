// A matrix transpose whose threads take their order from cbi::remap. Thread i of a 1-D launch
// transposes the element of task order.map(i): with `linear` a warp reads a row and writes a
// column, with `column:32` the warps walk down 32-wide columns so that successive warps write the
// same output lines. The CPU part (always run) checks that each order visits every element exactly
// once and that the remapped transpose equals the plain one; on a GPU the kernel's output is
// checked against it and both orders are timed with CUDA events.
//
//   own_kernel [WIDTH HEIGHT]      (default 4096 4096)
#include <cbi/remap/order.hpp>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace remap = cbi::remap;

// Every CUDA call is checked: a failure names the call and ends the program with exit 1.
#define CHECK(call)                                                                                \
  do {                                                                                             \
    const cudaError_t err_ = (call);                                                               \
    if (err_ != cudaSuccess) {                                                                     \
      std::fprintf(stderr, "own_kernel: %s failed: %s\n", #call, cudaGetErrorString(err_));        \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

// The kernel: the only cbi in it is mapper.map(i), the order's task for thread i.
template <class Mapper>
__global__ void transpose(const float *in, float *out, remap::Shape<int> shape, Mapper mapper) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= shape.width * shape.height)
    return;
  const remap::Task<int> t = mapper.map(i);
  out[t.x * shape.height + t.y] = in[t.y * shape.width + t.x];
}

struct Named {
  const char *name;
  remap::Order order;
};

int main(int argc, char **argv) {
  if (argc != 1 && argc != 3) {
    std::fprintf(stderr, "usage: own_kernel [WIDTH HEIGHT]\n");
    return 2;
  }
  const int width = argc == 3 ? std::atoi(argv[1]) : 4096;
  const int height = argc == 3 ? std::atoi(argv[2]) : 4096;
  const remap::Shape<int> shape{width, height};
  // The fast (multiply-and-shift) remap is exact for grids of up to 2^31 - 1 threads.
  if (width < 1 || height < 1 || !remap::fast_math_exact({width, height})) {
    std::fprintf(stderr,
                 "own_kernel: WIDTH and HEIGHT must be positive, with WIDTH x HEIGHT < 2^31\n");
    return 2;
  }
  const int n = width * height;
  const Named orders[] = {{"linear", remap::Order::of(remap::Linear{})},
                          {"column:32", remap::Order::of(remap::Column{32})}};

  std::vector<float> in(static_cast<size_t>(n));
  for (int k = 0; k < n; ++k)
    in[static_cast<size_t>(k)] = static_cast<float>(k % 1000003);
  std::vector<float> reference(static_cast<size_t>(n));
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      reference[static_cast<size_t>(x) * height + y] = in[static_cast<size_t>(y) * width + x];

  // CPU: the same mapper that the kernel gets, run over every thread id.
  for (const Named &o : orders) {
    std::vector<int> visits(static_cast<size_t>(n), 0);
    std::vector<float> out(static_cast<size_t>(n), -1.0f);
    remap::visit_mapper(o.order, shape, remap::RemapMath::fast, [&](auto mapper) {
      for (int i = 0; i < n; ++i) {
        const remap::Task<int> t = mapper.map(i);
        if (t.x < 0 || t.x >= width || t.y < 0 || t.y >= height) {
          std::fprintf(stderr, "own_kernel: %s maps thread %d outside the %dx%d grid\n", o.name, i,
                       width, height);
          std::exit(1);
        }
        ++visits[static_cast<size_t>(t.y) * width + t.x];
        out[static_cast<size_t>(t.x) * height + t.y] = in[static_cast<size_t>(t.y) * width + t.x];
      }
      return 0;
    });
    const long long once = std::count(visits.begin(), visits.end(), 1);
    if (once != n || out != reference) {
      std::fprintf(stderr, "own_kernel: %s: %lld of %d elements visited once, output %s\n", o.name,
                   once, n, out == reference ? "matches" : "differs");
      return 1;
    }
    std::printf("cpu %s: %dx%d, every element visited exactly once, transpose matches\n", o.name,
                width, height);
  }

  int devices = 0;
  const cudaError_t probe = cudaGetDeviceCount(&devices);
  if (probe != cudaSuccess || devices == 0) {
    std::printf("no CUDA device (%s): skipping the GPU part\n",
                probe != cudaSuccess ? cudaGetErrorString(probe) : "none found");
    return 0;
  }
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s\n", prop.name);

  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  float *d_in = nullptr, *d_out = nullptr;
  CHECK(cudaMalloc(&d_in, bytes));
  CHECK(cudaMalloc(&d_out, bytes));
  CHECK(cudaMemcpy(d_in, in.data(), bytes, cudaMemcpyHostToDevice));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  const int block = 256;
  const int grid = (n + block - 1) / block;
  constexpr int kRuns = 20;

  int status = 0;
  for (const Named &o : orders) {
    CHECK(cudaMemset(d_out, 0, bytes));
    std::vector<float> times_ms;
    for (int run = 0; run <= kRuns; ++run) { // run 0 warms up
      CHECK(cudaEventRecord(start));
      remap::visit_mapper(o.order, shape, remap::RemapMath::fast, [&](auto mapper) {
        transpose<<<grid, block>>>(d_in, d_out, shape, mapper);
        return 0;
      });
      CHECK(cudaGetLastError());
      CHECK(cudaEventRecord(stop));
      CHECK(cudaEventSynchronize(stop));
      float ms = 0;
      CHECK(cudaEventElapsedTime(&ms, start, stop));
      if (run > 0)
        times_ms.push_back(ms);
    }
    std::vector<float> out(static_cast<size_t>(n));
    CHECK(cudaMemcpy(out.data(), d_out, bytes, cudaMemcpyDeviceToHost));
    const bool ok = out == reference;
    status |= ok ? 0 : 1;
    std::sort(times_ms.begin(), times_ms.end());
    std::printf("gpu %s: %.4f ms median of %d runs, output %s\n", o.name, times_ms[kRuns / 2],
                kRuns, ok ? "matches the CPU reference" : "DIFFERS from the CPU reference");
  }
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  return status;
}
