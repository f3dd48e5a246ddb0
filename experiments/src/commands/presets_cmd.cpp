// cbi presets: the named configurations (sim/src/presets.cpp), each in full, that simulate,
// diagram, view and sweep read by name.
#include "cbi/cli/command.hpp"
#include "cbi/cli/options.hpp"
#include "cbi/config/presets.hpp"

#include <algorithm>
#include <string>

namespace cbi::cli {

int cmd_presets(int argc, char **argv) {
  po::options_description desc("Options");
  desc.add_options()(
      "name", po::value<std::string>(),
      ("the one preset to show, also given alone (cbi presets NAME): " + sim::preset_names())
          .c_str());
  add_output_options(desc);
  po::variables_map vm;
  if (!parse_args(argc, argv, desc, vm,
                  "usage: cbi presets [NAME] [--format table|json|csv|markdown]\n\n"
                  "Lists the named configurations with everything they fix: workload, sizes, "
                  "stencil, boundary,\nelement size, granularity (what a hit rate counts), "
                  "cache levels and the orders drawn; with NAME,\nthat one and the options it "
                  "stands for. One name is one configuration in every command:\n"
                  "simulate/diagram/view --preset NAME, sweep --grid NAME.",
                  "  cbi presets\n"
                  "  cbi presets table3.1                 # one, with the options it stands for\n"
                  "  cbi presets fig4.4 --format json\n"
                  "  cbi simulate --preset table3.1 --order column:4\n"
                  "  cbi diagram --preset table3.1 -o table3.1.png",
                  {}, {}, "name", "NAME"))
    return 0;
  // An unknown name is named as it was given: cbi presets NAME, or --name NAME.
  emit(vm, has(vm, "name") ? config::preset_table(get(vm, "name", ""), name_option(argc, argv))
                           : config::presets_table());
  return 0;
}

const cli::Registration kPresetsRegistration{
    {"presets", "list the named configurations (Tables 3.1/3.2, the thesis figures) in full",
     cmd_presets, 13}};

} // namespace cbi::cli
