// Named configurations, one row each: the full simulator configuration (workload, sizes, stencil,
// boundary, element size, granularity, cache levels) and the thread orders that the thesis draws
// for it. Every command reads a name from this one table: `cbi simulate --preset`, `cbi sweep
// --grid`, `cbi diagram`/`cbi view --preset`, the reproduction's §6 and `cbi presets`. Adding a
// preset is one row in presets.cpp.
#pragma once

#include "cbi/sim/simulate.hpp"

#include <string>
#include <vector>

namespace cbi::sim {

struct Preset {
  std::string name;                 // "table3.1"
  std::string caption;              // the figure's title, with its thesis number
  std::string source;               // where in the thesis each setting comes from
  SimConfig config;                 // everything but the order; config.order is orders.front()
  std::vector<remap::Order> orders; // diagram panels, the sweep's order axis; simulate runs the
                                    // first unless --order says otherwise
};

const std::vector<Preset> &presets();
std::string preset_names(); // "table3.1, table3.1-clamp-exact, ..."
// The row called `name`, or UsageError naming `option` and listing the allowed names.
const Preset &find_preset(const std::string &name, const std::string &option = "--preset");

} // namespace cbi::sim
