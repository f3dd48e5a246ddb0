// Issue 12 item 12: an allocation that cannot fit is refused before it is tried, with exit 2, one
// line naming the option to change and how much memory the configuration needs, and no output
// file; for every command that allocates a cache by configuration.
#include "cbi/cli/command.hpp"
#include "cbi/config/options.hpp"
#include "cbi/sim/simulate.hpp"
#include "cli_run.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

using namespace cbi;

// --jobs's default for the GPU model (simulate, tune): the cores less the other runnable tasks.
TEST(Cores, IdleCoresAreTheCoresLessTheOtherRunnableTasks) {
  EXPECT_EQ(cli::idle_cores_of(16, "0.50 0.40 0.30 1/345 999"), 16); // this process alone
  EXPECT_EQ(cli::idle_cores_of(16, "9.00 9.00 4.00 7/345 999"), 10);
  EXPECT_EQ(cli::idle_cores_of(16, "15.0 9.00 4.00 16/345 999"), 1);
  EXPECT_EQ(cli::idle_cores_of(2, "30.0 30.0 30.0 40/345 999"), 1); // never below one
  EXPECT_EQ(cli::idle_cores_of(8, ""), 8);                          // unknown: all cores
  EXPECT_EQ(cli::idle_cores_of(8, "1 2 3 x/y 4"), 8);
  EXPECT_EQ(cli::idle_cores_of(0, "0.1 0.1 0.1 1/10 5"), 1);
}

// --jobs above the cores takes the cores, said in one line naming --jobs; at or below, as given.
TEST(Cores, JobsAboveTheCoresTakeTheCores) {
  std::ostringstream err;
  EXPECT_EQ(cli::jobs_within_cores_of(2, 2, err), 2);
  EXPECT_EQ(cli::jobs_within_cores_of(1, 16, err), 1);
  EXPECT_EQ(cli::jobs_within_cores_of(1024, 0, err), 1024); // cores unknown: as given
  EXPECT_EQ(err.str(), "");
  EXPECT_EQ(cli::jobs_within_cores_of(1024, 2, err), 2);
  EXPECT_EQ(err.str(), "cbi: --jobs 1024 is more than the 2 cores here; using 2\n");
}

TEST(Memory, EstimateCountsEveryLevel) {
  sim::CacheConfig full; // fully associative
  full.capacity_lines = 10'000'000;
  sim::CacheConfig sets = full;
  sets.ways = 8;
  EXPECT_GE(sim::state_bytes(full), 56.0 * 10'000'000); // measured: 56 B a line at 10 M lines
  EXPECT_GE(sim::state_bytes(sets), 12.0 * 10'000'000); // 32- and 64-bit tags while it widens
  sim::SimConfig two;
  two.levels = {full, sets};
  EXPECT_EQ(sim::state_bytes(two), sim::state_bytes(full) + sim::state_bytes(sets));
}

// Issue 21 §3: --classify-misses keeps a fully associative shadow of every level and a bitmap of
// the units seen; the estimate counts both, so a set-associative cache that fits alone can be
// refused with them.
TEST(Memory, EstimateCountsTheClassifiersShadowAndBitmap) {
  sim::SimConfig c;
  c.workload.width = c.workload.height = 4096;
  c.levels[0].capacity_lines = 1 << 20;
  c.levels[0].ways = 8;
  const double plain = sim::state_bytes(c);
  c.classify_misses = true;
  const double classified = sim::state_bytes(c);
  sim::CacheConfig shadow = c.levels[0];
  shadow.ways = 0;
  // The shadow alone (fully associative, hashed) is larger than the 8-way cache.
  EXPECT_GE(classified - plain, sim::state_bytes(shadow));
  EXPECT_GT(sim::state_bytes(shadow), plain);
  // The bitmap: a bit for each 16-byte unit of the two 4096^2 float arrays, at least.
  EXPECT_GE(classified - plain - sim::state_bytes(shadow),
            double(c.workload.footprint_bytes()) / 16 / 8);
}

// Peak resident memory (KiB) of `cbi args...`, run as a child and read with wait4's rusage; -1
// when it did not exit 0.
long peak_rss_kib(const std::vector<std::string> &args) {
  const std::string cbi = test::bin_dir() + "/cbi";
  std::vector<char *> argv = {const_cast<char *>(cbi.c_str())};
  for (const std::string &a : args)
    argv.push_back(const_cast<char *>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    if (!freopen("/dev/null", "w", stdout))
      _exit(126);
    execv(cbi.c_str(), argv.data());
    _exit(127);
  }
  int status = 0;
  struct rusage usage {};
  if (pid < 0 || wait4(pid, &status, 0, &usage) != pid || !WIFEXITED(status) ||
      WEXITSTATUS(status) != 0)
    return -1;
  return usage.ru_maxrss;
}

// A run's peak RSS varies by about 0.3 MB from one run to the next (8288-8592 KiB for the same
// 24-line run, 2026-11-29, more under load), as much as the estimate's margin over a cache of
// 70 MB: the largest of `runs` runs (`largest`) or the least, so that the noise does not count
// against the estimate.
long peak_rss_kib_of(const std::vector<std::string> &args, int runs, bool largest) {
  long pick = -1;
  for (int k = 0; k < runs; ++k) {
    const long peak = peak_rss_kib(args);
    if (peak < 0)
      return -1;
    pick = pick < 0 ? peak : largest ? std::max(pick, peak) : std::min(pick, peak);
  }
  return pick;
}

// The estimate against the memory a run really takes: peak RSS (the least of two runs) minus that
// of the same run with a 24-line cache (the largest of three), for the three engine layouts (hash
// index, sets of 4-way groups, direct-mapped) with and without the 3C shadow. It must cover the
// measurement, and not by more than 4x (the 64-bit tags it counts appear only when line indices
// outgrow 32 bits).
TEST(Memory, EstimateCoversTheMeasuredPeakRss) {
  const std::vector<std::string> base = {"simulate", "--size", "64", "--stencil", "3x3"};
  std::vector<std::string> small = base;
  small.insert(small.end(), {"--lines", "24"});
  const long baseline = peak_rss_kib_of(small, 3, true);
  ASSERT_GT(baseline, 0);
  struct Case {
    int64_t lines, ways;
    bool classify;
  };
  for (const Case k : {Case{1 << 21, 0, false}, Case{1 << 21, 0, true}, Case{1 << 22, 8, false},
                       Case{1 << 22, 8, true}, Case{1 << 22, 1, false}}) {
    std::vector<std::string> args = base;
    args.insert(args.end(), {"--lines", std::to_string(k.lines), "--ways", std::to_string(k.ways)});
    if (k.classify)
      args.push_back("--classify-misses");
    SCOPED_TRACE(k.lines);
    SCOPED_TRACE(k.ways);
    SCOPED_TRACE(k.classify);
    const long peak = peak_rss_kib_of(args, 2, false);
    ASSERT_GT(peak, 0);
    sim::SimConfig c;
    c.workload.width = c.workload.height = 64;
    c.workload.stencil_w = c.workload.stencil_h = 3;
    c.levels[0].capacity_lines = k.lines;
    c.levels[0].ways = k.ways;
    c.classify_misses = k.classify;
    const double estimate = sim::state_bytes(c);
    const double measured = double(peak - baseline) * 1024;
    EXPECT_GE(estimate, measured) << "estimate " << estimate << " B, measured " << measured;
    EXPECT_LE(estimate, 4 * measured + (16 << 20))
        << "estimate " << estimate << " B, measured " << measured;
  }
}

// The shadow tips the check: an 8-way cache that fits in memory alone is refused, before it is
// allocated, once --classify-misses adds its fully associative shadow.
TEST(Memory, ClassifyMissesThatCannotFitIsExit2) {
  const double available = double(cli::available_memory_bytes());
  if (available <= 0)
    GTEST_SKIP() << "no MemAvailable on this machine";
  sim::SimConfig c;
  c.workload.width = c.workload.height = 64;
  c.levels[0].ways = 8;
  int64_t lines = 0;
  for (int64_t l = 1 << 20; l <= (int64_t{1} << 34) && !lines; l *= 2) {
    c.levels[0].capacity_lines = l;
    c.classify_misses = false;
    const double alone = sim::state_bytes(c);
    c.classify_misses = true;
    if (alone < 0.6 * available && sim::state_bytes(c) > 1.4 * available)
      lines = l;
  }
  if (!lines)
    GTEST_SKIP() << "no power-of-two cache fits alone and not with its shadow here";
  const test::CliRun r = test::cbi_run("simulate --size 64 --ways 8 --classify-misses --lines " +
                                       std::to_string(lines));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(test::count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("--lines: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("3C shadow"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("no --classify-misses"), std::string::npos) << r.err;
}

TEST(Memory, TooLargeACacheIsExit2NamingItsOption) {
  // 2^31 fully associative lines need about 82 GiB of engine state (17 B a line, 12 B a bucket).
  if (cli::available_memory_bytes() > (int64_t{80} << 30))
    GTEST_SKIP() << "this machine could hold the cache; nothing to refuse";
  const std::string png = "/tmp/cbi_test_memory.png", csv = "/tmp/cbi_test_memory.csv";
  std::filesystem::remove(png);
  std::filesystem::remove(csv);
  const std::pair<std::string, std::string> cases[] = {
      {"simulate --lines 2147483648", "--lines"},
      {"simulate --level size=32GiB,line=16", "--level"},
      {"analyze --cache-bytes 32GiB", "--cache-bytes"},
      {"diagram --lines 2147483648 -o " + png, "--lines"},
      {"sweep --size 64 --cache lines=2147483648 -o " + csv, "--cache"},
  };
  for (const auto &[args, option] : cases) {
    SCOPED_TRACE(args);
    const test::CliRun r = test::cbi_run(args);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(test::count_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(option + ": "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("needs about 82.0 GiB"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(" GiB of memory"), std::string::npos) << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists(png));
  EXPECT_FALSE(std::filesystem::exists(csv));
}

// The memory available is MemAvailable at most what each limit on the process leaves: a cgroup's
// (a container's, a Slurm job's) or the address space's (ulimit -v), less what it uses already.
TEST(Memory, AvailableIsAtMostWhatEachLimitLeaves) {
  const int64_t gib = int64_t{1} << 30;
  EXPECT_EQ(cli::available_memory_of(20 * gib, {}), 20 * gib);
  EXPECT_EQ(cli::available_memory_of(20 * gib, {{8 * gib, gib}}), 7 * gib);
  EXPECT_EQ(cli::available_memory_of(20 * gib, {{-1, 5}, {16 * gib, 12 * gib}, {64 * gib, 0}}),
            4 * gib); // the tightest of them; -1 is no limit
  EXPECT_EQ(cli::available_memory_of(20 * gib, {{gib, 2 * gib}}), 0); // used up already
  EXPECT_EQ(cli::available_memory_of(-1, {{8 * gib, gib}}), 7 * gib); // no /proc/meminfo
  EXPECT_EQ(cli::available_memory_of(-1, {}), -1);
}

// /proc/self/cgroup names the memory cgroups: v1's memory controller (on its own or beside
// others) and v2's unified tree, each folder from the process's own up to the root.
TEST(Memory, TheMemoryCgroupsAreTheOwnAndEveryOneAbove) {
  const auto files = cli::memory_cgroup_files("9:name=systemd:/\n8:pids:/\n"
                                              "4:cpu,memory:/job/task7\n0::/slurm/job1/\n",
                                              "/cg");
  std::vector<std::string> limits, usages;
  for (const cli::CgroupFiles &f : files) {
    limits.push_back(f.limit);
    usages.push_back(f.usage);
  }
  EXPECT_EQ(limits, (std::vector<std::string>{
                        "/cg/memory/job/task7/memory.limit_in_bytes",
                        "/cg/memory/job/memory.limit_in_bytes", "/cg/memory/memory.limit_in_bytes",
                        "/cg/slurm/job1/memory.max", "/cg/slurm/memory.max", "/cg/memory.max"}));
  EXPECT_EQ(usages[0], "/cg/memory/job/task7/memory.usage_in_bytes");
  EXPECT_EQ(usages[3], "/cg/slurm/job1/memory.current");
  EXPECT_EQ(files[0].stat, "/cg/memory/job/task7/memory.stat");
  EXPECT_EQ(files[0].reclaimable, "total_inactive_file");
  EXPECT_EQ(files[3].reclaimable, "inactive_file");
  EXPECT_TRUE(cli::memory_cgroup_files("5:pids:/x\n", "/cg").empty()); // no memory controller
}

// Under ulimit -v a cache larger than the limit was allocated and failed as "out of memory",
// exit 1, naming --size and the host's free memory: now exit 2 naming --cache-bytes, before it
// is allocated.
TEST(Memory, ACacheBeyondTheAddressSpaceLimitIsExit2NamingItsOption) {
  // 64 Mi fully associative 16 B lines: about 2.6 GiB of state, under a 1 GiB address space.
  const test::CliRun r = test::run_program("cbi", "simulate --cache-bytes 1GiB --line-bytes 16",
                                           "ulimit -v 1048576 && ");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(test::count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("cbi simulate: --cache-bytes: the simulated cache state needs about 2.6 "
                       "GiB of memory"),
            std::string::npos)
      << r.err;
}

} // namespace
