#include "cbi/viz/plot.hpp"

#include "cbi/error.hpp"
#include "cbi/order_text.hpp"
#include "cbi/viz/chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
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
  throw UsageError("plot", "unknown plot '" + text + "'; allowed: heatmap, lines, scatter");
}

bool higher_is_better(const std::string &column) {
  for (const char *good : {"hit", "gbs", "gb_s", "gflops", "speedup", "throughput", "bandwidth"})
    if (column.find(good) != std::string::npos)
      return true;
  return false;
}

namespace {

bool has_numbers(const CsvTable &t, int col) {
  double v;
  for (const auto &row : t.rows)
    if (leading_number(row[static_cast<std::size_t>(col)], v))
      return true;
  return false;
}

void require(const CsvTable &t, const std::string &name, const char *option) {
  if (t.index(name) < 0) {
    std::string cols;
    for (const std::string &c : t.columns)
      cols += (cols.empty() ? "" : ", ") + c;
    throw UsageError(option, "no column '" + name + "' in the CSV; allowed: " + cols);
  }
}

// A column that must hold numbers (a value, an axis): UsageError naming `option` otherwise.
// A value is a quantity: an order's text (column:32 sits on an axis by its width) is not one.
void require_numbers(const CsvTable &t, const std::string &name, const char *option) {
  auto quantities = [&](int col) {
    double v;
    for (const auto &row : t.rows) {
      const std::string &cell = row[static_cast<std::size_t>(col)];
      if (cell.find(':') == std::string::npos && leading_number(cell, v))
        return true;
    }
    return false;
  };
  if (quantities(t.index(name)))
    return;
  std::string numeric;
  for (const std::string &c : t.columns)
    if (quantities(t.index(c)))
      numeric += (numeric.empty() ? "" : ", ") + c;
  throw UsageError(option, "column '" + name + "' holds no numbers; allowed: a numeric column (" +
                               numeric + ")");
}

bool is_naive(const std::string &order) { return order == "linear" || order == "naive"; }

// Okabe & Ito's eight colours, black last (it is the axis colour too).
const char *const kSeries[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7",
                               "#e69f00", "#56b4e9", "#f0e442", "#000000"};

struct Frame {
  const Font &font = Font::standard();
  Style st;
  Rect plot;
  int title_y = 0;
};

} // namespace

PlotSpec plot_defaults(const CsvTable &t, PlotSpec s) {
  // Lines with --y need no value column (a CSV without one used to fail here).
  const bool needs_value =
      s.kind == PlotKind::heatmap || (s.kind == PlotKind::lines && s.y.empty());
  if (t.rows.empty())
    throw UsageError("--input", "the CSV has a header and no rows; allowed: a CSV with rows, such "
                                "as cbi sweep writes");
  if (s.value.empty() && needs_value) {
    for (const char *c : {"value", "gpu_time_ms", "sim_l1_misses", "sim_l1_hit_pct"})
      if (t.index(c) >= 0 && has_numbers(t, t.index(c))) {
        s.value = c;
        break;
      }
    if (s.value.empty()) // the input, not a value the user gave, lacks what is needed
      throw UsageError("--input", "none of the columns value, gpu_time_ms, sim_l1_misses, "
                                  "sim_l1_hit_pct has numbers; allowed: a cbi sweep CSV, or "
                                  "--value NAME of a numeric column");
  } else if (!s.value.empty()) {
    require(t, s.value, "--value");
    require_numbers(t, s.value, "--value");
  }
  switch (s.kind) {
  case PlotKind::heatmap:
    if (s.y.empty())
      s.y = "block";
    if (s.x.empty())
      require(t, "order", "--x");
    else
      require(t, s.x, "--x");
    require(t, s.y, "--y");
    require(t, s.value, "--value");
    break;
  case PlotKind::lines:
    if (s.x.empty())
      s.x = "size";
    if (s.y.empty())
      s.y = s.value;
    if (s.series.empty())
      s.series = "order";
    require(t, s.x, "--x");
    require(t, s.y, "--y");
    require(t, s.series, "--series");
    break;
  case PlotKind::scatter:
    if (s.x.empty() || s.y.empty())
      throw UsageError(s.x.empty() ? "--x" : "--y",
                       "scatter needs both columns; allowed: --x NAME --y NAME");
    if (s.series.empty() && t.index("order") >= 0)
      s.series = "order";
    require(t, s.x, "--x");
    require(t, s.y, "--y");
    if (!s.series.empty())
      require(t, s.series, "--series");
    if (!s.label.empty())
      require(t, s.label, "--label");
    break;
  }
  return s;
}

namespace {

Canvas heatmap(const CsvTable &t, const PlotSpec &s, PlotLayout &out) {
  Frame f;
  const int order_col = t.index("order"), size_col = t.index("size");
  const int x_col = s.x.empty() ? order_col : t.index(s.x), y_col = t.index(s.y),
            v_col = t.index(s.value);
  // The largest input size only: sizes are not comparable cell to cell (unless size is an axis).
  double size = -1;
  std::set<double> sizes;
  const bool size_is_axis = size_col >= 0 && (size_col == x_col || size_col == y_col);
  for (const auto &row : t.rows) {
    double v;
    if (size_col >= 0 && !size_is_axis &&
        leading_number(row[static_cast<std::size_t>(size_col)], v))
      sizes.insert(v);
  }
  if (!sizes.empty())
    size = *sizes.rbegin();
  auto at = [](const std::vector<std::string> &row, int c) -> const std::string & {
    return row[static_cast<std::size_t>(c)];
  };
  std::map<double, std::pair<double, int>> naive;                   // y -> sum, count
  std::map<std::pair<double, double>, std::pair<double, int>> cell; // (x, y) -> sum, count
  // Rows left out, counted by reason, so that the figure says what it does not show.
  int64_t no_number = 0, other_size = 0;
  std::map<std::string, int64_t> other_orders; // orders with no place on the x axis
  for (const auto &row : t.rows) {
    double x, y, v, sz;
    if (!leading_number(at(row, y_col), y) || !leading_number(at(row, v_col), v)) {
      ++no_number;
      continue;
    }
    if (size >= 0 && (!leading_number(at(row, size_col), sz) || sz != size)) {
      ++other_size;
      continue;
    }
    const std::string order = order_col >= 0 ? at(row, order_col) : "";
    if (is_naive(order)) {
      naive[y].first += v;
      ++naive[y].second;
      continue;
    }
    // The default x axis is the column width of column:W orders; other orders have no place.
    if ((s.x.empty() && order.rfind("column:", 0) != 0) || !leading_number(at(row, x_col), x)) {
      ++other_orders[order.empty() ? "(no order)" : order];
      continue;
    }
    auto &c = cell[{x, y}];
    c.first += v;
    ++c.second;
  }
  if (cell.empty())
    throw UsageError("--input", "no rows with a numeric " + (s.x.empty() ? "column:W order" : s.x) +
                                    ", " + s.y + " and " + s.value +
                                    "; allowed: a sweep over column orders and block sizes");
  std::set<double> xs, ys;
  for (const auto &kv : cell) {
    xs.insert(kv.first.first);
    ys.insert(kv.first.second);
  }
  const bool relative = !naive.empty();
  const bool up = higher_is_better(s.value);
  // Per cell: the shown value (relative to naive where a naive row exists) and its goodness.
  std::map<std::pair<double, double>, double> shown;
  double best_good = -1e300;
  std::vector<std::pair<double, double>> best_cells; // every cell at the best value
  double lo = 1e300, hi = -1e300;
  std::set<double> no_naive; // y values whose cells have no naive row to compare with
  for (const auto &kv : cell) {
    double v = kv.second.first / kv.second.second;
    if (relative) {
      const auto n = naive.find(kv.first.second);
      if (n == naive.end()) {
        no_naive.insert(kv.first.second);
        continue;
      }
      v /= n->second.first / n->second.second;
    }
    shown[kv.first] = v;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    const double good = up ? v : -v;
    // Equal within printing precision counts as a tie (the labels show 2 decimals).
    if (good > best_good + 1e-9 * std::abs(best_good)) {
      best_good = good;
      best_cells = {kv.first};
    } else if (good >= best_good - 1e-9 * std::abs(best_good)) {
      best_cells.push_back(kv.first);
    }
  }
  if (shown.empty())
    throw UsageError("--input", "no " + s.y +
                                    " value has both naive (linear) rows and other "
                                    "orders; allowed: a sweep with linear rows for each " +
                                    s.y);
  // "Best" only when one cell is best and it beats the naive order (a ratio past 1).
  const bool best_unique = best_cells.size() == 1;
  const bool best_beats = !relative || best_good > (up ? 1.0 : -1.0) + 1e-12;
  const bool mark_best = best_unique && best_beats;
  const Color better = hex_color("#0072b2"), worse = hex_color("#d55e00");
  auto colour = [&](double v) {
    if (relative) { // log2 of the gain, saturating at 2x either way
      const double gain = std::clamp(std::log2(up ? v : 1 / v), -1.0, 1.0);
      return gain >= 0 ? mix(kWhite, better, 0.85 * gain) : mix(kWhite, worse, -0.85 * gain);
    }
    const double g = hi > lo ? (v - lo) / (hi - lo) : 1;
    return mix(kWhite, better, 0.85 * (up ? g : 1 - g));
  };
  auto label = [&](double v) {
    char buf[32];
    if (relative)
      std::snprintf(buf, sizeof buf, "%.2fx", v);
    else
      return short_number(v);
    return std::string(buf);
  };
  int cell_w = 64;
  for (const auto &kv : shown)
    cell_w = std::max(cell_w, f.font.measure(label(kv.second), f.st.tick_px).width + 14);
  const int cell_h = 34;
  const int nx = static_cast<int>(xs.size()), ny = static_cast<int>(ys.size());
  std::vector<Tick> xt, yt;
  const std::vector<double> xv(xs.begin(), xs.end()), yv(ys.begin(), ys.end());
  out.x_labels = tick_labels(xv);
  out.y_labels = tick_labels(yv);
  for (int i = 0; i < nx; ++i)
    xt.push_back({i + 0.5, out.x_labels[static_cast<std::size_t>(i)], true});
  for (int j = 0; j < ny; ++j)
    yt.push_back({j + 0.5, out.y_labels[static_cast<std::size_t>(j)], true});
  const std::string x_title = s.x.empty() ? "column width W (order column:W)" : s.x;
  const Rect probe{0, 0, nx * cell_w, ny * cell_h};
  const int left = draw_axis(nullptr, f.font, probe, Side::left, {}, yt, s.y, f.st);
  const int bottom = draw_axis(nullptr, f.font, probe, Side::bottom, {}, xt, x_title, f.st);
  const std::string title = !s.title.empty() ? s.title
                            : relative       ? s.value + " relative to the naive order (linear)"
                                             : s.value;
  auto cell_name = [&](const std::pair<double, double> &k) {
    return (s.x.empty() ? "column:" + short_number(k.first) : s.x + " " + short_number(k.first)) +
           " at " + s.y + " " + short_number(k.second);
  };
  std::string subtitle = up ? "higher is better" : "lower is better";
  if (mark_best)
    subtitle += "; best cell outlined";
  else if (!best_unique) {
    std::string names;
    for (const auto &k : best_cells)
      names += (names.empty() ? "" : ", ") + cell_name(k);
    subtitle += "; no best cell: " + std::to_string(best_cells.size()) + " tie (" + names + ")";
    out.ties.push_back("best value shared by " + names);
  } else
    subtitle += "; no cell beats linear, so none is marked best";
  if (size >= 0)
    subtitle += "; size " + short_number(size) + (sizes.size() > 1 ? " (the largest)" : "");
  if (!relative)
    subtitle += "; no linear rows, so absolute values";
  // Rows not shown, each reason once.
  if (other_size > 0)
    out.notes.push_back(std::to_string(other_size) + " rows of smaller sizes not shown");
  if (!other_orders.empty()) {
    std::string names;
    int64_t rows = 0;
    for (const auto &kv : other_orders) {
      names += (names.empty() ? "" : ", ") + kv.first;
      rows += kv.second;
    }
    out.notes.push_back(std::to_string(rows) +
                        " rows of orders with no place on the x axis not "
                        "shown: " +
                        names);
  }
  if (!no_naive.empty()) {
    std::string names;
    for (double y : no_naive)
      names += (names.empty() ? "" : ", ") + short_number(y);
    out.notes.push_back(s.y + " " + names + " not shown: no linear row to compare with");
  }
  if (no_number > 0)
    out.notes.push_back(std::to_string(no_number) + " rows without a number in " + s.y + " or " +
                        s.value + " not shown");
  const int grid_w = left + nx * cell_w + f.st.margin;
  const int text_w = std::max(grid_w, 640);
  const std::vector<std::string> title_lines = wrap_text(f.font, title, f.st.title_px, text_w);
  const std::vector<std::string> sub_lines = wrap_text(f.font, subtitle, f.st.tick_px, text_w);
  const int title_h = f.font.measure("Ag", f.st.title_px).height() + 3;
  const int line_h = f.font.measure("Ag", f.st.tick_px).height() + 3;
  const int top = f.st.margin + static_cast<int>(title_lines.size()) * title_h +
                  static_cast<int>(sub_lines.size()) * line_h + f.st.margin;
  const Rect area{f.st.margin + left, top, nx * cell_w, ny * cell_h};
  std::vector<LegendItem> items;
  if (relative)
    items = {{mix(kWhite, better, 0.85), "2x better than naive"},
             {kWhite, "same as naive"},
             {mix(kWhite, worse, 0.85), "2x worse"}};
  const int legend_y = area.bottom() + bottom + f.st.margin;
  const int width = std::max(area.right(), text_w) + f.st.margin;
  const Rect lbox = draw_legend(nullptr, f.font, f.st.margin, legend_y, width, items, f.st);
  std::vector<std::string> note_lines;
  for (const std::string &n : out.notes)
    for (std::string &l : wrap_text(f.font, "note: " + n, f.st.tick_px, text_w))
      note_lines.push_back(std::move(l));
  const int notes_y = (items.empty() ? legend_y : lbox.bottom()) + 4;
  Canvas c(width, notes_y + static_cast<int>(note_lines.size()) * line_h + f.st.margin,
           f.st.background);
  for (std::size_t i = 0; i < title_lines.size(); ++i)
    f.font.draw(c, f.st.margin, f.st.margin + static_cast<int>(i) * title_h, title_lines[i],
                f.st.title_px, f.st.text);
  const int sub_y = f.st.margin + static_cast<int>(title_lines.size()) * title_h;
  for (std::size_t i = 0; i < sub_lines.size(); ++i)
    f.font.draw(c, f.st.margin, sub_y + static_cast<int>(i) * line_h, sub_lines[i], f.st.tick_px,
                f.st.muted);
  for (std::size_t i = 0; i < note_lines.size(); ++i)
    f.font.draw(c, f.st.margin, notes_y + static_cast<int>(i) * line_h, note_lines[i], f.st.tick_px,
                f.st.muted);
  for (const auto &kv : shown) {
    const int i = static_cast<int>(std::distance(xs.begin(), xs.find(kv.first.first)));
    const int j = static_cast<int>(std::distance(ys.begin(), ys.find(kv.first.second)));
    const Rect r{area.x + i * cell_w, area.y + j * cell_h, cell_w, cell_h};
    const Color fill = colour(kv.second);
    c.fill_rect(r, fill);
    const int luma = (fill.r * 299 + fill.g * 587 + fill.b * 114) / 1000;
    f.font.draw(c, r.x + r.w / 2, r.y + r.h / 2, label(kv.second), f.st.tick_px,
                luma < 110 ? kWhite : f.st.text, Align::center, Align::center);
    c.outline_rect(r, f.st.frame);
    ++out.cells;
    if (mark_best && kv.first == best_cells.front())
      out.best = r;
  }
  if (mark_best)
    for (int k = 0; k < 3; ++k) // the best cell: a heavy outline
      c.outline_rect({out.best.x + k, out.best.y + k, out.best.w - 2 * k, out.best.h - 2 * k},
                     kBlack);
  const Scale sx{0, static_cast<double>(nx), static_cast<double>(area.x),
                 static_cast<double>(area.right())};
  const Scale sy{0, static_cast<double>(ny), static_cast<double>(area.y),
                 static_cast<double>(area.bottom())};
  draw_axis(&c, f.font, area, Side::bottom, sx, xt, x_title, f.st);
  draw_axis(&c, f.font, area, Side::left, sy, yt, s.y, f.st);
  out.plot = area;
  out.legend = draw_legend(&c, f.font, f.st.margin, legend_y, width, items, f.st);
  return c;
}

// Axis ticks for [lo, hi]: powers of two on a log2 axis, else round steps.
std::vector<Tick> ticks_for(double lo, double hi, bool log2_axis, int max_ticks) {
  std::vector<double> at, values; // axis positions and the values they label
  if (log2_axis) {
    for (double e = std::ceil(std::log2(lo) - 1e-9); e <= std::log2(hi) + 1e-9; ++e) {
      at.push_back(e);
      values.push_back(std::pow(2.0, e));
    }
  } else {
    at = values = nice_ticks(lo, hi, max_ticks);
  }
  const std::vector<std::string> labels = tick_labels(values);
  std::vector<Tick> ticks;
  for (std::size_t i = 0; i < at.size(); ++i)
    ticks.push_back({at[i], labels[i], true});
  return ticks;
}

Canvas xy_plot(const CsvTable &t, const PlotSpec &s, PlotLayout &out) {
  Frame f;
  const bool lines = s.kind == PlotKind::lines;
  const int x_col = t.index(s.x), y_col = t.index(s.y);
  const int s_col = s.series.empty() ? -1 : t.index(s.series);
  struct Point {
    double x, y;
    std::string label;
  };
  std::vector<std::string> series_names; // in order of first appearance
  std::map<std::string, std::vector<Point>> series;
  std::map<std::string, int64_t> no_number; // x cells with no number (tile:16x4 as x), counted
  for (const auto &row : t.rows) {
    double x, y;
    if (!leading_number(row[static_cast<std::size_t>(x_col)], x) ||
        !leading_number(row[static_cast<std::size_t>(y_col)], y)) {
      ++no_number[row[static_cast<std::size_t>(x_col)]];
      continue;
    }
    const std::string name = s_col >= 0 ? row[static_cast<std::size_t>(s_col)] : "";
    if (!series.count(name))
      series_names.push_back(name);
    series[name].push_back({x, y, name});
  }
  if (series.empty())
    throw UsageError("--input", "no rows with numbers in both " + s.x + " and " + s.y +
                                    "; allowed: numeric columns (see the CSV header)");
  if (!no_number.empty()) {
    int64_t rows = 0;
    std::string cells;
    for (const auto &[cell, n] : no_number) {
      rows += n;
      if (cells.size() < 200)
        cells += (cells.empty() ? "" : ", ") + (cell.empty() ? "(empty)" : cell);
    }
    out.notes.push_back(std::to_string(rows) + " rows without a number in " + s.x + " or " + s.y +
                        " not shown (" + s.x + ": " + cells + ")");
  }
  double x_lo = 1e300, x_hi = -1e300, y_lo = 1e300, y_hi = -1e300;
  for (auto &kv : series) {
    if (lines) { // one point per x: the mean of the rows that share it
      std::map<double, std::pair<double, int>> by_x;
      for (const Point &p : kv.second) {
        by_x[p.x].first += p.y;
        ++by_x[p.x].second;
      }
      kv.second.clear();
      for (const auto &b : by_x)
        kv.second.push_back({b.first, b.second.first / b.second.second, kv.first});
    }
    for (const Point &p : kv.second) {
      x_lo = std::min(x_lo, p.x);
      x_hi = std::max(x_hi, p.x);
      y_lo = std::min(y_lo, p.y);
      y_hi = std::max(y_hi, p.y);
    }
  }
  const bool log_x = x_lo > 0 && x_hi / x_lo >= 8; // sizes that double: 256 .. 2048
  if (y_lo >= 0 && y_lo < 0.5 * y_hi)
    y_lo = 0;
  if (y_hi == y_lo)
    y_hi = y_lo + 1;
  if (!log_x && x_hi == x_lo) {
    x_lo -= 1;
    x_hi += 1;
  }
  const double y_pad = (y_hi - y_lo) * 0.05;
  const double ax_lo = log_x ? std::log2(x_lo) : x_lo, ax_hi = log_x ? std::log2(x_hi) : x_hi;
  const double x_pad = std::max((ax_hi - ax_lo) * 0.04, log_x ? 0.25 : 0.0);
  const Scale sx0{ax_lo - x_pad, ax_hi + x_pad, 0, 1};
  const int plot_w = 760, plot_h = 440;
  const std::vector<Tick> xt = ticks_for(x_lo, x_hi, log_x, 8);
  const std::vector<Tick> yt = ticks_for(y_lo, y_hi + y_pad, false, 8);
  for (const Tick &tk : xt)
    out.x_labels.push_back(tk.label);
  for (const Tick &tk : yt)
    out.y_labels.push_back(tk.label);
  // Points that several series share (equal x and y): drawn side by side and listed, so that no
  // series hides another.
  std::map<std::pair<double, double>, std::vector<std::size_t>> at_point;
  for (std::size_t k = 0; k < series_names.size(); ++k)
    for (const Point &p : series[series_names[k]])
      at_point[{p.x, p.y}].push_back(k);
  for (const auto &kv : at_point)
    if (kv.second.size() > 1) {
      std::string names;
      for (std::size_t k : kv.second)
        names += (names.empty() ? "" : " = ") + series_names[k];
      out.ties.push_back(names + " at " + s.x + " " + short_number(kv.first.first) + " (" + s.y +
                         " " + short_number(kv.first.second) + ")");
    }
  const std::string x_title = s.x + (log_x ? " (log scale)" : "");
  const Rect probe{0, 0, plot_w, plot_h};
  const int left = draw_axis(nullptr, f.font, probe, Side::left, {}, yt, s.y, f.st);
  const int bottom = draw_axis(nullptr, f.font, probe, Side::bottom, {}, xt, x_title, f.st);
  const std::string title = !s.title.empty()
                                ? s.title
                                : s.y + " vs " + s.x + (s.series.empty() ? "" : ", by " + s.series);
  const int label_room = lines ? 0 : 90; // scatter labels to the right of the last points
  const int width = f.st.margin + left + plot_w + f.st.margin + label_room;
  // The title is fitted to the image: wrapped, never wider than it.
  const std::vector<std::string> title_lines =
      wrap_text(f.font, title, f.st.title_px, width - 2 * f.st.margin);
  const int title_h = f.font.measure("Ag", f.st.title_px).height() + 3;
  const int line_h = f.font.measure("Ag", f.st.tick_px).height() + 3;
  const Rect area{f.st.margin + left,
                  f.st.margin + static_cast<int>(title_lines.size()) * title_h + f.st.margin,
                  plot_w, plot_h};
  std::vector<LegendItem> items;
  for (std::size_t k = 0; k < series_names.size() && (lines || series_names.size() <= 16); ++k)
    items.push_back(
        {hex_color(kSeries[k % 8]), series_names[k], static_cast<int>(k % kMarkers), lines});
  if (!lines && series_names.size() > 16)
    out.notes.push_back(std::to_string(series_names.size()) +
                        " series: the legend is left out (the points are labelled)");
  const int legend_y = area.bottom() + bottom + f.st.margin;
  const Rect lbox =
      draw_legend(nullptr, f.font, f.st.margin, legend_y, width - 2 * f.st.margin, items, f.st);
  std::vector<std::string> note_lines;
  for (const std::string &tie : out.ties)
    for (std::string &l : wrap_text(f.font, "tie: " + tie, f.st.tick_px, width - 2 * f.st.margin))
      note_lines.push_back(std::move(l));
  for (const std::string &n : out.notes)
    for (std::string &l : wrap_text(f.font, "note: " + n, f.st.tick_px, width - 2 * f.st.margin))
      note_lines.push_back(std::move(l));
  const int notes_y = (items.empty() ? legend_y : lbox.bottom()) + 4;
  Canvas c(width, notes_y + static_cast<int>(note_lines.size()) * line_h + f.st.margin,
           f.st.background);
  for (std::size_t i = 0; i < title_lines.size(); ++i)
    f.font.draw(c, f.st.margin, f.st.margin + static_cast<int>(i) * title_h, title_lines[i],
                f.st.title_px, f.st.text);
  for (std::size_t i = 0; i < note_lines.size(); ++i)
    f.font.draw(c, f.st.margin, notes_y + static_cast<int>(i) * line_h, note_lines[i], f.st.tick_px,
                f.st.muted);
  const Scale sx{sx0.lo, sx0.hi, static_cast<double>(area.x), static_cast<double>(area.right())};
  const Scale sy{y_lo, y_hi + y_pad, static_cast<double>(area.bottom()),
                 static_cast<double>(area.y)};
  // Light grid lines at the y ticks, under the data.
  for (const Tick &tk : yt)
    c.hline(area.x, area.right() - 1, static_cast<int>(std::lround(sy(tk.value))),
            Color{235, 235, 235, 255});
  c.outline_rect({area.x - 1, area.y - 1, area.w + 2, area.h + 2}, f.st.frame);
  auto px = [&](const Point &p) {
    return std::make_pair(static_cast<int>(std::lround(sx(log_x ? std::log2(p.x) : p.x))),
                          static_cast<int>(std::lround(sy(p.y))));
  };
  std::vector<Rect> labels;
  // Lines first, then the markers over every line, each series' marker shifted sideways where
  // several series share the point.
  for (std::size_t k = 0; k < series_names.size() && lines; ++k) {
    const std::vector<Point> &pts = series[series_names[k]];
    for (std::size_t i = 1; i < pts.size(); ++i) {
      const auto [x0, y0] = px(pts[i - 1]);
      const auto [x, y] = px(pts[i]);
      c.line(x0, y0, x, y, hex_color(kSeries[k % 8]), 2);
    }
  }
  constexpr int kMarkerR = 5;
  for (std::size_t k = 0; k < series_names.size(); ++k) {
    const Color col = hex_color(kSeries[k % 8]);
    const std::vector<Point> &pts = series[series_names[k]];
    for (std::size_t i = 0; i < pts.size(); ++i) {
      auto [x, y] = px(pts[i]);
      const std::vector<std::size_t> &share = at_point[{pts[i].x, pts[i].y}];
      if (share.size() > 1) {
        const auto slot = std::find(share.begin(), share.end(), k) - share.begin();
        x += static_cast<int>((2 * slot - static_cast<long>(share.size()) + 1) * (kMarkerR + 1));
      }
      // Markers differ by series too (disc, square, triangle, diamond, ...), for print and
      // colour-blind readers; the legend shows the same shapes.
      draw_marker(c, static_cast<int>(k % kMarkers), x, y, kMarkerR, col);
      out.markers.push_back({x - kMarkerR, y - kMarkerR, 2 * kMarkerR + 1, 2 * kMarkerR + 1});
      ++out.cells;
      if (!lines && !pts[i].label.empty()) {
        // Labels that would overprint an earlier one are left out (the legend names the colour).
        const Font::Extent e = f.font.measure(pts[i].label, f.st.tick_px);
        const Rect box{x + 7, y - e.height() / 2, e.width, e.height()};
        const bool clash = std::any_of(labels.begin(), labels.end(), [&](const Rect &r) {
          return box.x < r.right() && r.x < box.right() && box.y < r.bottom() && r.y < box.bottom();
        });
        if (!clash) {
          f.font.draw(c, box.x, box.y, pts[i].label, f.st.tick_px, f.st.text);
          labels.push_back(box);
        }
      }
    }
  }
  draw_axis(&c, f.font, area, Side::bottom, sx, xt, x_title, f.st);
  draw_axis(&c, f.font, area, Side::left, sy, yt, s.y, f.st);
  out.plot = area;
  out.legend = draw_legend(&c, f.font, f.st.margin, legend_y, width - 2 * f.st.margin, items, f.st);
  return c;
}

// An axis title: the one given, else the column's name with its unit.
std::string axis_title(const std::string &given, const std::string &column) {
  if (!given.empty())
    return given;
  const std::string unit = unit_of(column);
  return unit.empty() ? column : column + " (" + unit + ")";
}

// An error in the column's unit: "2.73 percentage points", "0.041 ms", "1.2M bytes".
std::string error_text(double v, const std::string &unit, bool sign = false) {
  char buf[48];
  if (unit == "%") {
    std::snprintf(buf, sizeof buf, sign ? "%+.2f" : "%.2f", v);
    return std::string(buf) + " percentage points";
  }
  const std::string n = (sign && v > 0 ? "+" : "") + short_number(v, 3);
  return unit.empty() ? n : n + " " + unit;
}

// Predicted against measured (issue 10 §3): one quantity on both axes, so the axes are equal (the
// same range and ticks on a square data area), the dashed line y = x is a perfect prediction, and
// the caption gives N and the mean absolute error |y - x| in the column's unit. Sized to be read at
// about 1000 px wide (a paper column): larger text than the other plots, the legend to the right.
Canvas compare_plot(const CsvTable &t, const PlotSpec &s, PlotLayout &out) {
  Frame f;
  f.st.title_px = 21;
  f.st.label_px = 16;
  f.st.tick_px = 14;
  f.st.margin = 18;
  const int x_col = t.index(s.x), y_col = t.index(s.y);
  const int s_col = s.series.empty() ? -1 : t.index(s.series);
  const int l_col = s.label.empty() ? -1 : t.index(s.label);
  struct Pt {
    double x, y;
    std::size_t series;
    std::string label;
  };
  std::vector<std::string> names; // series in order of first appearance
  std::map<std::string, std::size_t> series_of;
  std::vector<Pt> pts;
  int64_t skipped = 0;
  for (const auto &row : t.rows) {
    double x, y;
    if (!leading_number(row[static_cast<std::size_t>(x_col)], x) ||
        !leading_number(row[static_cast<std::size_t>(y_col)], y)) {
      ++skipped;
      continue;
    }
    const std::string name = s_col >= 0 ? row[static_cast<std::size_t>(s_col)] : "";
    const auto [it, fresh] = series_of.emplace(name, names.size());
    if (fresh)
      names.push_back(name);
    pts.push_back({x, y, it->second, l_col >= 0 ? row[static_cast<std::size_t>(l_col)] : ""});
  }
  if (pts.empty())
    throw UsageError("--input", "no rows with numbers in both " + s.x + " and " + s.y +
                                    "; allowed: numeric columns (see the CSV header)");
  if (skipped > 0)
    out.notes.push_back(std::to_string(skipped) + " rows without a number in " + s.x + " or " +
                        s.y + " not shown");

  // The errors: overall and per series; the worst point by |y - x|.
  const std::string unit = unit_of(s.y).empty() ? unit_of(s.x) : unit_of(s.y);
  std::vector<std::pair<int64_t, double>> per(names.size()); // n, sum |y - x|
  double sum = 0, rel_sum = 0;
  bool relative = unit != "%";
  const Pt *worst = &pts.front();
  for (const Pt &p : pts) {
    const double e = std::abs(p.y - p.x);
    sum += e;
    ++per[p.series].first;
    per[p.series].second += e;
    if (e > std::abs(worst->y - worst->x))
      worst = &p;
    if (p.x > 0)
      rel_sum += e / p.x;
    else
      relative = false;
  }
  out.n = static_cast<int64_t>(pts.size());
  out.mean_abs_error = sum / double(pts.size());
  out.worst_error = worst->y - worst->x;
  // The worst point by its series and label ("matmul column:256"), else by its x.
  std::string worst_name = names[worst->series];
  if (!worst->label.empty())
    worst_name += (worst_name.empty() ? "" : " ") + worst->label;
  if (worst_name.empty())
    worst_name = s.x + " " + short_number(worst->x);
  std::string caption = "N = " + std::to_string(out.n) + "; mean absolute error |y - x| = " +
                        error_text(out.mean_abs_error, unit) + "; worst " +
                        error_text(out.worst_error, unit, true) + " (" + worst_name + ")";
  if (relative) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * rel_sum / double(pts.size()));
    caption += "; mean |y / x - 1| = " + std::string(buf);
  }
  // Pearson's r and the RMSE over the range of x (x is the reference, e.g. the measurement).
  {
    double mx = 0, my = 0, x_lo = pts.front().x, x_hi = pts.front().x, sq = 0;
    for (const Pt &p : pts) {
      mx += p.x;
      my += p.y;
      x_lo = std::min(x_lo, p.x);
      x_hi = std::max(x_hi, p.x);
      sq += (p.y - p.x) * (p.y - p.x);
    }
    mx /= double(pts.size());
    my /= double(pts.size());
    double sxy = 0, sxx = 0, syy = 0;
    for (const Pt &p : pts) {
      sxy += (p.x - mx) * (p.y - my);
      sxx += (p.x - mx) * (p.x - mx);
      syy += (p.y - my) * (p.y - my);
    }
    const double nan = std::numeric_limits<double>::quiet_NaN();
    out.pearson_r = sxx > 0 && syy > 0 ? sxy / std::sqrt(sxx * syy) : nan;
    out.nrmse = x_hi > x_lo ? std::sqrt(sq / double(pts.size())) / (x_hi - x_lo) : nan;
    char buf[96];
    std::snprintf(buf, sizeof buf, "; Pearson r = %.3f; NRMSE = %.3f (RMSE / range of x)",
                  out.pearson_r, out.nrmse);
    caption += buf;
  }
  out.caption = {caption, "dashed line: y = x (a perfect prediction)"};

  // Equal axes over both columns: round ticks, or decades when the values span 100x or more.
  double lo = 1e300, hi = -1e300;
  for (const Pt &p : pts) {
    lo = std::min({lo, p.x, p.y});
    hi = std::max({hi, p.x, p.y});
  }
  const bool log_axes = lo > 0 && hi / lo >= 100;
  double a_lo, a_hi;
  std::vector<double> tick_values, tick_at;
  if (log_axes) {
    a_lo = std::floor(std::log10(lo) + 1e-9);
    a_hi = std::ceil(std::log10(hi) - 1e-9);
    for (double e = a_lo; e <= a_hi + 1e-9; ++e) {
      tick_at.push_back(e);
      tick_values.push_back(std::pow(10.0, e));
    }
  } else {
    if (hi == lo) {
      lo -= std::max(1.0, std::abs(lo) * 0.1);
      hi += std::max(1.0, std::abs(hi) * 0.1);
    }
    const double step = nice_step(lo, hi, 8);
    a_lo = std::floor(lo / step + 1e-9) * step;
    a_hi = std::ceil(hi / step - 1e-9) * step;
    tick_values = tick_at = nice_ticks(a_lo, a_hi, 8);
  }
  const std::vector<std::string> tick_text = tick_labels(tick_values);
  std::vector<Tick> ticks;
  for (std::size_t i = 0; i < tick_at.size(); ++i)
    ticks.push_back({tick_at[i], tick_text[i], true});
  out.x_labels = out.y_labels = tick_text;

  const int side = 600, inset = 10; // data area; points keep `inset` px from the frame
  const std::string x_title = axis_title(s.x_title, s.x) + (log_axes ? ", log scale" : "");
  const std::string y_title = axis_title(s.y_title, s.y) + (log_axes ? ", log scale" : "");
  const Rect probe{0, 0, side, side};
  const int left = draw_axis(nullptr, f.font, probe, Side::left, {}, ticks, y_title, f.st);
  const int bottom = draw_axis(nullptr, f.font, probe, Side::bottom, {}, ticks, x_title, f.st);
  const bool legend = names.size() > 1 && names.size() <= 24;
  std::vector<LegendItem> items;
  if (legend)
    for (std::size_t k = 0; k < names.size(); ++k)
      items.push_back({hex_color(kSeries[k % 8]),
                       names[k] + " (N = " + std::to_string(per[k].first) + ", MAE " +
                           error_text(per[k].second / double(per[k].first),
                                      unit == "%" ? "points" : unit) +
                           ")",
                       static_cast<int>(k % kMarkers), false});
  if (names.size() > 24)
    out.notes.push_back(std::to_string(names.size()) + " values of " + s.series +
                        ": the legend is left out (the points are labelled)");
  // max_width 1: one legend item per line.
  const Rect lbox = draw_legend(nullptr, f.font, 0, 0, 1, items, f.st);
  const int legend_w = legend ? lbox.w + 2 * f.st.margin : 0;
  const int width = std::max(f.st.margin + left + side + f.st.margin + legend_w, 720);
  const int text_w = width - 2 * f.st.margin;
  const std::string title =
      !s.title.empty() ? s.title
                       : s.y + " against " + s.x + (s.series.empty() ? "" : ", by " + s.series);
  const std::vector<std::string> title_lines = wrap_text(f.font, title, f.st.title_px, text_w);
  const int title_h = f.font.measure("Ag", f.st.title_px).height() + 4;
  const int line_h = f.font.measure("Ag", f.st.tick_px).height() + 4;
  const Rect area{f.st.margin + left,
                  f.st.margin + static_cast<int>(title_lines.size()) * title_h + f.st.margin,
                  side, side};
  std::vector<std::string> text_lines; // the caption, then notes
  for (const std::string &line : out.caption)
    for (std::string &l : wrap_text(f.font, line, f.st.tick_px, text_w))
      text_lines.push_back(std::move(l));
  const std::size_t caption_lines = text_lines.size();
  for (const std::string &n : out.notes)
    for (std::string &l : wrap_text(f.font, "note: " + n, f.st.tick_px, text_w))
      text_lines.push_back(std::move(l));
  const int text_y = std::max(area.bottom() + bottom, area.y + lbox.h) + f.st.margin;
  Canvas c(width, text_y + static_cast<int>(text_lines.size()) * line_h + f.st.margin,
           f.st.background);
  for (std::size_t i = 0; i < title_lines.size(); ++i)
    f.font.draw(c, f.st.margin, f.st.margin + static_cast<int>(i) * title_h, title_lines[i],
                f.st.title_px, f.st.text);
  for (std::size_t i = 0; i < text_lines.size(); ++i)
    f.font.draw(c, f.st.margin, text_y + static_cast<int>(i) * line_h, text_lines[i], f.st.tick_px,
                i < caption_lines ? f.st.text : f.st.muted);

  const Scale sx{a_lo, a_hi, double(area.x + inset), double(area.right() - 1 - inset)};
  const Scale sy{a_lo, a_hi, double(area.bottom() - 1 - inset), double(area.y + inset)};
  auto at = [&](double v) { return log_axes ? std::log10(v) : v; };
  const Color grid{235, 235, 235, 255};
  for (const Tick &tk : ticks) {
    c.hline(area.x, area.right() - 1, static_cast<int>(std::lround(sy(tk.value))), grid);
    c.vline(static_cast<int>(std::lround(sx(tk.value))), area.y, area.bottom() - 1, grid);
  }
  // y = x, dashed (8 px on, 6 off), under the points.
  const Color identity{110, 110, 110, 255};
  const int x0 = static_cast<int>(std::lround(sx(a_lo))), y0 = static_cast<int>(std::lround(sy(a_lo)));
  const int x1 = static_cast<int>(std::lround(sx(a_hi)));
  for (int k = 0; x0 + k <= x1; ++k)
    if (k % 14 < 8)
      for (int d = 0; d < 2; ++d)
        c.set(x0 + k, y0 - k + d, identity);
  constexpr int kMarkerR = 6;
  for (const Pt &p : pts) {
    const int x = static_cast<int>(std::lround(sx(at(p.x))));
    const int y = static_cast<int>(std::lround(sy(at(p.y))));
    draw_marker(c, static_cast<int>(p.series % kMarkers), x, y, kMarkerR,
                hex_color(kSeries[p.series % 8]));
    out.markers.push_back({x - kMarkerR, y - kMarkerR, 2 * kMarkerR + 1, 2 * kMarkerR + 1});
    ++out.cells;
  }
  // Labels right of their point, else left of it, where they cover no marker and no earlier label
  // and stay inside the frame; the others are left out.
  const bool label_series = !legend && s_col >= 0;
  std::vector<Rect> taken = out.markers;
  auto overlaps = [](const Rect &a, const Rect &b) {
    return a.x < b.right() && b.x < a.right() && a.y < b.bottom() && b.y < a.bottom();
  };
  for (std::size_t i = 0; i < pts.size(); ++i) {
    const std::string &text =
        !pts[i].label.empty() ? pts[i].label : label_series ? names[pts[i].series] : "";
    if (text.empty())
      continue;
    const Rect &m = out.markers[i];
    const Font::Extent e = f.font.measure(text, f.st.tick_px);
    const int y = m.y + m.h / 2 - e.height() / 2;
    for (const Rect box : {Rect{m.right() + 3, y, e.width, e.height()},
                           Rect{m.x - 3 - e.width, y, e.width, e.height()}}) {
      const bool inside = box.x > area.x && box.right() < area.right();
      if (!inside || std::any_of(taken.begin(), taken.end(),
                                 [&](const Rect &r) { return &r != &taken[i] && overlaps(box, r); }))
        continue;
      f.font.draw(c, box.x, box.y, text, f.st.tick_px, f.st.text);
      taken.push_back(box);
      break;
    }
  }
  c.outline_rect({area.x - 1, area.y - 1, area.w + 2, area.h + 2}, f.st.frame);
  draw_axis(&c, f.font, area, Side::bottom, sx, ticks, x_title, f.st);
  draw_axis(&c, f.font, area, Side::left, sy, ticks, y_title, f.st);
  out.plot = area;
  out.legend = legend ? draw_legend(&c, f.font, area.right() + 2 * f.st.margin, area.y, 1, items,
                                    f.st)
                      : Rect{};
  return c;
}

} // namespace

Canvas plot(const CsvTable &table, const PlotSpec &spec, PlotLayout *layout) {
  const PlotSpec s = plot_defaults(table, spec);
  PlotLayout out;
  Canvas c = s.kind == PlotKind::heatmap                        ? heatmap(table, s, out)
             : s.kind == PlotKind::scatter && s.same_quantity ? compare_plot(table, s, out)
                                                              : xy_plot(table, s, out);
  if (layout)
    *layout = out;
  return c;
}

} // namespace cbi::viz
