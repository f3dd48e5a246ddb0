// Every `cbi` subcommand: one function each, one file each, registered in main.cpp.
#pragma once

namespace cbi::cli {

int cmd_simulate(int argc, char **argv);
int cmd_mrc(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_reproduce(int argc, char **argv);
int cmd_bench(int argc, char **argv);

} // namespace cbi::cli
