// The thesis's analytical cache model (§3.3, §3.4, §4.3, §4.4) for a simulator configuration:
// required cache lines M_l, fetch bounds and estimates F, and the suggested column width c, plus
// plain-language notes on what the model cannot see (set conflicts, lines a window straddles,
// non-LRU policies, sectors). Symbols: I_w, I_h task grid; S_w, S_h stencil; D matmul depth;
// L elements per cache line; M_l cache capacity in lines; u bytes per element.
#pragma once

#include "cbi/sim/model_types.hpp"
#include "cbi/sim/simulate.hpp"

#include <string>
#include <vector>

namespace cbi::sim {

struct ModelReport {
  std::vector<LevelModel> levels;     // one per cache level, each modelled as if it stood alone
  int64_t suggested_column_width = 0; // §4.3 / §4.4 for L1 (0 if the model gives none)
};

// `active_threads` is t in §4.3's M_size = u(c + s_w)(s_h + ceil(t/c)); 1 is the single-threaded
// case the diagrams show.
ModelReport analyze_model(const SimConfig &c, int64_t active_threads = 1);

// For a set-associative level: the largest number of lines one stencil window column (the S_h rows
// at one x) or one matmul B column (the D rows at one x) maps to a single set. Above the way count
// the model's "resident" lines evict each other.
int64_t max_lines_per_set(const SimConfig &c, int level);

// "set conflicts: the 16384-byte row pitch maps 9 lines of one window column to a single set of 8
// ways" when max_lines_per_set exceeds the level's ways, else "": the warning that cbi simulate,
// cbi diagram and cbi analyze give when set conflicts dominate (the order cannot help there).
std::string set_conflict_warning(const SimConfig &c, int level);

} // namespace cbi::sim
