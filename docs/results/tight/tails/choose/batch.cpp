// The candidates' driver of docs/results/tight/tails.md §2 (not built by the project): reads lines
// "group W H D elem_bytes block order" on stdin (vset.txt; vsten.txt with CBI_STENCIL=1, D then the
// window) and prints "group order L1-hit% L2-reads/miss misses L2-reads predicted_ms bound", the
// model in sampled mode (argv: device, sampled SMs). CBI_SCHED=rr sets the row's scheduler to
// round_robin, CBI_DATA=N its l1_data_bytes_per_cycle, CBI_LRC=N its l2_coalesce_cycles;
// CBI_L2Q/CBI_L2Q_REQ (the L2 queue) and CBI_FIFO_AGE (age ties) were read by experimental code
// in sim/src/gpu/ that was removed again. Built as
//   g++ -O2 -std=c++17 -I base/include -I remap/include -I sim/include batch.cpp build/sim/libsim.a
#include "cbi/order_text.hpp"
#include "cbi/sim/gpu_model.hpp"
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
using namespace cbi;
int main(int argc, char **argv) {
  const char *dev = argc > 1 ? argv[1] : "h200";
  const int sample = argc > 2 ? std::atoi(argv[2]) : 12;
  const char *pol = std::getenv("CBI_SCHED");
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::string g, order;
    long long w, h, d, block;
    int elem;
    if (!(in >> g >> w >> h >> d >> elem >> block >> order))
      continue;
    sim::GpuConfig c;
    c.workload.kind = sim::WorkloadKind{std::getenv("CBI_STENCIL") ? 0 : 1};
    if (std::getenv("CBI_STENCIL")) {
      c.workload.stencil_w = c.workload.stencil_h = d;
      c.workload.depth = 16;
    }
    c.workload.width = w;
    c.workload.height = h;
    c.workload.depth = d;
    c.workload.elem_bytes = elem;
    c.block_threads = block;
    c.order = remap::parse_order(order);
    c.device = sim::find_device(dev);
    if (pol && std::string(pol) == "rr")
      c.device.scheduler = sim::WarpScheduler::round_robin;
    c.sample_sms = sample;
    if (const char *e = std::getenv("CBI_LRC"))
      c.device.l2_coalesce_cycles = std::atoi(e);
    if (const char *e = std::getenv("CBI_DATA"))
      c.device.l1_data_bytes_per_cycle = std::atoi(e);
    c.jobs = std::getenv("CBI_JOBS") ? std::atoi(std::getenv("CBI_JOBS")) : 1;
    const sim::GpuResult r = sim::simulate_gpu(c);
    const auto &m = r.metrics;
    std::printf("%s %s %.2f %.3f %lld %lld %.4f %s\n", g.c_str(), order.c_str(), m.l1_hit_pct(),
                double(m.l2_read_sectors) / double(m.l1_sector_misses),
                (long long)m.l1_sector_misses, (long long)m.l2_read_sectors, r.time.predicted_ms,
                r.time.bound.c_str());
    std::fflush(stdout);
  }
}
