// The observer driver of docs/results/tight/tails.md §1 (not built by the project): prints the
// cycle (as microseconds at 1980 MHz) at which each CTA on SM `sm` first issues k = 0, D/8, ..., D
// of a matmul (argv: W H D elem_bytes block order device [sm] [sampled SMs]); model-of-*.txt are
// its outputs on main 394da75. Built as batch.cpp is.
#include "cbi/order_text.hpp"
#include "cbi/sim/gpu_model.hpp"
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>
using namespace cbi;
int main(int argc, char **argv) {
  if (argc < 8) {
    std::fprintf(stderr, "drv W H D elem block order device [sm] [sample]\n");
    return 2;
  }
  sim::GpuConfig c;
  c.workload.kind = sim::WorkloadKind{1};
  c.workload.width = std::atoll(argv[1]);
  c.workload.height = std::atoll(argv[2]);
  c.workload.depth = std::atoll(argv[3]);
  c.workload.elem_bytes = std::atoi(argv[4]);
  c.block_threads = std::atoll(argv[5]);
  c.order = remap::parse_order(argv[6]);
  c.device = sim::find_device(argv[7]);
  const int sm = argc > 8 ? std::atoi(argv[8]) : 0;
  c.sample_sms = argc > 9 ? std::atoll(argv[9]) : 0;
  c.jobs = 1;
  const int64_t D = c.workload.depth;
  struct Cta {
    std::vector<int64_t> at;
    int64_t hits = 0, sectors = 0, pend = 0;
  };
  std::map<int64_t, Cta> ctas;
  sim::GpuObserver obs;
  obs.sm = sm;
  obs.on_sector = [&](const sim::GpuSectorEvent &e) {
    Cta &t = ctas[e.cta];
    if (t.at.empty())
      t.at.assign(9, -1);
    const int64_t k = e.instruction / 2;
    for (int m = 0; m < 9; ++m) {
      const int64_t km = m == 8 ? D - 1 : m * D / 8;
      if (k == km && t.at[m] < 0)
        t.at[m] = e.cycle;
    }
    ++t.sectors;
    if (e.l1 != sim::L1Outcome::miss)
      ++t.hits;
    if (e.l1 == sim::L1Outcome::pending_hit)
      ++t.pend;
  };
  const sim::GpuResult r = sim::simulate_gpu(c, {}, &obs);
  std::printf("L1 hit %.2f  L2 reads/miss %.3f  cycles %lld  ctas/sm %lld\n",
              r.metrics.l1_hit_pct(),
              double(r.metrics.l2_read_sectors) / double(r.metrics.l1_sector_misses),
              (long long)r.cycles, (long long)r.ctas_per_sm);
  int n = 0;
  for (auto &[cta, t] : ctas) {
    if (++n > 24)
      break;
    std::printf("cta %6lld hit %5.1f pend %5.1f |", (long long)cta, 100.0 * t.hits / t.sectors,
                100.0 * t.pend / t.sectors);
    for (int64_t a : t.at)
      std::printf(" %7.1f", a / 1980.0);
    std::printf("\n");
  }
}
