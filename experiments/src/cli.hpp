// The CLI's shared pieces: the subcommand registry, the options every subcommand spells the same way
// (workload, order, cache levels, output), and the error boundary that turns a UsageError into one
// line and exit code 2.
#pragma once

#include "cbi/error.hpp"
#include "cbi/remap/order.hpp"
#include "cbi/sim/simulate.hpp"
#include "output.hpp"

#include <boost/program_options.hpp>

#include <functional>
#include <string>
#include <vector>

namespace cbi::cli {

namespace po = boost::program_options;

constexpr int kExitUsage = 2;
constexpr int kExitNoDevice = 3;

struct Command {
  const char *name;
  const char *summary;
  int (*run)(int argc, char **argv); // argv[0] is "cbi <name>"
};

// Runs `c` on argv[1..] (argv[1] is the command's name) and turns its exceptions into exit codes:
// UsageError -> one line naming the option, kExitUsage; any other exception -> one line, 1.
int run_command(const Command &c, int argc, char **argv);

// "a,b,c" -> {"a", "b", "c"}; inner empty items are kept, a trailing separator adds none.
std::vector<std::string> split_list(const std::string &text, char sep = ',');

// Parses argv against `desc`; all values are strings and validated by the caller. Prints help and
// returns false on --help. Unknown options and missing values become UsageError.
bool parse_args(int argc, char **argv, const po::options_description &desc, po::variables_map &vm,
                const std::string &usage, const std::string &examples);

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

// --order, --granularity exact|thread
void add_order_options(po::options_description &desc);
sim::Granularity parse_granularity(const std::string &text);

// Workload, order, granularity and cache levels from the option groups above, validated.
sim::SimConfig sim_config_from(const po::variables_map &vm);

// --format --output
void add_output_options(po::options_description &desc);
Format format_from(const po::variables_map &vm);
// Prints `t` in the chosen format to --output (atomically) or stdout.
void emit(const po::variables_map &vm, const Table &t);

} // namespace cbi::cli
