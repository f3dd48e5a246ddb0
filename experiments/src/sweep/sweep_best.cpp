#include "sweep_best.hpp"

#include "cbi/config/axis.hpp"
#include "grid.hpp"
#include "store.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

namespace cbi::sweep {

namespace {

double number(const cli::Cell &c) {
  if (const auto *i = std::get_if<int64_t>(&c))
    return double(*i);
  if (const auto *d = std::get_if<double>(&c))
    return *d;
  return NAN;
}

// The value the runs are ranked by and its tie margin for two values (with their noise).
struct Measure {
  std::string column;
  double model_tie = 0; // a fixed relative margin (the model's error), 0 for exact counts
  bool noisy = false;   // measured: twice the worse noise, at least 1%
};

Measure measure_of(const cli::Table &t) {
  auto has_values = [&](const std::string &name) {
    const std::size_t c = column_index(name);
    return std::any_of(t.rows.begin(), t.rows.end(),
                       [&](const auto &row) { return std::isfinite(number(row[c])); });
  };
  if (has_values("gpu_time_ms"))
    return {"gpu_time_ms", 0, true};
  if (has_values("predicted_ms"))
    return {"predicted_ms", 0.085, false};
  return {"sim_l1_misses", 0, false};
}

std::string percent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * fraction);
  return buf;
}

} // namespace

std::vector<std::string> best_orders(const cli::Table &t, std::size_t limit) {
  const Measure m = measure_of(t);
  const std::size_t value = column_index(m.column), noise = column_index("gpu_noise"),
                    order = column_index("order");
  // Groups: every axis but the order; named by the axes that vary between rows.
  std::vector<std::size_t> axes;
  for (const std::string &name : axis_names())
    if (name != "order") {
      std::set<std::string> seen;
      for (const auto &row : t.rows)
        seen.insert(cli::format_cell(row[column_index(name)]));
      if (seen.size() > 1)
        axes.push_back(column_index(name));
    }
  struct Run {
    std::string order;
    double value, noise;
  };
  std::map<std::string, std::vector<Run>> groups;
  std::vector<std::string> group_order;
  for (const auto &row : t.rows) {
    const double v = number(row[value]);
    const std::string o = cli::format_cell(row[order]);
    if (!std::isfinite(v) || o.empty())
      continue;
    std::string key;
    for (std::size_t a : axes)
      key += (key.empty() ? "" : " ") + t.columns[a] + " " + cli::format_cell(row[a]);
    if (!groups.count(key))
      group_order.push_back(key);
    const double n = number(row[noise]);
    groups[key].push_back({o, v, std::isfinite(n) ? n : 0.0});
  }
  std::vector<std::string> lines;
  for (const std::string &key : group_order) {
    std::vector<Run> &runs = groups[key];
    if (runs.size() < 2)
      continue;
    std::stable_sort(runs.begin(), runs.end(),
                     [](const Run &a, const Run &b) { return a.value < b.value; });
    const Run &best = runs.front();
    auto ties = [&](const Run &r) {
      const double margin =
          m.noisy ? std::max(0.01, 2 * std::max(best.noise, r.noise)) : m.model_tie;
      return r.value <= best.value * (1 + margin);
    };
    std::string tied = best.order;
    std::size_t k = 1;
    for (; k < runs.size() && ties(runs[k]); ++k)
      tied += " = " + runs[k].order;
    const std::string where = (key.empty() ? "all points" : key) + ": ";
    const std::string shown = m.column + " " + cli::format_cell_short(best.value);
    if (k > 1) {
      lines.push_back("tie: " + where + tied + " (" + shown + "; " +
                      (m.noisy || m.model_tie > 0 ? "within " : "") +
                      (m.noisy           ? "the noise"
                       : m.model_tie > 0 ? "the model's error"
                                         : "equal counts") +
                      ")");
    } else {
      lines.push_back("best: " + where + best.order + " (" + shown + "), " +
                      percent(1 - best.value / runs[1].value) + " below " + runs[1].order);
    }
  }
  if (lines.size() > limit) {
    const std::size_t more = lines.size() - limit;
    lines.resize(limit);
    lines.push_back("... and " + std::to_string(more) + " more groups");
  }
  return lines;
}

} // namespace cbi::sweep
