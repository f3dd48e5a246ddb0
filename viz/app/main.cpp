// cbi-viz: the SFML half of the cbi command line (diagram, view, plot), kept out of `cbi` so that
// `cbi` links no display library. Same error boundary as cbi: a bad option is one line and exit 2.
#include "cbi/cli/command.hpp"
#include "cbi/cli/output.hpp"
#include "cbi/config/options.hpp"

#include <cstring>
#include <iostream>
#include <string>

namespace {

void usage(std::ostream &os) {
  os << "cbi-viz: diagrams, plots and the viewer of cbi (run as cbi diagram|view|plot)\n\n"
        "usage: cbi <command> [options]    (cbi <command> --help for each command's options)\n\n"
        "commands:\n";
  cbi::cli::print_commands(os, 10);
}

int run(int argc, char **argv) {
  // As cbi: asked for (--help), the help on stdout and exit 0; no command, on stderr and exit 2.
  if (argc < 2) {
    usage(std::cerr);
    return cbi::cli::kExitUsage;
  }
  if (!std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
    usage(std::cout);
    return 0;
  }
  if (!std::strcmp(argv[1], "--version") && argc == 2) {
    std::cout << cbi::cli::version_line("cbi-viz") << "\n";
    return 0;
  }
  if (const cbi::cli::Command *c = cbi::cli::find_command(argv[1]))
    return cbi::cli::run_command(*c, argc, argv, cbi::config::option_for_field);
  std::cerr << "cbi-viz: unknown command '" << argv[1] << "'; allowed: diagram, view, plot\n";
  return cbi::cli::kExitUsage;
}

} // namespace

int main(int argc, char **argv) {
  // --help and --version print too: their output must arrive as well.
  return cbi::cli::finish_stdout("cbi-viz", run(argc, argv));
}
