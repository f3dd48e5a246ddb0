#include "cbi/viz/chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cbi::viz {

double nice_step(double lo, double hi, int max_ticks) {
  const double range = std::abs(hi - lo);
  if (range == 0 || max_ticks < 1)
    return 1;
  const double raw = range / max_ticks;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * power >= raw)
      return m * power;
  return 10 * power;
}

std::vector<double> nice_ticks(double lo, double hi, int max_ticks) {
  if (hi < lo)
    std::swap(lo, hi);
  const double step = nice_step(lo, hi, max_ticks);
  std::vector<double> ticks;
  for (double k = std::ceil(lo / step - 1e-9); k * step <= hi + step * 1e-9; k += 1)
    ticks.push_back(k * step);
  return ticks;
}

std::string group_digits(int64_t value) {
  std::string digits = std::to_string(value < 0 ? -value : value);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0)
      out += ',';
    out += digits[i];
  }
  return value < 0 ? "-" + out : out;
}

std::string short_number(double value, int digits) {
  char buf[32];
  const double a = std::abs(value);
  const char *suffix = "";
  double scaled = value;
  if (a >= 1e9) {
    scaled = value / 1e9;
    suffix = "G";
  } else if (a >= 1e6) {
    scaled = value / 1e6;
    suffix = "M";
  } else if (a >= 1e5) { // below, whole numbers are grouped as ticks are: 32,768
    scaled = value / 1e3;
    suffix = "k";
  }
  if (*suffix == 0 && value == std::floor(value))
    return group_digits(static_cast<int64_t>(value));
  std::snprintf(buf, sizeof buf, "%.*g%s", digits, scaled, suffix);
  return buf;
}

namespace {

// Whether every value, in units of `unit`, is shown exactly with `decimals` decimals.
bool exact_at(const std::vector<double> &values, double unit, int decimals) {
  const double p = std::pow(10.0, decimals);
  for (double v : values)
    if (std::abs(v / unit * p - std::round(v / unit * p)) > 1e-6)
      return false;
  return true;
}

std::string fixed_label(double v, double unit, const char *suffix, int decimals) {
  if (unit == 1 && decimals == 0)
    return group_digits(std::llround(v));
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f%s", decimals, v / unit + 0.0, v == 0 ? "" : suffix);
  return buf;
}

} // namespace

std::vector<std::string> number_labels(const std::vector<double> &values, bool distinct) {
  double largest = 0;
  for (double v : values)
    largest = std::max(largest, std::abs(v));
  const double unit = largest >= 1e9 ? 1e9 : largest >= 1e6 ? 1e6 : largest >= 1e5 ? 1e3 : 1;
  const char *suffix = unit == 1e9 ? "G" : unit == 1e6 ? "M" : unit == 1e3 ? "k" : "";
  // Three significant digits of the largest, fewer where every value is exact with fewer, more
  // where two distinct values would read alike.
  int decimals =
      largest > 0
          ? std::max(0, 2 - static_cast<int>(std::floor(std::log10(largest / unit + 1e-12))))
          : 0;
  while (decimals > 0 && exact_at(values, unit, decimals - 1))
    --decimals;
  std::vector<std::string> labels;
  for (;; ++decimals) {
    labels.clear();
    for (double v : values)
      labels.push_back(fixed_label(v, unit, suffix, decimals));
    bool apart = true;
    for (std::size_t i = 0; i < values.size() && apart && distinct && decimals < 12; ++i)
      for (std::size_t j = i + 1; j < values.size() && apart; ++j)
        apart = values[i] == values[j] || labels[i] != labels[j];
    if (apart)
      return labels;
  }
}

std::vector<std::string> tick_labels(const std::vector<double> &values) {
  return number_labels(values, true);
}

std::vector<std::string> decade_labels(const std::vector<double> &values) {
  std::vector<std::string> labels;
  for (double v : values) {
    const double a = std::abs(v);
    const double unit = a >= 1e9 ? 1e9 : a >= 1e6 ? 1e6 : a >= 1e3 ? 1e3 : 1;
    char buf[48];
    std::snprintf(buf, sizeof buf, "%g%s", v / unit,
                  unit == 1e9   ? "G"
                  : unit == 1e6 ? "M"
                  : unit == 1e3 ? "k"
                                : "");
    labels.push_back(buf);
  }
  return labels;
}

std::vector<std::string> power_of_two_labels(const std::vector<double> &values) {
  double largest = 0;
  bool whole = true;
  for (double v : values) {
    largest = std::max(largest, std::abs(v));
    whole = whole && v >= 1 && v == std::floor(v);
  }
  if (!whole)
    return tick_labels(values);
  std::vector<std::string> labels;
  for (double v : values)
    labels.push_back(largest < 1e7 ? group_digits(std::llround(v))
                                   : "2^" + std::to_string(std::llround(std::log2(v))));
  return labels;
}

std::string percent(double fraction, int decimals) {
  char buf[32];
  // + 0.0 turns -0 into 0, which would print as "-0.00%".
  std::snprintf(buf, sizeof buf, "%.*f%%", decimals, fraction * 100.0 + 0.0);
  return buf;
}

int draw_axis(Canvas *canvas, const Font &font, const Rect &area, Side side, const Scale &scale,
              const std::vector<Tick> &ticks, const std::string &title, const Style &style) {
  const bool horizontal = side == Side::bottom || side == Side::top;
  const int gap = 3;
  // Depth of the tick labels: their height (horizontal axis) or widest label (vertical axis).
  int label_depth = 0;
  for (const Tick &t : ticks) {
    if (t.label.empty())
      continue;
    const Font::Extent e = font.measure(t.label, style.tick_px);
    label_depth = std::max(label_depth, horizontal ? e.height() : e.width);
  }
  const Font::Extent title_extent = font.measure(title, style.label_px);
  const int title_depth = title.empty() ? 0 : title_extent.height();
  const int depth =
      style.tick_len + gap + label_depth + (title.empty() ? 0 : gap + 2 + title_depth);
  if (!canvas)
    return depth;

  // Outward direction and the edge coordinate.
  const int sign = side == Side::bottom || side == Side::right ? 1 : -1;
  const int edge = side == Side::bottom ? area.bottom()
                   : side == Side::top  ? area.y - 1
                   : side == Side::left ? area.x - 1
                                        : area.right();
  if (horizontal)
    canvas->hline(area.x, area.right() - 1, edge, style.axis);
  else
    canvas->vline(edge, area.y, area.bottom() - 1, style.axis);

  // Pixel extent of the previous label along the axis, to skip overlaps; ticks may run either way
  // along it (a y axis grows upward).
  int last_lo = 0, last_hi = 0;
  bool any_label = false;
  for (const Tick &t : ticks) {
    const int p = static_cast<int>(std::lround(scale(t.value)));
    const int len = t.major ? style.tick_len : (style.tick_len + 1) / 2;
    if (horizontal)
      canvas->vline(p, edge, edge + sign * len, style.axis);
    else
      canvas->hline(edge, edge + sign * len, p, style.axis);
    if (t.label.empty())
      continue;
    const Font::Extent e = font.measure(t.label, style.tick_px);
    const int along = horizontal ? e.width : e.height();
    const int start = p - along / 2;
    if (any_label && start < last_hi + 4 && start + along > last_lo - 4)
      continue;
    any_label = true;
    last_lo = start;
    last_hi = start + along;
    const int out = edge + sign * (style.tick_len + gap);
    if (horizontal)
      font.draw(*canvas, p, out, t.label, style.tick_px, style.muted, Align::center,
                sign > 0 ? Align::start : Align::end);
    else
      font.draw(*canvas, out, p, t.label, style.tick_px, style.muted,
                sign > 0 ? Align::start : Align::end, Align::center);
  }
  if (!title.empty()) {
    const int out = edge + sign * (style.tick_len + gap + label_depth + gap + 2);
    const Align away = sign > 0 ? Align::start : Align::end;
    if (horizontal)
      font.draw(*canvas, area.x + area.w / 2, out, title, style.label_px, style.text, Align::center,
                away);
    else
      font.draw(*canvas, out, area.y + area.h / 2, title, style.label_px, style.text, away,
                Align::center, /*vertical=*/true);
  }
  return depth;
}

void draw_marker(Canvas &canvas, int shape, int x, int y, int r, Color c) {
  switch (shape % kMarkers) {
  case 0:
    canvas.disc(x, y, r, c);
    break;
  case 1:
    canvas.fill_rect({x - r + 1, y - r + 1, 2 * r - 1, 2 * r - 1}, c);
    break;
  case 2: // triangle up: rows widen downwards
  case 4: // triangle down
    for (int dy = -r; dy <= r; ++dy) {
      const int half = (shape == 2 ? dy + r : r - dy) / 2;
      canvas.hline(x - half, x + half, y + dy, c);
    }
    break;
  case 3: // diamond
    for (int dy = -r; dy <= r; ++dy)
      canvas.hline(x - (r - std::abs(dy)), x + (r - std::abs(dy)), y + dy, c);
    break;
  default: // plus, two pixels thick
    canvas.fill_rect({x - r, y - 1, 2 * r + 1, 3}, c);
    canvas.fill_rect({x - 1, y - r, 3, 2 * r + 1}, c);
  }
}

Rect draw_legend(Canvas *canvas, const Font &font, int x, int y, int max_width,
                 const std::vector<LegendItem> &items, const Style &style) {
  const Font::Extent probe = font.measure("Ag", style.tick_px);
  const int swatch = std::max(10, probe.height() - 2);
  const int row_h = std::max(swatch, probe.height()) + 6;
  int cx = x, cy = y, used_w = 0;
  for (const LegendItem &item : items) {
    const int key_w = item.line ? 3 * swatch : swatch;
    const int item_w = key_w + 5 + font.measure(item.label, style.tick_px).width + 16;
    if (cx > x && cx - x + item_w > max_width) {
      cx = x;
      cy += row_h;
    }
    if (canvas) {
      const int sy = cy + (row_h - swatch) / 2;
      if (item.marker >= 0) {
        if (item.line)
          canvas->line(cx, cy + row_h / 2, cx + key_w - 1, cy + row_h / 2, item.swatch, 2);
        draw_marker(*canvas, item.marker, cx + key_w / 2, cy + row_h / 2, swatch / 2, item.swatch);
      } else {
        canvas->fill_rect({cx, sy, swatch, swatch}, item.swatch);
        canvas->outline_rect({cx, sy, swatch, swatch}, style.frame);
      }
      font.draw(*canvas, cx + key_w + 5, cy + row_h / 2, item.label, style.tick_px, style.text,
                Align::start, Align::center);
    }
    cx += item_w;
    used_w = std::max(used_w, cx - x - 16);
  }
  return {x, y, used_w, items.empty() ? 0 : cy - y + row_h};
}

std::vector<std::string> wrap_text(const Font &font, const std::string &text, int size_px,
                                   int max_width) {
  auto fits = [&](const std::string &t) { return font.measure(t, size_px).width <= max_width; };
  std::vector<std::string> lines;
  std::string line;
  // Segments between " | ", each packed whole when it fits, else word by word.
  std::vector<std::string> segments;
  for (std::size_t at = 0;;) {
    const std::size_t bar = text.find(" | ", at);
    segments.push_back(text.substr(at, bar == std::string::npos ? std::string::npos : bar - at));
    if (bar == std::string::npos)
      break;
    at = bar + 3;
  }
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const std::string seg = segments[i] + (i + 1 < segments.size() ? " |" : "");
    const std::string joined = line.empty() ? seg : line + " " + seg;
    if (fits(joined)) {
      line = joined;
      continue;
    }
    if (!line.empty() && fits(seg)) {
      lines.push_back(line);
      line = seg;
      continue;
    }
    // Word by word.
    std::size_t at = 0;
    while (at < seg.size()) {
      const std::size_t sp = seg.find(' ', at);
      const std::string word =
          seg.substr(at, sp == std::string::npos ? std::string::npos : sp - at);
      at = sp == std::string::npos ? seg.size() : sp + 1;
      const std::string next = line.empty() ? word : line + " " + word;
      if (!line.empty() && !fits(next)) {
        lines.push_back(line);
        line = word;
      } else {
        line = next;
      }
    }
  }
  if (!line.empty() || lines.empty())
    lines.push_back(line);
  return lines;
}

Color sequential_color(double t, bool greyscale) {
  t = std::clamp(t, 0.0, 1.0);
  if (greyscale) {
    const auto v = static_cast<uint8_t>(std::lround(190.0 * (1.0 - t)));
    return Color{v, v, v, 255};
  }
  // matplotlib's viridis at 1.0, 0.9, ..., 0.0 (reversed: more is darker).
  static const char *const kViridis[] = {"#fde725", "#bddf26", "#7ad151", "#44bf70",
                                         "#22a884", "#21918c", "#2a788e", "#355f8d",
                                         "#414487", "#482475", "#440154"};
  const double pos = t * 10.0;
  const int i = std::min(9, static_cast<int>(pos));
  return mix(hex_color(kViridis[i]), hex_color(kViridis[i + 1]), pos - i);
}

Rect draw_colorbar(Canvas *canvas, const Font &font, int x, int y, int width, double top,
                   bool greyscale, const std::string &title, const Style &style, bool saturates) {
  const Font::Extent probe = font.measure("Ag", style.tick_px);
  const int bar_h = std::max(10, probe.height());
  const int title_w = font.measure(title, style.tick_px).width;
  const int bar_x = x + title_w + 10;
  const int bar_w = std::max(60, width - (bar_x - x) - 20);
  const int tick_y = y + bar_h + 2;
  const Rect box{x, y, bar_x + bar_w + 20 - x, bar_h + 2 + style.tick_len + probe.height()};
  if (!canvas)
    return box;
  font.draw(*canvas, x, y + bar_h / 2, title, style.tick_px, style.text, Align::start,
            Align::center);
  for (int i = 0; i < bar_w; ++i)
    canvas->vline(bar_x + i, y, y + bar_h - 1, sequential_color((i + 0.5) / bar_w, greyscale));
  canvas->outline_rect({bar_x - 1, y - 1, bar_w + 2, bar_h + 2}, style.frame);
  const int decimals = top < 0.0999 ? 1 : 0;
  for (double v : nice_ticks(0, top, std::max(2, bar_w / 70))) {
    const int px = bar_x + static_cast<int>(std::lround(v / top * (bar_w - 1)));
    canvas->vline(px, tick_y, tick_y + style.tick_len - 1, style.axis);
    const bool last = std::abs(v - top) < 1e-9 * top;
    font.draw(*canvas, px, tick_y + style.tick_len,
              (last && saturates ? "\u2265 " : "") + percent(v, decimals), style.tick_px,
              style.muted, Align::center, Align::start);
  }
  return box;
}

} // namespace cbi::viz
