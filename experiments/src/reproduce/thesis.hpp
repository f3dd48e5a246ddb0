// The numbers the thesis printed (Prasetya 2022, ch. 5, RTX 2080 Super), as one data table that
// `cbi reproduce` plans from, judges against and reports beside ours: Figs 5.1a/5.1b/5.2 (ms per
// order and block), the §5.2 hardware counters, and the conclusion's "up to 8% / 28%".
#pragma once

#include <string>
#include <vector>

namespace cbi::thesis {

// Figs 5.1/5.2's orders: naive (linear) and 16 column widths; their blocks 32 ... 1024.
const std::vector<int> &column_widths();
const std::vector<int> &blocks();

// A table the thesis printed: milliseconds per (order, block). Rows follow column_widths() with
// naive (width 0) first; columns follow blocks().
struct TimeTable {
  std::string figure;                    // "Fig 5.1a"
  std::string caption;                   // what it measured
  std::vector<int> widths;               // 0 = naive
  std::vector<std::vector<double>> ms;   // [width][block]
  double at(int width, int block) const; // NaN when absent
};

// §5.2: matmul 1024x1024, naive against column 32, Nsight Compute.
struct Counters {
  double l1_hit_pct_naive, l1_hit_pct_column32;
  double l2_to_l1_gb_naive, l2_to_l1_gb_column32;
  double l2_hit_pct_naive, l2_hit_pct_column32;
};

struct Numbers {
  TimeTable fig5_1a, fig5_1b, fig5_2;
  Counters sec5_2;
  // The conclusion: CBI improves naive stencils by up to 8% and matmul by up to 28%.
  double stencil_gain, matmul_gain;
};
const Numbers &numbers();

} // namespace cbi::thesis
