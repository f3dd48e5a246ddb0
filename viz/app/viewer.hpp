// cbi view's viewer: the diagram in an SFML window, played through time, panned, zoomed and
// hovered. The state and the main loop are viewer.cpp, keys, mouse and --script steps
// viewer_input.cpp, the frame and the side panel viewer_draw.cpp; view_cmd.cpp parses the options
// and opens it.
#pragma once

#include "diagram_options.hpp"

#include <SFML/Graphics.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace cbi::viz_app {

// The keys, as --help and the side panel list them.
extern const char *const kKeysHelp;
constexpr int kViewerPanelW = 380; // the side panel's width in pixels

// Reads every --script step as the viewer will (UsageError naming --script for a bad one), so that
// a bad script is refused before the window opens; a step that writes --screenshot's file (shot:,
// key:P) without `has_screenshot` is refused too, and so is a hover outside the figure's cells.
void check_script(const std::vector<std::string> &steps, bool has_screenshot,
                  const viz::GridExtent &cells);

class Viewer {
public:
  Viewer(DiagramRequest req, int width, int height, std::string screenshot)
      : m_req(std::move(req)), m_width(width), m_height(height),
        m_shot_path(std::move(screenshot)) {
    m_l1_lines = m_req.panels.front().sim.levels.front().capacity_lines;
    for (viz::GridSpec &s : m_req.panels)
      s.record_thread_steps = true;
  }

  int run(const std::vector<std::string> &script);

private:
  const viz::Grid &grid();

  void rebuild();

  // The visible window of cells: zoom 1 shows them all; m_c0, m_r0 is its top-left cell.
  double visible_cols() { return static_cast<double>(grid().cols) / m_zoom; }
  double visible_rows() { return static_cast<double>(grid().rows) / m_zoom; }
  void clamp_window();
  // Moves the cells by (dx, dy) screen pixels, as a drag does; the axes stay where they are.
  void pan(double dx, double dy);
  const viz::Rect &grid_rect();

  void move_cursor(int64_t by);

  // Zooms the cells by `factor` (> 1: closer) keeping the cell under screen pixel `at` in place
  // (the grid's centre when `at` is outside it). Text and axes keep their size and place.
  void zoom(double factor, sf::Vector2i at);
  // Window pixel -> canvas pixel (the diagram is drawn 1:1 unless the window is too small).
  sf::Vector2i to_canvas(sf::Vector2i p) const;

  void key(sf::Keyboard::Key k, bool shift);

  void hover_pixel(sf::Vector2i p);

  void handle(const sf::Event &e);

  // One script step; returns the frames to wait after it.
  int step_script(const std::string &token);

  std::string status_line();

  std::string hover_line();

  // Cell sizes that fit the diagram, drawn 1:1 (text at its own size), into the area left of the
  // side panel: the widest cells (1 to 64 px) whose rendering fits the width, then the tallest that
  // fit the height. Measured by rendering, since the text around the grid (its subtitle, axes and
  // legend) is wider than the grid at small cells and does not grow with them.
  void fit_cells(const viz::Grid &g);

  // The cell's colour as the diagram draws it; white after the cursor (not yet played).
  viz::Color cell_colour(const viz::Grid &g, int64_t col, int64_t row, const viz::Palette &pal);

  // Zoomed in: the grid area shows the visible window of cells, and the axes are drawn again for
  // it at their place (pinned), in the diagram's text sizes.
  void draw_zoomed(const viz::Grid &g);

  // Renders the diagram (when something changed) and the side panel, then shows the frame.
  void draw_frame(bool show = true);

  static constexpr int kPanelW = kViewerPanelW;
  static constexpr viz::Color kHoverColor{255, 0, 255, 255}; // magenta: in no palette
  DiagramRequest m_req;
  int m_width, m_height;
  std::string m_shot_path;
  sf::RenderWindow m_window;
  sf::Texture m_texture, m_panel_texture;
  viz::Canvas m_canvas;
  viz::DiagramLayout m_layout;
  std::map<std::pair<int, int64_t>, viz::Grid> m_grids; // (order, L1 lines) -> grid
  int m_order = 0;
  int64_t m_l1_lines = 0;
  int64_t m_cursor = -1;
  int64_t m_hover_col = -1, m_hover_row = -1;
  double m_zoom = 1, m_c0 = 0, m_r0 = 0; // zoom and the top-left visible cell
  double m_scale = 1;                    // window px per canvas px (1: text at its size)
  int m_cell_w = 1, m_cell_h = 1;
  bool m_playing = false, m_dirty = true, m_fit = true, m_quit = false, m_shot_pending = false;
  bool m_drag = false;
  sf::Vector2i m_drag_from;
};

} // namespace cbi::viz_app
