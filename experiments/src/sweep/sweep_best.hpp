// The end of `cbi sweep`: the best order of each group of points (same axes but the order), with
// its margin over the next, and ties named as ties.
#pragma once

#include "cbi/cli/output.hpp"

#include <string>
#include <vector>

namespace cbi::sweep {

// One line per group of `t` (a sweep CSV read back, or the rows of this run) with two or more
// orders: "best: <group>: column:32 (sim_l1_misses 1,234), 12.5% below column:8" or
// "tie: <group>: column:8 = column:32 (...)". The value is gpu_time_ms where measured (a tie
// within twice the worse noise, at least 1%), else predicted_ms (the GPU model: within 8.5%, its
// typical error), else sim_l1_misses (exact counts: a tie only when equal). The group names only
// the axes that vary between groups. At most `limit` lines, then one saying how many more.
std::vector<std::string> best_orders(const cli::Table &t, std::size_t limit = 20);

} // namespace cbi::sweep
