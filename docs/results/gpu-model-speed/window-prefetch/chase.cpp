#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <sys/mman.h>
#include <vector>
int main() {
  for (size_t mb : {2, 4, 8, 16, 32, 64}) {
    size_t n = mb * 1024 * 1024 / 64;
    std::vector<size_t> perm(n);
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), std::mt19937_64(1));
    size_t bytes = n * 64;
    size_t *next = (size_t *)aligned_alloc(1 << 21, bytes);
    if (getenv("HP"))
      madvise(next, bytes, MADV_HUGEPAGE);
    for (size_t i = 0; i < n; i++)
      next[perm[i] * 8] = perm[(i + 1) % n] * 8;
    size_t p = 0;
    for (size_t i = 0; i < n; i++)
      p = next[p];
    auto t = std::chrono::steady_clock::now();
    size_t it = 10000000;
    for (size_t i = 0; i < it; i++)
      p = next[p];
    double ns =
        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t).count() / it;
    printf("%zu MB: %.1f ns (%zu)\n", mb, ns, p & 1);
    free(next);
  }
}
