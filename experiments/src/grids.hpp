// The thesis's grids (Prasetya 2022, ch. 5) built in for `cbi sweep --grid` and `cbi reproduce`, and
// the numbers the thesis printed for them (RTX 2080 Super), so reports can set ours beside theirs.
#pragma once

#include "sweep.hpp"

#include <optional>
#include <string>
#include <vector>

namespace cbi::sweep {

// Every built-in grid name with one line on what it is; each also exists as NAME-half and
// NAME-double (the element type axis set to half or double, §5.1).
std::vector<std::pair<std::string, std::string>> grid_list();

// The grid called `name` (see grid_list), or UsageError naming --grid with the allowed names.
Grid thesis_grid(const std::string &name);

// The thesis's orders for Figs 5.1/5.2: naive (linear) and 16 column widths.
const std::vector<int> &thesis_column_widths();
const std::vector<int> &thesis_blocks(); // 32 ... 1024

// A table the thesis printed: milliseconds per (order, block). Rows follow thesis_column_widths()
// with naive (width 0) first; columns follow thesis_blocks().
struct ThesisTable {
  std::string figure;  // "Fig 5.1a"
  std::string caption; // what it measured
  std::vector<int> widths; // 0 = naive
  std::vector<std::vector<double>> ms; // [width][block]
  double at(int width, int block) const; // NaN when absent
};
std::optional<ThesisTable> thesis_table(const std::string &grid); // fig5.1a, fig5.1b, fig5.2

// §5.2 (matmul 1024x1024, naive vs column 32, RTX 2080 Super, Nsight Compute).
struct ThesisCounters {
  double l1_hit_pct_naive = 19.49, l1_hit_pct_column32 = 77.40;
  double l2_to_l1_gb_naive = 4.02, l2_to_l1_gb_column32 = 1.13;
  double l2_hit_pct_naive = 98.52, l2_hit_pct_column32 = 95.73;
};

} // namespace cbi::sweep
