// One preset per thesis diagram: the options (as `cbi diagram` spells them) that reproduce the
// figure with the parameters of Table 3.1 (stencil) or Table 3.2 (matmul).
#pragma once

#include <string>
#include <vector>

namespace cbi::viz {

struct Preset {
  std::string name;              // "fig3.1"
  std::string caption;           // what the figure shows, with its thesis number
  std::vector<std::string> args; // e.g. {"--size", "16x16", "--stencil", "7x7", ...}
};

const std::vector<Preset> &presets();
// Throws UsageError("--preset", ...) listing the allowed names.
const Preset &find_preset(const std::string &name);
std::string preset_names(); // "fig3.1, fig3.2a, ..."

} // namespace cbi::viz
