// `cbi reproduce`: runs the thesis's experiments (ch. 5) as sweeps into one folder and writes
// report.md, which takes each of the thesis's results in turn: the thesis's number, ours (device,
// date, command) and a verdict computed from the data.
#pragma once

#include "sweep.hpp"

#include <string>
#include <vector>

namespace cbi::reproduce {

struct Options {
  std::string out_dir;
  std::string out_option = "--output"; // as given: -o/--output, or the old spelling --out
  bool sim_only = false;
  bool tiny = false;             // CI smoke scale: every size divided down, numbers not meaningful
  std::vector<std::string> only; // part names to run (empty = all)
  int jobs = 0;
  bool progress = false;
  std::string command;  // the command line, for the report
  std::string self_dir; // folder of the running cbi binary (cbi-viz is looked up there)
};

// One experiment: a grid run on a backend into DIR/<name>.csv.
struct Part {
  std::string name; // file stem and --only name: "gpu-fig5.1a", "sim-fig5.1a", ...
  sweep::Grid grid;
  sweep::Backends backends;
  std::string scale_note; // how it differs from the thesis's setup
  // The GPU model on the device that measured (its row found from the GPU's name at run time).
  bool model_on_measured_device = false;
};

// The parts a run takes, in order (GPU parts first unless sim_only).
std::vector<Part> plan(const Options &o);

// Runs everything and writes the report; returns the process exit code.
int run(const Options &o);

} // namespace cbi::reproduce
