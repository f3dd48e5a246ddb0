// Progress on stderr for long runs: a bar with an ETA (sweeps, reproduce) and a thread counter
// (simulate). Redrawn in place on a terminal, one line per tenth otherwise (logs, batch jobs).
#pragma once

#include "cbi/sim/simulate.hpp"

#include <chrono>
#include <cstdint>
#include <string>

namespace cbi::cli {

class ProgressBar {
public:
  ProgressBar(int64_t total, bool enabled);
  // `done` of the total finished; `label` names the last one.
  void update(int64_t done, const std::string &label);

private:
  int64_t m_total;
  bool m_enabled, m_tty;
  std::chrono::steady_clock::time_point m_start;
  int m_last_tenth = -1;
  std::size_t m_last_len = 0;
};

// "42s", "3m07s", "1h05m".
std::string format_duration(double seconds);

// A sim::Progress that redraws "  simulated D / T threads (P%)" on stderr.
sim::Progress thread_counter();

} // namespace cbi::cli
