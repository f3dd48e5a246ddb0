#include "cbi/viz/presets.hpp"

#include "cbi/error.hpp"

namespace cbi::viz {

namespace {

// Table 3.1 (stencil): 24 lines of 4 floats (16 B), LRU, 7x7 stencil, 16x16 input. The thesis
// diagrams are per thread (§3.2: "we do not need the granularity of the individual memory
// accesses within a thread") and their footprint is I_w + S_w per row (eq. 3.2), i.e. unclamped.
std::vector<std::string> stencil(const std::string &order, const std::string &lines) {
  // Option and value pairs, as typed on the command line.
  // clang-format off
  return {"--workload", "stencil", "--size", "16x16", "--stencil", "7x7", "--boundary", "none",
          "--line-bytes", "16", "--lines", lines, "--policy", "lru",
          "--granularity", "thread", "--order", order};
  // clang-format on
}

// Table 3.2 (matmul): 32 lines of 4 floats, LRU, 16x16 matrices.
std::vector<std::string> matmul(const std::string &order) {
  // clang-format off
  return {"--workload", "matmul", "--size", "16x16", "--line-bytes", "16", "--lines", "32",
          "--policy", "lru", "--granularity", "thread", "--order", order};
  // clang-format on
}

} // namespace

const std::vector<Preset> &presets() {
  static const std::vector<Preset> all = {
      {"fig3.1", "Figure 3.1: 7x7 stencil, linear order (Table 3.1)", stencil("linear", "24")},
      // eq. 3.2: M_l >= ceil((I_w + S_w) / L) * S_h = ceil(23 / 4) * 7 = 42 lines: no chasing.
      {"fig3.2a", "Figure 3.2a: ideal cache size, 42 lines from eq. 3.2 (only minimal loading)",
       stencil("linear", "42")},
      // Half of Table 3.1's cache: rows are evicted before the next task row can reuse them.
      {"fig3.2b", "Figure 3.2b: cache too small, 12 lines (evicted before any reuse)",
       stencil("linear", "12")},
      {"fig3.3", "Figure 3.3: matrix multiplication, linear order (Table 3.2)", matmul("linear")},
      {"fig4.4", "Figure 4.4: 7x7 stencil, column of 4 (Table 3.1)", stencil("column:4", "24")},
      {"fig4.6", "Figure 4.6: matrix multiplication, column of 4 (Table 3.2)", matmul("column:4")},
      {"tiling4", "Tiling (§3.3.2): 7x7 stencil, 4x4 tiles (Table 3.1)", stencil("tile:4", "24")},
  };
  return all;
}

std::string preset_names() {
  std::string s;
  for (const Preset &p : presets())
    s += (s.empty() ? "" : ", ") + p.name;
  return s;
}

const Preset &find_preset(const std::string &name) {
  for (const Preset &p : presets())
    if (p.name == name)
      return p;
  throw UsageError("--preset", "unknown preset '" + name + "'; allowed: " + preset_names());
}

} // namespace cbi::viz
