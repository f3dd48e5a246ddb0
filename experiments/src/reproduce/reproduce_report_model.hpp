// Section 7 of report.md: the GPU model (docs/gpu-model.md) beside the thesis's numbers
// (rtx2080super) and beside the measurements of the device that ran (issue 10 §3).
#pragma once

#include "reproduce.hpp"
#include "reproduce_judge.hpp"

#include <ostream>
#include <string>
#include <vector>

namespace cbi::reproduce {

// "**Verdict (who): word.** why", or nothing in a smoke test (--tiny), whose numbers mean nothing.
std::string verdict_text(bool smoke_test, const std::string &who, const Verdict &v);

// One row of the summary table at the top of report.md: a claim (with its section and figure),
// the thesis's number, ours, the verdict and one line of why.
struct SummaryRow {
  std::string claim, thesis,
      who; // who: the engine that tested it ("H100", "GPU model, rtx2080super")
  Verdict verdict;
};

// Writes section 7 from the model-* CSVs in o.out_dir; `device` names the GPU that measured. Adds
// its verdicts to `summary`.
void write_model_section(std::ostream &md, const Options &o, const std::string &device,
                         std::vector<SummaryRow> &summary);

} // namespace cbi::reproduce
