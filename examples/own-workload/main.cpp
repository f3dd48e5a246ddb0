// examples/own-kernel's transpose as a workload of your own
// (cbi/sim/user_workload.hpp): task (x, y) loads in[y][x] and stores out[x][y],
// both floats, out after in. The sequential simulator replays it through a 32
// KiB 8-way L1 of 128-byte lines and the GPU model runs it as an H100 would, in
// the orders linear and column:32. With a third argument it also writes each order's run as cbi's
// trace (PREFIX-linear.trace, PREFIX-column32.trace), which `cbi simulate --trace` replays with the
// counts printed here (the package test checks it).
//
//   own_workload [WIDTH HEIGHT [PREFIX]]      (default 1024 1024)
#include <cbi/order_text.hpp>
#include <cbi/sim/gpu_model.hpp>
#include <cbi/sim/simulate.hpp>
#include <cbi/sim/trace.hpp>
#include <cbi/sim/user_workload.hpp>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <memory>
#include <string>

namespace sim = cbi::sim;

class Transpose : public sim::UserWorkload {
public:
  Transpose(int64_t width, int64_t height) : m_width(width), m_height(height) {}

  std::string describe() const override {
    return "transpose " + std::to_string(m_width) + "x" + std::to_string(m_height) + " float";
  }
  std::vector<int64_t> task_dims() const override { return {m_width, m_height}; }
  int64_t instructions() const override { return 2; } // the load, then the store
  // Instruction j of `lanes` tasks at once (a warp, or a run of the visiting
  // order).
  sim::InstructionKind addresses(const cbi::remap::Task<int64_t> *tasks, int lanes, int64_t j,
                                 uint64_t *byte_addr) const override {
    const uint64_t out_base = static_cast<uint64_t>(m_width * m_height * 4);
    for (int l = 0; l < lanes; ++l) {
      const int64_t x = tasks[l].x, y = tasks[l].y;
      byte_addr[l] = j == 0 ? static_cast<uint64_t>((y * m_width + x) * 4)
                            : out_base + static_cast<uint64_t>((x * m_height + y) * 4);
    }
    return {/*is_store=*/j == 1, /*bytes=*/4};
  }
  int64_t footprint_bytes() const override { return 2 * m_width * m_height * 4; }

private:
  int64_t m_width, m_height;
};

int main(int argc, char **argv) try {
  const int64_t width = argc >= 3 ? std::atoll(argv[1]) : 1024;
  const int64_t height = argc >= 3 ? std::atoll(argv[2]) : 1024;
  const sim::Workload transpose = sim::make_workload(std::make_shared<Transpose>(width, height));
  for (const char *text : {"linear", "column:32"}) {
    sim::SimConfig c;
    c.workload = transpose;
    c.order = cbi::remap::parse_order(text);
    sim::CacheConfig l1;
    l1.line_bytes = 128;
    l1.capacity_lines = 256; // 32 KiB
    l1.ways = 8;
    c.levels = {l1};
    const sim::SimResult r = sim::simulate(c);
    std::printf("%s sequential: accesses=%lld loads=%lld stores=%lld "
                "misses=%lld hit_pct=%.2f\n",
                text, static_cast<long long>(r.levels[0].accesses),
                static_cast<long long>(r.levels[0].loads),
                static_cast<long long>(r.levels[0].stores),
                static_cast<long long>(r.levels[0].misses), 100.0 * r.levels[0].hit_rate());

    if (argc >= 4) { // the same run as cbi's trace, 256-thread blocks
      std::ofstream trace(std::string(argv[3]) + "-" +
                          (c.order.kind == cbi::remap::OrderKind::linear ? "linear" : "column32") +
                          ".trace");
      sim::write_trace(trace, transpose, c.order, 256);
    }

    sim::GpuConfig g;
    g.workload = transpose;
    g.order = c.order;
    g.device = sim::find_device("h100");
    g.block_threads = 256;
    const sim::GpuResult gr = sim::simulate_gpu(g);
    std::printf("%s gpu: l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum=%lld "
                "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum=%lld "
                "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum=%lld "
                "l1tex__t_sector_hit_rate.pct=%.2f predicted_ms=%.4f\n",
                text, static_cast<long long>(gr.metrics.l1_requests),
                static_cast<long long>(gr.metrics.l1_sectors),
                static_cast<long long>(gr.metrics.l1_sector_hits), gr.metrics.l1_hit_pct(),
                gr.time.predicted_ms);
  }
  return 0;
} catch (const std::exception &e) {
  std::fprintf(stderr, "own_workload: %s\n", e.what());
  return 1;
}
