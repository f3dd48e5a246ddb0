// The option groups that cbi and cbi-viz spell the same way, in the simulator's terms (workload,
// order, cache levels), and their translation into sim's types. Every bad value is a UsageError
// naming the option; option_for_field names the option that sets a field of sim's or kernels'
// configuration, for errors thrown below this layer.
#pragma once

#include "cbi/cli/options.hpp"
#include "cbi/cli/output.hpp"
#include "cbi/config/defaults.hpp"
#include "cbi/error.hpp"
#include "cbi/order_text.hpp"
#include "cbi/parse.hpp"
#include "cbi/sim/gpu_model.hpp"
#include "cbi/sim/simulate.hpp"

#include <boost/program_options.hpp>

#include <string>
#include <vector>

namespace cbi::config {

namespace po = boost::program_options;
using cli::Fields;

// --workload --size --stencil --depth --type (or its alias --elem-bytes) --boundary --writes
// --kernel --block-order; without `tiled`, the tiled kernels (sgemm-tiled, stencil-smem) are left
// out of the help and --block-order is not an option.
void add_workload_options(po::options_description &desc, bool tiled = true);
sim::Workload workload_from(const po::variables_map &vm);
// The element size that --type half|float|double or its alias --elem-bytes 2|4|8 gives (4 when
// neither); both given must name one type.
int elem_bytes_from(const po::variables_map &vm);
// The spelling of the element type the user gave, for errors about it: --elem-bytes when only it
// was given, else --type.
std::string element_type_option(const po::variables_map &vm);
// --trace FILE (simulate, mrc): a trace, cbi's or Accel-Sim's (docs/traces.md), in place of the
// workload options; point_from reads it, and the applicability table refuses what it fixes.
void add_trace_option(po::options_description &desc);

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

// sim::validate(c), its errors naming the option of `vm` that set the wrong field (--line-bytes
// or --level, ...); then check_memory on what the replay allocates (sim::state_bytes: the levels
// and, with --classify-misses, their shadows), naming --level, --cache-bytes or --lines.
void validate(const sim::SimConfig &c, const po::variables_map &vm);

// The configuration as typed fields (Table::config), the same columns for every workload so that
// CSVs concatenate: workload, width, height, stencil_w, stencil_h, depth, elem_bytes, boundary,
// writes; sim_config_fields adds order and granularity (the cache levels are each row's own). A
// field that does not apply to the kind is an empty cell (JSON null), never a default value.
Fields workload_fields(const sim::Workload &w);
// The keys of workload_fields that do not apply to `w`'s kind (a stencil's depth, matmul's and
// stencil3d's window, matmul's boundary): Table::table_omits, so the terminal table shows only
// what applies.
std::vector<std::string> workload_fields_not_applying(const sim::Workload &w);
// workload_fields as the GPU model runs `w`: it always replays the output store, as the CUDA
// kernels do (a trace keeps its own stores), so `writes` is true whatever --writes said.
Fields gpu_workload_fields(const sim::Workload &w);
Fields sim_config_fields(const sim::SimConfig &c);
// The GPU model's counts under Nsight Compute's names, typed as ncu reports them (counts are
// integers, ".pct" rates doubles), in GpuMetrics::named()'s order: the columns that simulate
// --model gpu, tune and sweep print and that `cbi bench --metrics` measures.
Fields gpu_metric_fields(const sim::GpuMetrics &m);

// The help of --device and --block, with their defaults (defaults.hpp): "device row (cbi
// devices), default h100", "threads per block, default 256".
std::string device_help();
std::string block_help();

// The option that sets a field of sim's or kernels' configuration, for errors that reach the
// boundary naming a field ("workload.size" -> "--size", "cache.capacity" -> "--level"); an option
// passes through. Commands whose options differ map the fields themselves first (single-level
// cache options). The binaries hand it to cli::run_command.
std::string option_for_field(const std::string &field);

} // namespace cbi::config
