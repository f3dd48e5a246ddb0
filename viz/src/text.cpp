#include "cbi/viz/text.hpp"

#include <ft2build.h>
#include FT_FREETYPE_H

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <tuple>

namespace cbi::viz {

namespace fs = std::filesystem;

std::string find_font_file() {
  if (const char *env = std::getenv("CBI_FONT"); env && *env) {
    std::error_code ec;
    if (!fs::is_regular_file(env, ec))
      throw std::runtime_error(std::string("CBI_FONT=") + env + " is not a readable font file");
    return env;
  }
  for (const char *path : {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",   // Debian, Ubuntu
                           "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf", // Fedora
                           "/usr/share/fonts/dejavu/DejaVuSans.ttf",
                           "/usr/share/fonts/TTF/DejaVuSans.ttf", // Arch
                           "/usr/local/share/fonts/DejaVuSans.ttf"}) {
    std::error_code ec;
    if (fs::is_regular_file(path, ec))
      return path;
  }
  // Any TrueType font, DejaVu Sans preferred, in a stable (sorted) order.
  std::vector<std::string> found;
  for (const char *dir : {"/usr/share/fonts", "/usr/local/share/fonts"}) {
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      const fs::path &p = it->path();
      if (p.extension() == ".ttf")
        found.push_back(p.string());
    }
  }
  std::sort(found.begin(), found.end());
  for (const std::string &p : found)
    if (fs::path(p).filename() == "DejaVuSans.ttf")
      return p;
  if (!found.empty())
    return found.front();
  throw std::runtime_error(
      "no TrueType font found for the labels; install fonts-dejavu-core or set "
      "CBI_FONT=/path/to/font.ttf");
}

std::u32string decode_utf8(const std::string &text) {
  std::u32string out;
  for (std::size_t i = 0; i < text.size();) {
    const auto b = static_cast<unsigned char>(text[i]);
    int extra = b < 0x80 ? 0 : (b >> 5) == 6 ? 1 : (b >> 4) == 14 ? 2 : (b >> 3) == 30 ? 3 : -1;
    if (extra < 0 || i + static_cast<std::size_t>(extra) >= text.size()) {
      out.push_back(0xFFFD);
      ++i;
      continue;
    }
    char32_t code = extra == 0 ? b : b & (0x3F >> extra);
    bool ok = true;
    for (int k = 1; k <= extra; ++k) {
      const auto c = static_cast<unsigned char>(text[i + static_cast<std::size_t>(k)]);
      ok = ok && (c >> 6) == 2;
      code = (code << 6) | (c & 0x3F);
    }
    out.push_back(ok ? code : 0xFFFD);
    i += ok ? static_cast<std::size_t>(extra) + 1 : 1;
  }
  return out;
}

struct Font::Impl {
  FT_Library library = nullptr;
  FT_Face face = nullptr;
  int size_px = 0; // the size the face is currently set to
};

Font::Font(const std::string &path) : m_impl(std::make_unique<Impl>()) {
  if (FT_Init_FreeType(&m_impl->library) != 0)
    throw std::runtime_error("cannot initialise FreeType");
  if (FT_New_Face(m_impl->library, path.c_str(), 0, &m_impl->face) != 0) {
    FT_Done_FreeType(m_impl->library);
    throw std::runtime_error("cannot load font " + path);
  }
}

Font::~Font() {
  FT_Done_Face(m_impl->face);
  FT_Done_FreeType(m_impl->library);
}

const Font &Font::standard() {
  static const Font font(find_font_file());
  return font;
}

// Call with m_mutex held.
static void set_size(FT_Face face, int &current, int size_px) {
  if (current != size_px) {
    FT_Set_Pixel_Sizes(face, 0, static_cast<FT_UInt>(size_px));
    current = size_px;
  }
}

std::pair<int, int> Font::metrics(int size_px) const {
  set_size(m_impl->face, m_impl->size_px, size_px);
  const FT_Size_Metrics &m = m_impl->face->size->metrics;
  return {static_cast<int>((m.ascender + 63) >> 6), static_cast<int>((-m.descender + 63) >> 6)};
}

const Font::Glyph &Font::glyph(char32_t code, int size_px) const {
  const auto key = std::make_pair(code, size_px);
  if (auto it = m_glyphs.find(key); it != m_glyphs.end())
    return it->second;
  set_size(m_impl->face, m_impl->size_px, size_px);
  Glyph g;
  FT_UInt index = FT_Get_Char_Index(m_impl->face, code);
  if (index == 0)
    index = FT_Get_Char_Index(m_impl->face, U'?');
  if (FT_Load_Glyph(m_impl->face, index, FT_LOAD_RENDER) == 0) {
    const FT_GlyphSlot slot = m_impl->face->glyph;
    const FT_Bitmap &bm = slot->bitmap;
    g.left = slot->bitmap_left;
    g.top = slot->bitmap_top;
    g.width = static_cast<int>(bm.width);
    g.rows = static_cast<int>(bm.rows);
    g.advance = static_cast<int>((slot->advance.x + 32) >> 6);
    g.coverage.resize(static_cast<std::size_t>(g.width) * static_cast<std::size_t>(g.rows));
    for (int r = 0; r < g.rows; ++r)
      for (int c = 0; c < g.width; ++c)
        g.coverage[static_cast<std::size_t>(r * g.width + c)] = bm.buffer[r * bm.pitch + c];
  }
  return m_glyphs.emplace(key, std::move(g)).first->second;
}

Font::Extent Font::measure(const std::string &text, int size_px) const {
  std::lock_guard<std::mutex> lock(m_mutex);
  Extent e;
  std::tie(e.ascent, e.descent) = metrics(size_px);
  for (char32_t c : decode_utf8(text))
    e.width += glyph(c, size_px).advance;
  return e;
}

Rect Font::draw(Canvas &canvas, int x, int y, const std::string &text, int size_px, Color color,
                Align h_align, Align v_align, bool vertical) const {
  std::lock_guard<std::mutex> lock(m_mutex);
  const auto [ascent, descent] = metrics(size_px);
  const std::u32string codes = decode_utf8(text);
  int width = 0;
  for (char32_t c : codes)
    width += glyph(c, size_px).advance;
  const int height = ascent + descent;
  // The box on the canvas: width x height, or height x width when vertical.
  const int box_w = vertical ? height : width, box_h = vertical ? width : height;
  auto shift = [](Align a, int extent) {
    return a == Align::start ? 0 : a == Align::center ? extent / 2 : extent;
  };
  const int left = x - shift(h_align, box_w), top = y - shift(v_align, box_h);
  // Pen position in text space (u along the text, v down from the box top); mapped to the canvas
  // as (left + u, top + v), or rotated: (left + v, top + box_h - 1 - u).
  int pen = 0;
  for (char32_t c : codes) {
    const Glyph &g = glyph(c, size_px);
    for (int r = 0; r < g.rows; ++r)
      for (int col = 0; col < g.width; ++col) {
        const uint8_t cov = g.coverage[static_cast<std::size_t>(r * g.width + col)];
        if (!cov)
          continue;
        const int u = pen + g.left + col, v = ascent - g.top + r;
        if (vertical)
          canvas.blend(left + v, top + box_h - 1 - u, color, cov);
        else
          canvas.blend(left + u, top + v, color, cov);
      }
    pen += g.advance;
  }
  return {left, top, box_w, box_h};
}

} // namespace cbi::viz
