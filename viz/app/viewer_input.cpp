// cbi view's input (viewer.hpp): keys, the mouse (hover, drag, wheel) and the --script steps that
// drive the same handlers without a person.
#include "viewer.hpp"

#include "cbi/cli/options.hpp"
#include "cbi/cli/output.hpp"
#include "cbi/error.hpp"
#include "cbi/parse.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>

namespace cbi::viz_app {

namespace {

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

} // namespace

void Viewer::key(sf::Keyboard::Key k, bool shift) {
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
    if (m_shot_path.empty()) // the key did nothing, silently
      std::cout << "view: P writes no screenshot: --screenshot PATH.png names its file\n";
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

void Viewer::hover_pixel(sf::Vector2i p) {
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

void Viewer::handle(const sf::Event &e) {
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

namespace {

// One --script step, read and checked without a window: a bad step is refused before the viewer
// opens (and before any earlier step's screenshot is written).
struct ScriptStep {
  std::string verb;
  const KeyName *key = nullptr;
  bool shift = false;
  long long times = 1, wait = 0;
  int a = 0, b = 0;
  float factor = 1;
  std::string path;
};

ScriptStep parse_step(const std::string &token) {
  const auto colon = token.find(':');
  ScriptStep st;
  st.verb = token.substr(0, colon);
  const std::string arg = colon == std::string::npos ? "" : token.substr(colon + 1);
  if (st.verb == "key") {
    std::string name = arg;
    if (const auto star = arg.find('*'); star != std::string::npos) {
      name = arg.substr(0, star);
      st.times = parse_positive(arg.substr(star + 1), "--script", 1 << 20);
    }
    st.shift = name.rfind("Shift+", 0) == 0;
    if (st.shift)
      name = name.substr(6);
    for (const KeyName &kn : kKeyNames)
      if (name == kn.name)
        st.key = &kn;
    if (!st.key)
      throw UsageError("--script",
                       "unknown key '" + name +
                           "'; allowed: the keys of --help: Space, Right, Left, Up, Down, "
                           "Home, End, O, Tab, 1-9, ], [, +, -, R, G, P, Q, Escape (Shift+ "
                           "prefix, *N repeat)");
  } else if (st.verb == "wait") {
    st.wait = parse_count(arg, "--script", 1 << 20, "no frames");
  } else if (st.verb == "move" || st.verb == "hover" || st.verb == "drag") {
    char end = 0;
    if (std::sscanf(arg.c_str(), "%d,%d%c", &st.a, &st.b, &end) != 2)
      throw UsageError("--script",
                       "'" + token + "' needs two numbers; allowed: " + st.verb + ":A,B");
  } else if (st.verb == "zoom") {
    char *end = nullptr;
    st.factor = std::strtof(arg.c_str(), &end);
    if (arg.empty() || *end != '\0' || !(st.factor > 0) || !std::isfinite(st.factor))
      throw UsageError("--script",
                       "'" + token + "': allowed: zoom:F with F > 0 (2 = twice as big)");
  } else if (st.verb == "shot") {
    st.path = arg;
    if (!arg.empty()) {
      cli::require_png(arg, "--script"); // shot:a.jpg wrote a PNG into it
      cli::check_output(arg, "--script", false);
    }
  } else if (st.verb != "quit") {
    throw UsageError("--script",
                     "unknown step '" + token +
                         "'; allowed: key:K[*N], wait:N, "
                         "move:X,Y, hover:COL,ROW, drag:DX,DY, zoom:F, shot:PATH, quit");
  }
  return st;
}

} // namespace

void check_script(const std::vector<std::string> &steps, bool has_screenshot,
                  const viz::GridExtent &cells) {
  for (const std::string &token : steps) {
    const ScriptStep st = parse_step(token);
    // hover:9999,9999 showed "hover: -": the cell is the figure's, unlike move's window pixel.
    if (st.verb == "hover" && (st.a < 0 || st.b < 0 || st.a >= cells.cols || st.b >= cells.rows))
      throw UsageError(
          "--script",
          "'" + token + "' is outside the figure's " + std::to_string(cells.cols) + "x" +
              std::to_string(cells.rows) + " cells; allowed: hover:COL,ROW with COL 0 to " +
              std::to_string(cells.cols - 1) + " and ROW 0 to " + std::to_string(cells.rows - 1));
    // `shot:` and the P key write --screenshot's file; without one they wrote nothing, silently.
    const bool writes =
        st.verb == "shot" ? st.path.empty() : st.verb == "key" && st.key->key == sf::Keyboard::P;
    if (writes && !has_screenshot)
      throw UsageError("--script", "'" + token +
                                       "' writes --screenshot's file, and --screenshot is not "
                                       "given; allowed: shot:PATH.png, or --screenshot PATH.png");
  }
}

int Viewer::step_script(const std::string &token) {
  const ScriptStep st = parse_step(token);
  int wait = 0;
  if (st.verb == "key") {
    for (long long i = 0; i < st.times; ++i)
      key(st.key->key, st.shift);
  } else if (st.verb == "wait") {
    wait = static_cast<int>(st.wait);
  } else if (st.verb == "move") {
    draw_frame(false); // the layout must be current before a pixel maps to a cell
    hover_pixel({st.a, st.b});
  } else if (st.verb == "hover") {
    m_hover_col = st.a;
    m_hover_row = st.b;
    m_dirty = true;
  } else if (st.verb == "drag") {
    draw_frame(false);
    pan(st.a, st.b);
  } else if (st.verb == "zoom") {
    draw_frame(false);
    zoom(st.factor, {-1, -1});
  } else if (st.verb == "shot") {
    m_shot_path = st.path.empty() ? m_shot_path : st.path;
    m_shot_pending = true;
  } else if (st.verb == "quit") {
    m_quit = true;
  }
  std::cout << "view: " << token << " | " << status_line() << " | " << hover_line() << "\n";
  return wait;
}

} // namespace cbi::viz_app
