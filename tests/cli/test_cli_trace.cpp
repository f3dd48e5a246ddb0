// cbi trace and --trace through the commands (issue 19 §3): a written trace replays with the direct
// run's counts (simulate sequential and --model gpu, mrc); bad options and bad traces exit 2 with
// one line; a failed cbi trace leaves no file.
#include "cli_run.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <random>

namespace {

using namespace cbi::test;
namespace fs = std::filesystem;

std::string scratch(const std::string &name) { return scratch_dir("cbi_trace", name); }

nlohmann::json json_of(const std::string &args) {
  const CliRun r = cbi_run(args + " --format json");
  EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.err;
  return r.exit_code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json::object();
}

TEST(CliTrace, ReplayGivesTheDirectCountsOnRandomConfigurations) {
  const std::string dir = scratch("random");
  std::mt19937_64 rng(41);
  const char *workloads[] = {"stencil", "matmul", "stencil3d"};
  const char *orders[] = {"linear", "column:4", "column:32", "tile:4x4", "zigzag:8"};
  const char *caches[] = {"--line-bytes 16 --lines 24 --ways 0",
                          "--level size=1KiB,line=64,ways=2 --level size=8KiB,line=64,ways=4",
                          "--line-bytes 128 --cache-bytes 4KiB --sector-bytes 32"};
  for (int trial = 0; trial < 6; ++trial) {
    const std::string wl = workloads[rng() % 3];
    std::string opts = "--workload " + wl + " --size " + std::to_string(8 + rng() % 40) +
                       (wl == "stencil3d" ? "x12x3" : "") + " --order " + orders[rng() % 5];
    if (wl == "matmul")
      opts += " --depth " + std::to_string(1 + rng() % 16);
    const bool writes = rng() % 2;
    const std::string gpu_opts = opts; // the GPU model always stores, and refuses --writes
    if (writes)
      opts += " --writes";
    const std::string block = std::to_string(32 * (1 + rng() % 4));
    const std::string file = dir + "/t" + std::to_string(trial) + ".trace";
    const CliRun w = cbi_run("trace " + opts + " --block " + block + " -o " + file);
    ASSERT_EQ(w.exit_code, 0) << opts << "\n" << w.err;
    const std::string cache = caches[rng() % 3];
    const nlohmann::json direct = json_of("simulate " + opts + " " + cache);
    const nlohmann::json replay = json_of("simulate --trace " + file + " " + cache);
    ASSERT_EQ(direct["rows"].size(), replay["rows"].size()) << opts;
    for (std::size_t k = 0; k < direct["rows"].size(); ++k)
      for (const char *col : {"accesses", "hits", "misses", "evictions", "loads", "stores",
                              "store_misses", "bytes_fetched"})
        EXPECT_EQ(direct["rows"][k][col], replay["rows"][k][col]) << opts << " " << col;
    // The GPU model: its kernels store their output, so a trace with --writes matches. On the
    // a100 row: the h100 row's issue stage (oldest_issues_first) paces the built-in kernels by
    // their measured instruction counts, which a trace does not carry.
    if (writes) {
      const nlohmann::json g =
          json_of("simulate --model gpu --device a100 --block " + block + " " + gpu_opts);
      const nlohmann::json t = json_of("simulate --model gpu --device a100 --trace " + file);
      EXPECT_EQ(g["metrics"], t["metrics"]) << opts;
    }
    const std::string mrc = "--line-bytes 64 --sizes 1,4,16,64";
    const nlohmann::json dm = json_of("mrc " + opts + " " + mrc);
    const nlohmann::json tm = json_of("mrc --trace " + file + " " + mrc);
    for (std::size_t k = 0; k < dm["rows"].size(); ++k)
      EXPECT_EQ(dm["rows"][k]["misses"], tm["rows"][k]["misses"]) << opts;
  }
  fs::remove_all(dir);
}

TEST(CliTrace, AccelSimTraceReportsWhatIsNotModelled) {
  const std::string file = std::string(CBI_SOURCE_DIR) + "/tests/data/accel-sim/kernel-1.traceg";
  const CliRun r = cbi_run("simulate --trace " + file + " --line-bytes 128 --lines 64 --ways 0");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("accel-sim 4"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("not modelled: local 1, shared 1, atomic 1, other 0"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("skipped (no memory access): 3"), std::string::npos) << r.out;
  const nlohmann::json g = json_of("simulate --model gpu --trace " + file);
  EXPECT_EQ(g["metrics"]["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"], 4);
}

TEST(CliTrace, BadOptionsAndBadTracesExit2WithOneLineAndLeaveNoFile) {
  const std::string dir = scratch("bad");
  const std::string out = dir + "/never.trace";
  expect_usage_error("trace --size 16", "--output");
  expect_usage_error("trace --order diagonal -o " + out, "--order");
  expect_usage_error("trace --block 2000 -o " + out, "--block");
  expect_usage_error("trace --stencil 4x4 -o " + out, "--stencil");
  expect_usage_error("trace --size 16 extra -o " + out, "extra");
  EXPECT_FALSE(fs::exists(out));
  // A trace fixes the workload, its order and blocks.
  const std::string good = dir + "/good.trace";
  ASSERT_EQ(cbi_run("trace --size 16 -o " + good).exit_code, 0);
  expect_usage_error("simulate --trace " + good + " --order column:4", "--order");
  expect_usage_error("simulate --trace " + good + " --size 8", "--size");
  expect_usage_error("simulate --trace " + good + " --model gpu --block 64", "--block");
  expect_usage_error("simulate --trace " + good + " --writes", "--writes");
  expect_usage_error("simulate --trace " + good + " --workload matmul", "--workload");
  expect_usage_error("mrc --trace " + good + " --stencil 3x3", "--stencil");
  expect_usage_error("mrc --trace " + good + " --elem-bytes 8", "--elem-bytes");
  {
    // The refusal says what the trace fixes and what is allowed, in one line.
    const CliRun r = cbi_run("simulate --trace " + good + " --size 8");
    EXPECT_NE(r.err.find("a trace fixes the task grid; allowed: --trace without --size"),
              std::string::npos)
        << r.err;
    // The help names the options a trace fixes, from the same table.
    const CliRun h = cbi_run("simulate --help");
    EXPECT_NE(h.out.find("--trace fixes (leave out): --workload, --size, --stencil"),
              std::string::npos)
        << h.out;
  }
  // Truncated, foreign, missing: the file and the line in one line, no result on stdout.
  const std::string text = slurp(good);
  const std::string cut = dir + "/cut.trace";
  std::ofstream(cut) << text.substr(0, text.size() / 2);
  const std::string foreign = dir + "/foreign.trace";
  std::ofstream(foreign) << "P6\n1 1\n255\n";
  // A folder was "DIR:1: expected a readable file: Is a directory".
  expect_usage_error("simulate --trace " + dir,
                     "--trace: " + dir + ": is a folder; allowed: a trace file");
  for (const std::string &bad : {cut, foreign, dir + "/missing.trace"}) {
    const CliRun r = cbi_run("simulate --trace " + bad);
    EXPECT_EQ(r.exit_code, 2) << bad << "\n" << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(bad + ":"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "") << bad;
  }
  // --progress shows the checking pass too (thread blocks checked), then the replay's threads;
  // the pass showed nothing, a long silence on a large trace.
  {
    const CliRun p = cbi_run("simulate --trace " + good + " --progress --format json");
    EXPECT_EQ(p.exit_code, 0) << p.err;
    EXPECT_NE(p.err.find("1/1 thread blocks checked"), std::string::npos) << p.err;
    EXPECT_NE(p.err.find("256/256 threads"), std::string::npos) << p.err;
    const CliRun m = cbi_run("mrc --trace " + good + " --progress --format json");
    EXPECT_NE(m.err.find("1/1 thread blocks checked"), std::string::npos) << m.err;
    EXPECT_EQ(cbi_run("simulate --trace " + good + " --format json").err, "");
  }
  // A compressed trace is named as such, with the command that reads it back (it was "this file
  // is neither").
  const std::string gz = dir + "/good.trace.gz";
  std::ofstream(gz, std::ios::binary)
      << std::string("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10) << "compressed bytes";
  {
    const CliRun g = cbi_run("simulate --trace " + gz);
    EXPECT_EQ(g.exit_code, 2) << g.err;
    EXPECT_EQ(count_lines(g.err), 1) << g.err;
    EXPECT_NE(g.err.find(gz + ":1: expected a trace: 'cbi-trace 1' or an Accel-Sim kernel trace"),
              std::string::npos)
        << g.err;
    EXPECT_NE(
        g.err.find("this file is gzip-compressed; decompress it first (gunzip -k " + gz + ")"),
        std::string::npos)
        << g.err;
  }
  // A trace whose blocks are larger than the device runs: the trace is named, not --block (which
  // a trace refuses; the message named it).
  std::string big = text;
  big.replace(big.find("block 256,1,1"), 13, "block 4096,1,1");
  std::ofstream(dir + "/big.trace") << big;
  {
    const CliRun b = cbi_run("simulate --model gpu --trace " + dir + "/big.trace");
    EXPECT_EQ(b.exit_code, 2) << b.err;
    EXPECT_EQ(count_lines(b.err), 1) << b.err;
    EXPECT_NE(b.err.find("cbi simulate: --trace: " + dir +
                         "/big.trace: its thread blocks of 4096 threads do not run on h100; "
                         "allowed: blocks of 1..1024 threads"),
              std::string::npos)
        << b.err;
    EXPECT_EQ(b.out, "");
  }
  // Addresses spread over 2^46 bytes: mrc kept a slot per line of the span and was refused for
  // memory (naming --line-bytes); it keeps the lines touched now, and every size agrees with its
  // simulation.
  std::string spread = text;
  const std::size_t run = spread.find(" L 4 ") + 5;
  spread.replace(run, spread.find('\n', run) - run, "32@3f0000000000+4");
  std::ofstream(dir + "/spread.trace") << spread;
  const CliRun r = cbi_run("mrc --trace " + dir + "/spread.trace --verify --format csv");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(",true"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(",false"), std::string::npos) << r.out;
  fs::remove_all(dir);
}

} // namespace
