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

std::string short_number(double value) {
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
  } else if (a >= 1e4) {
    scaled = value / 1e3;
    suffix = "k";
  }
  if (*suffix == 0 && value == std::floor(value))
    return group_digits(static_cast<int64_t>(value));
  std::snprintf(buf, sizeof buf, "%.3g%s", scaled, suffix);
  return buf;
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

Rect draw_legend(Canvas *canvas, const Font &font, int x, int y, int max_width,
                 const std::vector<LegendItem> &items, const Style &style) {
  const Font::Extent probe = font.measure("Ag", style.tick_px);
  const int swatch = std::max(10, probe.height() - 2);
  const int row_h = std::max(swatch, probe.height()) + 6;
  int cx = x, cy = y, used_w = 0;
  for (const LegendItem &item : items) {
    const int item_w = swatch + 5 + font.measure(item.label, style.tick_px).width + 16;
    if (cx > x && cx - x + item_w > max_width) {
      cx = x;
      cy += row_h;
    }
    if (canvas) {
      const int sy = cy + (row_h - swatch) / 2;
      canvas->fill_rect({cx, sy, swatch, swatch}, item.swatch);
      canvas->outline_rect({cx, sy, swatch, swatch}, style.frame);
      font.draw(*canvas, cx + swatch + 5, cy + row_h / 2, item.label, style.tick_px, style.text,
                Align::start, Align::center);
    }
    cx += item_w;
    used_w = std::max(used_w, cx - x - 16);
  }
  return {x, y, used_w, items.empty() ? 0 : cy - y + row_h};
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
                   bool greyscale, const std::string &title, const Style &style) {
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
    font.draw(*canvas, px, tick_y + style.tick_len, percent(v, decimals), style.tick_px,
              style.muted, Align::center, Align::start);
  }
  return box;
}

} // namespace cbi::viz
