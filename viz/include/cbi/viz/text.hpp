// Text without a display: FreeType (which SFML itself uses for sf::Font) rasterises glyphs into
// coverage masks that are blended into a Canvas, so labelled PNGs come out on servers and in CI,
// where SFML's own text path needs a GL context and aborts.
#pragma once

#include "cbi/viz/canvas.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace cbi::viz {

enum class Align { start, center, end };

// The font file to use: $CBI_FONT if set, else DejaVu Sans in the usual Debian, Fedora and Arch
// places, else the first .ttf under /usr/share/fonts or /usr/local/share/fonts. Throws
// std::runtime_error naming CBI_FONT when nothing is found.
std::string find_font_file();

class Font {
public:
  explicit Font(const std::string &path); // throws std::runtime_error
  ~Font();
  Font(const Font &) = delete;
  Font &operator=(const Font &) = delete;

  // The process-wide default font (find_font_file()), loaded on first use.
  static const Font &standard();

  struct Extent {
    int width = 0;   // advance width in pixels
    int ascent = 0;  // pixels above the baseline
    int descent = 0; // pixels below it
    int height() const { return ascent + descent; }
  };
  // Text is UTF-8; one line.
  Extent measure(const std::string &text, int size_px) const;

  // Draws `text` so that its box (advance width x ascent+descent) is aligned to (x, y): h_align
  // picks the left edge / centre / right edge, v_align the top / middle / bottom. With `vertical`
  // the text runs bottom to top (rotated 90 degrees counter-clockwise), as on a y axis, and the
  // alignments apply to the rotated box. Returns the box drawn.
  Rect draw(Canvas &canvas, int x, int y, const std::string &text, int size_px, Color color,
            Align h_align = Align::start, Align v_align = Align::start,
            bool vertical = false) const;

private:
  struct Glyph {
    int left = 0, top = 0, width = 0, rows = 0, advance = 0;
    std::vector<uint8_t> coverage;
  };
  const Glyph &glyph(char32_t code, int size_px) const;
  std::pair<int, int> metrics(int size_px) const; // ascent, descent

  struct Impl;
  std::unique_ptr<Impl> m_impl;
  mutable std::mutex m_mutex;
  mutable std::map<std::pair<char32_t, int>, Glyph> m_glyphs;
};

// UTF-8 -> code points; malformed bytes become U+FFFD.
std::u32string decode_utf8(const std::string &text);

} // namespace cbi::viz
