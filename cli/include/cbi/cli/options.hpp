// The option groups that cbi and cbi-viz spell the same way (workload, order, cache levels,
// output) and their translation into sim's types. Every bad value is a UsageError naming the
// option.
#pragma once

#include "cbi/cli/output.hpp"
#include "cbi/error.hpp"
#include "cbi/order_text.hpp"
#include "cbi/parse.hpp"
#include "cbi/sim/gpu_model.hpp"
#include "cbi/sim/simulate.hpp"

#include <boost/program_options.hpp>

#include <functional>
#include <string>
#include <vector>

namespace cbi::cli {

namespace po = boost::program_options;

// Parses argv against `desc`; all values are strings and validated by the caller. Prints help and
// returns false on --help. Unknown options, missing values and stray words (any argument that is
// not an option or its value) become UsageError. The output options (--output, --json, --csv,
// --screenshot) are checked with check_output before any work starts; those named in `files_only`
// (a PNG) cannot be stdout, those named in `folders` (reproduce's report) are checked as folders
// the command creates (check_output_folder).
bool parse_args(int argc, char **argv, const po::options_description &desc, po::variables_map &vm,
                const std::string &usage, const std::string &examples,
                const std::vector<std::string> &files_only = {},
                const std::vector<std::string> &folders = {});

// A list option: declared with list_value(), given as a comma list, by repeating the option, or
// both (`--order linear,column:4 --order column:8`). Empty items are errors.
inline po::typed_value<std::vector<std::string>> *list_value() {
  return po::value<std::vector<std::string>>()->composing();
}
std::vector<std::string> list_from(const po::variables_map &vm, const std::string &name,
                                   const std::vector<std::string> &fallback = {});

// The help of -o/--output, the same in every command.
constexpr const char *kOutputHelp = "write the result to this file instead of stdout (- is "
                                    "stdout); a regular file is replaced atomically, a FIFO, "
                                    "device or symlink's target is written through";

std::string get(const po::variables_map &vm, const std::string &name, const std::string &fallback);
bool has(const po::variables_map &vm, const std::string &name);

// --workload --size --stencil --depth --elem-bytes --boundary --writes
void add_workload_options(po::options_description &desc);
sim::Workload workload_from(const po::variables_map &vm);

// --line-bytes --lines --cache-bytes --ways --policy --sector-bytes --seed --level
void add_cache_options(po::options_description &desc);
std::vector<sim::CacheConfig> levels_from(const po::variables_map &vm, const sim::Workload &w);
// One --level spec: "size=32KiB,line=128,ways=8[,policy=lru][,sector=32][,seed=1]" or lines=N.
sim::CacheConfig parse_level(const std::string &spec, const sim::Workload &w);
// The spec of `c` that parse_level reads back as `c`: "lines=24,line=16,ways=0,policy=lru" plus
// ",sector=N" when sectored and ",seed=N" when not 1.
std::string level_spec(const sim::CacheConfig &c);

// --order, --granularity exact|thread
void add_order_options(po::options_description &desc);
sim::Granularity parse_granularity(const std::string &text);

// Workload, order, granularity and cache levels from the option groups above, validated.
sim::SimConfig sim_config_from(const po::variables_map &vm);
// sim::validate(c), its errors naming the option of `vm` that set the wrong field (--line-bytes
// or --level, ...); then check_memory on what the replay allocates (sim::state_bytes: the levels
// and, with --classify-misses, their shadows), naming --level, --cache-bytes or --lines.
void validate(const sim::SimConfig &c, const po::variables_map &vm);

// The configuration as typed fields (Table::config), the same columns for every workload so that
// CSVs concatenate: workload, width, height, stencil_w, stencil_h, depth, elem_bytes, boundary,
// writes; sim_config_fields adds order and granularity (the cache levels are each row's own).
Fields workload_fields(const sim::Workload &w);
Fields sim_config_fields(const sim::SimConfig &c);
// The GPU model's counts under Nsight Compute's names, typed as ncu reports them (counts are
// integers, ".pct" rates doubles), in GpuMetrics::named()'s order: the columns that simulate
// --model gpu, tune and sweep print and that `cbi bench --metrics` measures.
Fields gpu_metric_fields(const sim::GpuMetrics &m);

// --format --output
void add_output_options(po::options_description &desc);
const Printer &format_from(const po::variables_map &vm); // --format, default table
// Prints `t` in the chosen format to --output (atomically) or stdout.
void emit(const po::variables_map &vm, const Table &t);

} // namespace cbi::cli
