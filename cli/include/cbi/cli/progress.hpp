// Progress on stderr for long runs: a bar with an ETA (sweeps, reproduce) and a thread counter
// (simulate). Redrawn in place on a terminal, otherwise one line per tenth and one a minute at
// least (logs, batch jobs).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

namespace cbi::cli {

class ProgressBar {
public:
  // `total_work` > 0 weights the ETA by work (e.g. simulated accesses) instead of by items.
  // `unit` names the items ("points", "orders"). `done_at_start`: the items already done when
  // the bar is made (one made at the first report): the rate counts only those done since.
  ProgressBar(int64_t total, bool enabled, double total_work = 0, std::string unit = "points",
              int64_t done_at_start = 0);
  // `done` of the total finished, `done_work` of the total work; `label` names the last one.
  void update(int64_t done, const std::string &label, double done_work = 0);
  // The total grows (cbi tune: a tie group that takes in every finalist replays more orders).
  // `total_work` > 0: the work grows with it (the ETA by work).
  void set_total(int64_t total, double total_work = 0) {
    m_total = std::max<int64_t>(total, 1);
    if (total_work > 0)
      m_total_work = total_work;
  }
  // Off a terminal, the longest a log goes without a line: a line per tenth alone left a run of
  // hours silent for tens of minutes, its first line's "ETA ?" unanswered.
  std::chrono::duration<double> quiet_max = std::chrono::seconds(60);
  // Off a terminal, the first line with an ETA comes as soon as the rate is known and this much
  // has passed: the first line's "ETA ?" waited a tenth or a minute for its answer (a diagram of
  // an hour said nothing of its length for its first minute).
  std::chrono::duration<double> first_eta_after = std::chrono::seconds(10);

private:
  int64_t m_total, m_done_at_start;
  double m_total_work;
  bool m_enabled, m_tty;
  std::chrono::steady_clock::time_point m_start, m_last_line;
  int m_last_tenth = -1;
  bool m_eta_said = false;
  std::size_t m_last_len = 0;
  std::string m_unit;
};

// "42s", "3m07s", "1h05m".
std::string format_duration(double seconds);

// A progress callback (done, total) for the simulator (sim::Progress): a ProgressBar of threads
// (or of `unit`), made at the first report (redrawn on a terminal, a line per tenth otherwise).
std::function<void(int64_t, int64_t)> thread_counter(const std::string &unit = "threads");

// A replay of more than 2^30 accesses takes minutes: its progress is shown unasked, also when
// stderr is not a terminal (a log, a batch job), as lines per tenth.
bool long_run(double accesses);

// For a long run (long_run), called once the command is accepted: one stderr line, after the
// notices held (say_notices), and before the first progress line, which may come late: how many
// accesses `who` ("cbi diagram") replays, how long that takes between `fast_rate` and `slow_rate`
// accesses a second (the sequential simulator's 500 and 50 million: docs/results/sim-speed.md,
// quiet and shared cores), that the progress line's ETA follows, and `shorter`, what makes it
// shorter ("a smaller --size").
void announce_long_run(const std::string &who, double accesses, const std::string &shorter,
                       double slow_rate = 5e7, double fast_rate = 5e8);

// "16m20s" below two days, then "46 days", then "63 years": an estimate's length.
std::string rough_duration(double seconds);

} // namespace cbi::cli
