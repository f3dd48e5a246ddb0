// The verdicts of `cbi reproduce`: each of the thesis's results judged by a fixed rule from the
// numbers (ours or the thesis's own, thesis.hpp), never by hand.
#pragma once

#include "reproduce_data.hpp"

#include <string>
#include <utility>
#include <vector>

namespace cbi::reproduce {

struct Verdict {
  std::string word; // holds | partly holds | does not hold | not testable (why says why)
  std::string why;
  // The numbers the verdict rests on, in a few words, for the report's summary table
  // ("6 of 12 blocks; 8 of 12"); empty when not testable.
  std::string measure;
  // One line of why, for the summary table ("32 beat its neighbours in 6 of 12 blocks only").
  std::string brief;
};

// Margins that are ties. Measured times: twice `cbi bench`'s default noise target (0.5%). The GPU
// model's times: its typical error on the H100, 8.5% (mean |ln(predicted / measured)| 0.082 over
// the tuned set, docs/results/gpu-model-h100.md).
constexpr double kMeasuredTie = 0.01;
constexpr double kModelTie = 0.085;

// The claim that `width` is the fastest order (Fig 5.1a: column:32), over every block: holds when
// its fastest run is the fastest of all or within `tie` of it (a tie), else does not hold; the why
// names the fastest order, block and time and the margin. `what` names the data ("measured").
Verdict judge_fastest(const Values &v, int width, double tie, const std::string &what);

// Result 1 (Figs 5.1a, 5.2): width 32 beats 30, 31, 33, 34 and widths 4, 8 are far slower than
// naive, per block. `what` names the quantity ("time", "traffic").
Verdict judge_multiples(const std::vector<std::pair<std::string, const Values *>> &data,
                        const std::string &what);
// Result 2 (Fig 5.1b): a width of 32-128 beats naive matmul.
Verdict judge_matmul(const Values &v, const std::string &what);
// Result 3 (Figs 5.3, 5.4): stencil gains shrink and matmul gains grow with N.
Verdict judge_trend(const Values &stencil, const Values &matmul, const std::string &what);

// Result 4 (§5.2): naive -> column 32 counters.
struct CounterPair {
  double l1_naive, l1_column32, bytes_naive, bytes_column32, l2_naive, l2_column32;
  // The L1 rates count load sectors only: a model CSV written before the all-sector column.
  bool l1_load_only = false;
};
Verdict judge_counters(const CounterPair &c);

// Result 5: with double no order beats naive by 5% or more; `best_double_gain` < 0 = no runs.
Verdict judge_double(double best_double_gain);
// Result 5: the conclusion's "up to 8% / 28%" (stencil and matmul best gains).
Verdict judge_conclusion(double stencil_gain, double matmul_gain);

// Result 7 (the GPU model, issue 10): Spearman's rank correlation of two value sets over the
// widths both have at `block` (ties get their mean rank); NaN with fewer than three widths.
double spearman(const Values &a, const Values &b, int block, int *n = nullptr);
// The GPU model against `reference` (the thesis's table or the GPU's measurements) at `block`,
// judged on the claim itself, that the reference's fastest order is the fastest: it does not hold
// when the model puts another order ahead of it by more than kModelTie; when the model agrees
// (the same order, or a tie), it holds if the ranks agree too (Spearman's rho >= 0.8, issue 10's
// target) and partly holds otherwise. A rank correlation alone never makes it hold.
Verdict judge_rank(const Values &model, const Values &reference, int block,
                   const std::string &reference_name);
// A verdict of the GPU model on a device whose row is not validated on that GPU (the thesis's RTX
// 2080 Super): the model can neither confirm nor overturn a measurement there, so any verdict
// but "not testable" becomes "not testable", saying `unvalidated` (why) and what the model says.
Verdict unvalidated_model(const Verdict &v, const std::string &unvalidated);

// Result 6: the model's bounds hold and its estimates are within 25% of the simulation.
struct ModelRow {
  std::string workload, order, equation, kind; // kind: bound | estimate
  double model = 0;
  int64_t simulated = 0;
};
Verdict judge_model(const std::vector<ModelRow> &rows);

} // namespace cbi::reproduce
