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
};

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
};
Verdict judge_counters(const CounterPair &c);

// Result 5: with double no order beats naive by 5% or more; `best_double_gain` < 0 = no runs.
Verdict judge_double(double best_double_gain);
// Result 5: the conclusion's "up to 8% / 28%" (stencil and matmul best gains).
Verdict judge_conclusion(double stencil_gain, double matmul_gain);

// Result 7 (the GPU model, issue 10): Spearman's rank correlation of two value sets over the
// widths both have at `block` (ties get their mean rank); NaN with fewer than three widths.
double spearman(const Values &a, const Values &b, int block, int *n = nullptr);
// The GPU model ranks the orders by time as `reference` does (the thesis's table or the GPU's
// measurements): holds at rho >= 0.8 (issue 10's target), partly holds at rho >= 0.5, else does not
// hold; the why names rho, N and both fastest orders.
Verdict judge_rank(const Values &model, const Values &reference, int block,
                   const std::string &reference_name);

// Result 6: the model's bounds hold and its estimates are within 25% of the simulation.
struct ModelRow {
  std::string workload, order, equation, kind; // kind: bound | estimate
  double model = 0;
  int64_t simulated = 0;
};
Verdict judge_model(const std::vector<ModelRow> &rows);

} // namespace cbi::reproduce
