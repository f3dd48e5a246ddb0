// The thesis's grids (Prasetya 2022, ch. 5) built in for `cbi sweep --grid` and `cbi reproduce`;
// the numbers the thesis printed for them are in thesis.hpp.
#pragma once

#include "sweep.hpp"

#include <string>
#include <vector>

namespace cbi::sweep {

// Every built-in grid name with one line on what it is; each also exists as NAME-half and
// NAME-double (the element type axis set to half or double, §5.1).
std::vector<std::pair<std::string, std::string>> grid_list();

// The presets (cbi/sim/presets.hpp) that are not grids because sweep points count every access
// of a clamped kernel: "table3.1, table3.2, fig3.1, ...".
std::string unsweepable_presets();

// The grid called `name` (see grid_list), or UsageError naming --grid with the allowed names.
Grid thesis_grid(const std::string &name);

} // namespace cbi::sweep
