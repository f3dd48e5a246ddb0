// cbi plot scatter of one quantity, predicted (--y) against measured (--x) (issue 10 §3): equal
// axes (the same range and ticks on a square data area), the dashed line y = x of a perfect
// prediction, and a caption with N, the mean absolute error |y - x| in the unit both columns carry,
// Pearson's r and the NRMSE (issue 20 §2). Sized to be read at about 1000 px wide (a paper
// column): larger text, the legend to the right.
#include "plot_common.hpp"

#include "cbi/error.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

namespace cbi::viz::plot_detail {

namespace {

struct Pt {
  double x, y;
  std::size_t series;
  std::string label;
};

struct Points {
  std::vector<std::string> names; // series in order of first appearance
  std::vector<Pt> pts;
  std::vector<std::pair<int64_t, double>> per; // per series: n, sum |y - x|
  std::string unit;
};

Points gather(const CsvTable &t, const PlotSpec &s, PlotLayout &out) {
  const int x_col = t.index(s.x), y_col = t.index(s.y);
  const int s_col = s.series.empty() ? -1 : t.index(s.series);
  const int l_col = s.label.empty() ? -1 : t.index(s.label);
  Points r;
  std::map<std::string, std::size_t> series_of;
  int64_t skipped = 0;
  for (const auto &row : t.rows) {
    double x, y;
    if (!leading_number(row[static_cast<std::size_t>(x_col)], x) ||
        !leading_number(row[static_cast<std::size_t>(y_col)], y)) {
      ++skipped;
      continue;
    }
    const std::string name = s_col >= 0 ? row[static_cast<std::size_t>(s_col)] : "";
    const auto [it, fresh] = series_of.emplace(name, r.names.size());
    if (fresh)
      r.names.push_back(name);
    r.pts.push_back({x, y, it->second, l_col >= 0 ? row[static_cast<std::size_t>(l_col)] : ""});
  }
  if (r.pts.empty())
    throw UsageError("--input", "no rows with numbers in both " + s.x + " and " + s.y +
                                    "; allowed: numeric columns (see the CSV header)");
  if (skipped > 0)
    out.notes.push_back(std::to_string(skipped) + " rows without a number in " + s.x + " or " +
                        s.y + " not shown");
  // The error's unit is the one both columns carry; a column whose name carries none (a count, a
  // ratio) against a percentage made "3.00 percentage points" of numbers not in percent.
  r.unit = unit_of(s.x) == unit_of(s.y) ? unit_of(s.y) : "";
  r.per.assign(r.names.size(), {0, 0.0});
  return r;
}

// Pearson's r of y against x and the RMSE over the range of x (x is the reference, e.g. the
// measurement), into `out`, as the field reports agreement (Accel-Sim's correlation table); the
// caption's words for them. NaN with fewer than two distinct x or y.
std::string correlation(const std::vector<Pt> &pts, PlotLayout &out) {
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
  // Undefined statistics are said in words, never printed as "nan".
  char r_text[64], nrmse_text[64];
  if (std::isfinite(out.pearson_r))
    std::snprintf(r_text, sizeof r_text, "%.3f", out.pearson_r);
  else
    std::snprintf(r_text, sizeof r_text, "undefined (x or y does not vary)");
  if (std::isfinite(out.nrmse))
    std::snprintf(nrmse_text, sizeof nrmse_text, "%.3f (RMSE / range of x)", out.nrmse);
  else
    std::snprintf(nrmse_text, sizeof nrmse_text, "undefined (x does not vary)");
  return std::string("; Pearson r = ") + r_text + "; NRMSE = " + nrmse_text;
}

// The errors, overall and per series, and the caption under the plot (into `out`).
void errors(Points &r, const PlotSpec &s, PlotLayout &out) {
  double sum = 0, rel_sum = 0;
  bool relative = r.unit != "%";
  const Pt *worst = &r.pts.front();
  for (const Pt &p : r.pts) {
    const double e = std::abs(p.y - p.x);
    sum += e;
    ++r.per[p.series].first;
    r.per[p.series].second += e;
    if (e > std::abs(worst->y - worst->x))
      worst = &p;
    if (p.x > 0)
      rel_sum += e / p.x;
    else
      relative = false;
  }
  out.n = static_cast<int64_t>(r.pts.size());
  out.mean_abs_error = sum / double(r.pts.size());
  out.worst_error = worst->y - worst->x;
  // The worst point by its series and label ("matmul column:256"), else by its x.
  std::string worst_name = r.names[worst->series];
  if (!worst->label.empty())
    worst_name += (worst_name.empty() ? "" : " ") + worst->label;
  if (worst_name.empty())
    worst_name = s.x + " " + short_number(worst->x);
  std::string caption = "N = " + std::to_string(out.n) + "; mean absolute error |y - x| = " +
                        error_text(out.mean_abs_error, r.unit) + "; worst " +
                        error_text(out.worst_error, r.unit, true) + " (" + worst_name + ")";
  if (relative) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * rel_sum / double(r.pts.size()));
    caption += "; mean |y / x - 1| = " + std::string(buf);
  }
  caption += correlation(r.pts, out);
  out.caption = {caption, "dashed line: y = x (a perfect prediction)"};
}

// Equal axes over both columns: round ticks, or decades when the values span 100x or more.
struct EqualAxes {
  bool log = false;
  double lo, hi; // in axis units
  std::vector<Tick> ticks;
  double at(double v) const { return log ? std::log10(v) : v; }
};

EqualAxes equal_axes(const Points &r, PlotLayout &out) {
  double lo = 1e300, hi = -1e300;
  for (const Pt &p : r.pts) {
    lo = std::min({lo, p.x, p.y});
    hi = std::max({hi, p.x, p.y});
  }
  EqualAxes a;
  a.log = lo > 0 && hi / lo >= 100;
  std::vector<double> values, at;
  if (a.log) {
    a.lo = std::floor(std::log10(lo) + 1e-9);
    a.hi = std::ceil(std::log10(hi) - 1e-9);
    for (double e = a.lo; e <= a.hi + 1e-9; ++e) {
      at.push_back(e);
      values.push_back(std::pow(10.0, e));
    }
  } else {
    if (hi == lo) {
      lo -= std::max(1.0, std::abs(lo) * 0.1);
      hi += std::max(1.0, std::abs(hi) * 0.1);
    }
    const double step = nice_step(lo, hi, 8);
    a.lo = std::floor(lo / step + 1e-9) * step;
    a.hi = std::ceil(hi / step - 1e-9) * step;
    values = at = nice_ticks(a.lo, a.hi, 8);
  }
  const std::vector<std::string> text = a.log ? decade_labels(values) : tick_labels(values);
  for (std::size_t i = 0; i < at.size(); ++i)
    a.ticks.push_back({at[i], text[i], true});
  out.x_labels = out.y_labels = text;
  return a;
}

// Grid, the dashed y = x, the points and their labels (right of the point, else left of it,
// where they cover no marker and no earlier label and stay inside the frame).
void draw_points(Canvas &c, const Frame &f, const Points &r, const EqualAxes &a, const Rect &area,
                 const Scale &sx, const Scale &sy, bool label_series, PlotLayout &out) {
  const Color grid{235, 235, 235, 255};
  for (const Tick &tk : a.ticks) {
    c.hline(area.x, area.right() - 1, static_cast<int>(std::lround(sy(tk.value))), grid);
    c.vline(static_cast<int>(std::lround(sx(tk.value))), area.y, area.bottom() - 1, grid);
  }
  const Color identity{110, 110, 110, 255}; // y = x, dashed (8 px on, 6 off), under the points
  const int x0 = static_cast<int>(std::lround(sx(a.lo))),
            y0 = static_cast<int>(std::lround(sy(a.lo)));
  const int x1 = static_cast<int>(std::lround(sx(a.hi)));
  for (int k = 0; x0 + k <= x1; ++k)
    if (k % 14 < 8)
      for (int d = 0; d < 2; ++d)
        c.set(x0 + k, y0 - k + d, identity);
  constexpr int kMarkerR = 6;
  for (const Pt &p : r.pts) {
    const int x = static_cast<int>(std::lround(sx(a.at(p.x))));
    const int y = static_cast<int>(std::lround(sy(a.at(p.y))));
    draw_marker(c, series_marker(p.series), x, y, kMarkerR, series_colour(p.series));
    out.markers.push_back({x - kMarkerR, y - kMarkerR, 2 * kMarkerR + 1, 2 * kMarkerR + 1});
    ++out.cells;
  }
  std::vector<Rect> taken = out.markers;
  auto overlaps = [](const Rect &p, const Rect &q) {
    return p.x < q.right() && q.x < p.right() && p.y < q.bottom() && q.y < p.bottom();
  };
  for (std::size_t i = 0; i < r.pts.size(); ++i) {
    const std::string &text = !r.pts[i].label.empty() ? r.pts[i].label
                              : label_series          ? r.names[r.pts[i].series]
                                                      : r.pts[i].label;
    if (text.empty())
      continue;
    const Rect &m = out.markers[i];
    const Font::Extent e = f.font.measure(text, f.st.tick_px);
    const int y = m.y + m.h / 2 - e.height() / 2;
    for (const Rect box : {Rect{m.right() + 3, y, e.width, e.height()},
                           Rect{m.x - 3 - e.width, y, e.width, e.height()}}) {
      const bool inside = box.x > area.x && box.right() < area.right();
      if (!inside || std::any_of(taken.begin(), taken.end(), [&](const Rect &o) {
            return &o != &taken[i] && overlaps(box, o);
          }))
        continue;
      f.font.draw(c, box.x, box.y, text, f.st.tick_px, f.st.text);
      taken.push_back(box);
      break;
    }
  }
}

} // namespace

Canvas compare_plot(const CsvTable &t, const PlotSpec &s, PlotLayout &out) {
  Frame f;
  f.st.title_px = 21;
  f.st.label_px = 16;
  f.st.tick_px = 14;
  f.st.margin = 18;
  Points r = gather(t, s, out);
  errors(r, s, out);
  const EqualAxes a = equal_axes(r, out);
  const int side = 600, inset = 10; // data area; points keep `inset` px from the frame
  const std::string x_title = axis_title(s.x_title, s.x) + (a.log ? ", log scale" : "");
  const std::string y_title = axis_title(s.y_title, s.y) + (a.log ? ", log scale" : "");
  const Rect probe{0, 0, side, side};
  const int left = draw_axis(nullptr, f.font, probe, Side::left, {}, a.ticks, y_title, f.st);
  const int bottom = draw_axis(nullptr, f.font, probe, Side::bottom, {}, a.ticks, x_title, f.st);
  const bool legend = r.names.size() > 1 && r.names.size() <= 24;
  std::vector<LegendItem> items;
  for (std::size_t k = 0; legend && k < r.names.size(); ++k)
    items.push_back({series_colour(k),
                     r.names[k] + " (N = " + std::to_string(r.per[k].first) + ", MAE " +
                         error_text(r.per[k].second / double(r.per[k].first),
                                    r.unit == "%" ? "points" : r.unit) +
                         ")",
                     series_marker(k), false});
  if (r.names.size() > 24)
    out.notes.push_back(std::to_string(r.names.size()) + " values of " + s.series +
                        ": the legend is left out (the points are labelled)");
  const Rect lbox = draw_legend(nullptr, f.font, 0, 0, 1, items, f.st); // one item a line
  const int legend_w = legend ? lbox.w + 2 * f.st.margin : 0;
  const int width = std::max(f.st.margin + left + side + f.st.margin + legend_w, 720);
  const int text_w = width - 2 * f.st.margin;
  const std::string title = !s.title.empty()
                                ? s.title
                                : column_title(s.y) + " against " + column_title(s.x) +
                                      (s.series.empty() ? "" : ", by " + column_title(s.series));
  const std::vector<std::string> title_lines = wrap_text(f.font, title, f.st.title_px, text_w);
  const int title_h = f.font.measure("Ag", f.st.title_px).height() + 4;
  const int line_h = f.font.measure("Ag", f.st.tick_px).height() + 4;
  const Rect area{f.st.margin + left,
                  f.st.margin + static_cast<int>(title_lines.size()) * title_h + f.st.margin, side,
                  side};
  const std::vector<std::string> caption = wrap_all(f, out.caption, "", f.st.tick_px, text_w);
  const std::vector<std::string> notes = wrap_all(f, out.notes, "note: ", f.st.tick_px, text_w);
  const int text_y = std::max(area.bottom() + bottom, area.y + lbox.h) + f.st.margin;
  const int notes_y = text_y + static_cast<int>(caption.size()) * line_h;
  Canvas c(width, notes_y + static_cast<int>(notes.size()) * line_h + f.st.margin, f.st.background);
  draw_lines_of_text(c, f, f.st.margin, f.st.margin, title_lines, f.st.title_px, title_h,
                     f.st.text);
  draw_lines_of_text(c, f, f.st.margin, text_y, caption, f.st.tick_px, line_h, f.st.text);
  draw_lines_of_text(c, f, f.st.margin, notes_y, notes, f.st.tick_px, line_h, f.st.muted);
  const Scale sx{a.lo, a.hi, double(area.x + inset), double(area.right() - 1 - inset)};
  const Scale sy{a.lo, a.hi, double(area.bottom() - 1 - inset), double(area.y + inset)};
  draw_points(c, f, r, a, area, sx, sy, !legend && !s.series.empty(), out);
  c.outline_rect({area.x - 1, area.y - 1, area.w + 2, area.h + 2}, f.st.frame);
  draw_axis(&c, f.font, area, Side::bottom, sx, a.ticks, x_title, f.st);
  draw_axis(&c, f.font, area, Side::left, sy, a.ticks, y_title, f.st);
  out.plot = area;
  out.legend = legend
                   ? draw_legend(&c, f.font, area.right() + 2 * f.st.margin, area.y, 1, items, f.st)
                   : Rect{};
  return c;
}

} // namespace cbi::viz::plot_detail
