// The l1_miss_lines probe's loads (kernels/probes/l1_miss_lines.cu) as a user workload through the
// GPU model (h200), to compare its cycles a request with the H200's
// (docs/results/tight/miss-lines.md §2). Build against an installed cbi with this folder's
// CMakeLists.txt; usage: pm WARPS LINES STEP STAGGER
#include <cbi/order_text.hpp>
#include <cbi/sim/gpu_model.hpp>
#include <cbi/sim/user_workload.hpp>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
namespace sim = cbi::sim;
constexpr int64_t kRowWords = 8192, kPitch = kRowWords + 4, kReq = 2048;
struct Probe : sim::UserWorkload {
  int warps, lines, step, stagger, ctas;
  std::string describe() const override { return "probe"; }
  std::vector<int64_t> task_dims() const override { return {256, ctas}; }
  int64_t instructions() const override { return kReq; }
  sim::InstructionKind addresses(const cbi::remap::Task<int64_t> *t, int lanes, int64_t j,
                                 uint64_t *a) const override {
    const int cps = warps / 8;
    for (int l = 0; l < lanes; ++l) {
      const int64_t x = t[l].x, y = t[l].y;
      const int lane = x % 32, wis = (y % cps) * 8 + x / 32, sm = y / cps;
      const int g = lane / (32 / lines);
      const int64_t row = (int64_t(wis) * lines + g) * kPitch;
      const int64_t k = ((sm * 104 + (stagger ? g * 8 / lines : 0)) + j * step) & (kRowWords - 1);
      a[l] = uint64_t((row + k) * 4);
    }
    return {false, 4};
  }
  int64_t block_threads() const override { return 256; }
};
int main(int argc, char **argv) {
  auto p = std::make_shared<Probe>();
  p->warps = atoi(argv[1]);
  p->lines = atoi(argv[2]);
  p->step = atoi(argv[3]);
  p->stagger = atoi(argv[4]);
  p->ctas = 132 * p->warps / 8;
  sim::GpuConfig g;
  g.workload = sim::make_workload(p);
  g.order = cbi::remap::parse_order("linear");
  g.device = sim::find_device("h200");
  g.block_threads = 256;
  const sim::GpuResult r = sim::simulate_gpu(g);
  const double cyc = r.time.predicted_ms * 1980e3 / (double(p->warps) * kReq);
  std::printf("%d,%d,%d,%d,%.3f,%.2f,%s\n", p->warps, p->lines, p->step, p->stagger, cyc,
              r.metrics.l1_hit_pct(), r.time.bound.c_str());
}
