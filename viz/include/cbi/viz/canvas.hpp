// An RGBA raster that diagrams and charts draw into without any display: rectangles, lines, alpha
// masks (text), and PNG files through sf::Image, which needs no window or GL context.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cbi::viz {

struct Color {
  uint8_t r = 0, g = 0, b = 0, a = 255;
  bool operator==(const Color &o) const { return r == o.r && g == o.g && b == o.b && a == o.a; }
  bool operator!=(const Color &o) const { return !(*this == o); }
};

constexpr Color kWhite{255, 255, 255, 255};
constexpr Color kBlack{0, 0, 0, 255};

// "#d55e00" -> {213, 94, 0}; for palettes written the way their authors publish them.
Color hex_color(const char *hex);
// a*(1-t) + b*t per channel; t in [0, 1].
Color mix(Color a, Color b, double t);

struct Rect {
  int x = 0, y = 0, w = 0, h = 0;
  int right() const { return x + w; }
  int bottom() const { return y + h; }
  bool contains(int px, int py) const { return px >= x && py >= y && px < x + w && py < y + h; }
};

class Canvas {
public:
  Canvas() = default;
  Canvas(int width_px, int height_px, Color fill = kWhite);

  int width() const { return m_width; }
  int height() const { return m_height; }
  Color pixel(int x, int y) const;
  const uint8_t *rgba() const { return m_rgba.data(); } // width*height*4 bytes, row-major

  // All drawing clips to the canvas; coordinates may lie outside it.
  void set(int x, int y, Color c);
  // Draws c over the pixel with coverage/255 of c's alpha (anti-aliased text, translucent marks).
  void blend(int x, int y, Color c, uint8_t coverage);
  void fill_rect(Rect r, Color c);
  void outline_rect(Rect r, Color c);
  void hline(int x0, int x1, int y, Color c); // inclusive ends
  void vline(int x, int y0, int y1, Color c);
  void blit(const Canvas &src, int x, int y);
  // A straight line of `width` px (a square brush stepped along Bresenham's line), ends included.
  void line(int x0, int y0, int x1, int y1, Color c, int width = 1);
  void disc(int cx, int cy, int radius, Color c); // a filled circle

  // Writes a PNG with cli::write_file_atomic (a temporary file and a rename, so a failed run
  // leaves no partial image; FIFOs and devices written through). A path that cannot be written is
  // a UsageError naming `option`.
  void save_png(const std::string &path, const std::string &option = "--output") const;

private:
  int m_width = 0, m_height = 0;
  std::vector<uint8_t> m_rgba;
};

// Reads a PNG (tests, the viewer's screenshots). Throws std::runtime_error on failure.
Canvas load_png(const std::string &path);

} // namespace cbi::viz
