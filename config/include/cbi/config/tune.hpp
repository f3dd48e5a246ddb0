// cbi tune from parsed options to its result table: the options it declares, the search
// (sim::tune, cbi/sim/tune.hpp) and the ranking as a table. The command
// (experiments/src/commands/tune_cmd.cpp) and cbi.tune in Python both call these, so that a
// configuration ranks the same, with the same names, from either.
#pragma once

#include "cbi/cli/output.hpp"
#include "cbi/sim/tune.hpp"

#include <boost/program_options.hpp>

namespace cbi::config {

namespace po = boost::program_options;

// The options of cbi tune but the output options: the workload group, --device, --block,
// --orders, --search, --finalists, --jobs, --sample-sms, --progress.
void add_tune_options(po::options_description &desc);

// Where no search is asked for (--search, --finalists, --final-sms, --sample-sms), a search runs
// in full (every distinct order on the full device) where its full search is estimated to take at
// most kFullSearchSeconds of wall time on the threads it gets (sim::full_search_seconds: --jobs,
// else the host's cores), or where its orders replay at most kFullSearchAccesses accesses in all
// (the workload's, once per order): the short kernels on which stage one ranks far from the full
// device (a float 3x3 stencil on 4096^2: 46 s in full on one thread, and staged its pick and tie
// group change: docs/results/gpu-model-speed.md, 2026-11-29). Else it is staged. The README's
// matmul 1024 (19 orders, about 84 s in full on two cores, 45 G accesses) is staged.
inline constexpr double kFullSearchSeconds = 20.0;
inline constexpr double kFullSearchAccesses = 4294967296.0; // 2^32

// The search the parsed options ask for (refusing what does not apply: --orders for the tiled
// kernels, --finalists without the staged search, ...).
sim::TuneConfig tune_config(const po::variables_map &vm);

// A search that replays more than 2^30 accesses in all (the workload's, once per order), as
// simulate's long_run: its progress is shown unasked, as lines when stderr is not a terminal.
bool long_tune(const sim::TuneConfig &c);

// cbi tune's progress by work, not by orders: a stage-one order of a staged search replays its
// sampled SMs' share of the device (`stage_one_share`, 12 of 132 SMs on the h100), a stage-two
// order `stage_two_share` (1: the full device). Counted by orders, stage one's quick replays set
// the rate: "ETA 15s" at 19 of 23 orders, and then minutes of full-device replays (the README's
// matmul 1024 tune, 2026-11-29). report() takes each of sim::tune's reports.
class TuneWork {
public:
  // `finalists`: a staged search's (0 where the search is not staged).
  TuneWork(double stage_one_share, double stage_two_share, int64_t finalists)
      : m_share{stage_one_share, stage_two_share}, m_finalists(finalists) {}
  // sim::TuneProgress's done and total (orders).
  void report(int64_t done, int64_t total);
  double done() const { return m_done; }
  double total() const { return m_total; }

private:
  double m_share[2];
  int64_t m_finalists, m_stage_one = -1, m_last = 0;
  double m_done = 0, m_total = 0;
};

// Runs it and returns cbi tune's result: one row per order, fastest first, JSON {"ranking":
// [...]}. Progress goes to stderr when it is a terminal, with --progress, or for a long search
// (long_tune); `interrupt`, if given,
// is called on the calling thread as the search goes and may throw to stop it.
cli::Table tune_result(const po::variables_map &vm, const sim::Progress &interrupt = {});

// The ranking as a table.
cli::Table tune_table(const sim::TuneConfig &c, const sim::TuneResult &t);

} // namespace cbi::config
