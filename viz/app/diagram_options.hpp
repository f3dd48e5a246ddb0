// The options `cbi diagram` and `cbi view` share: a preset, the workload and cache options of
// `cbi simulate` (cbi/cli/options.hpp), one --order per panel, binning and styling. Turned into
// the grid specs and the style that viz renders.
#pragma once

#include "cbi/config/options.hpp"
#include "cbi/viz/diagram.hpp"
#include "cbi/viz/grid.hpp"

#include <string>
#include <vector>

namespace cbi::viz_app {

namespace po = boost::program_options;

// --preset, workload, cache, --order (repeatable), --granularity, --bin, --max-px, --cell-px,
// --warp, --block, --greyscale, --title; --model, --device, --sm (--model gpu).
void add_diagram_options(po::options_description &desc);

// config::expand_preset: argv with the preset's options in front, the user's own winning.
std::vector<std::string> expand_preset(const std::vector<std::string> &argv);

// cbi diagram's and cbi view's argv: --preset expanded (expand_preset), then cli::parse_args
// against `desc`; false on --help.
bool parse_preset_argv(int argc, char **argv, const po::options_description &desc,
                       po::variables_map &vm, const std::string &usage, const std::string &examples,
                       const std::vector<std::string> &files_only = {});

struct DiagramRequest {
  std::vector<viz::GridSpec> panels; // one per --order, identical bins
  viz::DiagramStyle style;
  std::string preset; // name, if one was used
  // --model gpu: one GPU-model configuration per --order and the SM to draw (panels stays
  // empty). Bins come from --bin, else they are fitted once the traces' lengths are known, within
  // gpu_max_cols x gpu_max_rows cells (cells of --min-cell-px unless --cell-px is given).
  std::vector<sim::GpuConfig> gpu;
  int sm = 0;
  viz::Binning gpu_bins{0, 0};
  int64_t gpu_max_cols = 0, gpu_max_rows = 0;
  bool fit_to_figure = true;
  bool miss_level_given = false; // --miss-level: refused where the cells are not binned
};

// Throws UsageError naming the offending option, or --max-px / --bin when the panels would not
// fit in memory (diagram_memory_bytes against the available memory).
DiagramRequest diagram_request(const po::variables_map &vm);

// --miss-level given (r.miss_level_given) where the cells are not binned: a UsageError naming it
// (it colours binned cells only). cbi view calls it again once it fits the bins to its window.
void refuse_unbinned_miss_level(const DiagramRequest &r, const viz::Binning &bins);

// An upper estimate of the bytes the sequential model's panels take: grids, cache state, image.
double diagram_memory_bytes(const DiagramRequest &r);

// Builds every panel's grid (progress on stderr for long runs when `progress`). `check`, if given,
// is called as each panel's replay goes, from its thread, and may throw to stop it
// (cbi.diagram_cells stops on Ctrl-C this way).
std::vector<viz::Grid> build_panels(const DiagramRequest &r, bool progress,
                                    const sim::Progress &check = {});

// Parses a full argument vector (argv[0] first) as `cbi diagram` would; for tests.
DiagramRequest parse_diagram_args(const std::vector<std::string> &argv);

} // namespace cbi::viz_app
