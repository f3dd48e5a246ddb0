// Section 7 of report.md: the GPU model (docs/gpu-model.md) beside the thesis's numbers
// (rtx2080super) and beside the measurements of the device that ran (issue 10 §3).
#pragma once

#include "reproduce.hpp"
#include "reproduce_judge.hpp"

#include <ostream>
#include <string>

namespace cbi::reproduce {

// "**Verdict (who): word.** why", or nothing in a smoke test (--tiny), whose numbers mean nothing.
std::string verdict_text(bool smoke_test, const std::string &who, const Verdict &v);

// Writes section 7 from the model-* CSVs in o.out_dir; `device` names the GPU that measured.
void write_model_section(std::ostream &md, const Options &o, const std::string &device);

} // namespace cbi::reproduce
