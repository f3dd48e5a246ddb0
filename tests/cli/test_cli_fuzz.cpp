// A fuzz test of the option parsers: random argument lists (fixed seed, bounded in count and in
// time) for every command that finishes quickly on small inputs. Whatever the arguments, the
// binary must not crash, must exit 0, 1, 2 or 3, and a failure must be one line on stderr.
#include "cli_run.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <random>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using cbi::test::count_lines;

// Single-quoted for the shell.
std::string quoted(const std::string &s) {
  std::string q = "'";
  for (char c : s)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

} // namespace

TEST(Fuzz, RandomArgumentListsNeverCrashAndFailInOneLine) {
  const fs::path dir = fs::temp_directory_path() / ("cbi_fuzz_" + std::to_string(getpid()));
  fs::create_directories(dir);
  // Relative --output values ("abc") land in the scratch folder, not where the test was started.
  const fs::path started_in = fs::current_path();
  fs::current_path(dir);
  std::vector<std::string> commands = {"simulate", "mrc",   "analyze",    "tune",
                                       "devices",  "sweep", "sweep merge"};
  if (fs::exists(cbi::test::bin_dir() + "/cbi-viz")) // through cbi, as a user runs them
    commands.insert(commands.end(), {"diagram", "plot heatmap", "plot lines"});
  const std::vector<std::string> options = {"--workload",   "--size",       "--stencil",
                                            "--depth",      "--elem-bytes", "--boundary",
                                            "--writes",     "--order",      "--granularity",
                                            "--line-bytes", "--lines",      "--cache-bytes",
                                            "--ways",       "--policy",     "--sector-bytes",
                                            "--seed",       "--level",      "--format",
                                            "--output",     "-o",           "--sizes",
                                            "--verify",     "--threads",    "--no-simulate",
                                            "--orders",     "--device",     "--block",
                                            "--model",      "--jobs",       "--kernel",
                                            "--type",       "--cache",      "--backend",
                                            "--shard",      "--json",       "--list",
                                            "--help",       "--bogus",      "-x",
                                            "--",           "--size=8",     "--order=column:2"};
  const std::vector<std::string> values = {"",
                                           "0",
                                           "1",
                                           "2",
                                           "4",
                                           "8",
                                           "16",
                                           "-1",
                                           "8x8",
                                           "4x2x2",
                                           "16x",
                                           "x16",
                                           "3x3",
                                           "4x4",
                                           "3x7695460x429509837x5581",
                                           "99999999999999999999",
                                           "1KiB",
                                           "1k",
                                           "64KB",
                                           "2T",
                                           "abc",
                                           "linear",
                                           "column:4",
                                           "column:0",
                                           "tile:2x2",
                                           "zigzag:3",
                                           "linear,column:2",
                                           ",",
                                           "a,,b",
                                           "size=1KiB,line=16",
                                           "size=1KiB,lines=8",
                                           "lines=8,line=16",
                                           "line=16",
                                           "lru",
                                           "volta",
                                           "json",
                                           "csv",
                                           "markdown",
                                           "table",
                                           "-",
                                           (dir / "f.csv").string(),
                                           dir.string(),
                                           "/nonexistent-cbi/x.csv",
                                           "stencil",
                                           "matmul",
                                           "stencil3d",
                                           "h100",
                                           "tiny",
                                           "sim",
                                           "gpu",
                                           "0/2",
                                           "3/2",
                                           "l1-64k",
                                           "table3",
                                           "clamp",
                                           "none",
                                           "thread",
                                           "exact",
                                           "float",
                                           "half",
                                           "\xff\xfe",
                                           "--size",
                                           "%s%n",
                                           "d.png",
                                           (dir / "f.png").string(),
                                           "--bin",
                                           "4x4",
                                           "--max-px",
                                           "--preset",
                                           "fig3.1",
                                           "--input"};
  // A fixed seed, so that a failure reproduces; CBI_FUZZ_SEED explores others by hand.
  const char *seed = std::getenv("CBI_FUZZ_SEED");
  std::mt19937 rng(seed ? static_cast<unsigned>(std::strtoul(seed, nullptr, 10)) : 12u);
  auto pick = [&](const std::vector<std::string> &v) {
    return v[std::uniform_int_distribution<std::size_t>(0, v.size() - 1)(rng)];
  };
  const auto start = std::chrono::steady_clock::now();
  int runs = 0;
  int exits[4] = {0, 0, 0, 0};
  for (; runs < 300; ++runs) {
    if (std::chrono::steady_clock::now() - start > std::chrono::seconds(90))
      break;
    std::string args = pick(commands);
    if (args == "sweep") // small points only: the default grid is 1024^2
      args += " --size 16 --stencil 3x3";
    if (args == "diagram") // a diagram that renders in milliseconds
      args += " --size 16";
    const int n = std::uniform_int_distribution<int>(0, 6)(rng);
    for (int k = 0; k < n; ++k) {
      const int what = std::uniform_int_distribution<int>(0, 9)(rng);
      if (what < 6)
        args += " " + pick(options) + " " + quoted(pick(values));
      else if (what < 8)
        args += " " + pick(options);
      else
        args += " " + quoted(pick(values));
    }
    // A hung parser is a failure too: timeout(1) exits 124 (or 137 once killed).
    const cbi::test::CliRun r =
        cbi::test::run_program("cbi", args + " </dev/null", "timeout -k 2 20 ");
    SCOPED_TRACE("cbi " + args);
    ASSERT_GE(r.exit_code, 0) << "crashed: " << r.err;
    ASSERT_LE(r.exit_code, 3) << r.err;
    ++exits[r.exit_code];
    if (r.exit_code != 0) {
      EXPECT_EQ(count_lines(r.err), 1) << r.err;
    }
  }
  EXPECT_GE(runs, 50) << "too few runs in the time budget";
  // The lists reach both sides of the parsers: runs that work and runs that are refused.
  EXPECT_GT(exits[0], 0);
  EXPECT_GT(exits[2], 0);
  std::cout << runs << " runs: exit 0 " << exits[0] << ", 1 " << exits[1] << ", 2 " << exits[2]
            << ", 3 " << exits[3] << "\n";
  fs::current_path(started_in);
  fs::remove_all(dir);
}
