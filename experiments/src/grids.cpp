// The thesis's chapter-5 grids and printed numbers (Prasetya 2022, §5.1 Figs 5.1-5.4, §5.2).
#include "grids.hpp"

#include "cbi/error.hpp"

#include <cmath>
#include <limits>

namespace cbi::sweep {

namespace {

std::vector<std::string> orders_from(const std::vector<int> &widths) {
  std::vector<std::string> v = {"linear"};
  for (int w : widths)
    v.push_back("column:" + std::to_string(w));
  return v;
}

std::vector<std::string> numbers(const std::vector<int> &xs) {
  std::vector<std::string> v;
  for (int x : xs)
    v.push_back(std::to_string(x));
  return v;
}

// Figs 5.3/5.4 plot columns 32-2048 against N; the thesis gives no table, so the sizes are ours:
// powers of two around the Fig 5.1 sizes (stencil up to 8192, matmul up to 4096).
const std::vector<int> kTrendWidths = {32, 64, 128, 256, 512, 1024, 2048};

Grid base(const std::string &name, const std::string &description, const std::string &kernel,
          const std::vector<std::string> &sizes) {
  Grid g = default_grid();
  g.name = name;
  g.description = description;
  g.set("kernel", {kernel});
  g.set("size", sizes);
  g.set("order", orders_from(thesis_column_widths()));
  g.set("block", numbers(thesis_blocks()));
  return g;
}

} // namespace

const std::vector<int> &thesis_column_widths() {
  static const std::vector<int> w = {4, 8, 16, 30, 31, 32, 33, 34, 48, 64, 96, 128, 256, 512,
                                     1024, 2048};
  return w;
}

const std::vector<int> &thesis_blocks() {
  static const std::vector<int> b = {32, 64, 128, 256, 512, 1024};
  return b;
}

std::vector<std::pair<std::string, std::string>> grid_list() {
  return {
      {"fig5.1a", "stencil 9x9 on 4096x4096 float; naive + 16 column widths x blocks 32-1024"},
      {"fig5.1b", "matmul 1024x1024 float; naive + 16 column widths x blocks 32-1024"},
      {"fig5.2", "stencil 9x9 on 4037x4037 float (not a power of two); as fig5.1a"},
      {"fig5.3", "stencil 9x9, N = 256..8192; naive + columns 32-2048; block 256"},
      {"fig5.4", "matmul NxN, N = 128..4096; naive + columns 32-2048; block 256"},
      {"sec5.2", "matmul 1024x1024; naive, columns 32/64/128; block 256; hardware counters"},
      {"table3.1", "stencil 7x7 on 16x16, Table 3.1 cache (24 lines of 16 B); naive + columns "
                   "1-16 (simulator scale of §3)"},
  };
}

Grid thesis_grid(const std::string &full_name) {
  std::string name = full_name, type = "float";
  for (const char *t : {"half", "double"}) {
    const std::string suffix = std::string("-") + t;
    if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(),
                                                    suffix) == 0) {
      name = name.substr(0, name.size() - suffix.size());
      type = t;
    }
  }
  Grid g;
  if (name == "fig5.1a")
    g = base(name, "Fig 5.1a: 9x9 stencil on 4096x4096", "stencil", {"4096"});
  else if (name == "fig5.1b")
    g = base(name, "Fig 5.1b: matmul of two 1024x1024 matrices", "matmul", {"1024"});
  else if (name == "fig5.2")
    g = base(name, "Fig 5.2: 9x9 stencil on 4037x4037", "stencil", {"4037"});
  else if (name == "fig5.3" || name == "fig5.4") {
    const bool stencil = name == "fig5.3";
    g = base(name,
             stencil ? "Fig 5.3: 9x9 stencil, time against input size N"
                     : "Fig 5.4: matmul, time against input size N",
             stencil ? "stencil" : "matmul",
             stencil ? numbers({256, 512, 1024, 2048, 4096, 8192})
                     : numbers({128, 256, 512, 1024, 2048, 4096}));
    g.set("order", orders_from(kTrendWidths));
    g.set("block", {"256"});
  } else if (name == "sec5.2") {
    g = base(name, "§5.2: matmul 1024x1024 hardware counters, naive against columns", "matmul",
             {"1024"});
    g.set("order", orders_from({32, 64, 128}));
    g.set("block", {"256"});
    g.set("cache", {"turing"});
    g.metrics = true;
  } else if (name == "table3.1") {
    g = base(name, "Table 3.1: 7x7 stencil on 16x16, 24 lines of 4 elements", "stencil", {"16"});
    g.set("stencil", {"7x7"});
    g.set("order", orders_from({1, 2, 4, 8, 16}));
    g.set("block", {"256"});
    g.set("cache", {"table3"});
  } else {
    std::string allowed;
    for (const auto &[n, d] : grid_list())
      allowed += (allowed.empty() ? "" : ", ") + n;
    throw UsageError("--grid", "unknown grid '" + full_name + "'; allowed: " + allowed +
                                   " (each also as NAME-half, NAME-double)");
  }
  g.name = full_name;
  g.set("type", {type});
  if (type != "float")
    g.description += " (" + type + ")";
  return g;
}

double ThesisTable::at(int width, int block) const {
  const auto &blocks = thesis_blocks();
  for (std::size_t r = 0; r < widths.size(); ++r)
    for (std::size_t c = 0; c < blocks.size(); ++c)
      if (widths[r] == width && blocks[c] == block)
        return ms[r][c];
  return std::numeric_limits<double>::quiet_NaN();
}

std::optional<ThesisTable> thesis_table(const std::string &grid) {
  ThesisTable t;
  t.widths = {0};
  for (int w : thesis_column_widths())
    t.widths.push_back(w);
  if (grid == "fig5.1a") {
    t.figure = "Fig 5.1a";
    t.caption = "9x9 stencil on 4096x4096 float, ms, RTX 2080 Super";
    t.ms = {
        {2.02, 1.42, 1.42, 1.46, 1.51, 1.62}, // naive
        {7.61, 7.55, 7.53, 7.48, 7.47, 7.6},  // 4
        {4.09, 3.91, 3.88, 3.84, 3.84, 3.84}, // 8
        {2.17, 2.05, 2.02, 1.99, 2, 2.1},     // 16
        {2.27, 2.14, 2.09, 2.05, 2.04, 2.19}, // 30
        {2.28, 2.13, 2.09, 2.06, 2.05, 2.2},  // 31
        {1.48, 1.36, 1.32, 1.29, 1.37, 1.62}, // 32
        {2.23, 2.03, 2, 1.95, 1.92, 2.08},    // 33
        {2.14, 1.98, 1.95, 1.9, 1.87, 2.04},  // 34
        {1.69, 1.68, 1.66, 1.58, 1.55, 1.81}, // 48
        {1.46, 1.39, 1.38, 1.31, 1.33, 1.59}, // 64
        {1.47, 1.44, 1.44, 1.36, 1.34, 1.61}, // 96
        {1.47, 1.47, 1.47, 1.38, 1.34, 1.6},  // 128
        {1.47, 1.46, 1.47, 1.46, 1.38, 1.6},  // 256
        {1.49, 1.47, 1.46, 1.45, 1.47, 1.61}, // 512
        {1.49, 1.46, 1.46, 1.45, 1.47, 1.68}, // 1024
        {1.49, 1.45, 1.45, 1.44, 1.47, 1.67}, // 2048
    };
  } else if (grid == "fig5.1b") {
    t.figure = "Fig 5.1b";
    t.caption = "matmul 1024x1024 float, ms, RTX 2080 Super";
    t.ms = {
        {2.36, 2.31, 2.31, 2.31, 2.34, 2.38}, // naive
        {6.55, 6.55, 6.55, 6.57, 6.58, 6.58}, // 4
        {3.67, 3.66, 3.66, 3.66, 3.65, 3.75}, // 8
        {2.35, 2.34, 2.34, 2.32, 2.29, 2.29}, // 16
        {2.43, 2.44, 2.44, 2.43, 2.35, 2.37}, // 30
        {2.51, 2.49, 2.48, 2.53, 2.55, 2.89}, // 31
        {1.83, 1.85, 1.85, 1.85, 1.74, 1.74}, // 32
        {3, 3.01, 3, 3.07, 3.07, 3.46},       // 33
        {2.88, 2.89, 2.89, 2.91, 2.8, 2.89},  // 34
        {2.22, 2.23, 2.22, 2.21, 2.1, 2.09},  // 48
        {1.81, 1.81, 1.81, 1.81, 1.72, 1.68}, // 64
        {2.03, 1.97, 1.99, 1.8, 1.75, 1.68},  // 96
        {2.13, 2.15, 2.3, 1.77, 1.71, 1.66},  // 128
        {2.26, 2.24, 2.3, 2.31, 1.74, 1.68},  // 256
        {2.32, 2.28, 2.31, 2.31, 2.34, 1.82}, // 512
        {2.35, 2.3, 2.31, 2.31, 2.32, 2.38},  // 1024
        {2.36, 2.31, 2.3, 2.31, 2.32, 2.38},  // 2048
    };
  } else if (grid == "fig5.2") {
    t.figure = "Fig 5.2";
    t.caption = "9x9 stencil on 4037x4037 float, ms, RTX 2080 Super";
    t.ms = {
        {2.04, 1.36, 1.37, 1.41, 1.46, 1.58}, // naive
        {4.71, 4.45, 4.37, 4.29, 4.27, 4.81}, // 4
        {3.71, 3.32, 3.26, 3.17, 3.16, 3.26}, // 8
        {2.45, 2.23, 2.15, 2.09, 2.08, 2.23}, // 16
        {2.43, 2.24, 2.16, 2.07, 2.04, 2.22}, // 30
        {2.42, 2.23, 2.14, 2.07, 2.04, 2.22}, // 31
        {1.46, 1.31, 1.27, 1.25, 1.31, 1.63}, // 32
        {2.3, 2.16, 2.06, 2, 1.98, 2.17},     // 33
        {2.24, 2.09, 2.02, 1.96, 1.91, 2.13}, // 34
        {1.66, 1.61, 1.6, 1.53, 1.49, 1.8},   // 48
        {1.46, 1.34, 1.33, 1.28, 1.31, 1.62}, // 64
        {1.47, 1.38, 1.38, 1.3, 1.32, 1.63},  // 96
        {1.47, 1.39, 1.4, 1.32, 1.31, 1.61},  // 128
        {1.45, 1.39, 1.38, 1.39, 1.34, 1.62}, // 256
        {1.46, 1.38, 1.38, 1.38, 1.41, 1.63}, // 512
        {1.47, 1.38, 1.38, 1.38, 1.41, 1.67}, // 1024
        {1.51, 1.38, 1.37, 1.37, 1.41, 1.67}, // 2048
    };
  } else {
    return std::nullopt;
  }
  return t;
}

} // namespace cbi::sweep
