// cbi plot heatmap|lines|scatter: PNG plots of a tidy CSV (what `cbi sweep` writes), headless.
#include "cbi/cli/command.hpp"
#include "cbi/cli/options.hpp"

#include "cbi/viz/plot.hpp"

#include <iostream>
#include <vector>

namespace cbi::viz_app {

namespace po = boost::program_options;

// The plot kind is the first word that is no option's value, before the options or among them
// (cbi plot --input r.csv heatmap): every option but --free-axes and --help takes a value, unless
// given as --name=value. Returns it ("" if none); `args` gets argv without it.
namespace {

std::string split_kind(int argc, char **argv, std::vector<char *> &args) {
  const auto takes_value = [](const std::string &a) {
    return a == "-o" || (a.rfind("--", 0) == 0 && a.find('=') == std::string::npos &&
                         a != "--free-axes" && a != "--help");
  };
  std::string kind;
  args.assign(1, argv[0]);
  for (int k = 1; k < argc; ++k) {
    const std::string a = argv[k];
    if (kind.empty() && !a.empty() && a[0] != '-' && (k == 1 || !takes_value(argv[k - 1]))) {
      kind = a;
      continue;
    }
    args.push_back(argv[k]);
  }
  return kind;
}

} // namespace

int cmd_plot(int argc, char **argv) {
  po::options_description desc("Options");
  const std::string value_help = "value column (heatmap colour, lines y); default the first of " +
                                 viz::value_columns_text() + " with numbers";
  // clang-format off
  desc.add_options()
    ("input", po::value<std::string>(), "tidy CSV with a header row (e.g. from cbi sweep); required")
    ("output,o", po::value<std::string>(), "write the PNG to this file (default plot.png); a "
                                           "regular file is replaced atomically, a FIFO, device or "
                                           "symlink's target is written through")
    ("x", po::value<std::string>(), "x column. heatmap: default the W of column:W orders; lines: "
                                    "default size; scatter: required")
    ("y", po::value<std::string>(), "y column. heatmap: default block; lines: default the value "
                                    "column; scatter: required")
    ("value", po::value<std::string>(), value_help.c_str())
    ("series", po::value<std::string>(), "column naming each line (lines) or each group of "
                                         "points (scatter: a colour and marker per value, its N "
                                         "and error in the legend); default order, e.g. --series "
                                         "kernel")
    ("label", po::value<std::string>(), "scatter: column whose text labels each point, e.g. "
                                        "--label order")
    ("x-title", po::value<std::string>(), "x axis title (default: the column and its unit), e.g. "
                                          "--x-title 'measured L1 hit rate (%)'")
    ("y-title", po::value<std::string>(), "y axis title (default: the column and its unit), e.g. "
                                          "--y-title 'predicted L1 hit rate (%)'")
    ("free-axes", po::bool_switch(), "scatter: x and y are different quantities (e.g. hit rate "
                                     "and time): each axis its own range, no y = x line, no error")
    ("title", po::value<std::string>(), "title (default: from the columns)");
  // clang-format on
  std::vector<char *> args;
  const std::string kind_text = split_kind(argc, argv, args);
  po::variables_map vm;
  if (!cli::parse_args(
          static_cast<int>(args.size()), args.data(), desc, vm,
          "usage: cbi plot heatmap|lines|scatter --input F.csv --output F.png [--x COL] [--y COL]\n"
          "                [--value COL] [--series COL] [--label COL] [--x-title T] [--y-title T]\n"
          "                [--free-axes] [--title T]\n\n"
          "heatmap: column width (x) by block size (y); each cell's colour and number is the value "
          "relative to\n  the naive (linear) order at that block size, blue better, vermillion "
          "worse; the best cell is\n  outlined. Rows of the largest input size are used; repeated "
          "cells are averaged.\n"
          "lines:   x = input size (log2 axis when it spans 8x or more), one line per order.\n"
          "scatter: predicted (--y) against measured (--x), one point per row: equal axes (log "
          "when the values\n  span 100x), the dashed line y = x, and under it N and the mean "
          "absolute error |y - x| in the\n  unit both columns carry (percentage points where "
          "both are .pct; none where a name\n  carries no unit), the worst point and, for other "
          "units, the\n  mean relative error. --free-axes plots two different quantities instead.\n"
          "Whether larger is better is read from the column name (hit, gbs, gflops, speedup: "
          "larger;\nelse smaller). Numbers are read from the start of a cell: 4096x4096 -> 4096, "
          "column:32 -> 32\n(its width; tile:16x4 and other orders have none). Needs no display.",
          "  cbi sweep --order linear,column:8,column:32 --size 256,512 --output sweep.csv  # "
          "seconds\n"
          "  cbi plot heatmap --input sweep.csv --output heat.png     # L1 misses against linear\n"
          "  cbi plot lines --input sweep.csv --output lines.png --y sim_l1_hit_pct\n"
          "  cbi plot scatter --input sweep.csv -o sc.png --x sim_l1_hit_pct --y "
          "sim_l1_misses --free-axes\n"
          "From sweeps on a GPU (--backend gpu; --backend sim+gpu --metrics for pred.csv):\n"
          "  cbi plot heatmap --input gpu.csv --output heat.png --value gpu_time_ms\n"
          "  cbi plot scatter --input pred.csv --output sc.png --x "
          "l1tex__t_sector_hit_rate.pct_meas "
          "\\\n      --y l1tex__t_sector_hit_rate.pct_pred --series kernel --label order",
          {"output"}))
    return 0;
  viz::PlotSpec spec;
  spec.kind = viz::parse_plot_kind(kind_text);
  if (!cli::has(vm, "input"))
    throw UsageError("--input", "missing; allowed: a CSV file path");
  const std::string input = cli::get(vm, "input", "");
  const std::string text = cli::read_input_file(input, "--input", "a readable CSV file");
  const std::string output = cli::get(vm, "output", "plot.png");
  cli::require_png(output, "--output");
  cli::check_output(output, "--output", false); // the default too, before any work
  spec.x = cli::get(vm, "x", "");
  spec.y = cli::get(vm, "y", "");
  spec.value = cli::get(vm, "value", "");
  spec.series = cli::get(vm, "series", "");
  spec.title = cli::get(vm, "title", "");
  spec.label = cli::get(vm, "label", "");
  spec.x_title = cli::get(vm, "x-title", "");
  spec.y_title = cli::get(vm, "y-title", "");
  spec.same_quantity = !vm["free-axes"].as<bool>();
  if (spec.kind != viz::PlotKind::scatter && cli::has(vm, "label"))
    throw UsageError("--label", "applies to scatter only; allowed: cbi plot scatter --label COL");
  if (spec.kind != viz::PlotKind::scatter && !spec.same_quantity)
    throw UsageError("--free-axes", "applies to scatter only; allowed: cbi plot scatter "
                                    "--free-axes");
  // A heatmap's cells are column width by block (no series); a scatter plots --x against --y (no
  // value column): given to them, these would be ignored.
  if (spec.kind == viz::PlotKind::heatmap && cli::has(vm, "series"))
    throw UsageError("--series", "applies to lines and scatter; allowed: cbi plot lines|scatter "
                                 "--series COL");
  if (spec.kind == viz::PlotKind::scatter && cli::has(vm, "value"))
    throw UsageError("--value", "applies to heatmap and lines; allowed: cbi plot scatter --x COL "
                                "--y COL");
  viz::PlotLayout layout;
  const viz::Canvas c = viz::plot(viz::parse_csv(text), spec, &layout);
  c.save_png(output);
  std::cout << "wrote " << output << " (" << c.width() << " x " << c.height() << " px, "
            << layout.cells << (spec.kind == viz::PlotKind::heatmap ? " cells" : " points")
            << ")\n";
  // What the figure says under the plot, also here: the caption, shared points and rows left out.
  for (const std::string &line : layout.caption)
    std::cout << "caption: " << line << "\n";
  for (const std::string &tie : layout.ties)
    std::cout << "tie: " << tie << "\n";
  for (const std::string &note : layout.notes)
    std::cout << "note: " << note << "\n";
  return 0;
}

const cli::Registration kRegistration{
    {"plot", "heatmap, line and scatter plots of a tidy CSV (cbi sweep) as PNG", cmd_plot, 30}};

} // namespace cbi::viz_app
