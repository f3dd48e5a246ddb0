// Section 7 of report.md (reproduce_report_model.hpp): the GPU model against the thesis's
// RTX 2080 Super numbers and against the device that measured.
#include "reproduce_report_model.hpp"

#include "cbi/cli/output.hpp"
#include "reproduce_data.hpp"
#include "thesis.hpp"

#include <cmath>
#include <filesystem>
#include <set>
#include <sstream>
#include <tuple>
#include <utility>
#include <vector>

namespace cbi::reproduce {

namespace {

// "column:32, 1.29 ms (naive 1.46)": the fastest order of `v` at `block`.
std::string fastest_text(const Values &v, int block) {
  int best = -1;
  double t = INFINITY;
  for (const auto &[k, x] : v)
    if (k.block == block && x < t) {
      t = x;
      best = k.width;
    }
  if (best < 0)
    return "n/a";
  return (best == 0 ? std::string("naive") : "column:" + std::to_string(best)) + ", " +
         fixed(t, 2) + " ms (naive " + fixed(at(v, 0, block), 2) + ")";
}

// §5.2's counters, naive against column 32, from a model CSV; sectors are 32 bytes.
// A CSV of the model before 2026-11-26 has the load-sector rate only (its all-sector column is
// empty when read today): that rate is taken, and the text says so.
CounterPair model_counters(const std::string &file) {
  Values h1 = load(file, "l1tex__t_sector_hit_rate.pct_pred");
  const Values sec = load(file, "lts__t_sectors_srcunit_tex_op_read.sum_pred"),
               h2 = load(file, "lts__t_sector_hit_rate.pct_pred");
  const bool load_only = !std::isfinite(at(h1, 0, 256)) && !std::isfinite(at(h1, 32, 256));
  if (load_only)
    h1 = load(file, "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct_pred");
  CounterPair c{at(h1, 0, 256),        at(h1, 32, 256), 32 * at(sec, 0, 256),
                32 * at(sec, 32, 256), at(h2, 0, 256),  at(h2, 32, 256)};
  c.l1_load_only = load_only;
  return c;
}

std::string counters_text(const CounterPair &c) {
  return "L1 hit rate" +
         std::string(c.l1_load_only ? " (load sectors only: the CSV predates the model's "
                                      "all-sector rate)"
                                    : "") +
         " " + fixed(c.l1_naive) + "% → " + fixed(c.l1_column32) + "%, L2→L1 traffic " +
         fixed(c.bytes_naive / 1e9, 2) + " GB → " + fixed(c.bytes_column32 / 1e9, 2) +
         " GB, L2 hit rate " + fixed(c.l2_naive) + "% → " + fixed(c.l2_column32) + "%";
}

// Predicted against `reference` (ms) at block 256, one row an order.
std::string rank_table(const Values &model, const Values &reference, const std::string &ref) {
  cli::Table t;
  t.columns = {"order", "predicted ms", ref + " ms"};
  std::set<int> widths;
  for (const auto &[k, x] : model)
    if (k.block == 256)
      widths.insert(k.width);
  for (int w : widths)
    t.add_row({w == 0 ? std::string("naive") : "column:" + std::to_string(w),
               fixed(at(model, w, 256), 3), fixed(at(reference, w, 256), 3)});
  std::ostringstream os;
  cli::print_markdown(os, t);
  return os.str();
}

// The model on the device that measured, beside the measurements (model-gpu-*.csv).
void write_measured_device(std::ostream &md, const Options &o, const std::string &device) {
  namespace fs = std::filesystem;
  auto csv = [&](const std::string &name) {
    return (fs::path(o.out_dir) / (name + ".csv")).string();
  };
  const Values g51a = load(csv("gpu-fig5.1a"), "gpu_time_ms"),
               g51b = load(csv("gpu-fig5.1b"), "gpu_time_ms");
  const bool g_smoke_test = o.tiny;
  auto verdict_line = [&](const std::string &who, const Verdict &v) {
    return verdict_text(g_smoke_test, who, v);
  };
  const std::string gm = "model-gpu-";
  md << "### On the device that measured, beside the measurements\n\n";
  const std::string sec = csv(gm + "sec5.2");
  if (!fs::exists(sec)) {
    md << "_(not run: the device table has no row for " << device << ")_\n\n";
  } else {
    const CounterPair c = model_counters(sec);
    const Values h1 = load(csv("gpu-sec5.2"), "gpu_l1_hit_pct"),
                 tb = load(csv("gpu-sec5.2"), "gpu_l2_to_l1_bytes"),
                 h2 = load(csv("gpu-sec5.2"), "gpu_l2_hit_pct");
    const CounterPair m{at(h1, 0, 256),  at(h1, 32, 256), at(tb, 0, 256),
                        at(tb, 32, 256), at(h2, 0, 256),  at(h2, 32, 256)};
    md << "§5.2's counters (`" << gm << "sec5.2.csv`: " << describe_csv(sec) << "): model "
       << counters_text(c) << "; measured (`gpu-sec5.2.csv`) " << counters_text(m) << ".\n\n"
       << verdict_line("GPU model on this device, §5.2's claim", judge_counters(c));
    if (!g_smoke_test && std::isfinite(m.l1_naive) && std::isfinite(c.l1_naive))
      md << "Model minus measured L1 hit rate: " << fixed(c.l1_naive - m.l1_naive) << " and "
         << fixed(c.l1_column32 - m.l1_column32) << " points (naive, column 32).\n";
    md << "\n";
    for (const auto &[fig, measured] : std::vector<std::pair<std::string, const Values *>>{
             {"fig5.1a", &g51a}, {"fig5.1b", &g51b}}) {
      const std::string file = csv(gm + fig);
      const Values pred = load(file, "predicted_ms");
      md << "**" << fig << ", ranked** (`" << gm << fig << ".csv`: " << describe_csv(file)
         << "; measured: `gpu-" << fig << ".csv`):\n\n"
         << (pred.empty() ? std::string("_(not run)_\n") : rank_table(pred, *measured, "measured"))
         << "\n"
         << verdict_line("GPU model on this device, " + fig + ", the fastest order",
                         judge_rank(pred, *measured, 256, "the measured"))
         << "\n";
    }
  }
}

} // namespace

void write_model_section(std::ostream &md, const Options &o, const std::string &device,
                         std::vector<SummaryRow> &summary) {
  namespace fs = std::filesystem;
  const std::string &dir = o.out_dir;
  auto csv = [&](const std::string &name) { return (fs::path(dir) / (name + ".csv")).string(); };
  const bool g_smoke_test = o.tiny;
  auto verdict_line = [&](const std::string &who, const Verdict &v) {
    return verdict_text(g_smoke_test, who, v);
  };
  const thesis::Counters &tc = thesis::numbers().sec5_2;
  const Values th51a = thesis_values("fig5.1a"), th51b = thesis_values("fig5.1b");

  md << "## 7. The GPU model against the thesis and the hardware (issue 10)\n\n"
     << "The simulator's GPU model (`--model gpu`, docs/gpu-model.md) replays the kernels as a "
        "GPU runs them: CTAs on SMs, warps in lockstep, coalescing into 32-byte sectors, one L1 "
        "per SM and a shared L2, and a predicted time. Unlike the sequential simulator above, it "
        "can test claims about ncu's counters and about which order is fastest. It cannot test "
        "absolute times on the RTX 2080 Super (its device row is not calibrated on that GPU), "
        "half or double precision (the rows hold FP32 and integer throughput only), or the "
        "trend over input sizes (not run here).\n\n";
  const std::string rtx = "model-rtx2080super-";
  md << "### On the RTX 2080 Super (`rtx2080super`), beside the thesis's numbers\n\n"
     << "**Thesis** (§5.2, ncu, naive → column 32): L1 hit rate " << tc.l1_hit_pct_naive << "% → "
     << tc.l1_hit_pct_column32 << "%, L2→L1 traffic " << tc.l2_to_l1_gb_naive << " GB → "
     << tc.l2_to_l1_gb_column32 << " GB, L2 hit rate " << tc.l2_hit_pct_naive << "% → "
     << tc.l2_hit_pct_column32 << "%.\n\n";
  const CounterPair mc = model_counters(csv(rtx + "sec5.2"));
  const Verdict rtx_counters = judge_counters(mc);
  summary.push_back(
      {"§5.2: column 32 lifts the L1 hit rate, halves L2→L1 traffic, lowers the L2 "
       "hit rate (matmul 1024²)",
       judge_counters({tc.l1_hit_pct_naive, tc.l1_hit_pct_column32, tc.l2_to_l1_gb_naive * 1e9,
                       tc.l2_to_l1_gb_column32 * 1e9, tc.l2_hit_pct_naive, tc.l2_hit_pct_column32})
           .measure,
       "GPU model, rtx2080super", rtx_counters});
  md << "**Model** (`" << rtx << "sec5.2.csv`: " << describe_csv(csv(rtx + "sec5.2"))
     << "): " << counters_text(mc) << ".\n\n"
     << verdict_line("GPU model on rtx2080super, §5.2's claim", rtx_counters);
  if (!g_smoke_test && std::isfinite(mc.l1_naive))
    md << "Against the thesis's counts: L1 hit rate " << fixed(mc.l1_naive - tc.l1_hit_pct_naive)
       << " and " << fixed(mc.l1_column32 - tc.l1_hit_pct_column32)
       << " points off (naive, column 32); L2→L1 traffic "
       << fixed(mc.bytes_naive / 1e9 / tc.l2_to_l1_gb_naive, 2) << "x and "
       << fixed(mc.bytes_column32 / 1e9 / tc.l2_to_l1_gb_column32, 2) << "x the thesis's.\n";
  md << "\n";
  // Why a ranking on this row tests nothing: its counts are off the thesis's own by more than
  // any margin a ranking rests on (time ties are within 8.5%).
  std::string unvalidated = "The rtx2080super row is not validated on that GPU";
  if (std::isfinite(mc.l1_naive))
    unvalidated += " (at §5.2 its L1 hit rate is " + fixed(mc.l1_naive - tc.l1_hit_pct_naive) +
                   " and " + fixed(mc.l1_column32 - tc.l1_hit_pct_column32) +
                   " points off the thesis's ncu counts)";
  unvalidated += ", and its orders run at another size than the thesis's, so its ranking can "
                 "neither confirm nor overturn the thesis's measured fastest order.";
  for (const auto &[fig, thesis_fig, th] :
       std::vector<std::tuple<std::string, std::string, const Values *>>{
           {"fig5.1a", "Fig 5.1a", &th51a}, {"fig5.1b", "Fig 5.1b", &th51b}}) {
    const std::string file = csv(rtx + fig);
    const Values pred = load(file, "predicted_ms");
    const Verdict v = unvalidated_model(judge_rank(pred, *th, 256, "the thesis's"), unvalidated);
    summary.push_back({thesis_fig + ": the fastest order at block 256 (" +
                           (fig == "fig5.1a" ? "stencil" : "matmul") + ")",
                       fastest_text(*th, 256), "GPU model, rtx2080super", v});
    md << "**" << thesis_fig << ", ranked** (`" << rtx << fig << ".csv`: " << describe_csv(file)
       << "; thesis: ms on the RTX 2080 Super at its sizes):"
       << "\n\n"
       << (pred.empty() ? std::string("_(not run)_\n") : rank_table(pred, *th, "thesis")) << "\n"
       << verdict_line("GPU model on rtx2080super, " + thesis_fig + ", the fastest order", v)
       << "\n";
  }
  if (!o.sim_only)
    write_measured_device(md, o, device);
}

} // namespace cbi::reproduce
