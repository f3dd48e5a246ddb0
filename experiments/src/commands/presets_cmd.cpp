// cbi presets: the named configurations (sim/src/presets.cpp), each in full, that simulate,
// diagram, view and sweep read by name.
#include "cbi/cli/command.hpp"
#include "cbi/cli/options.hpp"
#include "cbi/config/presets.hpp"

namespace cbi::cli {

int cmd_presets(int argc, char **argv) {
  return list_command(argc, argv,
                      "usage: cbi presets [--format table|json|csv|markdown]\n\n"
                      "Lists the named configurations with everything they fix: workload, sizes, "
                      "stencil, boundary,\nelement size, granularity (what a hit rate counts), "
                      "cache levels and the orders drawn. One name\nis one configuration in every "
                      "command: simulate/diagram/view --preset NAME, sweep --grid NAME.",
                      "  cbi presets\n"
                      "  cbi simulate --preset table3.1 --order column:4\n"
                      "  cbi diagram --preset table3.1 -o table3.1.png",
                      config::presets_table);
}

const cli::Registration kPresetsRegistration{
    {"presets", "list the named configurations (Tables 3.1/3.2, the thesis figures) in full",
     cmd_presets, 13}};

} // namespace cbi::cli
