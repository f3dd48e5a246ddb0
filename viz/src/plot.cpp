// Plots of tidy CSV tables: what every kind shares (reading cells and units, defaults, titles,
// ticks, series styles) and the dispatch to the kinds, one file each.
#include "cbi/viz/plot.hpp"

#include "plot_common.hpp"

#include "cbi/cli/options.hpp"
#include "cbi/error.hpp"
#include "cbi/order_text.hpp"
#include "cbi/text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>

namespace cbi::viz {

bool leading_number(const std::string &cell, double &value) {
  if (cell.find(':') != std::string::npos) {
    // An order's text: only column:W sits on a numeric axis (its width); "tile:16x4" is not 16.
    try {
      const remap::Order o = remap::parse_order(cell);
      if (o.kind != remap::OrderKind::column)
        return false;
      value = static_cast<double>(o.param_w);
      return true;
    } catch (const UsageError &) {
      return false;
    }
  }
  const char *begin = cell.c_str();
  char *end = nullptr;
  value = std::strtod(begin, &end);
  return end != begin && std::isfinite(value);
}

std::string unit_of(const std::string &column) {
  std::string c = column;
  for (const char *role : {"_measured", "_meas", "_predicted", "_pred"}) {
    const std::size_t n = std::strlen(role);
    if (c.size() > n && c.compare(c.size() - n, n, role) == 0)
      c.erase(c.size() - n);
  }
  auto ends = [&](const char *suffix) {
    const std::size_t n = std::strlen(suffix);
    return c.size() >= n && c.compare(c.size() - n, n, suffix) == 0;
  };
  auto has = [&](const char *part) { return c.find(part) != std::string::npos; };
  if (ends(".pct") || ends("_pct") || ends("_percent"))
    return "%";
  if (ends("_ms"))
    return "ms";
  if (ends("_us"))
    return "us";
  if (ends("_seconds") || ends("_s"))
    return "s";
  if (ends("gbs") || ends("gb_s"))
    return "GB/s";
  if (has("bytes"))
    return "bytes";
  if (has("sectors"))
    return "sectors";
  if (has("requests"))
    return "requests";
  return "";
}

PlotKind parse_plot_kind(const std::string &text) {
  if (text == "heatmap")
    return PlotKind::heatmap;
  if (text == "lines")
    return PlotKind::lines;
  if (text == "scatter")
    return PlotKind::scatter;
  // The kind is the word after `plot`, not a --flag: the line names it as "plot kind".
  if (text.empty())
    throw UsageError("plot kind", "missing; allowed: heatmap, lines or scatter as a word of its "
                                  "own (cbi plot heatmap --input F.csv ...)");
  throw UsageError("plot kind", "unknown kind '" + text +
                                    "'; allowed: heatmap, lines, scatter (cbi plot heatmap "
                                    "--input F.csv ...)");
}

bool higher_is_better(const std::string &column) {
  for (const char *good : {"hit", "gbs", "gb_s", "gflops", "speedup", "throughput", "bandwidth"})
    if (column.find(good) != std::string::npos)
      return true;
  return false;
}

namespace plot_detail {

Color series_colour(std::size_t k) {
  static const char *const kSeries[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7",
                                        "#e69f00", "#56b4e9", "#f0e442", "#000000"};
  return hex_color(kSeries[k % 8]);
}

int series_marker(std::size_t k) { return static_cast<int>(k % kMarkers); }

bool has_numbers(const CsvTable &t, int col) { return distinct_numbers(t, col) > 0; }

std::size_t distinct_numbers(const CsvTable &t, int col) {
  std::set<double> seen;
  double v;
  for (const auto &row : t.rows)
    if (leading_number(row[static_cast<std::size_t>(col)], v))
      seen.insert(v);
  return seen.size();
}

// A column is a quantity when every non-empty cell is a number through and through ("4096",
// "1.5e-3", "nan" as output.cpp writes a non-finite one) and one at least is finite. Cells that
// merely start with a number are text: point_id's hex (1447ee63...), shard's "0/1", stencil's
// "9x9", an order's "column:32"; so is strtod's hex ("0x1f").
static bool quantities(const CsvTable &t, int col) {
  bool finite = false;
  for (const auto &row : t.rows) {
    const std::string &cell = row[static_cast<std::size_t>(col)];
    if (cell.empty())
      continue;
    char *end = nullptr;
    const double v = std::strtod(cell.c_str(), &end);
    if (end != cell.c_str() + cell.size() || cell.find_first_of("xX") != std::string::npos)
      return false;
    finite = finite || std::isfinite(v);
  }
  return finite;
}

// "x, y, z": the columns that hold numbers.
static std::string numeric_columns(const CsvTable &t) {
  std::string numeric;
  for (const std::string &c : t.columns)
    if (quantities(t, t.index(c)))
      numeric += (numeric.empty() ? "" : ", ") + c;
  return numeric;
}

void require(const CsvTable &t, const std::string &name, const char *option, bool given) {
  if (t.index(name) >= 0)
    return;
  std::string near;
  for (const std::string &c : t.columns)
    if (cli::near_spelling(name, c))
      near += (near.empty() ? "" : " or ") + c;
  // A few columns are named; a sweep's 56 in one line were unreadable: its numeric ones, then.
  std::string allowed = join(t.columns);
  if (t.columns.size() > 12)
    allowed = "one of its " + std::to_string(t.columns.size()) +
              " columns (its first line names them), numbers in: " + numeric_columns(t);
  // A column the plot takes by default is the input's lack, not an option the user gave.
  if (!given)
    throw UsageError("--input", "has no column '" + name + "', which " + option +
                                    " is by default; allowed: " + option + " COL with " + allowed);
  throw UsageError(option, "no column '" + name + "' in the CSV" +
                               (near.empty() ? "" : " (did you mean " + near + "?)") +
                               "; allowed: " + allowed);
}

void require_numbers(const CsvTable &t, const std::string &name, const char *option) {
  if (quantities(t, t.index(name)))
    return;
  throw UsageError(option, "column '" + name + "' holds no numbers; allowed: a numeric column (" +
                               numeric_columns(t) + ")");
}

bool is_naive(const std::string &order) { return order == "linear" || order == "naive"; }

bool simulated_only(const CsvTable &t) {
  const int backend = t.index("backend");
  if (backend < 0)
    return false;
  for (const auto &row : t.rows)
    if (row[static_cast<std::size_t>(backend)].find("gpu") != std::string::npos)
      return false;
  return true;
}

std::vector<Tick> ticks_for(double lo, double hi, int log_base, int max_ticks) {
  std::vector<double> at, values; // axis positions and the values they label
  if (log_base > 0) {
    const double b = log_base;
    auto lg = [&](double v) { return std::log(v) / std::log(b); };
    for (double e = std::ceil(lg(lo) - 1e-9); e <= lg(hi) + 1e-9; ++e) {
      at.push_back(e);
      values.push_back(std::pow(b, e));
    }
  } else {
    at = values = nice_ticks(lo, hi, max_ticks);
  }
  const std::vector<std::string> labels = log_base == 10  ? decade_labels(values)
                                          : log_base == 2 ? power_of_two_labels(values)
                                                          : tick_labels(values);
  std::vector<Tick> ticks;
  for (std::size_t i = 0; i < at.size(); ++i)
    ticks.push_back({at[i], labels[i], true});
  return ticks;
}

std::string column_title(const std::string &column) {
  static const std::pair<const char *, const char *> kWords[] = {
      {"gpu_time_ms", "time (ms, measured)"},
      {"predicted_ms", "predicted time (ms)"},
      {"sim_l1_misses", "L1 misses (simulated)"},
      {"sim_l1_accesses", "L1 accesses (simulated)"},
      {"sim_l1_hit_pct", "L1 hit rate (%, simulated)"},
      {"sim_l1_fetched_bytes", "bytes fetched into L1 (simulated)"},
      {"sim_l2_hit_pct", "L2 hit rate (%, simulated)"},
      {"sim_mem_fetched_bytes", "bytes fetched from memory (simulated)"},
      {"sim_seconds", "simulation time (s)"},
      {"gpu_l1_hit_pct", "L1 hit rate (%, measured)"},
      {"gpu_l2_hit_pct", "L2 hit rate (%, measured)"},
      {"gpu_l2_to_l1_bytes", "L2→L1 bytes (measured)"},
      {"gpu_dram_read_bytes", "DRAM bytes read (measured)"},
      {"gpu_gbs", "bandwidth (GB/s, measured)"},
      {"relative_time", "time relative to naive (measured)"},
      {"relative_l1_fetched_bytes", "bytes fetched into L1, relative to naive (simulated)"},
      {"size", "input size N"},
      {"block", "threads per block"},
      {"order", "thread order"}};
  for (const auto &[name, words] : kWords)
    if (column == name)
      return words;
  const std::string unit = unit_of(column);
  return unit.empty() ? column : column + " (" + unit + ")";
}

std::string axis_title(const std::string &given, const std::string &column) {
  return given.empty() ? column_title(column) : given;
}

std::string error_text(double v, const std::string &unit, bool sign) {
  char buf[48];
  if (unit == "%") {
    std::snprintf(buf, sizeof buf, sign ? "%+.2f" : "%.2f", v);
    return std::string(buf) + " percentage points";
  }
  const std::string n = (sign && v > 0 ? "+" : "") + short_number(v, 3);
  return unit.empty() ? n : n + " " + unit;
}

std::vector<std::string> wrap_all(const Frame &f, const std::vector<std::string> &items,
                                  const std::string &prefix, int px, int width) {
  std::vector<std::string> lines;
  for (const std::string &item : items)
    for (std::string &l : wrap_text(f.font, prefix + item, px, width))
      lines.push_back(std::move(l));
  return lines;
}

void draw_lines_of_text(Canvas &c, const Frame &f, int x, int y,
                        const std::vector<std::string> &lines, int px, int line_h, Color colour) {
  for (std::size_t i = 0; i < lines.size(); ++i)
    f.font.draw(c, x, y + static_cast<int>(i) * line_h, lines[i], px, colour);
}

} // namespace plot_detail

using namespace plot_detail;

namespace {

// Heatmap: the y axis that varies in the data, so that no axis shows one value: block when the
// sweep ran several blocks (GPU sweeps), else size; with neither varying, size for a simulator
// sweep (its block does not apply: the simulator runs no blocks) and block otherwise.
std::string heatmap_y(const CsvTable &t) {
  for (const char *c : {"block", "size"})
    if (t.index(c) >= 0 && distinct_numbers(t, t.index(c)) >= 2)
      return c;
  const bool block = t.index("block") >= 0 && has_numbers(t, t.index("block"));
  return block && !simulated_only(t) ? "block" : "size";
}

} // namespace

const std::vector<std::string> &value_columns() {
  static const std::vector<std::string> kColumns = {"value", "gpu_time_ms", "predicted_ms",
                                                    "sim_l1_misses", "sim_l1_hit_pct"};
  return kColumns;
}

std::string value_columns_text() { return join(value_columns()); }

PlotSpec plot_defaults(const CsvTable &t, PlotSpec s) {
  // Lines with --y need no value column (a CSV without one used to fail here).
  const bool needs_value =
      s.kind == PlotKind::heatmap || (s.kind == PlotKind::lines && s.y.empty());
  if (t.rows.empty())
    throw UsageError("--input", "the CSV has a header and no rows; allowed: a CSV with rows, such "
                                "as cbi sweep writes");
  if (s.value.empty() && needs_value) {
    for (const std::string &c : value_columns())
      if (t.index(c) >= 0 && has_numbers(t, t.index(c))) {
        s.value = c;
        break;
      }
    if (s.value.empty()) // the input, not a value the user gave, lacks what is needed
      throw UsageError("--input",
                       "has no numbers in a value column (" + value_columns_text() +
                           ": a cbi sweep CSV's); allowed: --value NAME of a numeric "
                           "column (this CSV's: " +
                           (numeric_columns(t).empty() ? std::string("none") : numeric_columns(t)) +
                           ")");
  } else if (!s.value.empty()) {
    require(t, s.value, "--value");
    require_numbers(t, s.value, "--value");
  }
  switch (s.kind) {
  case PlotKind::heatmap: {
    const bool y_given = !s.y.empty();
    if (!y_given)
      s.y = heatmap_y(t);
    require(t, s.x.empty() ? "order" : s.x, "--x", !s.x.empty());
    require(t, s.y, "--y", y_given);
    break;
  }
  case PlotKind::lines: {
    const bool x_given = !s.x.empty(), series_given = !s.series.empty();
    if (!x_given)
      s.x = "size";
    if (s.y.empty())
      s.y = s.value;
    if (!series_given)
      s.series = "order";
    require(t, s.x, "--x", x_given);
    require(t, s.y, "--y");
    require_numbers(t, s.y, "--y"); // --y order drew column:8 at 8 and dropped linear
    require(t, s.series, "--series", series_given);
    break;
  }
  case PlotKind::scatter:
    if (s.x.empty() || s.y.empty())
      throw UsageError(s.x.empty() ? "--x" : "--y",
                       "scatter needs both columns; allowed: --x NAME --y NAME");
    if (s.series.empty() && t.index("order") >= 0)
      s.series = "order";
    require(t, s.x, "--x");
    require(t, s.y, "--y");
    require_numbers(t, s.y, "--y");
    require_numbers(t, s.x, "--x"); // a point's place on both axes is a quantity
    // Compared as one quantity (y = x, the error in one unit), a hit rate against a time drew a
    // y = x line and "mean absolute error 60.5 ms".
    if (s.same_quantity && !unit_of(s.x).empty() && !unit_of(s.y).empty() &&
        unit_of(s.x) != unit_of(s.y))
      throw UsageError("--y", "'" + s.y + "' (" + unit_of(s.y) +
                                  ") is another quantity than --x '" + s.x + "' (" + unit_of(s.x) +
                                  "), and scatter compares one quantity (the line y = x, the "
                                  "error in one unit); allowed: --free-axes for two quantities, "
                                  "or --y in " +
                                  unit_of(s.x));
    if (!s.series.empty())
      require(t, s.series, "--series");
    if (!s.label.empty())
      require(t, s.label, "--label");
    break;
  }
  return s;
}

Canvas plot(const CsvTable &table, const PlotSpec &spec, PlotLayout *layout) {
  const PlotSpec s = plot_defaults(table, spec);
  PlotLayout out;
  Canvas c = s.kind == PlotKind::heatmap                      ? heatmap(table, s, out)
             : s.kind == PlotKind::scatter && s.same_quantity ? compare_plot(table, s, out)
                                                              : lines_plot(table, s, out);
  if (layout)
    *layout = out;
  return c;
}

} // namespace cbi::viz
