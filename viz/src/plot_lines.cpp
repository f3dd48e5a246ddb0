// cbi plot lines (x = input size by default, one line per order) and cbi plot scatter
// --free-axes (two quantities, each axis its own range): points per series, a log axis where the
// values span decades, series told apart by colour and marker, ties and left-out rows listed.
#include "plot_common.hpp"

#include "cbi/error.hpp"
#include "cbi/text.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace cbi::viz::plot_detail {

namespace {

struct Point {
  double x, y;
  std::string label;
  const std::vector<std::string> *row = nullptr; // the CSV row (lines: before averaging)
};

// A sweep's axes: where the rows one point of a line averages differ in one, the note names it.
const char *const kAxes[] = {"kernel",      "workload", "stencil",    "depth",
                             "type",        "block",    "cache",      "remap_math",
                             "block_order", "backend",  "gpu_device", "model_device"};

// The series in order of first appearance and their points (lines: the mean of the rows that
// share an x), with the data's ranges; rows without numbers are noted in `out`.
struct Series {
  std::vector<std::string> names;
  std::map<std::string, std::vector<Point>> points;
  double x_lo = 1e300, x_hi = -1e300, y_lo = 1e300, y_hi = -1e300;
};

Series gather(const CsvTable &t, const PlotSpec &s, PlotLayout &out) {
  const bool lines = s.kind == PlotKind::lines;
  const int x_col = t.index(s.x), y_col = t.index(s.y);
  const int s_col = s.series.empty() ? -1 : t.index(s.series);
  Series r;
  std::map<std::string, int64_t> no_number; // x cells with no number (tile:16x4 as x), counted
  for (const auto &row : t.rows) {
    double x, y;
    if (!leading_number(row[static_cast<std::size_t>(x_col)], x) ||
        !leading_number(row[static_cast<std::size_t>(y_col)], y)) {
      ++no_number[row[static_cast<std::size_t>(x_col)]];
      continue;
    }
    const std::string name = s_col >= 0 ? row[static_cast<std::size_t>(s_col)] : "";
    if (!r.points.count(name))
      r.names.push_back(name);
    r.points[name].push_back({x, y, name, &row});
  }
  if (r.points.empty())
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
  // Lines: points that average several rows, how many rows, and the axes those rows differ in
  // (a sweep over blocks drew each order's mean over the blocks without saying so).
  int64_t averaged = 0;
  std::size_t fewest = 0, most = 0;
  std::set<std::string> differ;
  for (auto &kv : r.points) {
    if (lines) { // one point per x: the mean of the rows that share it
      std::map<double, std::vector<Point>> by_x;
      for (const Point &p : kv.second)
        by_x[p.x].push_back(p);
      kv.second.clear();
      for (const auto &[x, same] : by_x) {
        double sum = 0;
        for (const Point &p : same)
          sum += p.y;
        kv.second.push_back({x, sum / double(same.size()), kv.first});
        if (same.size() < 2)
          continue;
        ++averaged;
        fewest = fewest == 0 ? same.size() : std::min(fewest, same.size());
        most = std::max(most, same.size());
        for (const char *axis : kAxes) {
          const int col = t.index(axis);
          if (col < 0 || axis == s.x || axis == s.series)
            continue;
          const auto c = static_cast<std::size_t>(col);
          for (const Point &p : same)
            if ((*p.row)[c] != (*same.front().row)[c])
              differ.insert(axis);
        }
      }
    }
    for (const Point &p : kv.second) {
      r.x_lo = std::min(r.x_lo, p.x);
      r.x_hi = std::max(r.x_hi, p.x);
      r.y_lo = std::min(r.y_lo, p.y);
      r.y_hi = std::max(r.y_hi, p.y);
    }
  }
  if (averaged > 0) {
    const std::string axes = join(differ);
    const std::string rows =
        std::to_string(fewest) + (most > fewest ? " to " + std::to_string(most) : "");
    const std::string shared = (s.series.empty() ? "" : s.series + " and ") + s.x;
    out.notes.push_back(std::to_string(averaged) + " points are each the mean of " + rows +
                        " rows that share " + shared +
                        (axes.empty() ? " (repeated rows)"
                                      : " and differ in " + axes + ": keep one " + *differ.begin() +
                                            "'s rows in the CSV to plot it alone"));
  }
  return r;
}

// Points that several series share (equal x and y), by point: drawn side by side and listed in
// `out`, so that no series hides another.
std::map<std::pair<double, double>, std::vector<std::size_t>>
shared_points(const Series &r, const PlotSpec &s, PlotLayout &out) {
  std::map<std::pair<double, double>, std::vector<std::size_t>> at_point;
  for (std::size_t k = 0; k < r.names.size(); ++k)
    for (const Point &p : r.points.at(r.names[k]))
      at_point[{p.x, p.y}].push_back(k);
  for (const auto &kv : at_point)
    if (kv.second.size() > 1) {
      std::string names;
      for (std::size_t k : kv.second)
        names += (names.empty() ? "" : " = ") + r.names[k];
      out.ties.push_back(names + " at " + s.x + " " + short_number(kv.first.first) + " (" + s.y +
                         " " + short_number(kv.first.second) + ")");
    }
  return at_point;
}

// The axes: log2 for x when it spans 8x (sizes that double), log10 for y when positive values
// span 100x (absolute misses over sizes), else linear from 0 where that keeps the data readable.
struct Axes {
  bool log_x = false, log_y = false;
  double x_lo, x_hi, y_lo, y_hi; // in axis units (logs on a log axis)
  std::vector<Tick> xt, yt;
  double x_of(double v) const { return log_x ? std::log2(v) : v; }
  double y_of(double v) const { return log_y ? std::log10(v) : v; }
};

constexpr int kMarkerR = 5; // marker radius, px; shared points sit 2 * (kMarkerR + 1) px apart
constexpr int kPlotW = 760, kPlotH = 440;

// `most_shared`: the most series that share one point (drawn side by side).
Axes axes_for(const Series &r, std::size_t most_shared) {
  Axes a;
  a.log_x = r.x_lo > 0 && r.x_hi / r.x_lo >= 8;
  a.log_y = r.y_lo > 0 && r.y_hi / r.y_lo >= 100;
  double y_lo = r.y_lo, y_hi = r.y_hi, x_lo = r.x_lo, x_hi = r.x_hi;
  if (!a.log_y && y_lo >= 0 && y_lo < 0.5 * y_hi)
    y_lo = 0;
  if (y_hi == y_lo)
    y_hi = y_lo + 1;
  if (!a.log_x && x_hi == x_lo) {
    x_lo -= 1;
    x_hi += 1;
  }
  a.xt = ticks_for(x_lo, x_hi, a.log_x ? 2 : 0, 8);
  if (a.log_y) {
    const double d_lo = std::floor(std::log10(y_lo) + 1e-9),
                 d_hi = std::ceil(std::log10(y_hi) - 1e-9);
    a.yt = ticks_for(std::pow(10.0, d_lo), std::pow(10.0, d_hi), 10, 8);
    a.y_lo = d_lo;
    a.y_hi = std::max(d_hi, d_lo + 1);
  } else {
    const double pad = (y_hi - y_lo) * 0.05;
    a.yt = ticks_for(y_lo, y_hi + pad, 0, 8);
    a.y_lo = y_lo;
    a.y_hi = y_hi + pad;
  }
  const double ax_lo = a.x_of(x_lo), ax_hi = a.x_of(x_hi), range = ax_hi - ax_lo;
  double x_pad = std::max(range * 0.04, a.log_x ? 0.25 : 0.0);
  // The outermost of the markers side by side stays inside the frame: 7 series at one point
  // spilled over the y axis and hid its lowest label.
  const double need_px =
      double(most_shared > 1 ? (most_shared - 1) * (kMarkerR + 1) : 0) + kMarkerR + 2;
  if (range > 0 && kPlotW > 4 * need_px)
    x_pad = std::max(x_pad, need_px * range / (kPlotW - 2 * need_px));
  a.x_lo = ax_lo - x_pad;
  a.x_hi = ax_hi + x_pad;
  return a;
}

// Lines first, then the markers over every line, each series' marker shifted sideways where
// several series share the point; scatter labels right of their point where they overprint none.
void draw_series(Canvas &c, const Frame &f, const Series &r, const Axes &a, const Scale &sx,
                 const Scale &sy, bool lines,
                 const std::map<std::pair<double, double>, std::vector<std::size_t>> &at_point,
                 PlotLayout &out) {
  auto px = [&](const Point &p) {
    return std::make_pair(static_cast<int>(std::lround(sx(a.x_of(p.x)))),
                          static_cast<int>(std::lround(sy(a.y_of(p.y)))));
  };
  for (std::size_t k = 0; k < r.names.size() && lines; ++k) {
    const std::vector<Point> &pts = r.points.at(r.names[k]);
    for (std::size_t i = 1; i < pts.size(); ++i) {
      const auto [x0, y0] = px(pts[i - 1]);
      const auto [x, y] = px(pts[i]);
      c.line(x0, y0, x, y, series_colour(k), 2);
    }
  }
  std::vector<Rect> labels;
  for (std::size_t k = 0; k < r.names.size(); ++k)
    for (const Point &p : r.points.at(r.names[k])) {
      auto [x, y] = px(p);
      const std::vector<std::size_t> &share = at_point.at({p.x, p.y});
      if (share.size() > 1) {
        const auto slot = std::find(share.begin(), share.end(), k) - share.begin();
        x += static_cast<int>((2 * slot - static_cast<long>(share.size()) + 1) * (kMarkerR + 1));
      }
      draw_marker(c, series_marker(k), x, y, kMarkerR, series_colour(k));
      out.markers.push_back({x - kMarkerR, y - kMarkerR, 2 * kMarkerR + 1, 2 * kMarkerR + 1});
      ++out.cells;
      if (lines || p.label.empty())
        continue;
      const Font::Extent e = f.font.measure(p.label, f.st.tick_px);
      const Rect box{x + 7, y - e.height() / 2, e.width, e.height()};
      const bool clash = std::any_of(labels.begin(), labels.end(), [&](const Rect &o) {
        return box.x < o.right() && o.x < box.right() && box.y < o.bottom() && o.y < box.bottom();
      });
      if (!clash) { // else left out: the legend names the colour
        f.font.draw(c, box.x, box.y, p.label, f.st.tick_px, f.st.text);
        labels.push_back(box);
      }
    }
}

} // namespace

Canvas lines_plot(const CsvTable &t, const PlotSpec &s, PlotLayout &out) {
  Frame f;
  const bool lines = s.kind == PlotKind::lines;
  const Series r = gather(t, s, out);
  const auto at_point = shared_points(r, s, out);
  std::size_t most_shared = 1;
  for (const auto &kv : at_point)
    most_shared = std::max(most_shared, kv.second.size());
  const Axes a = axes_for(r, most_shared);
  for (const Tick &tk : a.xt)
    out.x_labels.push_back(tk.label);
  for (const Tick &tk : a.yt)
    out.y_labels.push_back(tk.label);
  const std::string x_title = axis_title(s.x_title, s.x) + (a.log_x ? ", log scale" : "");
  const std::string y_title = axis_title(s.y_title, s.y) + (a.log_y ? ", log scale" : "");
  const int plot_w = kPlotW, plot_h = kPlotH;
  const Rect probe{0, 0, plot_w, plot_h};
  const int left = draw_axis(nullptr, f.font, probe, Side::left, {}, a.yt, y_title, f.st);
  const int bottom = draw_axis(nullptr, f.font, probe, Side::bottom, {}, a.xt, x_title, f.st);
  const std::string title =
      !s.title.empty()
          ? s.title
          : column_title(s.y) + " against " + column_title(s.x) +
                (s.series.empty() ? ""
                                  : ", one " + (lines ? std::string("line") : "colour") + " per " +
                                        column_title(s.series));
  const int label_room = lines ? 0 : 90; // scatter labels to the right of the last points
  const int width = f.st.margin + left + plot_w + f.st.margin + label_room;
  const int text_w = width - 2 * f.st.margin;
  // The title is fitted to the image: wrapped, never wider than it.
  const std::vector<std::string> title_lines = wrap_text(f.font, title, f.st.title_px, text_w);
  const int title_h = f.font.measure("Ag", f.st.title_px).height() + 3;
  const int line_h = f.font.measure("Ag", f.st.tick_px).height() + 3;
  const Rect area{f.st.margin + left,
                  f.st.margin + static_cast<int>(title_lines.size()) * title_h + f.st.margin,
                  plot_w, plot_h};
  std::vector<LegendItem> items;
  for (std::size_t k = 0; k < r.names.size() && (lines || r.names.size() <= 24); ++k)
    items.push_back({series_colour(k), r.names[k], series_marker(k), lines});
  if (!lines && r.names.size() > 24)
    out.notes.push_back(std::to_string(r.names.size()) +
                        " series: the legend is left out (the points are labelled)");
  const int legend_y = area.bottom() + bottom + f.st.margin;
  const Rect lbox = draw_legend(nullptr, f.font, f.st.margin, legend_y, text_w, items, f.st);
  std::vector<std::string> note_lines = wrap_all(f, out.ties, "tie: ", f.st.tick_px, text_w);
  for (std::string &l : wrap_all(f, out.notes, "note: ", f.st.tick_px, text_w))
    note_lines.push_back(std::move(l));
  const int notes_y = (items.empty() ? legend_y : lbox.bottom()) + 4;
  Canvas c(width, notes_y + static_cast<int>(note_lines.size()) * line_h + f.st.margin,
           f.st.background);
  draw_lines_of_text(c, f, f.st.margin, f.st.margin, title_lines, f.st.title_px, title_h,
                     f.st.text);
  draw_lines_of_text(c, f, f.st.margin, notes_y, note_lines, f.st.tick_px, line_h, f.st.muted);
  const Scale sx{a.x_lo, a.x_hi, double(area.x), double(area.right())};
  const Scale sy{a.y_lo, a.y_hi, double(area.bottom()), double(area.y)};
  for (const Tick &tk : a.yt) // light grid lines at the y ticks, under the data
    c.hline(area.x, area.right() - 1, static_cast<int>(std::lround(sy(tk.value))),
            Color{235, 235, 235, 255});
  c.outline_rect({area.x - 1, area.y - 1, area.w + 2, area.h + 2}, f.st.frame);
  draw_series(c, f, r, a, sx, sy, lines, at_point, out);
  draw_axis(&c, f.font, area, Side::bottom, sx, a.xt, x_title, f.st);
  draw_axis(&c, f.font, area, Side::left, sy, a.yt, y_title, f.st);
  out.plot = area;
  out.legend = draw_legend(&c, f.font, f.st.margin, legend_y, text_w, items, f.st);
  return c;
}

} // namespace cbi::viz::plot_detail
