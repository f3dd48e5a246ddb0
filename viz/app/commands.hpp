// cbi-viz's subcommands, one file each; `cbi diagram|view|plot` execv this binary.
#pragma once

namespace cbi::viz_app {

int cmd_diagram(int argc, char **argv);
int cmd_view(int argc, char **argv);
int cmd_plot(int argc, char **argv);

} // namespace cbi::viz_app
