// cbi plot heatmap: column width (x) by block or size (y), each cell the value relative to the
// naive order at that y, blue better and vermillion worse, the best cell outlined; what it leaves
// out is said under it.
#include "plot_common.hpp"

#include "cbi/error.hpp"
#include "cbi/text.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace cbi::viz::plot_detail {

namespace {

using Key = std::pair<double, double>; // (x, y)
using Sum = std::pair<double, int>;    // sum, count

// The rows, sorted into cells and the naive row of each y, and the rows left out by reason.
struct Cells {
  std::map<double, Sum> naive; // y -> naive's sum, count
  std::map<Key, Sum> cell;
  double size = -1; // the one size shown when size is no axis (-1: every size)
  std::set<double> sizes;
  int64_t no_number = 0, other_size = 0;
  std::map<std::string, int64_t> other_orders; // orders with no place on the x axis
};

Cells gather(const CsvTable &t, const PlotSpec &s) {
  Cells g;
  const int order_col = t.index("order"), size_col = t.index("size");
  const int x_col = s.x.empty() ? order_col : t.index(s.x), y_col = t.index(s.y),
            v_col = t.index(s.value);
  auto at = [](const std::vector<std::string> &row, int c) -> const std::string & {
    return row[static_cast<std::size_t>(c)];
  };
  // The largest input size only: sizes are not comparable cell to cell (unless size is an axis).
  const bool size_is_axis = size_col >= 0 && (size_col == x_col || size_col == y_col);
  for (const auto &row : t.rows) {
    double v;
    if (size_col >= 0 && !size_is_axis && leading_number(at(row, size_col), v))
      g.sizes.insert(v);
  }
  if (!g.sizes.empty())
    g.size = *g.sizes.rbegin();
  for (const auto &row : t.rows) {
    double x, y, v, sz;
    if (!leading_number(at(row, y_col), y) || !leading_number(at(row, v_col), v)) {
      ++g.no_number;
      continue;
    }
    if (g.size >= 0 && (!leading_number(at(row, size_col), sz) || sz != g.size)) {
      ++g.other_size;
      continue;
    }
    const std::string order = order_col >= 0 ? at(row, order_col) : "";
    if (is_naive(order)) {
      g.naive[y].first += v;
      ++g.naive[y].second;
      continue;
    }
    // The default x axis is the column width of column:W orders; other orders have no place.
    if ((s.x.empty() && order.rfind("column:", 0) != 0) || !leading_number(at(row, x_col), x)) {
      ++g.other_orders[order.empty() ? "(no order)" : order];
      continue;
    }
    g.cell[{x, y}].first += v;
    ++g.cell[{x, y}].second;
  }
  if (g.cell.empty())
    throw UsageError("--input", "no rows with a numeric " + (s.x.empty() ? "column:W order" : s.x) +
                                    ", " + s.y + " and " + s.value +
                                    "; allowed: a sweep over column orders and block sizes");
  return g;
}

// Each cell's shown value (relative to naive where the naive row exists) and the best cells.
struct Shown {
  std::map<Key, double> value;
  std::set<double> xs, ys, no_naive; // no_naive: y values with no naive row to compare with
  std::vector<Key> best;             // every cell at the best value
  double best_good = -1e300, lo = 1e300, hi = -1e300;
  bool relative = false, up = false;
  std::map<Key, std::string> label; // each cell's, in one style (cell_labels)
};

Shown judge(const Cells &g, const PlotSpec &s) {
  Shown r;
  r.relative = !g.naive.empty();
  r.up = higher_is_better(s.value);
  for (const auto &kv : g.cell) {
    r.xs.insert(kv.first.first);
    r.ys.insert(kv.first.second);
    double v = kv.second.first / kv.second.second;
    if (r.relative) {
      const auto n = g.naive.find(kv.first.second);
      if (n == g.naive.end()) {
        r.no_naive.insert(kv.first.second);
        continue;
      }
      v /= n->second.first / n->second.second;
    }
    r.value[kv.first] = v;
    r.lo = std::min(r.lo, v);
    r.hi = std::max(r.hi, v);
    const double good = r.up ? v : -v;
    // Equal within printing precision counts as a tie (the labels show 2 decimals).
    if (good > r.best_good + 1e-9 * std::abs(r.best_good)) {
      r.best_good = good;
      r.best = {kv.first};
    } else if (good >= r.best_good - 1e-9 * std::abs(r.best_good)) {
      r.best.push_back(kv.first);
    }
  }
  if (r.value.empty())
    throw UsageError("--input", "no " + s.y +
                                    " value has both naive (linear) rows and other "
                                    "orders; allowed: a sweep with linear rows for each " +
                                    s.y);
  return r;
}

// "Best" only when one cell is best and it beats the naive order (a ratio past 1).
bool marks_best(const Shown &r) {
  const bool beats = !r.relative || r.best_good > (r.up ? 1.0 : -1.0) + 1e-12;
  return r.best.size() == 1 && beats;
}

// The subtitle (what better means, the best cell or the tie, the size shown) and, into `out`, the
// notes on every row left out and the ties.
std::string subtitle_and_notes(const Cells &g, const Shown &r, const PlotSpec &s, PlotLayout &out) {
  auto cell_name = [&](const Key &k) {
    return (s.x.empty() ? "column:" + short_number(k.first) : s.x + " " + short_number(k.first)) +
           " at " + s.y + " " + short_number(k.second);
  };
  std::string sub = r.up ? "higher is better" : "lower is better";
  if (marks_best(r)) {
    sub += "; best cell outlined";
  } else if (r.best.size() > 1) {
    const std::string names = join(r.best, ", ", cell_name);
    sub += "; no best cell: " + std::to_string(r.best.size()) + " tie (" + names + ")";
    out.ties.push_back("best value shared by " + names);
  } else {
    sub += "; no cell beats linear, so none is marked best";
  }
  if (g.size >= 0)
    sub += "; size " + short_number(g.size) + (g.sizes.size() > 1 ? " (the largest)" : "");
  if (!r.relative)
    sub += "; no linear rows, so absolute values";
  if (g.other_size > 0)
    out.notes.push_back(std::to_string(g.other_size) + " rows of smaller sizes not shown");
  if (!g.other_orders.empty()) {
    std::string names;
    int64_t rows = 0;
    for (const auto &kv : g.other_orders) {
      names += (names.empty() ? "" : ", ") + kv.first;
      rows += kv.second;
    }
    out.notes.push_back(std::to_string(rows) +
                        " rows of orders with no place on the x axis not shown: " + names);
  }
  if (!r.no_naive.empty()) {
    const std::string names = join(r.no_naive, ", ", [](double y) { return short_number(y); });
    out.notes.push_back(s.y + " " + names + " not shown: no linear row to compare with");
  }
  if (g.no_number > 0)
    out.notes.push_back(std::to_string(g.no_number) + " rows without a number in " + s.y + " or " +
                        s.value + " not shown");
  return sub;
}

Color cell_colour(const Shown &r, double v) {
  const Color better = hex_color("#0072b2"), worse = hex_color("#d55e00");
  if (r.relative) { // log2 of the gain, saturating at 2x either way
    const double gain = std::clamp(std::log2(r.up ? v : 1 / v), -1.0, 1.0);
    return gain >= 0 ? mix(kWhite, better, 0.85 * gain) : mix(kWhite, worse, -0.85 * gain);
  }
  const double g = r.hi > r.lo ? (v - r.lo) / (r.hi - r.lo) : 1;
  return mix(kWhite, better, 0.85 * (r.up ? g : 1 - g));
}

// The cells' labels, in one style for the grid (12,544 and 4,480; not 12.5k beside 4,480).
std::map<Key, std::string> cell_labels(const Shown &r) {
  std::vector<double> values;
  for (const auto &kv : r.value)
    values.push_back(kv.second);
  const std::vector<std::string> numbers = number_labels(values, false);
  std::map<Key, std::string> labels;
  std::size_t i = 0;
  for (const auto &kv : r.value) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2fx", kv.second);
    labels[kv.first] = r.relative ? buf : numbers[i];
    ++i;
  }
  return labels;
}

// Draws the cells, the best cell's outline and the axes into `c` at `area`.
void draw_cells(Canvas &c, const Frame &f, const Shown &r, const Rect &area, int cell_w, int cell_h,
                PlotLayout &out) {
  for (const auto &kv : r.value) {
    const int i = static_cast<int>(std::distance(r.xs.begin(), r.xs.find(kv.first.first)));
    const int j = static_cast<int>(std::distance(r.ys.begin(), r.ys.find(kv.first.second)));
    const Rect box{area.x + i * cell_w, area.y + j * cell_h, cell_w, cell_h};
    const Color fill = cell_colour(r, kv.second);
    c.fill_rect(box, fill);
    const int luma = (fill.r * 299 + fill.g * 587 + fill.b * 114) / 1000;
    f.font.draw(c, box.x + box.w / 2, box.y + box.h / 2, r.label.at(kv.first), f.st.tick_px,
                luma < 110 ? kWhite : f.st.text, Align::center, Align::center);
    c.outline_rect(box, f.st.frame);
    ++out.cells;
    if (marks_best(r) && kv.first == r.best.front())
      out.best = box;
  }
  if (marks_best(r))
    for (int k = 0; k < 3; ++k) // the best cell: a heavy outline
      c.outline_rect({out.best.x + k, out.best.y + k, out.best.w - 2 * k, out.best.h - 2 * k},
                     kBlack);
}

} // namespace

Canvas heatmap(const CsvTable &t, const PlotSpec &s, PlotLayout &out) {
  Frame f;
  const Cells g = gather(t, s);
  Shown r = judge(g, s);
  r.label = cell_labels(r);
  std::string subtitle = subtitle_and_notes(g, r, s, out);
  if (s.y != "block" && t.index("block") >= 0) { // say what became of the block
    const std::size_t blocks = distinct_numbers(t, t.index("block"));
    if (simulated_only(t) || blocks == 0)
      subtitle += "; no block axis: the simulator runs no blocks";
    else if (blocks == 1)
      subtitle += "; one block size in every row";
    else
      out.notes.push_back(std::to_string(blocks) + " block sizes averaged in each cell");
  }
  int cell_w = 64;
  for (const auto &kv : r.value)
    cell_w = std::max(cell_w, f.font.measure(r.label.at(kv.first), f.st.tick_px).width + 14);
  const int nx = static_cast<int>(r.xs.size()), ny = static_cast<int>(r.ys.size());
  const std::string y_title = axis_title(s.y_title, s.y);
  // Rows tall enough that the y axis's title (written upwards) stays beside them.
  const int title_len = f.font.measure(y_title, f.st.label_px).width + 12;
  const int cell_h = std::max(34, (title_len + ny - 1) / ny);
  out.x_labels = tick_labels({r.xs.begin(), r.xs.end()});
  out.y_labels = tick_labels({r.ys.begin(), r.ys.end()});
  std::vector<Tick> xt, yt;
  for (int i = 0; i < nx; ++i)
    xt.push_back({i + 0.5, out.x_labels[static_cast<std::size_t>(i)], true});
  for (int j = 0; j < ny; ++j)
    yt.push_back({j + 0.5, out.y_labels[static_cast<std::size_t>(j)], true});
  const std::string x_title =
      s.x.empty() ? "column width W (order column:W)" : axis_title(s.x_title, s.x);
  const Rect probe{0, 0, nx * cell_w, ny * cell_h};
  const int left = draw_axis(nullptr, f.font, probe, Side::left, {}, yt, y_title, f.st);
  const int bottom = draw_axis(nullptr, f.font, probe, Side::bottom, {}, xt, x_title, f.st);
  const std::string title = !s.title.empty() ? s.title
                            : r.relative
                                ? column_title(s.value) + " relative to the naive order (linear)"
                                : column_title(s.value);
  const int text_w = std::max(left + nx * cell_w + f.st.margin, 640);
  const std::vector<std::string> title_lines = wrap_text(f.font, title, f.st.title_px, text_w);
  const std::vector<std::string> sub_lines = wrap_text(f.font, subtitle, f.st.tick_px, text_w);
  const int title_h = f.font.measure("Ag", f.st.title_px).height() + 3;
  const int line_h = f.font.measure("Ag", f.st.tick_px).height() + 3;
  const int top = f.st.margin + static_cast<int>(title_lines.size()) * title_h +
                  static_cast<int>(sub_lines.size()) * line_h + f.st.margin;
  const Rect area{f.st.margin + left, top, nx * cell_w, ny * cell_h};
  std::vector<LegendItem> items;
  if (r.relative)
    items = {{mix(kWhite, hex_color("#0072b2"), 0.85), "2x better than naive"},
             {kWhite, "same as naive"},
             {mix(kWhite, hex_color("#d55e00"), 0.85), "2x worse"}};
  const int legend_y = area.bottom() + bottom + f.st.margin;
  const int width = std::max(area.right(), text_w) + f.st.margin;
  const Rect lbox = draw_legend(nullptr, f.font, f.st.margin, legend_y, width, items, f.st);
  const std::vector<std::string> note_lines =
      wrap_all(f, out.notes, "note: ", f.st.tick_px, text_w);
  const int notes_y = (items.empty() ? legend_y : lbox.bottom()) + 4;
  Canvas c(width, notes_y + static_cast<int>(note_lines.size()) * line_h + f.st.margin,
           f.st.background);
  draw_lines_of_text(c, f, f.st.margin, f.st.margin, title_lines, f.st.title_px, title_h,
                     f.st.text);
  draw_lines_of_text(c, f, f.st.margin,
                     f.st.margin + static_cast<int>(title_lines.size()) * title_h, sub_lines,
                     f.st.tick_px, line_h, f.st.muted);
  draw_lines_of_text(c, f, f.st.margin, notes_y, note_lines, f.st.tick_px, line_h, f.st.muted);
  draw_cells(c, f, r, area, cell_w, cell_h, out);
  const Scale sx{0, double(nx), double(area.x), double(area.right())};
  const Scale sy{0, double(ny), double(area.y), double(area.bottom())};
  draw_axis(&c, f.font, area, Side::bottom, sx, xt, x_title, f.st);
  draw_axis(&c, f.font, area, Side::left, sy, yt, y_title, f.st);
  out.plot = area;
  out.legend = draw_legend(&c, f.font, f.st.margin, legend_y, width, items, f.st);
  return c;
}

} // namespace cbi::viz::plot_detail
