// cbi view: the diagram in an SFML window: pan and zoom, a hover readout (thread, task, address,
// array row and column, state), playback through time with the cache contents, and keys to switch
// orders and cache sizes. --script drives the same handlers for tests (under xvfb-run).
#include "cbi/cli/command.hpp"
#include "diagram_options.hpp"

#include <SFML/Graphics.hpp>

#include <cstdlib>
#include <iostream>
#include <map>
#include <sstream>

namespace cbi::viz_app {

namespace {

const char *const kKeysHelp =
    "keys: Space play/pause | Right/Left step (Shift: 10%) | Home/End | O or Tab next order, 1-9 "
    "pick one |\n      ] / [ double / halve the L1 lines | + / - or wheel zoom | drag or Up/Down "
    "pan "
    "| R reset |\n      G greyscale | P screenshot (--screenshot) | Q or Escape quit";

struct KeyName {
  const char *name;
  sf::Keyboard::Key key;
};
const KeyName kKeyNames[] = {
    {"Space", sf::Keyboard::Space},
    {"Right", sf::Keyboard::Right},
    {"Left", sf::Keyboard::Left},
    {"Up", sf::Keyboard::Up},
    {"Down", sf::Keyboard::Down},
    {"Home", sf::Keyboard::Home},
    {"End", sf::Keyboard::End},
    {"O", sf::Keyboard::O},
    {"Tab", sf::Keyboard::Tab},
    {"G", sf::Keyboard::G},
    {"R", sf::Keyboard::R},
    {"P", sf::Keyboard::P},
    {"Q", sf::Keyboard::Q},
    {"Escape", sf::Keyboard::Escape},
    {"LBracket", sf::Keyboard::LBracket},
    {"RBracket", sf::Keyboard::RBracket},
    {"Add", sf::Keyboard::Add},
    {"Subtract", sf::Keyboard::Subtract},
    {"Equal", sf::Keyboard::Equal},
    {"Hyphen", sf::Keyboard::Hyphen},
    {"1", sf::Keyboard::Num1},
    {"2", sf::Keyboard::Num2},
    {"3", sf::Keyboard::Num3},
    {"4", sf::Keyboard::Num4},
    {"5", sf::Keyboard::Num5},
    {"6", sf::Keyboard::Num6},
    {"7", sf::Keyboard::Num7},
    {"8", sf::Keyboard::Num8},
    {"9", sf::Keyboard::Num9},
    // The names the keys help and the README use, so that one vocabulary works everywhere.
    {"]", sf::Keyboard::RBracket},
    {"[", sf::Keyboard::LBracket},
    {"+", sf::Keyboard::Add},
    {"-", sf::Keyboard::Subtract},
};

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

constexpr int kViewerPanelW = 380; // the side panel's width in pixels

class Viewer {
public:
  Viewer(DiagramRequest req, int width, int height, std::string screenshot)
      : m_req(std::move(req)), m_width(width), m_height(height),
        m_shot_path(std::move(screenshot)) {
    m_l1_lines = m_req.panels.front().sim.levels.front().capacity_lines;
    for (viz::GridSpec &s : m_req.panels)
      s.record_thread_steps = true;
  }

  int run(const std::vector<std::string> &script) {
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

private:
  const viz::Grid &grid() {
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

  void rebuild() {
    const viz::Grid &g = grid();
    m_cursor = std::min(m_cursor < 0 ? g.cols - 1 : m_cursor, g.cols - 1);
    m_dirty = true;
    m_fit = true;
    clamp_window();
  }

  // The visible window of cells: zoom 1 shows them all; m_c0, m_r0 is its top-left cell.
  double visible_cols() { return static_cast<double>(grid().cols) / m_zoom; }
  double visible_rows() { return static_cast<double>(grid().rows) / m_zoom; }
  void clamp_window() {
    m_c0 = std::clamp(m_c0, 0.0, static_cast<double>(grid().cols) - visible_cols());
    m_r0 = std::clamp(m_r0, 0.0, static_cast<double>(grid().rows) - visible_rows());
    m_dirty = true;
  }
  // Moves the cells by (dx, dy) screen pixels, as a drag does; the axes stay where they are.
  void pan(double dx, double dy) {
    const viz::Rect &r = grid_rect();
    m_c0 -= dx * visible_cols() / std::max(1, r.w);
    m_r0 -= dy * visible_rows() / std::max(1, r.h);
    clamp_window();
  }
  const viz::Rect &grid_rect() {
    static const viz::Rect none{0, 0, 1, 1};
    return m_layout.grids.empty() ? none : m_layout.grids.front();
  }

  void move_cursor(int64_t by) {
    const int64_t cols = grid().cols;
    m_cursor = std::clamp<int64_t>(m_cursor + by, 0, cols - 1);
    if (m_cursor == cols - 1)
      m_playing = false;
    m_dirty = true;
  }

  // Zooms the cells by `factor` (> 1: closer) keeping the cell under screen pixel `at` in place
  // (the grid's centre when `at` is outside it). Text and axes keep their size and place.
  void zoom(double factor, sf::Vector2i at) {
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
  // Window pixel -> canvas pixel (the diagram is drawn 1:1 unless the window is too small).
  sf::Vector2i to_canvas(sf::Vector2i p) const {
    return {static_cast<int>(std::floor(p.x / m_scale)),
            static_cast<int>(std::floor(p.y / m_scale))};
  }

  void key(sf::Keyboard::Key k, bool shift) {
    const int64_t cols = grid().cols;
    switch (k) {
    case sf::Keyboard::Space:
      m_playing = !m_playing;
      if (m_playing && m_cursor >= cols - 1)
        m_cursor = 0;
      break;
    case sf::Keyboard::Right:
      move_cursor(shift ? std::max<int64_t>(1, cols / 10) : 1);
      break;
    case sf::Keyboard::Left:
      move_cursor(shift ? -std::max<int64_t>(1, cols / 10) : -1);
      break;
    case sf::Keyboard::Home:
      move_cursor(-cols);
      break;
    case sf::Keyboard::End:
      move_cursor(cols);
      break;
    case sf::Keyboard::O:
    case sf::Keyboard::Tab:
      m_order = (m_order + 1) % static_cast<int>(m_req.panels.size());
      rebuild();
      break;
    case sf::Keyboard::RBracket:
      m_l1_lines = std::min<int64_t>(m_l1_lines * 2, int64_t{1} << 30);
      rebuild();
      break;
    case sf::Keyboard::LBracket:
      m_l1_lines = std::max<int64_t>(1, m_l1_lines / 2);
      rebuild();
      break;
    case sf::Keyboard::Add:
    case sf::Keyboard::Equal:
      zoom(1.25, {-1, -1});
      break;
    case sf::Keyboard::Subtract:
    case sf::Keyboard::Hyphen:
      zoom(0.8, {-1, -1});
      break;
    case sf::Keyboard::Up:
      m_r0 -= visible_rows() / 10;
      clamp_window();
      break;
    case sf::Keyboard::Down:
      m_r0 += visible_rows() / 10;
      clamp_window();
      break;
    case sf::Keyboard::R:
      m_zoom = 1;
      m_c0 = m_r0 = 0;
      m_fit = true;
      m_dirty = true;
      break;
    case sf::Keyboard::G:
      m_req.style.greyscale = !m_req.style.greyscale;
      m_dirty = true;
      break;
    case sf::Keyboard::P:
      m_shot_pending = true;
      break;
    case sf::Keyboard::Q:
    case sf::Keyboard::Escape:
      m_quit = true;
      break;
    default:
      if (k >= sf::Keyboard::Num1 && k <= sf::Keyboard::Num9 &&
          k - sf::Keyboard::Num1 < static_cast<int>(m_req.panels.size())) {
        m_order = k - sf::Keyboard::Num1;
        rebuild();
      }
    }
  }

  void hover_pixel(sf::Vector2i p) {
    const viz::Rect &r = grid_rect();
    const sf::Vector2i c = to_canvas(p);
    const int64_t col = m_hover_col, row = m_hover_row;
    if (p.x >= m_width - kPanelW || !r.contains(c.x, c.y)) {
      m_hover_col = m_hover_row = -1;
    } else {
      m_hover_col = static_cast<int64_t>(m_c0 + (c.x - r.x + 0.5) * visible_cols() / r.w);
      m_hover_row = static_cast<int64_t>(m_r0 + (c.y - r.y + 0.5) * visible_rows() / r.h);
    }
    m_dirty = m_dirty || col != m_hover_col || row != m_hover_row;
  }

  void handle(const sf::Event &e) {
    switch (e.type) {
    case sf::Event::Closed:
      m_quit = true;
      break;
    case sf::Event::Resized:
      m_width = static_cast<int>(e.size.width);
      m_height = static_cast<int>(e.size.height);
      m_fit = true;
      break;
    case sf::Event::KeyPressed:
      key(e.key.code, e.key.shift);
      break;
    case sf::Event::MouseWheelScrolled:
      zoom(e.mouseWheelScroll.delta > 0 ? 1.25 : 0.8, {e.mouseWheelScroll.x, e.mouseWheelScroll.y});
      break;
    case sf::Event::MouseButtonPressed:
      m_drag = true;
      m_drag_from = {e.mouseButton.x, e.mouseButton.y};
      break;
    case sf::Event::MouseButtonReleased:
      m_drag = false;
      break;
    case sf::Event::MouseMoved: {
      const sf::Vector2i p{e.mouseMove.x, e.mouseMove.y};
      if (m_drag) {
        pan((p.x - m_drag_from.x) / m_scale, (p.y - m_drag_from.y) / m_scale);
        m_drag_from = p;
      }
      hover_pixel(p);
      break;
    }
    default:
      break;
    }
  }

  // One script step; returns the frames to wait after it.
  int step_script(const std::string &token) {
    const auto colon = token.find(':');
    const std::string verb = token.substr(0, colon);
    const std::string arg = colon == std::string::npos ? "" : token.substr(colon + 1);
    int wait = 0;
    if (verb == "key") {
      std::string name = arg;
      int times = 1;
      if (const auto star = arg.find('*'); star != std::string::npos) {
        name = arg.substr(0, star);
        times = std::atoi(arg.c_str() + star + 1);
      }
      const bool shift = name.rfind("Shift+", 0) == 0;
      if (shift)
        name = name.substr(6);
      const KeyName *k = nullptr;
      for (const KeyName &kn : kKeyNames)
        if (name == kn.name)
          k = &kn;
      if (!k)
        throw UsageError("--script",
                         "unknown key '" + name +
                             "'; allowed: the keys of --help: Space, Right, Left, Up, Down, "
                             "Home, End, O, Tab, 1-9, ], [, +, -, R, G, P, Q, Escape (Shift+ "
                             "prefix, *N repeat)");
      for (int i = 0; i < times; ++i)
        key(k->key, shift);
    } else if (verb == "wait") {
      wait = std::max(0, std::atoi(arg.c_str()));
    } else if (verb == "move" || verb == "hover" || verb == "drag") {
      int a = 0, b = 0;
      if (std::sscanf(arg.c_str(), "%d,%d", &a, &b) != 2)
        throw UsageError("--script",
                         "'" + token + "' needs two numbers; allowed: " + verb + ":A,B");
      if (verb == "move") {
        draw_frame(false); // the layout must be current before a pixel maps to a cell
        hover_pixel({a, b});
      } else if (verb == "hover") {
        m_hover_col = a;
        m_hover_row = b;
        m_dirty = true;
      } else {
        draw_frame(false);
        pan(a, b);
      }
    } else if (verb == "zoom") {
      const float f = static_cast<float>(std::atof(arg.c_str()));
      if (f <= 0)
        throw UsageError("--script",
                         "'" + token + "': allowed: zoom:F with F > 0 (2 = twice as big)");
      draw_frame(false);
      zoom(f, {-1, -1});
    } else if (verb == "shot") {
      m_shot_path = arg.empty() ? m_shot_path : arg;
      m_shot_pending = true;
    } else if (verb == "quit") {
      m_quit = true;
    } else {
      throw UsageError("--script",
                       "unknown step '" + token +
                           "'; allowed: key:K[*N], wait:N, "
                           "move:X,Y, hover:COL,ROW, drag:DX,DY, zoom:F, shot:PATH, quit");
    }
    std::cout << "view: " << token << " | " << status_line() << " | " << hover_line() << "\n";
    return wait;
  }

  std::string status_line() {
    const viz::Grid &g = grid();
    const sim::CacheStats &s = g.result.levels.front();
    std::ostringstream os;
    os << "order " << remap::to_string(g.sim.order) << ", L1 " << m_l1_lines << " lines, t "
       << m_cursor << "/" << g.cols - 1 << (m_playing ? " playing" : " paused") << ", misses "
       << s.misses << ", " << viz::hit_rate_label(g) << " " << viz::percent(s.hit_rate())
       << ", zoom " << m_zoom << "x cols " << static_cast<int64_t>(m_c0) << "-"
       << static_cast<int64_t>(std::ceil(m_c0 + visible_cols())) - 1 << " rows "
       << static_cast<int64_t>(m_r0) << "-"
       << static_cast<int64_t>(std::ceil(m_r0 + visible_rows())) - 1 << ", drawn at "
       << (m_scale == 1.0 ? "1:1" : viz::percent(m_scale, 0));
    return os.str();
  }

  std::string hover_line() {
    const viz::Grid &g = grid();
    if (m_hover_col < 0 || m_hover_row < 0 || m_hover_col >= g.cols || m_hover_row >= g.rows)
      return "hover: -";
    const sim::Workload &w = g.sim.workload;
    const int64_t step = m_hover_col * g.bins.time_bin;
    const int64_t thread = g.thread_at(step);
    const remap::Task<int64_t> t =
        g.sim.order.map(thread, remap::Shape<int64_t>{w.width, w.height});
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

  // Cell sizes that fit the diagram, drawn 1:1 (text at its own size), into the area left of the
  // side panel: the widest cells (1 to 64 px) whose rendering fits the width, then the tallest that
  // fit the height. Measured by rendering, since the text around the grid (its subtitle, axes and
  // legend) is wider than the grid at small cells and does not grow with them.
  void fit_cells(const viz::Grid &g) {
    viz::DiagramStyle style = m_req.style;
    style.title.clear();
    const int avail_w = m_width - kPanelW;
    auto size_at = [&](int w, int h) {
      style.cell_w = w;
      style.cell_h = h;
      const viz::Canvas c = viz::render_diagram({g}, style, nullptr);
      return std::make_pair(c.width(), c.height());
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

  // The cell's colour as the diagram draws it; white after the cursor (not yet played).
  viz::Color cell_colour(const viz::Grid &g, int64_t col, int64_t row, const viz::Palette &pal) {
    if (col > m_cursor)
      return viz::kWhite;
    return g.binned() ? m_layout.bins.of(g, col, row) : pal.of(g.at(col, row));
  }

  // Zoomed in: the grid area shows the visible window of cells, and the axes are drawn again for
  // it at their place (pinned), in the diagram's text sizes.
  void draw_zoomed(const viz::Grid &g) {
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

  // Renders the diagram (when something changed) and the side panel, then shows the frame.
  void draw_frame(bool show = true) {
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

} // namespace

int cmd_view(int argc, char **argv) {
  po::options_description desc("Options");
  add_diagram_options(desc);
  desc.add_options()("window", po::value<std::string>(),
                     "window size WxH in pixels (default 1400x800)")(
      "screenshot", po::value<std::string>(), "PNG the P key (or a script's shot step) writes")(
      "script", po::value<std::string>(),
      "steps to run instead of waiting for input, ';'-separated: "
      "key:K[*N] wait:N move:X,Y hover:COL,ROW drag:DX,DY zoom:F "
      "shot:PATH quit; prints the state after each step");
  const std::vector<std::string> args = expand_preset(std::vector<std::string>(argv, argv + argc));
  std::vector<char *> ptrs;
  for (const std::string &a : args)
    ptrs.push_back(const_cast<char *>(a.c_str()));
  po::variables_map vm;
  if (!cli::parse_args(
          static_cast<int>(ptrs.size()), ptrs.data(), desc, vm,
          std::string(
              "usage: cbi view [--preset NAME] [options]\n\n"
              "Opens the diagram of `cbi diagram` in a window (needs a display; "
              "xvfb-run works). The cursor plays\nthrough time; cells after it are blank and "
              "the side panel lists the lines in L1 at the cursor.\nHovering a cell shows "
              "its thread, task (x, y), line, address, array row and column and state.\n"
              "Each --order is one choice for the O key.\n") +
              kKeysHelp,
          "  cbi view --preset fig3.1 --order linear --order column:4 --order tile:4\n"
          "  cbi view --size 256 --stencil 9x9 --lines 64 --granularity exact\n"
          "  xvfb-run -a cbi view --preset fig4.4 --script "
          "'key:Space;wait:30;hover:10,5;shot:a.png'",
          {"screenshot"}))
    return 0;
  DiagramRequest req = diagram_request(vm);
  if (!req.gpu.empty()) // the viewer replays step by step; the GPU model is drawn by cbi diagram
    throw UsageError("--model", "gpu is not in the viewer yet; allowed: sequential (cbi diagram "
                                "--model gpu draws the GPU model's PNG)");
  int width = 1400, height = 800;
  if (cli::has(vm, "window")) {
    const auto [w, h] = parse_extent(cli::get(vm, "window", ""), "--window", false, 8192);
    width = static_cast<int>(std::max<int64_t>(w, 600));
    height = static_cast<int>(std::max<int64_t>(h, 400));
  }
  if (!cli::has(vm, "max-px") && !cli::has(vm, "bin")) {
    // At least one pixel per cell in the window, so that the diagram is drawn 1:1 and its text at
    // its size; zooming shows the cells larger. The margins leave room for the axes, the titles,
    // the stats and the legend beside and around the grid.
    const sim::SimConfig &c = req.panels.front().sim;
    const int64_t cols = std::max(64, width - kViewerPanelW - 260);
    const int64_t rows = std::max(64, height - 360);
    for (viz::GridSpec &s : req.panels)
      s.bins = viz::fit_bins(viz::time_steps(c), viz::line_count(c), cols, rows);
  }
  std::vector<std::string> script;
  {
    std::istringstream ss(cli::get(vm, "script", ""));
    std::string step;
    while (std::getline(ss, step, ';'))
      if (!step.empty())
        script.push_back(step);
  }
  const char *display = std::getenv("DISPLAY");
  if (!display || !*display) {
    std::cerr << "cbi view: needs a display (DISPLAY is not set); run it under xvfb-run, or use "
                 "cbi diagram, which needs none\n";
    return 1;
  }
  Viewer viewer(std::move(req), width, height, cli::get(vm, "screenshot", ""));
  return viewer.run(script);
}

const cli::Registration kRegistration{
    {"view", "explore a diagram in a window: pan, zoom, hover, play through time", cmd_view, 20}};

} // namespace cbi::viz_app
