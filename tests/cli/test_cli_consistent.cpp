// One option, one range and one message in every command that has it: what a GPU-performance
// researcher tried first and found spelled differently from one command to the next.
#include "cli_run.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace {

namespace fs = std::filesystem;
using cbi::test::cbi_run;
using cbi::test::CliRun;
using cbi::test::expect_usage_error;

std::string scratch(const std::string &name) { return cbi::test::scratch_dir("cbi_cons", name); }

} // namespace

// --jobs was capped at 256 in tune and 1024 in simulate, sweep and reproduce: one cap now, said in
// the same words by every command, and a count under it accepted by every one.
TEST(Consistent, JobsHasOneCapAndOneMessage) {
  const std::string said = "--jobs: '1025' is out of range; allowed: an integer from 1 to 1024";
  for (const char *args : {"tune --size 16 --jobs 1025", "simulate --model gpu --jobs 1025",
                           "sweep --dry-run --jobs 1025", "reproduce --tiny --jobs 1025 -o x"})
    expect_usage_error(args, said);
  const CliRun tune = cbi_run("tune --size 16 --orders linear --jobs 300 --format json");
  EXPECT_EQ(tune.exit_code, 0) << tune.err;
}

// sweep and bench took blocks of 32 to 1024 threads where tune, simulate and trace took 1 to 1024,
// so `sweep --model gpu --device tiny` (one thread an SM) could not run at any --block. One range
// now, 1 to 1024, said in the same words; bench says why a block under a warp is allowed.
TEST(Consistent, BlockTakesOneTo1024InEveryCommand) {
  const CliRun tiny =
      cbi_run("sweep --model gpu --device tiny --block 1 --size 8 --stencil 3x3 --order linear");
  ASSERT_EQ(tiny.exit_code, 0) << tiny.err;
  EXPECT_NE(tiny.out.find(",8,3x3,,float,1,linear,"), std::string::npos) << tiny.out;
  const std::string said = "--block: '1025' is out of range; allowed: an integer from 1 to 1024";
  for (const char *args :
       {"sweep --model gpu --block 1025 --dry-run", "tune --size 16 --block 1025",
        "simulate --model gpu --block 1025", "bench --block 1025", "trace --block 1025 -o t.trace"})
    expect_usage_error(args, said);
  // bench --block 2000 was told "in '32x2000', '2000' is out of range", a spelling never given.
  const CliRun bench = cbi_run("bench --block 2000");
  EXPECT_EQ(bench.err.find("32x"), std::string::npos) << bench.err;
  // WxH past 1024 threads: the kernel's own line, naming --block and the reason.
  expect_usage_error("bench --kernel stencil-2d --block 64x32",
                     "--block: 2048 threads is not allowed; allowed: 1 to 1024 (CUDA's largest "
                     "block is 1024; under 32, one warp runs with idle lanes)");
}

// A value given twice in a list: diagram refused it, while sweep ran it once, tune ranked it once
// with a note and mrc merged it. Every command refuses it now, naming the option and the value.
TEST(Consistent, AValueGivenTwiceIsRefusedByEveryCommand) {
  const std::string dir = scratch("twice");
  const struct {
    std::string args, said;
  } cases[] = {
      {"sweep --size 64 --order linear,linear -o " + dir + "/s.csv",
       "--order: 'linear' is given twice; allowed: each value once, a point each"},
      {"sweep --size 64 --order tile:4,tile:4x4 -o " + dir + "/s.csv",
       "--order: 'tile:4x4' is given twice (as 'tile:4')"},
      {"sweep --size 64,0064 -o " + dir + "/s.csv", "--size: '0064' is given twice (as '64')"},
      {"tune --size 16 --orders column:4,linear,column:4 -o " + dir + "/t.json",
       "--orders: 'column:4' is given twice; allowed: each order once"},
      {"tune --kernel sgemm-tiled --size 256 --block-order linear --block-order linear -o " + dir +
           "/t.json",
       "--block-order: 'linear' is given twice"},
      {"mrc --size 16 --sizes 8,2 --sizes 2 -o " + dir + "/m.csv",
       "--sizes: '2' is given twice; allowed: each value once"},
      {"bench --order linear,column:4,linear -o " + dir + "/b.json", "--order: 'linear' is given"},
      {"bench --type float,float -o " + dir + "/b.json", "--type: 'float' is given twice"},
  };
  for (const auto &c : cases)
    expect_usage_error(c.args, c.said);
  EXPECT_TRUE(fs::is_empty(dir));
}

// -o x.md writes Markdown, and --format md was "unknown format 'md'": md is markdown's short name
// wherever --format is, the help says so, and an unknown format lists it.
TEST(Consistent, FormatMdIsMarkdown) {
  const CliRun md = cbi_run("devices --format md");
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_EQ(md.out, cbi_run("devices --format markdown").out);
  EXPECT_NE(md.out.find("\n|---|"), std::string::npos) << md.out;
  const std::string dir = scratch("md");
  EXPECT_EQ(cbi_run("mrc --size 16 --format md -o " + dir + "/m.md").exit_code, 0);
  expect_usage_error("tune --size 16 --format md -o " + dir + "/t.json",
                     "--format: markdown does not match --output");
  expect_usage_error("devices --format yaml",
                     "unknown format 'yaml'; allowed: table, json, csv, markdown (or md)");
  EXPECT_NE(cbi_run("analyze --help").out.find("markdown (or md)"), std::string::npos);
}

// simulate and tune take the device's largest block where 256 is too large (tiny: 1), but sweep's
// default grid kept 256: `sweep --model gpu --device tiny` alone was refused for a --block never
// given. A block too large for a device says the device's largest (it said "allowed: 1..1").
TEST(Consistent, SweepOnTinyTakesItsLargestBlockAsSimulateDoes) {
  const CliRun sweep = cbi_run("sweep --model gpu --device tiny --size 8 --stencil 3x3");
  ASSERT_EQ(sweep.exit_code, 0) << sweep.err;
  EXPECT_NE(sweep.out.find(",8,3x3,,float,1,linear,"), std::string::npos) << sweep.out;
  for (const char *command : {"sweep --model gpu --size 8", "simulate --model gpu --size 8"})
    expect_usage_error(std::string(command) + " --device tiny --block 2",
                       "--block: 2 threads per block is not allowed on tiny; allowed: 1, tiny's "
                       "largest block");
}

// Two outputs naming one file: sweep -o x --json x wrote the JSON over the CSV, then failed reading
// the CSV back (naming --input, which sweep has not), and diagram -o d.png --csv d.png kept one of
// the two. Refused before any work, naming the later option, in every command with two outputs.
TEST(Consistent, TwoOutputsNamingOneFileAreRefused) {
  const std::string dir = scratch("one_file");
  const std::string x = dir + "/x", said = "is the file of --output too";
  expect_usage_error("sweep --size 64 -o " + x + " --json " + dir + "/./x", "--json: '" + dir);
  expect_usage_error("sweep --size 64 -o " + x + " --json " + x, said);
  expect_usage_error("sweep merge -o " + x + " --json " + x + " " + dir + "/in.csv", said);
  if (fs::exists(cbi::test::bin_dir() + "/cbi-viz"))
    expect_usage_error("diagram --size 8 -o " + x + ".png --csv " + x + ".png", said);
  EXPECT_TRUE(fs::is_empty(dir));
  const CliRun two = cbi_run("sweep --size 64 -o " + x + ".csv --json " + x + ".json");
  EXPECT_EQ(two.exit_code, 0) << two.err;
}

// sweep kept its own kernel list, in another order than bench's: one list, one line now.
TEST(Consistent, AnUnknownKernelIsToldTheSameListBySweepAndBench) {
  const std::string said = "--kernel: unknown kernel 'fft'; allowed: stencil, stencil-2d, "
                           "stencil-smem, matmul, sgemm-tiled, cublas";
  expect_usage_error("sweep --kernel fft --dry-run", said);
  expect_usage_error("bench --kernel fft", said);
}

// --depth 0 is the width in sweep's depth axis, and simulate, tune and bench refused it; their
// limits were 2^30, 2^31 and 2^20. One reading now: 0 (the width) or 1 to 2^30, one message.
TEST(Consistent, DepthZeroIsTheWidthInEveryCommand) {
  const CliRun zero = cbi_run("simulate --workload matmul --size 16 --depth 0 --format csv");
  ASSERT_EQ(zero.exit_code, 0) << zero.err;
  EXPECT_EQ(zero.out, cbi_run("simulate --workload matmul --size 16 --format csv").out);
  EXPECT_NE(zero.out.find("\nmatmul,16,16,,,16,"), std::string::npos) << zero.out;
  EXPECT_EQ(cbi_run("tune --workload matmul --size 16 --depth 0 --orders linear").exit_code, 0);
  const std::string said =
      "--depth: '-1' is not allowed; allowed: 0 (the width) or an integer from 1 to 2^30";
  for (const char *command : {"simulate --workload matmul", "tune --workload matmul",
                              "bench --kernel matmul", "sweep --kernel matmul --dry-run"})
    expect_usage_error(std::string(command) + " --depth -1", said);
}

// bench's and sweep's seconds and noise targets went through strtod, which took " 1" and the hex
// "0x10" (16 s): decimal numbers only now, as the error says.
TEST(Consistent, MeasurementNumbersAreDecimal) {
  for (const char *value : {"0x10", "' 1'", "1e1x", "0X1p4"})
    expect_usage_error(std::string("bench --max-seconds ") + value,
                       "--max-seconds: '" + std::string(value[0] == '\'' ? " 1" : value) +
                           "' is not allowed");
  expect_usage_error("sweep --backend gpu --max-noise 0x0", "--max-noise: '0x0' is not allowed");
}

// reproduce --only A,A ran A once, and sweep merge a.csv ./a.csv merged one file as if it were
// two shards: both refused, as a repeated value is in every list, before any folder or file.
TEST(Consistent, ReproducePartsAndMergeInputsGivenTwiceAreRefused) {
  const std::string dir = scratch("parts");
  expect_usage_error("reproduce --sim-only --tiny -o " + dir + "/R --only sim-fig5.2,sim-fig5.2",
                     "--only: 'sim-fig5.2' is given twice; allowed: each part once");
  EXPECT_FALSE(fs::exists(dir + "/R"));
  ASSERT_EQ(cbi_run("sweep --size 64 -o " + dir + "/a.csv").exit_code, 0);
  expect_usage_error("sweep merge -o " + dir + "/m.csv " + dir + "/a.csv " + dir + "/./a.csv",
                     "--input: '" + dir + "/./a.csv' is given twice (as '" + dir + "/a.csv')");
  EXPECT_FALSE(fs::exists(dir + "/m.csv"));
  EXPECT_EQ(cbi_run("sweep merge -o " + dir + "/m.csv " + dir + "/a.csv").exit_code, 0);
}

// --trace '' said "--trace: : cannot open: No such file or directory"; -o '' said "empty path".
TEST(Consistent, AnEmptyTracePathIsToldAsAnEmptyOutputIs) {
  for (const char *command : {"simulate", "mrc", "simulate --model gpu"})
    expect_usage_error(std::string(command) + " --trace ''",
                       "--trace: empty path; allowed: a trace file");
}

// --resume of another grid said "(1 points, ...)"; the counts read as the run's summary reads.
TEST(Consistent, ResumeOfAnotherGridCountsItsPointsInWords) {
  const std::string csv = scratch("resume") + "/y.csv";
  ASSERT_EQ(cbi_run("sweep --size 64 -o " + csv).exit_code, 0);
  const CliRun r = cbi_run("sweep --size 128,256 --resume -o " + csv);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find(" (1 point, shard 0/1), this run is grid "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" (2 points, shard 0/1); allowed: "), std::string::npos) << r.err;
}

// cbi help COMMAND is COMMAND --help for every command, and was refused for sweep's one
// subcommand: cbi help sweep merge now prints cbi sweep merge --help.
TEST(Consistent, HelpSweepMergeIsTheMergeHelp) {
  const CliRun help = cbi_run("help sweep merge");
  ASSERT_EQ(help.exit_code, 0) << help.err;
  EXPECT_EQ(help.out, cbi_run("sweep merge --help").out);
  EXPECT_EQ(help.out.rfind("usage: cbi sweep merge ", 0), 0u) << help.out;
  expect_usage_error("help sweep nope", "cbi: help: unexpected argument 'nope'");
}

// --size's extents: sweep took each up to 2^20 (so 2000000x1, which simulate runs, was refused)
// and bench up to 2^31; now each is 1 to 2^30 in every command, and N means NxN within 2^40 tasks.
TEST(Consistent, SizeTakesTheSameExtentsInEveryCommand) {
  EXPECT_EQ(cbi_run("sweep --size 2000000x1 --dry-run").exit_code, 0);
  const std::string too_long =
      "--size: in '2000000000x1', '2000000000' is out of range; allowed: an integer from 1 to 2^30";
  for (const char *command : {"simulate", "sweep --dry-run", "bench", "tune", "trace -o t.trace"})
    expect_usage_error(std::string(command) + " --size 2000000000x1", too_long);
  for (const char *command : {"simulate", "sweep --dry-run"})
    expect_usage_error(std::string(command) + " --size 2000000",
                       "--size: '2000000' means 2000000x2000000, more than 2^40 elements");
}
