// cbi::sim from C++: the 9x9 stencil on 512x512 floats (a built-in workload) in two thread orders,
// replayed through a 32 KiB 8-way L1 of 128-byte lines (the sequential simulator), through every
// fully associative LRU size at once (the miss-ratio curve), and through the GPU model of an H100;
// then four orders of a 256x256 matmul ranked by the model's predicted time (cbi tune). Each line
// it prints is what `cbi simulate` / `cbi mrc` / `cbi simulate --model gpu` / `cbi tune` print for
// the same configuration (tests/package checks that).
#include <cbi/order_text.hpp>
#include <cbi/sim/gpu_model.hpp>
#include <cbi/sim/mrc.hpp>
#include <cbi/sim/simulate.hpp>
#include <cbi/sim/tune.hpp>

#include <cstdio>
#include <exception>

namespace sim = cbi::sim;

int main() try {
  sim::Workload stencil; // the first registered workload: the 2-D stencil (listing 3)
  stencil.width = stencil.height = 512;
  stencil.stencil_w = stencil.stencil_h = 9;

  for (const char *text : {"linear", "column:32"}) {
    sim::SimConfig c;
    c.workload = stencil;
    c.order = cbi::remap::parse_order(text);
    sim::CacheConfig l1;
    l1.line_bytes = 128;
    l1.capacity_lines = 256; // 32 KiB
    l1.ways = 8;
    c.levels = {l1};
    const sim::SimResult r = sim::simulate(c); // throws cbi::UsageError on a bad configuration
    std::printf("%s sequential: accesses=%lld misses=%lld hit_pct=%.2f\n", text,
                static_cast<long long>(r.levels[0].accesses),
                static_cast<long long>(r.levels[0].misses), 100.0 * r.levels[0].hit_rate());

    c.levels[0].ways = 0; // the curve is for fully associative LRU
    const sim::MissRatioCurve curve = sim::miss_ratio_curve(c);
    std::printf("%s mrc: misses at 256 lines=%lld, at 1024 lines=%lld\n", text,
                static_cast<long long>(curve.misses(256)),
                static_cast<long long>(curve.misses(1024)));

    sim::GpuConfig g;
    g.workload = stencil;
    g.order = c.order;
    g.device = sim::find_device("h100");
    g.block_threads = 256;
    const sim::GpuResult gr = sim::simulate_gpu(g);
    std::printf(
        "%s gpu: l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum=%lld "
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum=%lld predicted_ms=%.4f\n",
        text, static_cast<long long>(gr.metrics.l1_sectors),
        static_cast<long long>(gr.metrics.l1_sector_hits), gr.time.predicted_ms);
  }

  sim::TuneConfig t; // cbi tune --workload matmul --size 256 --orders ... (on the full device)
  t.base.workload.kind = sim::kind_of<sim::MatmulWorkload>();
  t.base.workload.width = t.base.workload.height = t.base.workload.depth = 256;
  t.base.device = sim::find_device("h100");
  t.base.block_threads = 256;
  for (const char *text : {"linear", "column:8", "column:32", "tile:8"})
    t.orders.push_back(cbi::remap::parse_order(text));
  const sim::TuneResult ranked = sim::tune(t); // fastest first, with tie groups
  std::printf("tune:");
  for (const sim::Ranked &row : ranked.rows)
    std::printf(" %s(group %d)", ranked.order_of(row.index).c_str(), row.tie_group);
  std::printf("\n");
  return 0;
} catch (const std::exception &e) {
  std::fprintf(stderr, "simulate: %s\n", e.what());
  return 1;
}
