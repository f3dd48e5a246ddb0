// cbi view: the diagram in an SFML window: pan and zoom, a hover readout (thread, task, address,
// array row and column, state), playback through time with the cache contents, and keys to switch
// orders and cache sizes. --script drives the same handlers for tests (under xvfb-run).
#include "cbi/cli/command.hpp"
#include "diagram_options.hpp"
#include "viewer.hpp"

#include <SFML/Graphics.hpp>

#include <cstdlib>
#include <dlfcn.h>
#include <iostream>
#include <map>
#include <sstream>

namespace cbi::viz_app {

namespace {

// SFML aborts the process when it cannot open the display (DISPLAY set to a server that is not
// there): asked first with Xlib's own call, from the libX11 that SFML loads anyway. Where libX11
// cannot be found the answer is yes, and SFML says what it finds. The connection stays open while
// the viewer runs: an X server resets when its last client leaves (Xvfb and xvfb-run's do, unless
// started with -noreset), and SFML's own connection, made a moment after this one closed, found
// the server resetting ("Failed to open X11 display", an abort) in test runs under load.
class DisplayProbe {
public:
  DisplayProbe() : m_x11(dlopen("libX11.so.6", RTLD_LAZY | RTLD_LOCAL)) {
    if (!m_x11)
      return;
    using Open = void *(*)(const char *);
    const auto open = reinterpret_cast<Open>(dlsym(m_x11, "XOpenDisplay"));
    m_close = reinterpret_cast<Close>(dlsym(m_x11, "XCloseDisplay"));
    if (open && m_close) {
      m_display = open(nullptr);
      m_opens = m_display != nullptr;
    }
  }
  ~DisplayProbe() {
    if (m_display)
      m_close(m_display);
    if (m_x11)
      dlclose(m_x11);
  }
  DisplayProbe(const DisplayProbe &) = delete;
  DisplayProbe &operator=(const DisplayProbe &) = delete;
  bool opens() const { return m_opens; }

private:
  using Close = int (*)(void *);
  void *m_x11;
  Close m_close = nullptr;
  void *m_display = nullptr;
  bool m_opens = true;
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
  po::variables_map vm;
  if (!parse_preset_argv(
          argc, argv, desc, vm,
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
  // The P key writes a PNG whatever the path: a shot.jpg would hold a PNG.
  if (cli::has(vm, "screenshot"))
    cli::require_png(cli::get(vm, "screenshot", ""), "--screenshot");
  DiagramRequest req = diagram_request(vm);
  if (!req.gpu.empty()) // the viewer replays step by step; the GPU model is drawn by cbi diagram
    throw UsageError("--model", "gpu is not in the viewer yet; allowed: sequential (cbi diagram "
                                "--model gpu draws the GPU model's PNG)");
  int width = 1400, height = 800;
  if (cli::has(vm, "window")) {
    const std::string text = cli::get(vm, "window", "");
    const auto [w, h] = parse_extent(text, "--window", false, 8192);
    // --window 300x200 opened 600x400, silently: the least window the panel and axes fit in.
    if (w < 600 || h < 400)
      throw UsageError("--window", "'" + text +
                                       "' is smaller than the viewer's least window; "
                                       "allowed: WxH from 600x400 to 8192x8192, e.g. "
                                       "1400x800");
    width = static_cast<int>(w);
    height = static_cast<int>(h);
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
    refuse_unbinned_miss_level(req, req.panels.front().bins);
  }
  // Besides the panels the viewer keeps each thread's first step (8 B a thread, one column per
  // access): --size 50000 ran out of memory once the window was open (exit 1).
  const sim::SimConfig &c = req.panels.front().sim;
  cli::check_memory(diagram_memory_bytes(req) + (c.granularity == sim::Granularity::exact
                                                     ? 8.0 * double(c.workload.tasks())
                                                     : 0.0),
                    "the viewer's " + c.workload.describe(), "--size", "a smaller --size");
  std::vector<std::string> script;
  {
    std::istringstream ss(cli::get(vm, "script", ""));
    std::string step;
    while (std::getline(ss, step, ';'))
      if (!step.empty())
        script.push_back(step);
  }
  // A bad step is exit 2 on any machine, before the window opens.
  check_script(script, cli::has(vm, "screenshot"), viz::grid_extent(c, req.panels.front().bins));
  const char *display = std::getenv("DISPLAY");
  if (!display || !*display) {
    std::cerr << "cbi view: needs a display (DISPLAY is not set); run it under xvfb-run, or use "
                 "cbi diagram, which needs none\n";
    return 1;
  }
  const DisplayProbe probe; // held open until the viewer is done (see DisplayProbe)
  if (!probe.opens()) {
    std::cerr << "cbi view: cannot open the display '" << display
              << "' (DISPLAY); run it under xvfb-run, or use cbi diagram, which needs none\n";
    return 1;
  }
  Viewer viewer(std::move(req), width, height, cli::get(vm, "screenshot", ""));
  return viewer.run(script);
}

const cli::Registration kRegistration{
    {"view", "explore a diagram in a window: pan, zoom, hover, play through time", cmd_view, 20}};

} // namespace cbi::viz_app
