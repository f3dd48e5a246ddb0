// cbi view's drawing (viewer.hpp): cells fitted to the window, the zoomed window with its pinned
// axes, and the side panel (configuration, stats, hover readout, lines in L1 at the cursor).
#include "viewer.hpp"

#include <climits>

#include "cbi/error.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <sstream>

namespace cbi::viz_app {

namespace {

// Line indices as ranges: "0-1, 4-5, 9".
std::string ranges(const std::vector<int64_t> &v, std::size_t max_items) {
  std::string s;
  std::size_t items = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    std::size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1)
      ++j;
    if (items++ == max_items)
      return s + ", ...";
    s += (s.empty() ? "" : ", ") + std::to_string(v[i]) + (j > i ? "-" + std::to_string(v[j]) : "");
    i = j;
  }
  return s;
}

} // namespace

std::string Viewer::status_line() {
  const viz::Grid &g = grid();
  const sim::CacheStats &s = g.result.levels.front();
  std::ostringstream os;
  os << "order " << remap::to_string(g.sim.order) << ", L1 " << m_l1_lines << " lines, t "
     << m_cursor << "/" << g.cols - 1 << (m_playing ? " playing" : " paused") << ", misses "
     << s.misses << ", " << viz::hit_rate_label(g) << " " << viz::percent(s.hit_rate()) << ", zoom "
     << m_zoom << "x cols " << static_cast<int64_t>(m_c0) << "-"
     << static_cast<int64_t>(std::ceil(m_c0 + visible_cols())) - 1 << " rows "
     << static_cast<int64_t>(m_r0) << "-"
     << static_cast<int64_t>(std::ceil(m_r0 + visible_rows())) - 1 << ", drawn at "
     << (m_scale == 1.0 ? "1:1" : viz::percent(m_scale, 0));
  return os.str();
}

std::string Viewer::hover_line() {
  const viz::Grid &g = grid();
  if (m_hover_col < 0 || m_hover_row < 0 || m_hover_col >= g.cols || m_hover_row >= g.rows)
    return "hover: -";
  const sim::Workload &w = g.sim.workload;
  const int64_t step = m_hover_col * g.bins.time_bin;
  const int64_t thread = g.thread_at(step);
  const remap::Task<int64_t> t = g.sim.order.map(thread, remap::Shape<int64_t>{w.width, w.height});
  const int64_t unit = g.sim.levels.front().unit_bytes();
  const int64_t line = m_hover_row * g.bins.line_bin;
  const int64_t address = line * unit;
  const viz::ElementPlace at = viz::locate(viz::array_regions(w), address / w.elem_bytes);
  std::ostringstream os;
  os << "hover: thread " << thread;
  if (g.bins.time_bin > 1)
    os << " (+" << g.bins.time_bin - 1 << " more steps)";
  os << ", task (" << t.x << ", " << t.y << "), line " << line;
  if (g.bins.line_bin > 1)
    os << "-" << line + g.bins.line_bin - 1;
  os << ", address " << address << ", " << at.array << " row " << at.row << " col " << at.col
     << ", state " << viz::state_label(g.at(m_hover_col, m_hover_row), g.levels());
  return os.str();
}

void Viewer::fit_cells(const viz::Grid &g) {
  viz::DiagramStyle style = m_req.style;
  style.title.clear();
  const int avail_w = m_width - kPanelW;
  auto size_at = [&](int w, int h) {
    style.cell_w = w;
    style.cell_h = h;
    try {
      const viz::Canvas c = viz::render_diagram({g}, style, nullptr);
      return std::make_pair(c.width(), c.height());
    } catch (const UsageError &) { // over 16384 px a side: too large for any window
      return std::make_pair(INT_MAX, INT_MAX);
    }
  };
  auto largest = [](auto fits) { // the largest k in [1, 64] with fits(k), or 1
    int lo = 1, hi = 64;
    while (lo < hi) {
      const int mid = (lo + hi + 1) / 2;
      if (fits(mid))
        lo = mid;
      else
        hi = mid - 1;
    }
    return lo;
  };
  m_cell_w = largest([&](int w) { return size_at(w, 1).first <= avail_w; });
  m_cell_h = largest([&](int h) { return size_at(m_cell_w, h).second <= m_height; });
}

viz::Color Viewer::cell_colour(const viz::Grid &g, int64_t col, int64_t row,
                               const viz::Palette &pal) {
  if (col > m_cursor)
    return viz::kWhite;
  return g.binned() ? m_layout.bins.of(g, col, row) : pal.of(g.at(col, row));
}

void Viewer::draw_zoomed(const viz::Grid &g) {
  const viz::Rect r = grid_rect();
  const viz::Palette pal = m_req.style.greyscale ? viz::Palette::greyscale(g.levels())
                                                 : viz::Palette::standard(g.levels());
  const double vc = visible_cols(), vr = visible_rows();
  const int64_t c0 = static_cast<int64_t>(m_c0), r0 = static_cast<int64_t>(m_r0);
  const int64_t c1 = std::min<int64_t>(g.cols, static_cast<int64_t>(std::ceil(m_c0 + vc)));
  const int64_t r1 = std::min<int64_t>(g.rows, static_cast<int64_t>(std::ceil(m_r0 + vr)));
  auto px_x = [&](double col) {
    return r.x + static_cast<int>(std::lround((col - m_c0) * r.w / vc));
  };
  auto px_y = [&](double row) {
    return r.y + static_cast<int>(std::lround((row - m_r0) * r.h / vr));
  };
  for (int64_t col = c0; col < c1; ++col)
    for (int64_t row = r0; row < r1; ++row) {
      const int x0 = std::max(r.x, px_x(static_cast<double>(col)));
      const int x1 = std::min(r.right(), px_x(static_cast<double>(col + 1)));
      const int y0 = std::max(r.y, px_y(static_cast<double>(row)));
      const int y1 = std::min(r.bottom(), px_y(static_cast<double>(row + 1)));
      m_canvas.fill_rect({x0, y0, x1 - x0, y1 - y0}, cell_colour(g, col, row, pal));
    }
  // The marks above the grid (group, warp, block starts) for the window's columns.
  const int strip = std::max(7, m_layout.chart.tick_px / 2);
  m_canvas.fill_rect({r.x, r.y - strip - 1, r.w, strip}, m_layout.chart.background);
  for (int64_t col = c0; col < c1; ++col) {
    const uint8_t m = g.marks[static_cast<std::size_t>(col)];
    const int x = px_x(static_cast<double>(col));
    if (x < r.x || x >= r.right())
      continue;
    if (m & viz::mark::block)
      m_canvas.vline(x, r.y - strip, r.y - 2, m_layout.chart.text);
    else if (m & viz::mark::group)
      m_canvas.vline(x, r.y - strip + 2, r.y - 2, m_layout.chart.axis);
    else if (m & viz::mark::warp)
      m_canvas.vline(x, r.y - strip / 2, r.y - 2, m_layout.chart.frame);
  }
  // Clear the axes of the whole grid and draw those of the window.
  const viz::Style &st = m_layout.chart;
  const viz::Rect &box = m_layout.axes.front();
  const int stats_y = m_layout.stats.front().y;
  m_canvas.fill_rect({box.x, r.y - st.tick_px, r.x - 1 - box.x, r.h + 2 * st.tick_px},
                     st.background);
  m_canvas.fill_rect(
      {r.right() + 1, r.y - st.tick_px, box.right() - r.right(), r.h + 2 * st.tick_px},
      st.background);
  m_canvas.fill_rect({box.x, r.bottom() + 1, box.w, stats_y - r.bottom() - 2}, st.background);
  const viz::Font &font = viz::Font::standard();
  const double t0 = m_c0 * g.bins.time_bin, t1 = (m_c0 + vc) * g.bins.time_bin;
  const double l0 = m_r0 * g.bins.line_bin, l1 = (m_r0 + vr) * g.bins.line_bin;
  std::vector<viz::Tick> tt, lt;
  const std::vector<double> tv = viz::nice_ticks(t0, t1, std::max(2, r.w / (7 * st.tick_px)));
  const std::vector<double> lv = viz::nice_ticks(l0, l1, std::max(2, r.h / (3 * st.tick_px)));
  const std::vector<std::string> tl = viz::tick_labels(tv), ll = viz::tick_labels(lv);
  for (std::size_t i = 0; i < tv.size(); ++i)
    tt.push_back({tv[i], tl[i], true});
  for (std::size_t i = 0; i < lv.size(); ++i)
    lt.push_back({lv[i], ll[i], true});
  const bool thread = g.sim.granularity == sim::Granularity::thread;
  viz::draw_axis(&m_canvas, font, r, viz::Side::bottom,
                 {t0, t1, static_cast<double>(r.x), static_cast<double>(r.right())}, tt,
                 thread ? "thread (time \u2192)" : "access (time \u2192)", st);
  viz::draw_axis(&m_canvas, font, r, viz::Side::left,
                 {l0, l1, static_cast<double>(r.y), static_cast<double>(r.bottom())}, lt,
                 "cache line", st);
}

void Viewer::draw_frame(bool show) {
  const viz::Grid &g = grid();
  if (m_fit) {
    fit_cells(g);
    m_fit = false;
    m_dirty = true;
  }
  if (m_dirty) {
    viz::DiagramStyle style = m_req.style;
    style.title.clear(); // the configuration: the cache size changes with [ and ]
    style.cell_w = m_cell_w;
    style.cell_h = m_cell_h;
    m_canvas = viz::render_diagram({g}, style, &m_layout, m_cursor);
    const viz::Rect r = grid_rect();
    clamp_window();
    if (m_zoom > 1)
      draw_zoomed(g);
    const double vc = visible_cols(), vr = visible_rows();
    // The cursor, where its column is in view.
    if (m_cursor + 1 >= m_c0 && m_cursor + 1 <= m_c0 + vc) {
      const int x = r.x + static_cast<int>(std::lround((m_cursor + 1 - m_c0) * r.w / vc));
      m_canvas.vline(x, r.y - 8, r.bottom() + 1, viz::Color{20, 20, 20, 255});
    }
    // The hovered cell, outlined 2 px wide in a colour no palette uses.
    if (m_hover_col >= m_c0 - 1 && m_hover_row >= m_r0 - 1 && m_hover_col < g.cols &&
        m_hover_row < g.rows && m_hover_col >= 0 && m_hover_row >= 0) {
      const int x0 = r.x + static_cast<int>(std::lround((m_hover_col - m_c0) * r.w / vc));
      const int x1 = r.x + static_cast<int>(std::lround((m_hover_col + 1 - m_c0) * r.w / vc));
      const int y0 = r.y + static_cast<int>(std::lround((m_hover_row - m_r0) * r.h / vr));
      const int y1 = r.y + static_cast<int>(std::lround((m_hover_row + 1 - m_r0) * r.h / vr));
      for (int k = 1; k <= 2; ++k)
        m_canvas.outline_rect({x0 - k, y0 - k, x1 - x0 + 2 * k, y1 - y0 + 2 * k}, kHoverColor);
    }
    if (m_texture.getSize() != sf::Vector2u(static_cast<unsigned>(m_canvas.width()),
                                            static_cast<unsigned>(m_canvas.height())))
      m_texture.create(static_cast<unsigned>(m_canvas.width()),
                       static_cast<unsigned>(m_canvas.height()));
    m_texture.update(m_canvas.rgba());
    // 1:1 unless even 1 px cells leave the diagram larger than the window.
    m_scale = std::min({1.0, static_cast<double>(m_width - kPanelW) / m_canvas.width(),
                        static_cast<double>(m_height) / m_canvas.height()});
    m_dirty = false;
  }
  // The side panel: state, readout, cache contents, keys.
  viz::Canvas panel(kPanelW, m_height, viz::Color{246, 246, 246, 255});
  const viz::Font &font = viz::Font::standard();
  int y = 12;
  auto text = [&](const std::string &s, int px, viz::Color c) {
    // Wrap at the panel width on spaces.
    std::string line;
    std::istringstream words(s);
    std::string word;
    auto flush = [&] {
      font.draw(panel, 12, y, line, px, c);
      y += font.measure("Ag", px).height() + 2;
      line.clear();
    };
    while (words >> word) {
      const std::string next = line.empty() ? word : line + " " + word;
      if (!line.empty() && font.measure(next, px).width > kPanelW - 24)
        flush();
      line = line.empty() ? word : line + " " + word;
    }
    if (!line.empty())
      flush();
    y += 4;
  };
  const viz::Color ink{25, 25, 25, 255}, muted{95, 95, 95, 255};
  text("cbi view", 17, ink);
  text(status_line(), 12, ink);
  text(hover_line(), 12, ink);
  std::vector<int64_t> resident;
  for (int64_t row = 0; row < g.rows; ++row)
    if (g.at(m_cursor, row) >= viz::cell::in_l1)
      resident.push_back(row * g.bins.line_bin);
  text("in L1 after t " + std::to_string(m_cursor) + ": " + std::to_string(resident.size()) +
           (g.bins.line_bin > 1 ? " line bins: " : " lines: ") + ranges(resident, 24),
       12, ink);
  for (const std::string &line : viz::stats_lines(g))
    text(line, 11, muted);
  text(kKeysHelp, 11, muted);
  if (m_panel_texture.getSize() != sf::Vector2u(kPanelW, static_cast<unsigned>(m_height)))
    m_panel_texture.create(kPanelW, static_cast<unsigned>(m_height));
  m_panel_texture.update(panel.rgba());

  m_window.clear(sf::Color::White);
  // Screen coordinates, also after a resize (SFML keeps the old default view).
  m_window.setView(
      sf::View(sf::FloatRect(0, 0, static_cast<float>(m_width), static_cast<float>(m_height))));
  sf::Sprite diagram(m_texture);
  diagram.setScale(static_cast<float>(m_scale), static_cast<float>(m_scale));
  m_window.draw(diagram);
  sf::Sprite side(m_panel_texture);
  side.setPosition(static_cast<float>(m_width - kPanelW), 0);
  m_window.draw(side);
  if (m_shot_pending && !m_shot_path.empty()) {
    sf::Texture shot;
    shot.create(m_window.getSize().x, m_window.getSize().y);
    shot.update(m_window);
    const sf::Image image = shot.copyToImage();
    viz::Canvas c(static_cast<int>(image.getSize().x), static_cast<int>(image.getSize().y));
    const sf::Uint8 *p = image.getPixelsPtr();
    for (int yy = 0; yy < c.height(); ++yy)
      for (int xx = 0; xx < c.width(); ++xx, p += 4)
        c.set(xx, yy, {p[0], p[1], p[2], p[3]});
    c.save_png(m_shot_path, "--screenshot");
    std::cout << "view: screenshot " << m_shot_path << "\n";
    m_shot_pending = false;
  }
  if (show)
    m_window.display();
}

} // namespace cbi::viz_app
