// cbi view's viewer: its state (the grids per order and cache size, the cursor, the zoom) and the
// main loop (viewer.hpp).
#include "viewer.hpp"

#include "cbi/error.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <sstream>

namespace cbi::viz_app {

const char *const kKeysHelp =
    "keys: Space play/pause | Right/Left step (Shift: 10%) | Home/End | O or Tab next order |\n"
    "      1-9 pick one | ] / [ double / halve the L1 lines | + / - or wheel zoom |\n"
    "      drag or Up/Down pan | R reset | G greyscale | P screenshot (--screenshot) |\n"
    "      Q or Escape quit";

int Viewer::run(const std::vector<std::string> &script) {
  m_window.create(sf::VideoMode(static_cast<unsigned>(m_width), static_cast<unsigned>(m_height)),
                  "cbi view");
  m_window.setFramerateLimit(script.empty() ? 60 : 0);
  rebuild();
  std::size_t next = 0;
  int wait_frames = 0;
  while (m_window.isOpen()) {
    sf::Event e;
    while (m_window.pollEvent(e))
      handle(e);
    if (!script.empty() && wait_frames == 0 && next < script.size())
      wait_frames = step_script(script[next++]);
    else if (wait_frames > 0)
      --wait_frames;
    if (!script.empty() && next == script.size() && wait_frames == 0)
      m_quit = true;
    if (m_playing)
      move_cursor(std::max<int64_t>(1, grid().cols / 240));
    draw_frame();
    if (m_quit)
      m_window.close();
  }
  return 0;
}

const viz::Grid &Viewer::grid() {
  const auto key = std::make_pair(m_order, m_l1_lines);
  auto it = m_grids.find(key);
  if (it == m_grids.end()) {
    viz::GridSpec spec = m_req.panels[static_cast<std::size_t>(m_order)];
    sim::CacheConfig &l1 = spec.sim.levels.front();
    l1.capacity_lines = m_l1_lines;
    if (l1.ways > l1.capacity_lines || (l1.ways && l1.capacity_lines % l1.ways))
      l1.ways = 0; // the halved cache no longer divides into the sets: fully associative
    it = m_grids.emplace(key, viz::build_grid(spec)).first;
  }
  return it->second;
}

void Viewer::rebuild() {
  const viz::Grid &g = grid();
  m_cursor = std::min(m_cursor < 0 ? g.cols - 1 : m_cursor, g.cols - 1);
  m_dirty = true;
  m_fit = true;
  clamp_window();
}

void Viewer::clamp_window() {
  m_c0 = std::clamp(m_c0, 0.0, static_cast<double>(grid().cols) - visible_cols());
  m_r0 = std::clamp(m_r0, 0.0, static_cast<double>(grid().rows) - visible_rows());
  m_dirty = true;
}

void Viewer::pan(double dx, double dy) {
  const viz::Rect &r = grid_rect();
  m_c0 -= dx * visible_cols() / std::max(1, r.w);
  m_r0 -= dy * visible_rows() / std::max(1, r.h);
  clamp_window();
}

const viz::Rect &Viewer::grid_rect() {
  static const viz::Rect none{0, 0, 1, 1};
  return m_layout.grids.empty() ? none : m_layout.grids.front();
}

void Viewer::move_cursor(int64_t by) {
  const int64_t cols = grid().cols;
  m_cursor = std::clamp<int64_t>(m_cursor + by, 0, cols - 1);
  if (m_cursor == cols - 1)
    m_playing = false;
  m_dirty = true;
}

void Viewer::zoom(double factor, sf::Vector2i at) {
  const viz::Rect &r = grid_rect();
  const sf::Vector2i p = to_canvas(at);
  const double fx = r.contains(p.x, p.y) ? static_cast<double>(p.x - r.x) / r.w : 0.5;
  const double fy = r.contains(p.x, p.y) ? static_cast<double>(p.y - r.y) / r.h : 0.5;
  const double cx = m_c0 + fx * visible_cols(), cy = m_r0 + fy * visible_rows();
  const double most =
      std::max<double>(1, static_cast<double>(std::max(grid().cols, grid().rows)) / 4);
  m_zoom = std::clamp(m_zoom * factor, 1.0, most);
  m_c0 = cx - fx * visible_cols();
  m_r0 = cy - fy * visible_rows();
  clamp_window();
}

sf::Vector2i Viewer::to_canvas(sf::Vector2i p) const {
  return {static_cast<int>(std::floor(p.x / m_scale)), static_cast<int>(std::floor(p.y / m_scale))};
}

} // namespace cbi::viz_app
