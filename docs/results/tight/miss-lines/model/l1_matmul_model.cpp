// The l1_matmul probe's a-in-l2 loop (kernels/probes/l1_matmul.cu) as a user workload through the
// GPU model (h200) (docs/results/tight/miss-lines.md §3). usage: mm WIDTH ELEM_BYTES
#include <cbi/order_text.hpp>
#include <cbi/sim/gpu_model.hpp>
#include <cbi/sim/user_workload.hpp>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
namespace sim = cbi::sim;
constexpr int64_t kSteps = 4096, kDepth = kSteps + 76;
struct Mm : sim::UserWorkload {
  int w, elem;
  int64_t ctas;
  std::string describe() const override { return "mm"; }
  std::vector<int64_t> task_dims() const override { return {256, ctas}; }
  int64_t instructions() const override { return 2 * kSteps; }
  sim::InstructionKind addresses(const cbi::remap::Task<int64_t> *t, int lanes, int64_t j,
                                 uint64_t *a) const override {
    const int64_t s = j / 2;
    const uint64_t bbase = uint64_t(32 * kDepth * elem);
    for (int l = 0; l < lanes; ++l) {
      const int64_t x = t[l].x, y = t[l].y;
      const int lane = x % 32;
      const int64_t warp = x / 32 + y * 8;
      const int64_t row = (lane / w + warp) % 32, col = (lane % w + warp * w) % 64;
      a[l] = j % 2 == 0 ? uint64_t((row * kDepth + s) * elem)
                        : bbase + uint64_t((((s & 63) * 64) + col) * elem);
    }
    return {false, elem};
  }
  int64_t block_threads() const override { return 256; }
};
int main(int argc, char **argv) {
  auto p = std::make_shared<Mm>();
  p->w = atoi(argv[1]);
  p->elem = atoi(argv[2]);
  p->ctas = 132 * 8;
  sim::GpuConfig g;
  g.workload = sim::make_workload(p);
  g.order = cbi::remap::parse_order("linear");
  g.device = sim::find_device("h200");
  g.block_threads = 256;
  const sim::GpuResult r = sim::simulate_gpu(g);
  const double cyc = r.time.predicted_ms * 1980e3 / (64.0 * kSteps);
  std::printf("W=%d elem=%d cycles/step %.3f L1 hit %.2f pending %lld bound %s\n", p->w, p->elem,
              cyc, r.metrics.l1_hit_pct(), (long long)r.metrics.l1_pending_hits,
              r.time.bound.c_str());
}
