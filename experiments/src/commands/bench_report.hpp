// The results of `cbi bench`: the terminal/Markdown/CSV table (one row per configuration) and the
// JSON document (every sample and the full device block, which a flat table cannot hold).
#pragma once

#include "cbi/cli/output.hpp"
#include "cbi/kernels/bench.hpp"

#include <ostream>
#include <string>
#include <vector>

namespace cbi::cli {

// The device block, typed (numbers stay numbers in JSON).
Fields device_meta(const kernels::DeviceInfo &d);

// One row per result: kernel, orders, type, sizes, check, time, noise, roofline, resources, and
// the hardware counters when `metrics`.
Table bench_table(const kernels::DeviceInfo &d, const std::vector<kernels::BenchResult> &results,
                  bool metrics);

// The JSON document: command, date, context, device, and per result its configuration, check,
// resources, times, counters and samples (NaN and infinities as null).
void print_bench_json(std::ostream &os, const kernels::DeviceInfo &d,
                      const std::vector<kernels::BenchResult> &results, const std::string &command,
                      const std::vector<std::string> &notes);

} // namespace cbi::cli
