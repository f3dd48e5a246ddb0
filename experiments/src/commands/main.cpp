// cbi: cache simulation and thread remapping for GPU kernels. Dispatches to one subcommand; the
// SFML tools (diagram, view) live in the sibling binary cbi-viz so that this one needs no display
// libraries and runs on GPU machines.
#include "cbi/cli/command.hpp"
#include "cbi/cli/options.hpp"
#include "cbi/cli/output.hpp"
#include "cbi/config/options.hpp"
#include "cbi/order_text.hpp"

#include <cctype>
#include <cstring>
#include <iostream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

// Subcommands implemented by cbi-viz (SFML), found next to this binary.
const char *const kVizCommands[] = {"diagram", "view", "plot"};

void usage(std::ostream &os) {
  os << "cbi: cache simulation and thread remapping for GPU kernels\n\n"
        "usage: cbi <command> [options]    (cbi <command> --help or cbi help <command>: its "
        "options)\n"
        "       cbi --version\n\n"
        "commands:\n";
  cbi::cli::print_commands(os, 12);
  os << "  diagram     spatial-temporal diagrams as PNG (runs cbi-viz)\n"
        "  view        explore a diagram in a window (runs cbi-viz)\n"
        "  plot        heatmap, line and scatter plots of a sweep CSV as PNG (runs cbi-viz)\n"
        "\n"
     << cbi::cli::wrap_text("Thread orders (--order): ", cbi::remap::order_syntax(), 2)
     << "Exit codes: 0 ok, 1 runtime failure, 2 bad option value, 3 no CUDA device.\n";
}

// " (did you mean simulate?)" for a command `given` begins or nearly spells (simulat, simualte,
// Simulate), or "".
std::string meant_command(std::string given) {
  for (char &c : given)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::vector<std::string> names;
  for (const cbi::cli::Command &c : cbi::cli::commands())
    names.push_back(c.name);
  names.insert(names.end(), std::begin(kVizCommands), std::end(kVizCommands));
  std::string meant;
  for (const std::string &name : names)
    if ((given.size() > 1 && name.rfind(given, 0) == 0) || name == given ||
        cbi::cli::near_spelling(given, name))
      meant += (meant.empty() ? "" : " or ") + name;
  // cbi version: cbi's own option, spelled as a command.
  if (meant.empty() && given == "version")
    meant = "--version";
  return meant.empty() ? "" : " (did you mean " + meant + "?)";
}

int exec_viz(char **argv) {
  const std::string viz = cbi::cli::self_dir() + "/cbi-viz";
  if (access(viz.c_str(), X_OK) != 0) {
    std::cerr << "cbi: " << argv[1] << ": needs " << viz
              << ", which this build lacks (configure with SFML and -DCBI_BUILD_VIZ=ON)\n";
    return 1;
  }
  argv[0] = const_cast<char *>(viz.c_str());
  execv(viz.c_str(), argv);
  std::cerr << "cbi: " << argv[1] << ": cannot run " << viz << ": " << std::strerror(errno) << "\n";
  return 1;
}

int run(int argc, char **argv) {
  // cbi help COMMAND is cbi COMMAND --help, and so are cbi --help COMMAND and cbi -h COMMAND
  // (which printed cbi's own help, passing over the command).
  if (argc >= 3 && (!std::strcmp(argv[1], "help") || !std::strcmp(argv[1], "--help") ||
                    !std::strcmp(argv[1], "-h"))) {
    // cbi help help, cbi help --help: cbi's own help (it was "unexpected argument '--help'").
    if (argc == 3 && (!std::strcmp(argv[2], "help") || !std::strcmp(argv[2], "--help") ||
                      !std::strcmp(argv[2], "-h"))) {
      usage(std::cout);
      return 0;
    }
    // cbi help sweep merge: the one subcommand, as cbi sweep merge --help (it was refused).
    if (argc == 4 && !std::strcmp(argv[2], "sweep") && !std::strcmp(argv[3], "merge")) {
      static char help_flag[] = "--help";
      char *args[] = {argv[0], argv[2], argv[3], help_flag, nullptr};
      return run(4, args);
    }
    if (argc > 3 || argv[2][0] == '-') {
      std::cerr << "cbi: " << argv[1] << ": unexpected argument '" << argv[argc > 3 ? 3 : 2]
                << "'; allowed: one command (cbi help simulate)\n";
      return cbi::cli::kExitUsage;
    }
    static char help_flag[] = "--help";
    char *args[] = {argv[0], argv[2], help_flag, nullptr};
    return run(3, args);
  }
  // Asked for (--help): the help on stdout, exit 0. No command at all is a usage error: the same
  // help on stderr (stdout stays empty, as for every refused command line), exit 2.
  if (argc < 2) {
    usage(std::cerr);
    return cbi::cli::kExitUsage;
  }
  if (!std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") ||
      !std::strcmp(argv[1], "help")) {
    usage(std::cout);
    return 0;
  }
  if (!std::strcmp(argv[1], "--version")) {
    if (argc > 2) {
      std::cerr << "cbi: --version: unexpected argument '" << argv[2] << "'; allowed: none\n";
      return cbi::cli::kExitUsage;
    }
    std::cout << cbi::cli::version_line("cbi") << "\n";
    return 0;
  }
  for (const char *v : kVizCommands)
    if (!std::strcmp(argv[1], v))
      return exec_viz(argv);
  if (const cbi::cli::Command *c = cbi::cli::find_command(argv[1]))
    return cbi::cli::run_command(*c, argc, argv, cbi::config::option_for_field);
  // The allowed list comes from the registries, so it never drifts from what cbi runs. An option
  // before any command (cbi --size 16, cbi --versio) is not called a command.
  if (argv[1][0] == '-') {
    // -v, -V, --ver: cbi's own --version, misspelled (it was sent to cbi simulate -v, no option).
    std::string stem = argv[1] + std::strspn(argv[1], "-");
    for (char &ch : stem)
      ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    const bool version = !stem.empty() && std::string("version").rfind(stem, 0) == 0;
    std::cerr << "cbi: " << argv[1] << ": not an option of cbi itself "
              << (version ? std::string("(did you mean --version?)")
                          : std::string("(its options go after a command: cbi simulate ") +
                                argv[1] + " ...)")
              << "; allowed: --help, --version, or a command first:";
  } else
    std::cerr << "cbi: unknown command '" << argv[1] << "'" << meant_command(argv[1])
              << "; allowed:";
  const char *sep = " ";
  for (const cbi::cli::Command &c : cbi::cli::commands()) {
    std::cerr << sep << c.name;
    sep = ", ";
  }
  for (const char *v : kVizCommands)
    std::cerr << sep << v;
  std::cerr << " (see cbi --help)\n";
  return cbi::cli::kExitUsage;
}

} // namespace

int main(int argc, char **argv) {
  // --help and --version print too: their output must arrive as well.
  return cbi::cli::finish_stdout("cbi", run(argc, argv));
}
