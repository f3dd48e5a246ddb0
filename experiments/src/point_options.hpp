// The command-line options of `cbi simulate` and `cbi bench` as points: every value is parsed and
// checked under its option's name (exit 2 names --ways, not cache.ways), so that a point built here
// runs as given. The commands then take their configurations from the point alone (point.hpp).
#pragma once

#include "point.hpp"

#include "cbi/config/options.hpp"

#include <string>
#include <vector>

namespace cbi::sweep {

// simulate's workload, order, cache and --model gpu options (--workload --size --stencil --depth
// --elem-bytes --boundary --writes --order --granularity --classify-misses, the single-level cache
// options or --level, --device --block --sample-sms). The cache becomes level specs
// (config::level_spec); `gpu` sets p.device (h100 when --device is absent) and p.block_threads.
Point simulate_point(const cli::po::variables_map &vm, bool gpu);

// bench's lists (--kernel --order --block-order --remap-math --type) crossed with its sizes and
// block: one point per combination that applies to its kernel (an order for remapped kernels, a
// block order for block-ordered ones). In a list, a combination whose kernel lacks the type
// (sgemm-tiled in half) is left out with a note; a single combination must be valid.
struct BenchPoints {
  std::vector<Point> points;
  std::vector<std::string> notes;
};
BenchPoints bench_points(const cli::po::variables_map &vm);

// bench's measurement settings (--no-check --no-time --metrics --cold --min-samples --max-noise
// --max-seconds --seed): how to measure a point, not what runs, so they stay off the point. The
// configuration's other fields keep their defaults.
kernels::BenchConfig measurement_from(const cli::po::variables_map &vm);
// `c` (a point's configuration) measured as `m` says.
kernels::BenchConfig with_measurement(kernels::BenchConfig c, const kernels::BenchConfig &m);

} // namespace cbi::sweep
