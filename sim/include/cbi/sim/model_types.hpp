// The analytical model's vocabulary (cbi/sim/model.hpp computes it): quantities with their thesis
// equation, a fetch figure, notes; and ModelContext, through which each workload
// (cbi/sim/workloads/) writes its own quantities for one cache level.
#pragma once

#include "cbi/sim/cache.hpp"
#include "cbi/sim/workload_params.hpp"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace cbi::sim {

struct ModelQuantity {
  std::string symbol;   // "M_l", "F", "c", "t"
  std::string equation; // "eq. 3.2"
  std::string meaning;  // one line: what it is and under which condition it applies
  double value = 0;
};

enum class FetchKind { upper_bound, estimate, none };

struct LevelModel {
  int level = 0; // 0 = L1
  std::vector<ModelQuantity> quantities;
  // The model's fetch figure for this configuration, to set beside the simulated fetches.
  FetchKind fetch_kind = FetchKind::none;
  double fetches = 0;
  std::string fetch_equation;     // the formula with its condition
  std::string fetch_reference;    // "eq. 3.5"
  std::vector<std::string> notes; // where the model cannot see what the simulation shows
};

// Where the lines that one x position keeps lie: `rows` elements first_elem + k * pitch_elems (a
// stencil's window column, matmul's B column). The set-conflict note counts them per set.
struct WindowColumn {
  int64_t first_elem = 0;
  int64_t pitch_elems = 0;
  int64_t rows = 0;
};

// One level's model as a workload sees it: the workload, the level's geometry, the order's
// parameters, and the model being written.
struct ModelContext {
  const Workload &w;
  const CacheConfig &cache;
  int level;              // 0 = L1
  int64_t active_threads; // t of §4.3
  int64_t column_width;   // c of column:c and zigzag:c, else 0
  int64_t tile_w, tile_h; // tile:TWxTH, else 0
  Granularity granularity;
  LevelModel &out;
  int64_t &suggested_column_width; // written for level 0

  int64_t elems_per_line() const { return std::max<int64_t>(1, cache.line_bytes / w.elem_bytes); }
  void quantity(std::string symbol, std::string equation, std::string meaning, double v) const {
    out.quantities.push_back({std::move(symbol), std::move(equation), std::move(meaning), v});
  }
  void fetch(FetchKind k, double v, std::string reference, std::string formula) const {
    out.fetch_kind = k;
    out.fetches = v;
    out.fetch_reference = std::move(reference);
    out.fetch_equation = std::move(formula);
  }
  void note(std::string text) const { out.notes.push_back(std::move(text)); }
  void suggest(double c) const {
    if (level == 0)
      suggested_column_width = std::max<int64_t>(0, static_cast<int64_t>(std::floor(c)));
  }
};

inline int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// A number as the model notes print it: integers whole, others with 3 significant digits.
inline std::string model_num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, v == std::floor(v) && std::fabs(v) < 1e15 ? "%.0f" : "%.3g", v);
  return buf;
}

} // namespace cbi::sim
