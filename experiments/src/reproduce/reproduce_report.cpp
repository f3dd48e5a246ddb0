// reproduce's report: DIR/report.md takes the thesis's results in turn, each with the thesis's
// numbers (thesis.hpp), ours from the CSVs in the folder (device, date, command), pictures where
// cbi-viz drew them, and the judge's verdict. Tables go through cli's Markdown printer.
#include "reproduce_report_model.hpp"
#include "reproduce_steps.hpp"

#include "cbi/cli/output.hpp"
#include "cbi/config/presets.hpp"
#include "cbi/sim/presets.hpp"
#include "cbi/text.hpp"
#include "grids.hpp"
#include "reproduce_data.hpp"
#include "thesis.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <set>
#include <sstream>
#include <tuple>

namespace cbi::reproduce {

namespace {

namespace fs = std::filesystem;

// A smoke test (--tiny) judges nothing: its numbers mean nothing.
bool g_smoke_test = false;

std::string verdict_line(const std::string &who, const Verdict &v) {
  return verdict_text(g_smoke_test, who, v);
}

// The thesis's own numbers judged by the same rule.
std::string thesis_line(const Verdict &v) {
  if (g_smoke_test)
    return "**Thesis:** " + v.why + "\n";
  return "**Thesis:** " + v.why + " (By the same rule on the thesis's numbers: " + v.word + ".)\n";
}

std::string command_for(const std::vector<std::string> &commands, const std::string &part) {
  for (const std::string &c : commands)
    if (c.find(" " + part + ".csv") != std::string::npos)
      return c;
  return "";
}

std::string image(const std::string &dir, const std::string &png, const std::string &alt) {
  return fs::exists(fs::path(dir) / png) ? "![" + alt + "](" + png + ")\n\n" : "";
}

// Rows = widths (naive first), columns = blocks; cells "value (relative to naive) [thesis]". A
// table whose every value is the same is one sentence instead (with `why_same`), not a wall of
// identical numbers.
std::string value_table(const Values &v, const std::string &unit, const thesis::TimeTable *thesis,
                        int decimals, const std::string &why_same = "") {
  const std::set<int> blocks = blocks_of(v);
  if (blocks.empty())
    return "_(no data)_\n";
  if (!thesis && all_equal(v))
    return "_Every one of the " + std::to_string(v.size()) +
           " orders: " + fixed(v.begin()->second, decimals) + " " + unit + "._ " +
           (why_same.empty()
                ? std::string()
                : std::string(1, char(std::toupper(why_same[0]))) + why_same.substr(1) + ".") +
           "\n";
  std::set<int> widths;
  for (const auto &[k, x] : v)
    widths.insert(k.width);
  cli::Table t;
  t.columns = {"order"};
  for (int b : blocks)
    t.columns.push_back("b" + std::to_string(b));
  for (int w : widths) {
    std::vector<cli::Cell> row = {w == 0 ? std::string("naive") : "column:" + std::to_string(w)};
    for (int b : blocks) {
      const double x = at(v, w, b), naive = at(v, 0, b);
      std::string cell = fixed(x, decimals);
      if (w != 0 && std::isfinite(naive))
        cell += " (" + fixed(x / naive, 2) + ")";
      if (thesis && std::isfinite(thesis->at(w, b)))
        cell += " [thesis " + fixed(thesis->at(w, b), 2) + "]";
      row.push_back(cell);
    }
    t.add_row(row);
  }
  std::ostringstream md;
  cli::print_markdown(md, t);
  md << "\n_Cells: " << unit << " (relative to naive at the same block)";
  if (thesis)
    md << " [thesis: ms on the RTX 2080 Super, " << thesis->figure << "]";
  md << "._\n";
  return md.str();
}

// What the sections share: the folder, the run and the summary rows they add.
struct Context {
  const Options &o;
  const RunRecord &rec;
  std::vector<SummaryRow> &summary;
  std::string csv(const std::string &name) const {
    return (fs::path(o.out_dir) / (name + ".csv")).string();
  }
  std::string img(const std::string &png, const std::string &alt) const {
    return image(o.out_dir, png, alt);
  }
  // "this GPU" in verdicts, the device's short name in the summary
  std::string gpu() const {
    const std::string &d = rec.device;
    const std::size_t nvidia = d.find("NVIDIA ");
    std::string name = nvidia == 0 ? d.substr(7) : d;
    return name.substr(0, name.find(' '));
  }
};

// The GPU's verdict, into the section and the summary; "not run" in the summary with --sim-only.
void gpu_claim(std::ostream &md, Context &c, const std::string &claim, const Verdict &thesis,
               const Verdict &ours) {
  c.summary.push_back({claim, thesis.measure, c.gpu(), ours});
  md << verdict_line("this GPU", ours) << "\n";
}

void section_multiples(std::ostream &md, Context &c) {
  const thesis::Numbers &tn = thesis::numbers();
  const Values th51a = thesis_values("fig5.1a"), th52 = thesis_values("fig5.2");
  const Values g51a = load(c.csv("gpu-fig5.1a"), "gpu_time_ms"),
               g52 = load(c.csv("gpu-fig5.2"), "gpu_time_ms");
  auto ms = [&](int width) { return fixed(tn.fig5_1a.at(width, 256), 2); };
  const Verdict thesis = judge_multiples({{"Fig 5.1a", &th51a}, {"Fig 5.2", &th52}}, "time");
  md << "## 1. Multiples of 32 beat their neighbours; narrow columns are far slower (Figs 5.1a, "
        "5.2)\n\n"
     << thesis_line(thesis) << "\nE.g. Fig 5.1a b256: naive " << ms(0) << " ms, column 32 "
     << ms(32) << " ms, 31 " << ms(31) << " ms, 33 " << ms(33) << " ms, 4 " << ms(4) << " ms. "
     << judge_fastest(th51a, 32, kMeasuredTie, "thesis").why << "\n\n";
  if (!c.o.sim_only) {
    md << "**Ours, GPU** (" << c.rec.device << ", " << c.rec.gpu_when << "), `"
       << command_for(c.rec.commands, "gpu-fig5.1a") << "`:\n\n"
       << value_table(g51a, "median ms", &tn.fig5_1a, 3) << "\n"
       << c.img("gpu-fig5.1a.png", "fig5.1a heatmap") << "Fig 5.2 (4037²), `gpu-fig5.2.csv`:\n\n"
       << value_table(g52, "median ms", &tn.fig5_2, 3) << "\n"
       << c.img("gpu-fig5.2.png", "fig5.2 heatmap");
    gpu_claim(md, c,
              "§5.1, Figs 5.1a, 5.2: width 32 beats widths 30-34; widths 4 and 8 take 1.5x "
              "and 1.2x naive's time",
              thesis, judge_multiples({{"4096²", &g51a}, {"4037²", &g52}}, "time"));
    const Verdict thesis_fast = judge_fastest(th51a, 32, kMeasuredTie, "thesis");
    md << "**The fastest order.** The figure's point is that column 32 is the fastest stencil "
          "order. "
       << judge_fastest(g51a, 32, kMeasuredTie, "measured").why << " (Ties: within "
       << pct(kMeasuredTie, 0) << ", twice the benchmark's noise target.)\n\n";
    gpu_claim(md, c, "Fig 5.1a: column:32 is the fastest stencil order (4096², any block)",
              thesis_fast, judge_fastest(g51a, 32, kMeasuredTie, "measured"));
  }
  const Values s51a = load(c.csv("sim-fig5.1a"), "sim_l1_fetched_bytes");
  md << "**Simulator, for reference** (L2→L1 bytes; `sim-fig5.1a.csv`: "
     << describe_csv(c.csv("sim-fig5.1a"))
     << "; `sim-fig5.2.csv`: " << describe_csv(c.csv("sim-fig5.2")) << "):\n\n"
     << value_table(s51a, "bytes fetched into L1", nullptr, 0) << "\n"
     << c.img("sim-fig5.1a.png", "simulated fig5.1a")
     << c.img("sim-fig5.2.png", "simulated fig5.2");
}

void section_matmul(std::ostream &md, Context &c) {
  const thesis::Numbers &tn = thesis::numbers();
  const Verdict thesis = judge_matmul(thesis_values("fig5.1b"), "time");
  md << "## 2. Matmul with column widths 32-128 beats naive (Fig 5.1b; thesis: up to "
     << pct(tn.matmul_gain, 0) << ")\n\n"
     << thesis_line(thesis) << "\n";
  if (!c.o.sim_only) {
    const Values g51b = load(c.csv("gpu-fig5.1b"), "gpu_time_ms");
    md << "**Ours, GPU** (" << c.rec.device << ", " << c.rec.gpu_when << "), `gpu-fig5.1b.csv`:\n\n"
       << value_table(g51b, "median ms", &tn.fig5_1b, 3) << "\n"
       << c.img("gpu-fig5.1b.png", "fig5.1b heatmap");
    gpu_claim(md, c, "§5.1, Fig 5.1b: a matmul column of 32-128 beats naive at every block", thesis,
              judge_matmul(g51b, "time"));
  }
  // The table on a line of its own: after "): " it was text, not a table, in Markdown.
  md << "**Simulator, for reference** (`sim-fig5.1b.csv`: " << describe_csv(c.csv("sim-fig5.1b"))
     << "):\n\n"
     << value_table(load(c.csv("sim-fig5.1b"), "sim_l1_fetched_bytes"), "bytes fetched into L1",
                    nullptr, 0, order_invariance_why(c.csv("sim-fig5.1b")))
     << "\n"
     << c.img("sim-fig5.1b.png", "simulated fig5.1b");
}

void section_trend(std::ostream &md, Context &c) {
  md << "## 3. The trend with input size (Figs 5.3, 5.4)\n\n"
     << "**Thesis:** stencils gain less on large inputs; matmul gains only from N = 2^8 and more "
        "on larger inputs, with diminishing returns after 2^10 (figures only, no table).\n\n";
  if (!c.o.sim_only) {
    md << "**Ours, GPU** (" << c.rec.device << ", " << c.rec.gpu_when
       << "), `gpu-fig5.3.csv`, `gpu-fig5.4.csv`:\n\n"
       << c.img("gpu-fig5.3.png", "fig5.3") << c.img("gpu-fig5.4.png", "fig5.4");
    gpu_claim(md, c, "§5.1, Figs 5.3, 5.4: stencil gains shrink and matmul gains grow with N",
              {"", "", "figures only", ""},
              judge_trend(load(c.csv("gpu-fig5.3"), "gpu_time_ms"),
                          load(c.csv("gpu-fig5.4"), "gpu_time_ms"), "time"));
  }
  md << "**Simulator, for reference** (`sim-fig5.3.csv`: " << describe_csv(c.csv("sim-fig5.3"))
     << "; `sim-fig5.4.csv`: " << describe_csv(c.csv("sim-fig5.4")) << "):\n\n"
     << c.img("sim-fig5.3.png", "simulated fig5.3") << c.img("sim-fig5.4.png", "simulated fig5.4")
     << judge_trend(load(c.csv("sim-fig5.3"), "sim_l1_fetched_bytes"),
                    load(c.csv("sim-fig5.4"), "sim_l1_fetched_bytes"), "L2->L1 traffic")
            .why
     << "\n\n";
}

void section_counters(std::ostream &md, Context &c) {
  const thesis::Counters &tc = thesis::numbers().sec5_2;
  md << "## 4. Hardware counters of matmul 1024² (§5.2)\n\n"
     << "**Thesis** (naive → column 32): L1 hit rate " << tc.l1_hit_pct_naive << "% → "
     << tc.l1_hit_pct_column32 << "%, L2→L1 traffic " << tc.l2_to_l1_gb_naive << " GB → "
     << tc.l2_to_l1_gb_column32 << " GB, L2 hit rate " << tc.l2_hit_pct_naive << "% → "
     << tc.l2_hit_pct_column32 << "%.\n\n";
  auto pair = [&](const std::string &file, const std::string &l1, const std::string &bytes,
                  const std::string &l2) {
    const Values h1 = load(file, l1), tb = load(file, bytes), h2 = load(file, l2);
    const int b = blocks_of(h1).empty() ? 256 : *blocks_of(h1).begin();
    return CounterPair{at(h1, 0, b),  at(h1, 32, b), at(tb, 0, b),
                       at(tb, 32, b), at(h2, 0, b),  at(h2, 32, b)};
  };
  auto text = [](const CounterPair &p) {
    return "L1 hit rate " + fixed(p.l1_naive) + "% → " + fixed(p.l1_column32) +
           "%, L2→L1 traffic " + fixed(p.bytes_naive / 1e9, 3) + " GB → " +
           fixed(p.bytes_column32 / 1e9, 3) + " GB, L2 hit rate " + fixed(p.l2_naive) + "% → " +
           fixed(p.l2_column32) + "%";
  };
  if (!c.o.sim_only) {
    const CounterPair g =
        pair(c.csv("gpu-sec5.2"), "gpu_l1_hit_pct", "gpu_l2_to_l1_bytes", "gpu_l2_hit_pct");
    md << "**Ours, this GPU** (`gpu-sec5.2.csv`): " << text(g) << ".\n\n";
    const CounterPair t{tc.l1_hit_pct_naive,        tc.l1_hit_pct_column32,
                        tc.l2_to_l1_gb_naive * 1e9, tc.l2_to_l1_gb_column32 * 1e9,
                        tc.l2_hit_pct_naive,        tc.l2_hit_pct_column32};
    gpu_claim(md, c,
              "§5.2: column 32 lifts the L1 hit rate, halves L2→L1 traffic, lowers the L2 "
              "hit rate (matmul 1024²)",
              judge_counters(t), judge_counters(g));
  }
  const std::string file = c.csv(c.o.sim_only ? "sim-sec5.2" : "gpu-sec5.2");
  const CounterPair s = pair(file, "sim_l1_hit_pct", "sim_l1_fetched_bytes", "sim_l2_hit_pct");
  md << "**Simulator, for reference** (`" << fs::path(file).filename().string() << "`): " << text(s)
     << ".";
  if (s.l1_naive == s.l1_column32 && s.bytes_naive == s.bytes_column32)
    md << " The L1 counts do not change with the order: " << order_invariance_why(file)
       << " (the same reason as in section 2).";
  md << "\n\n";
  if (!c.o.sim_only)
    md << c.img("scatter-l1.png", "simulated vs measured L1 hit rate");
}

void section_precision(std::ostream &md, Context &c) {
  const thesis::Numbers &tn = thesis::numbers();
  md << "## 5. Half and double; \"stencil up to " << pct(tn.stencil_gain, 0) << ", matmul up to "
     << pct(tn.matmul_gain, 0) << "\"\n\n"
     << "**Thesis:** half precision changed the improvements (no number given); with double the "
        "kernels become compute bound and no order differs tangibly from naive. Conclusion: CBI "
        "improves naive stencils by up to "
     << pct(tn.stencil_gain, 0) << " and matmul by up to " << pct(tn.matmul_gain, 0) << ".\n\n";
  // The conclusion's figures compare the fastest column run with the fastest naive run, each at
  // its best block (Fig 5.1a: 1.29 ms at b256 against 1.42 ms at b64, 9%; Fig 5.1b: 28%).
  const std::vector<int> &all_widths = thesis::column_widths();
  const Values th51a = thesis_values("fig5.1a"), th52 = thesis_values("fig5.2"),
               th51b = thesis_values("fig5.1b");
  md << "Thesis tables, fastest column run against fastest naive run: stencil 4096² "
     << pct(best_gain(th51a, all_widths)) << ", stencil 4037² " << pct(best_gain(th52, all_widths))
     << ", matmul " << pct(best_gain(th51b, all_widths)) << ".\n\n";
  if (c.o.sim_only) {
    md << "_Time and compute-boundness need the GPU: run without --sim-only on a CUDA "
          "machine._\n\n";
    return;
  }
  cli::Table gains;
  gains.columns = {"grid", "type", "blocks run", "best gain over naive"};
  double double_gain = -1;
  for (const char *name : {"fig5.1a", "fig5.1b"})
    for (const std::string ty : {"float", "half", "double"}) {
      const std::string file = std::string("gpu-") + name + (ty == "float" ? "" : "-" + ty);
      const Values v = load(c.csv(file), "gpu_time_ms");
      const double g = best_gain(v, all_widths);
      const std::string blocks = join(blocks_of(v), ", ", [](int b) { return std::to_string(b); });
      gains.add_row({std::string(name), ty, blocks.empty() ? "none" : blocks,
                     std::isfinite(g) ? pct(g) : "n/a"});
      if (ty == "double" && std::isfinite(g))
        double_gain = std::max(double_gain, g);
    }
  md << "One rule for the table and the verdicts: gain = 1 - (fastest column run) / (fastest "
        "naive run), each at its fastest block among the blocks run (the thesis's conclusion "
        "compares its tables so).\n\n";
  cli::print_markdown(md, gains);
  const double gs = std::max(best_gain(load(c.csv("gpu-fig5.1a"), "gpu_time_ms"), all_widths),
                             best_gain(load(c.csv("gpu-fig5.2"), "gpu_time_ms"), all_widths)),
               gm = best_gain(load(c.csv("gpu-fig5.1b"), "gpu_time_ms"), all_widths);
  const Verdict dbl = judge_double(double_gain), concl = judge_conclusion(gs, gm);
  md << "\n"
     << verdict_line("this GPU, double", dbl)
     << verdict_line("this GPU, up to " + pct(tn.stencil_gain, 0) + " / " + pct(tn.matmul_gain, 0),
                     concl)
     << "\n";
  c.summary.push_back({"§5.1: in double no order differs tangibly from naive (5% counted as "
                       "tangible)",
                       "no number", c.gpu(), dbl});
  c.summary.push_back(
      {"Conclusion (ch. 6): CBI speeds naive stencils up by up to 8%, matmul by "
       "up to 28%",
       judge_conclusion(best_gain(th51a, all_widths), best_gain(th51b, all_widths)).measure,
       c.gpu(), concl});
}

void section_simulator(std::ostream &md, Context &c) {
  md << "## 6. The simulator's side: diagrams and the analytical model (§3, §4)\n\n";
  for (const char *preset : {"fig3.1", "fig3.2a", "fig3.2b", "fig3.3", "fig4.4", "fig4.6"})
    md << c.img(std::string("diagram-") + preset + ".png", std::string("thesis ") + preset);
  md << "Each diagram is a preset (`cbi presets` lists them in full): ";
  for (const char *preset : {"fig3.1", "fig3.2a", "fig3.2b", "fig3.3", "fig4.4", "fig4.6"})
    md << "`" << preset << "` = " << sim::find_preset(preset).caption << "; ";
  md << "hit rates in thread granularity are per thread-line (each thread's distinct lines "
        "once), not per access as ncu counts them.\n\n";
  md << "Model against simulation on the presets `table3.1` (" +
            config::describe_config(sim::find_preset("table3.1").config) + ") and `table3.2` (" +
            config::describe_config(sim::find_preset("table3.2").config) +
            "), one row per order (`model.csv`):\n\n";
  cli::Table model;
  model.columns = {"workload", "order", "equation", "model F", "simulated fetches"};
  for (const ModelRow &r : c.rec.model)
    model.add_row(
        {r.workload, r.order, r.equation + " (" + r.kind + ")", fixed(r.model, 1), r.simulated});
  cli::print_markdown(md, model);
  const Verdict v = judge_model(c.rec.model);
  md << "\n" << verdict_line("simulator against the model", v) << "\n";
  c.summary.push_back({"§3.3, §4.3: eqs. 3.2-4.8 bound the fetches of Tables 3.1 and 3.2",
                       "the equations", "simulator", v});
}

// The summary table: one row a claim, the thesis's number, ours, the verdict and why.
void write_summary(std::ostream &md, const std::vector<SummaryRow> &rows, bool smoke_test) {
  md << "## Summary\n\n";
  if (smoke_test) {
    md << "_A smoke test judges nothing._\n\n";
    return;
  }
  cli::Table t;
  t.columns = {"claim (thesis section, figure)", "thesis", "ours", "tested on", "verdict", "why"};
  for (const SummaryRow &r : rows)
    t.add_row({r.claim, r.thesis.empty() ? "-" : r.thesis,
               r.verdict.measure.empty() ? "-" : r.verdict.measure, r.who,
               "**" + r.verdict.word + "**",
               r.verdict.brief.empty() ? r.verdict.why : r.verdict.brief});
  cli::print_markdown(md, t);
  md << "\nEach verdict follows a fixed rule on the numbers (the sections below give the rule and "
        "the data); margins within the measurement's noise or the model's error are ties. The "
        "sequential cache simulator replays one thread after another through one cache: it has no "
        "SMs, warps, coalescing or time, so it tests none of chapter 5's claims (they rest on "
        "those); its traffic is shown in each section for reference, without a verdict. The GPU "
        "model (section 7) does replay warps on SMs and is judged where it can speak.\n\n";
}

void write_rerun(std::ostream &md, const Options &o, const RunRecord &rec) {
  auto csv = [&](const std::string &name) {
    return (fs::path(o.out_dir) / (name + ".csv")).string();
  };
  md << "## How to run it again\n\n"
     << "Each CSV was written by the command beside it (run from this folder; `--resume` skips "
        "what a file already holds, so an interrupted reproduction continues where it "
        "stopped):\n\n```\n";
  for (const std::string &c : rec.commands)
    md << c << "\n";
  md << "```\n\nPlots and diagrams ("
     << (rec.viz_built ? "cbi-viz"
                       : "cbi-viz is absent from this build: PNGs were not drawn; the CSVs are "
                         "complete")
     << "):\n\n";
  for (const std::string &l : rec.viz_log)
    md << l << "\n";
  md << "\nWhat each CSV in this folder holds (read from its rows), against the thesis's grid:\n\n";
  Options all = o;
  all.only.clear();
  for (const Part &p : plan(all)) {
    if (!fs::exists(csv(p.name)))
      continue;
    const std::string base = p.grid.name == "custom" ? "" : p.grid.name;
    md << "- `" << p.name << ".csv`: " << describe_csv(csv(p.name));
    if (!base.empty())
      md << " (the thesis's " << base << ": " << describe_grid(sweep::thesis_grid(base)) << ")";
    md << "\n";
  }
  md << "\nCache presets: ";
  for (const auto &[name, spec] : sweep::cache_presets())
    md << "`" << name << "` = " << spec << "; ";
  md << "L1s fully associative LRU (the thesis's model), L2s 16-way LRU.\n";
}

void write_header(std::ostream &md, const Options &o, const RunRecord &rec) {
  md << "# Reproducing Prasetya 2022, \"column based iteration\" (ch. 5)\n\n"
     << "Generated by `cbi reproduce`; do not edit by hand.\n\n";
  if (o.tiny)
    md << "> **Smoke test (`--tiny`): every size is cut to tens of elements. This report checks "
          "that the pipeline runs; its numbers mean nothing and it gives no verdicts.**\n\n";
  if (!rec.failures.empty()) {
    md << "## Failed steps\n\n";
    for (const std::string &f : rec.failures)
      md << "- " << f << "\n";
    md << "\nThe sections below use what the other steps wrote; `cbi reproduce` exits 1.\n\n";
  }
  md << "- date: " << rec.date << "\n"
     << "- device: " << rec.device << "\n"
     << "- mode: "
     << (o.sim_only ? "simulator only (--sim-only): no GPU numbers" : "GPU and simulator")
     << (o.tiny ? "; TINY scale (CI smoke test): the numbers mean nothing" : "") << "\n"
     << "- command: `" << o.command << "`\n"
     << "- thesis: RTX 2080 Super (Turing, 64 KiB L1 per SM, 4 MiB L2), times in ms\n\n";
}

} // namespace

std::string verdict_text(bool smoke_test, const std::string &who, const Verdict &v) {
  if (smoke_test)
    return "";
  return "**Verdict (" + who + "): " + v.word + ".** " + v.why + "\n";
}

void write_report(const Options &o, const std::vector<Part> &, const RunRecord &rec) {
  g_smoke_test = o.tiny;
  std::vector<SummaryRow> summary;
  Context c{o, rec, summary};
  // The sections first, so that the summary above them holds every verdict.
  std::ostringstream body;
  body << "Every CSV below is a `cbi sweep` CSV: one row per point, `sim_*` columns from the cache "
          "simulator, `gpu_*` columns from the CUDA kernels.\n\n";
  section_multiples(body, c);
  section_matmul(body, c);
  section_trend(body, c);
  section_counters(body, c);
  section_precision(body, c);
  section_simulator(body, c);
  write_model_section(body, o, rec.device, summary);
  write_rerun(body, o, rec);
  std::ostringstream md;
  write_header(md, o, rec);
  write_summary(md, summary, o.tiny);
  md << body.str();
  cli::write_file_atomic((fs::path(o.out_dir) / "report.md").string(), md.str());
}

} // namespace cbi::reproduce
