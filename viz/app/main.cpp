// cbi-viz: the SFML half of the cbi command line (diagram, view, plot), kept out of `cbi` so that
// `cbi` links no display library. Same error boundary as cbi: a bad option is one line and exit 2.
#include "cli.hpp"
#include "commands.hpp"

#include <cstring>
#include <iostream>
#include <string>

namespace {

const cbi::cli::Command kCommands[] = {
    {"diagram", "spatial-temporal diagrams (§3.2) as labelled PNG; no display needed",
     cbi::viz_app::cmd_diagram},
    {"view", "explore a diagram in a window: pan, zoom, hover, play through time",
     cbi::viz_app::cmd_view},
    {"plot", "heatmap, line and scatter plots of a tidy CSV (cbi sweep) as PNG",
     cbi::viz_app::cmd_plot},
};

void usage(std::ostream &os) {
  os << "cbi-viz: diagrams, plots and the viewer of cbi (run as cbi diagram|view|plot)\n\n"
        "usage: cbi <command> [options]    (cbi <command> --help for each command's options)\n\n"
        "commands:\n";
  for (const auto &c : kCommands)
    os << "  " << c.name << std::string(10 - std::strlen(c.name), ' ') << c.summary << "\n";
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
    usage(std::cout);
    return argc < 2 ? cbi::cli::kExitUsage : 0;
  }
  for (const auto &c : kCommands)
    if (!std::strcmp(argv[1], c.name))
      return cbi::cli::run_command(c, argc, argv);
  std::cerr << "cbi-viz: unknown command '" << argv[1] << "'; allowed: diagram, view, plot\n";
  return cbi::cli::kExitUsage;
}
