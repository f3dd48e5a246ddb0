// The steps of `cbi reproduce` that its files share: plan (reproduce_plan.cpp), run
// (reproduce_run.cpp: the sweeps, cbi-viz, the model rows), judge (reproduce_judge.hpp) and report
// (reproduce_report.cpp).
#pragma once

#include "reproduce.hpp"
#include "reproduce_judge.hpp"

#include <string>
#include <vector>

namespace cbi::reproduce {

// `s` quoted for a POSIX shell where it needs it.
std::string shell_quote(const std::string &s);

// The `cbi sweep` command line that writes the same CSV as a part.
std::string sweep_command(const Part &p, const std::string &csv);

// What the run leaves for the report.
struct RunRecord {
  std::string date;   // UTC, of this run
  std::string device; // the GPU that measured, or "none (simulator only)"
  // When the GPU measured: this run's date, or, where points were resumed from the CSVs, a note
  // that they were measured before it (a CSV row carries no date).
  std::string gpu_when;
  std::vector<std::string> commands; // the sweep command of every part, in order
  std::vector<std::string> viz_log;  // one "- `cbi diagram ...`" line per drawing
  bool viz_built = false;            // cbi-viz was found next to this binary
  std::vector<ModelRow> model;       // the model against simulation (result 6)
  std::vector<std::string> failures; // every step that failed, with why; non-empty = exit 1
};

// Writes DIR/report.md from the CSVs in the folder and the run's record.
void write_report(const Options &o, const std::vector<Part> &parts, const RunRecord &r);

} // namespace cbi::reproduce
