// The text side of the preset table (cbi/sim/presets.hpp): a preset as the options that every
// command reads (`--preset NAME` expands to them, the user's own options win), its configuration
// in one line for titles and listings, and the table that `cbi presets` prints.
#pragma once

#include "cbi/cli/output.hpp"
#include "cbi/config/options.hpp"
#include "cbi/sim/presets.hpp"

#include <boost/program_options.hpp>

#include <string>
#include <vector>

namespace cbi::config {

// The preset's configuration as option-value pairs, as `cbi simulate` spells them: --workload,
// --size, --stencil, --depth, --type, --boundary, --granularity, the cache (--line-bytes,
// --lines, --ways, --policy, or one --level per level when there are several) and --order (all
// of its orders, a comma list).
std::vector<std::string> preset_args(const sim::Preset &p);

// argv with the options of the preset named by --preset put in front, minus those the user gives
// or that conflict with the user's (--cache-bytes replaces --lines, --level every single-level
// option, any --order all of the preset's orders); argv unchanged without --preset. argv[0] is
// kept. `first_order_only`: the preset's first order instead of all (a command that runs one).
// Throws UsageError("--preset", ...) listing the names for an unknown one.
// `known`: if given, the preset's options that it does not declare are left out (mrc has no
// --lines: its curve covers every capacity).
std::vector<std::string>
expand_preset(const std::vector<std::string> &argv, bool first_order_only = false,
              const boost::program_options::options_description *known = nullptr);

// cli::parse_args (cbi/cli/options.hpp) with --preset: declares the option in `desc` (its help
// names every preset), expands argv as above, then parses. For commands that run one order.
bool parse_preset_args(int argc, char **argv, boost::program_options::options_description &desc,
                       boost::program_options::variables_map &vm, const std::string &usage,
                       const std::string &examples);

// The configuration in one line, what counts included: "stencil 7x7 on 16x16 float, no boundary;
// L1 384 B fully associative lru, 16 B lines (24 lines); thread granularity (hit rates per
// thread-line)". The order is not part of it.
std::string describe_config(const sim::SimConfig &c);

// What a hit rate of `g` counts, for labels: "hit rate per access" or "hit rate per thread-line";
// and the column names: "hit_pct" / "thread_line_hit_pct", "accesses" / "thread_lines".
std::string hit_rate_label(sim::Granularity g);
std::string hit_pct_column(sim::Granularity g);
std::string accesses_column(sim::Granularity g);

// `cbi presets`: one row per preset with its full configuration.
cli::Table presets_table();
// `cbi presets NAME`: the row of that preset, and a note with the options it stands for. An
// unknown name is a UsageError naming `option` with the allowed names.
cli::Table preset_table(const std::string &name, const std::string &option);

} // namespace cbi::config
