// End-to-end tests of the `cbi` binary: bad values exit 2 with one line naming the option and the
// allowed values, no partial output file is left behind, JSON carries the per-level counts, and the
// CSV output matches reviewed golden files line by line.
#include "cbi/sim/tune.hpp"
#include "cbi/sim/workloads.hpp"
#include "cli_run.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>

namespace {

using cbi::test::CliRun;
using cbi::test::slurp;

using cbi::test::cbi_run;
using cbi::test::count_lines;

} // namespace

TEST(Cli, BadValuesExitTwoWithOneLineNamingTheOption) {
  const std::pair<const char *, const char *> cases[] = {
      {"simulate --size 0x16", "--size"},
      {"simulate --size -4", "--size"},
      {"simulate --size abc", "--size"},
      {"simulate --stencil 4x4", "--stencil"},
      {"simulate --order column:0", "--order"},
      {"simulate --order tile:0", "--order"},
      {"simulate --order spiral", "--order"},
      {"simulate --policy mru", "--policy"},
      {"simulate --lines 24 --ways 5", "--ways"},
      {"simulate --cache-bytes 1000 --line-bytes 128", "--cache-bytes"},
      {"simulate --lines 1.5", "--lines"},
      {"simulate --elem-bytes 3", "--elem-bytes"},
      {"simulate --boundary wrap", "--boundary"},
      {"simulate --granularity warp", "--granularity"},
      {"simulate --format xml", "--format"},
      {"simulate --workload fft", "--workload"},
      {"simulate --level size=32KiB,line=128,ways=7", "--level"},
      {"simulate --level size=32KiB,bogus=1", "--level"},
      {"simulate --size 1000000000 --stencil 999x999", "--size"},
      {"simulate --line-bytes 6", "--line-bytes"},
      // sim names the field (cache.capacity); the CLI maps it to the option that set it.
      {"simulate --cache-bytes 3GiB --line-bytes 1", ": --cache-bytes:"},
      {"simulate --lines 64 --line-bytes 128 --sector-bytes 48", ": --sector-bytes:"},
      {"simulate --level size=1KiB,line=128,sector=48", ": --level:"},
      {"simulate --level size=96,line=6", ": --level:"}, // it named --line-bytes before
      {"simulate --nonsense", "--nonsense"},
      {"mrc --sizes 4,0", "--sizes"},
      {"analyze --threads x", "--threads"},
  };
  for (const auto &[args, option] : cases) {
    const CliRun r = cbi_run(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << args << "\n" << r.err;
    EXPECT_NE(r.err.find(option), std::string::npos) << args << "\n" << r.err;
    EXPECT_TRUE(r.out.empty()) << args;
  }
  // Messages say what is allowed.
  EXPECT_NE(cbi_run("simulate --policy mru").err.find("lru, fifo, random, volta"),
            std::string::npos);
  EXPECT_NE(cbi_run("simulate --order spiral").err.find("column:W"), std::string::npos);
}

// Where 0 is allowed (it means something), a bad count's message says so; an option that the
// chosen configuration does not use is refused, not ignored (--seed without a random policy).
TEST(Cli, CountsThatTakeZeroAndSeedsThatApplyNowhere) {
  const std::tuple<const char *, const char *, const char *> cases[] = {
      {"simulate --ways -1", "--ways", "0 (fully associative)"},
      {"simulate --level size=1KiB,line=16,ways=x", "--level", "fully associative"},
      {"simulate --model gpu --size 32 --sample-sms -1", "--sample-sms", "0 (all SMs)"},
      {"sweep --dry-run --shard -1/4", "--shard", "k/n"},
      {"simulate --order tile:3x", "--order", "'tile:3x'"},
      {"simulate --seed 5", "--seed", "--policy random or volta"},
      {"simulate --policy fifo --seed 5", "--seed", "fifo"},
      {"simulate --level size=1KiB,line=16 --seed 5", "--seed", "inside each --level"},
      {"simulate --level size=1KiB,line=16,seed=5", "--level", "policy=random"},
      {"analyze --seed 5", "--seed", "--policy random"},
      {"simulate --kernel cublas", "--kernel", "runs on a GPU only (cbi bench)"},
      {"simulate --kernel fft", "--kernel", "'fft' is not a kernel; allowed: stencil, matmul"},
      {"sweep --kernel cublas --size 64", "--kernel", "cublas runs on a GPU only"},
      {"sweep --kernel stencil,stencil-2d --size 64 --dry-run", "--kernel", "--backend gpu"},
  };
  for (const auto &[args, option, allowed] : cases) {
    const CliRun r = cbi_run(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << args << "\n" << r.err;
    EXPECT_NE(r.err.find(std::string(": ") + option + ":"), std::string::npos) << args << r.err;
    EXPECT_NE(r.err.find(allowed), std::string::npos) << args << "\n" << r.err;
  }
  // 0 means the full device, as leaving it out does; seeds still apply where they are drawn.
  EXPECT_EQ(cbi_run("simulate --model gpu --size 32 --sample-sms 0").exit_code, 0);
  // A device whose blocks are smaller than the default block runs at its largest block, not
  // refused for a --block the user never gave.
  EXPECT_EQ(cbi_run("simulate --model gpu --device tiny --size 8").exit_code, 0);
  EXPECT_EQ(cbi_run("tune --device tiny --size 8 --orders linear,column:4").exit_code, 0);
  EXPECT_EQ(cbi_run("simulate --model gpu --device tiny --size 8 --block 2").exit_code, 2);
  EXPECT_EQ(cbi_run("simulate --policy random --seed 5").exit_code, 0);
  EXPECT_EQ(cbi_run("simulate --level size=1KiB,line=16,policy=volta,seed=5").exit_code, 0);
}

TEST(Cli, UnknownCommandAndNoArgumentsAreUsageErrors) {
  EXPECT_EQ(cbi_run("frobnicate").exit_code, 2);
  // No command: the help, as a usage error's text, on stderr (stdout empty: it was the help, with
  // exit 2); asked for with --help, the same help on stdout and exit 0.
  const CliRun none = cbi_run("");
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("simulate"), std::string::npos) << none.err;
  EXPECT_EQ(none.out, "");
  for (const char *asked : {"--help", "help", "help help", "help --help", "-h help"}) {
    const CliRun help = cbi_run(asked);
    EXPECT_EQ(help.exit_code, 0) << asked << "\n" << help.err; // help help: "unexpected '--help'"
    EXPECT_NE(help.out.find("simulate"), std::string::npos) << asked << "\n" << help.out;
    EXPECT_EQ(help.err, "") << asked;
  }
  // cbi-viz alike (its help went to stdout with exit 2).
  if (std::filesystem::exists(cbi::test::bin_dir() + "/cbi-viz")) {
    const CliRun viz = cbi::test::run_program("cbi-viz", "");
    EXPECT_EQ(viz.exit_code, 2);
    EXPECT_EQ(viz.out, "");
    EXPECT_NE(viz.err.find("diagram"), std::string::npos) << viz.err;
  }
}

TEST(Cli, NoPartialOutputFileOnBadInput) {
  const std::string path = "/tmp/cbi_cli_test_output.json";
  std::remove(path.c_str());
  EXPECT_EQ(cbi_run("simulate --format json --output " + path + " --ways 7").exit_code, 2);
  EXPECT_FALSE(std::ifstream(path).good());
  EXPECT_EQ(cbi_run("simulate --format json --output " + path).exit_code, 0);
  const std::string json = slurp(path);
  EXPECT_NE(json.find("\"misses\": 316"), std::string::npos) << json;
  std::remove(path.c_str());
}

TEST(Cli, JsonCarriesPerLevelCounts) {
  const CliRun r = cbi_run("simulate --size 64 --stencil 5x5 --level size=1KiB,line=64,ways=4 "
                           "--level size=16KiB,line=64,ways=8 --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char *key :
       {"\"accesses\"", "\"hits\"", "\"misses\"", "\"fetches\"", "\"evictions\""}) {
    std::size_t at = 0;
    int found = 0;
    while ((at = r.out.find(key, at)) != std::string::npos) {
      ++found;
      ++at;
    }
    EXPECT_EQ(found, 2) << key; // once per level
  }
  // L2 sees exactly L1's misses.
  const auto l1_misses = r.out.find("\"misses\": ");
  const auto l2_accesses = r.out.find("\"accesses\": ", r.out.find("\"level\": \"L2\""));
  ASSERT_NE(l1_misses, std::string::npos);
  ASSERT_NE(l2_accesses, std::string::npos);
  EXPECT_EQ(std::stoll(r.out.substr(l1_misses + 10)), std::stoll(r.out.substr(l2_accesses + 12)));
}

TEST(Cli, HelpTeachesWithExamples) {
  for (const char *cmd : {"simulate", "mrc", "analyze"}) {
    const CliRun r = cbi_run(std::string(cmd) + " --help");
    EXPECT_EQ(r.exit_code, 0) << cmd;
    EXPECT_NE(r.out.find("Examples:"), std::string::npos) << cmd;
    EXPECT_NE(r.out.find("--order"), std::string::npos) << cmd;
  }
}

// cbi tune --help quotes the tie tolerances cbi tune uses (its workloads' validated_time_error), so
// that a refit cannot leave the help behind (it said 11.0% for matmul after the refit to 8.7%).
TEST(Cli, TuneHelpQuotesTheTieTolerancesInUse) {
  const CliRun help = cbi_run("tune --help");
  char matmul[32];
  std::snprintf(matmul, sizeof matmul, "%.1f%% for matmul",
                100.0 * std::expm1(cbi::sim::validated_time_error(
                            cbi::sim::kind_of<cbi::sim::MatmulWorkload>())));
  EXPECT_NE(help.out.find(matmul), std::string::npos) << help.out;
}

// cbi sweep merge writes CSV without --format, and its help says so (it said "table (default)").
TEST(Cli, SweepMergeHelpNamesItsDefaultFormat) {
  const CliRun help = cbi_run("sweep merge --help");
  EXPECT_NE(help.out.find("csv (default)"), std::string::npos) << help.out;
  EXPECT_EQ(help.out.find("table (default)"), std::string::npos) << help.out;
  EXPECT_NE(cbi_run("simulate --help").out.find("table (default)"), std::string::npos);
}

TEST(Cli, CsvMatchesGoldenFiles) {
  // Reviewed outputs: a format or count change shows up here as a visible diff.
  const char *source = std::getenv("CBI_SOURCE") ? std::getenv("CBI_SOURCE") : CBI_SOURCE_DIR;
  const std::pair<const char *, const char *> cases[] = {
      {"simulate --format csv", "simulate_table31.csv"},
      {"simulate --order column:8 --format csv", "simulate_table31_column8.csv"},
      {"simulate --workload matmul --order column:8 --format csv", "simulate_table32_column8.csv"},
      {"simulate --writes --classify-misses --level lines=24,line=16,ways=4 "
       "--level lines=16,line=64,ways=2 --format csv",
       "simulate_table31_writes_classified.csv"},
      {"mrc --size 32 --stencil 3x3 --sizes 1,4,16,64 --format csv", "mrc_small.csv"},
      {"analyze --size 1024 --stencil 9x9 --line-bytes 128 --cache-bytes 32KiB --ways 8 --format "
       "csv",
       "analyze_issue_example.csv"},
  };
  for (const auto &[args, file] : cases) {
    const CliRun r = cbi_run(args);
    ASSERT_EQ(r.exit_code, 0) << args << r.err;
    EXPECT_EQ(r.out, slurp(std::string(source) + "/tests/cli/golden/" + file)) << args;
  }
}

TEST(Cli, NdSizesFoldIntoTheVerticalDimension) {
  // §4.1.2: a 16x4x4 task grid folds into 16x16, so it simulates exactly as --size 16x16 does; the
  // first extent stays horizontal, so 4x4x16 (= 4x64) is a different trace.
  const CliRun folded = cbi_run("simulate --size 16x4x4 --order column:8 --format csv");
  const CliRun flat = cbi_run("simulate --size 16x16 --order column:8 --format csv");
  const CliRun other = cbi_run("simulate --size 4x4x16 --order column:8 --format csv");
  ASSERT_EQ(folded.exit_code, 0) << folded.err;
  ASSERT_EQ(other.exit_code, 0) << other.err;
  EXPECT_EQ(folded.out, flat.out);
  EXPECT_NE(folded.out, other.out);
  const CliRun bad = cbi_run("simulate --size 16x0x4");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--size"), std::string::npos) << bad.err;
}

TEST(Cli, WorkloadsComeFromTheRegistry) {
  // The 3-D 7-point stencil is reachable from the CLI without a CLI edit: --workload lists the
  // registered workloads, and a volume WxHxP replays 7 loads per task.
  const CliRun r = cbi_run("simulate --workload stencil3d --size 16x8x4 --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("," + std::to_string(7 * 16 * 8 * 4) + ","), std::string::npos) << r.out;
  const CliRun flat = cbi_run("simulate --workload stencil3d --size 16x8");
  EXPECT_EQ(flat.exit_code, 2);
  EXPECT_NE(flat.err.find("--size"), std::string::npos) << flat.err;
  const CliRun bad = cbi_run("simulate --workload fft");
  EXPECT_NE(bad.err.find("stencil3d"), std::string::npos) << "allowed names come from sim";
}
