// Miss-ratio curves for fully associative LRU: one pass computes every access's stack (reuse)
// distance with a Fenwick tree over access times, O(log n) per access, which gives the miss count
// of every cache size at once (Mattson's inclusion property).
#pragma once

#include "cbi/sim/simulate.hpp"

#include <cstdint>
#include <vector>

namespace cbi::sim {

struct MissRatioCurve {
  int64_t unit_bytes = 0;
  int64_t accesses = 0;    // L1 accesses, as simulate() counts them
  int64_t cold_misses = 0; // first touch of each unit: misses at every size
  // distance_counts[d]: accesses whose unit was last used with exactly d other distinct units in
  // between. Such an access hits in every LRU cache of more than d lines.
  std::vector<int64_t> distance_counts;

  int64_t distinct_units() const { return cold_misses; }
  // Misses of a fully associative LRU cache of `capacity_lines` lines.
  int64_t misses(int64_t capacity_lines) const;
};

// The workload, order and granularity come from `c`; the unit is c.levels[0]'s line (sectored and
// multi-level configurations are rejected: the curve is for one unsectored LRU level).
MissRatioCurve miss_ratio_curve(const SimConfig &c, const Progress &progress = {});

// Whether the curve of `c` keeps its units in a table of the units touched (sparse) rather than a
// slot per unit of the addresses' span: where the span holds more units than the accesses can
// touch (a trace of two buffers far apart). The same curve either way.
bool mrc_sparse(const SimConfig &c);
// The most lines one access of `c` touches: its widest access (a workload's element, a trace's
// widest lane) straddling line boundaries from the last byte of a line.
int64_t mrc_lines_per_access(const SimConfig &c);
// The memory the curve of `c` needs, in bytes (for a check before the pass).
double mrc_state_bytes(const SimConfig &c);

} // namespace cbi::sim
