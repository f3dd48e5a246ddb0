// Internal to kernels/: hardware counters of one kernel launch through the CUPTI range profiler
// (CUDA 13: cupti_range_profiler.h with cupti_profiler_host.h), replayed by us once per pass.
#pragma once

#include "cbi/kernels/bench.hpp"

#include <functional>
#include <memory>
#include <string>

namespace cbi::kernels::detail {

class CounterProfiler {
public:
  // Probes support and builds the configuration for metric_names(); never throws. When counters
  // cannot be read, unavailable() says why in one line.
  explicit CounterProfiler(int device);
  ~CounterProfiler();

  const std::string &unavailable() const { return m_why; }

  // Runs `before_pass` then `launch` once per replay pass inside one user range and evaluates
  // every metric. Failures come back as Metrics{available = false, why = ...}.
  Metrics collect(const std::function<void()> &before_pass, const std::function<void()> &launch);

private:
  struct State;
  std::unique_ptr<State> m_state;
  std::string m_why;
};

} // namespace cbi::kernels::detail
