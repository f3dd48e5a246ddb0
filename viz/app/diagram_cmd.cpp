// cbi diagram: labelled spatial-temporal diagrams as PNG (and the cell grid as CSV), rendered with
// no display: text comes from FreeType, the PNG from sf::Image.
#include "cbi/cli/command.hpp"
#include "cbi/cli/output.hpp"
#include "cbi/cli/progress.hpp"
#include "diagram_options.hpp"

#include "cbi/config/applicability.hpp"

#include <chrono>
#include <iostream>
#include <unistd.h>

namespace cbi::viz_app {

int cmd_diagram(int argc, char **argv) {
  po::options_description desc("Options");
  add_diagram_options(desc);
  // clang-format off
  desc.add_options()
    ("output,o", po::value<std::string>(), "write the PNG to this file (default diagram.png); a "
                                           "regular file is replaced atomically, a FIFO, device or "
                                           "symlink's target is written through")
    ("csv", po::value<std::string>(), "also write the cell grid as tidy CSV (one row per cell that "
                                      "is not 'not cached'; '-' for stdout)")
    ("progress", po::bool_switch(), "progress on stderr even when it is not a terminal (a log, a "
                                    "batch job): the threads replayed, elapsed time and ETA (on "
                                    "a terminal it is always shown)");
  // clang-format on
  po::variables_map vm;
  if (!parse_preset_argv(
          argc, argv, desc, vm,
          "usage: cbi diagram [--preset NAME] [options] [-o diagram.png] [--csv cells.csv]\n\n"
          "Draws the spatial-temporal diagram of §3.2: time runs left to right (one column per "
          "thread, or per\naccess with --granularity exact), cache lines top to bottom. Each cell "
          "is fetched (a miss), hit,\nin cache (resident, not accessed) or not cached; with "
          "several "
          "--level options, coloured by the level\nthat served the access. Ticks on the line axis "
          "mark array rows; marks above the grid the order's\ngroups (task rows, columns or "
          "tiles), "
          "--warp and --block starts. Each --order adds a panel at the\nsame scale, with its own "
          "stats. Large traces are binned (the bin size is printed; a bin's colour is\nthe share "
          "of "
          "its accesses that missed L1, or --miss-level). Needs no display.\nA --size too large to "
          "draw (a cell counts up to 2^32 accesses, an SM's trace 2^32 instructions)\nis refused "
          "before any work, with the largest that draws. One over 2^30 accesses (minutes to "
          "hours)\n"
          "says up front how many it replays, then shows progress with an ETA on stderr.\n\n"
          "--model gpu draws one SM (--sm) of the GPU model (docs/gpu-model.md) instead: time in "
          "that SM's warp\ninstructions (issue order, all its resident warps interleaved), rows of "
          "32-byte sectors, each cell\nan L1 hit, served by L2 or from DRAM; CTA and warp starts "
          "marked above (and, unbinned, bands\nnaming each instruction's CTA and warp). The "
          "device row sets the caches; --block the launch.\n\n" +
              config::applicability_help(desc, "diagram"),
          "  cbi diagram --preset fig3.1 -o fig3.1.png          # thesis figure 3.1 (Table 3.1)\n"
          "  cbi diagram --preset fig3.1 --order linear --order column:4 --order tile:4 -o "
          "cmp.png\n"
          "  cbi diagram --preset fig4.6 --greyscale --csv fig4.6.csv -o fig4.6.png\n"
          "  cbi diagram --size 4096 --stencil 9x9 --line-bytes 128 --cache-bytes 32KiB --ways 8 "
          "-o big.png\n"
          "  cbi diagram --size 64 --level size=1KiB,line=64 --level size=8KiB,line=64 --warp 32 "
          "-o levels.png\n"
          "  cbi diagram --model gpu --device h100 --block 256 --sm 0 --workload matmul --size 256 "
          "\\\n      --order linear,column:32 -o sm0.png      # one SM of the GPU model",
          {"output"}))
    return 0;
  const std::string output = cli::get(vm, "output", "diagram.png");
  if (output.empty() || output == "-")
    throw UsageError("--output", "'" + output + "' is not a file; allowed: a path ending in .png");
  cli::require_png(output, "--output");
  cli::check_output(output, "--output", false); // the default too, before any work
  if (vm.count("csv"))
    cli::require_format_of_path(cli::get(vm, "csv", ""), "--csv", "csv");
  const DiagramRequest req = diagram_request(vm);
  double accesses = 0;
  for (const viz::GridSpec &p : req.panels)
    accesses += double(p.sim.workload.accesses());
  for (const sim::GpuConfig &g : req.gpu)
    accesses += double(g.workload.accesses());
  // On a terminal, and for a long replay also in a log (lines per tenth).
  // The replay and its cells: 30 to 200 million accesses a second (docs/results/viz-speed.md).
  cli::announce_long_run("cbi diagram", accesses, "a smaller --size", 3e7, 2e8);
  const bool progress =
      (vm.count("progress") && vm["progress"].as<bool>()) || isatty(2) || cli::long_run(accesses);
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<viz::Grid> grids = build_panels(req, progress);
  viz::DiagramLayout layout;
  const viz::Canvas canvas = viz::render_diagram(grids, req.style, &layout);
  // The CSV first: a CSV that cannot be written (a full disk) leaves no PNG behind, where the PNG
  // was already in place when the command failed.
  if (vm.count("csv"))
    cli::write_file_atomic(cli::get(vm, "csv", "-"), viz::grid_csv(grids), "--csv");
  canvas.save_png(output);
  // With the CSV on stdout the summary goes to stderr, so the CSV stays machine-readable.
  std::ostream &report = cli::get(vm, "csv", "") == "-" ? std::cerr : std::cout;
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  report << "wrote " << output << " (" << canvas.width() << " x " << canvas.height() << " px, "
         << grids.front().cols << " x " << grids.front().rows << " cells of " << layout.cell_w
         << " x " << layout.cell_h << " px, " << seconds << " s)\n"
         << cli::wrap_text("bin: ", viz::bin_text(grids.front(), req.style.miss_level), 5);
  for (const viz::Grid &g : grids) {
    report << "order " << remap::to_string(g.sim.order)
           << (g.gpu ? " (GPU model, SM " + std::to_string(g.gpu->sm) + ")" : "") << "\n";
    for (const std::string &line : viz::stats_lines(g))
      report << cli::wrap_text("  ", line, 4); // the terminal's 100 columns
  }
  return 0;
}

const cli::Registration kRegistration{
    {"diagram", "spatial-temporal diagrams (§3.2) as labelled PNG; no display needed", cmd_diagram,
     10}};

} // namespace cbi::viz_app
