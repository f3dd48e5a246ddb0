// A new user's first command lines, each tried as typed: spellings that differ between commands,
// messages that blame an option the user did not give, captions that name another unit, outputs
// that resolve to one file, and values refused only after minutes of work.
#include "cli_run.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;
using cbi::test::cbi_run;
using cbi::test::CliRun;
using cbi::test::expect_usage_error;

std::string scratch(const std::string &name) { return cbi::test::scratch_dir("cbi_new", name); }

} // namespace

// sweep, bench, diagram and simulate spell the order list --order, and tune spelled it --orders
// only: `cbi tune --order a,b` was "not an option of this command". --order ranks the same orders
// as --orders (still taken); both at once are refused, not merged.
TEST(NewUser, TuneTakesOrderAsEveryCommandSpellsIt) {
  const std::string tune = "tune --workload matmul --size 32 --block 64 --search full ";
  const CliRun order = cbi_run(tune + "--order linear,column:4 --format csv");
  ASSERT_EQ(order.exit_code, 0) << order.err;
  const CliRun orders = cbi_run(tune + "--orders linear,column:4 --format csv");
  ASSERT_EQ(orders.exit_code, 0) << orders.err;
  EXPECT_EQ(order.out, orders.out);
  expect_usage_error(tune + "--order linear --orders column:4",
                     "--orders: is --order's other spelling, and --order is given too; allowed: "
                     "one of them");
  // Its messages name the spelling given.
  expect_usage_error(tune + "--order column:4,column:4", "--order: 'column:4' is given twice");
  expect_usage_error(tune + "--orders column:4,column:4", "--orders: 'column:4' is given twice");
  const CliRun help = cbi_run("tune --help");
  EXPECT_NE(help.out.find("[--order LIST]"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("--orders arg "), std::string::npos) << help.out;
}

// `sweep --grid fig5.1a --model gpu --device tiny` said "--block: 32 threads per block is not
// allowed on tiny", an option the user never gave: the grid's own blocks do not fit the device.
TEST(NewUser, AGridsBlocksTooLargeForTheDeviceNameGridAndDevice) {
  expect_usage_error("sweep --grid fig5.1a --model gpu --device tiny",
                     "--device: tiny runs blocks of at most 1 thread, and --grid fig5.1a's blocks "
                     "of 32, 64, 128, 256, 512, 1024 threads do not fit it; allowed: --device "
                     "h100, h200, rtx2080super, a100, v100, or --block 1 in place of the grid's "
                     "blocks");
  const CliRun one = cbi_run("sweep --grid fig5.1a --model gpu --device tiny --block 1 --dry-run");
  EXPECT_EQ(one.exit_code, 0) << one.err;
  const CliRun fits = cbi_run("sweep --grid fig5.1a --model gpu --device a100 --dry-run");
  EXPECT_EQ(fits.exit_code, 0) << fits.err;
}

// Two outputs whose writes land in one file through a symlink, a dangling one too: diagram -o l.png
// --csv c.csv, with l.png -> c.csv not yet there, wrote the PNG over the CSV. A dangling link as
// the only output creates its target (the link stays); a link that leads back to itself is
// refused (the write replaced the link with a regular file).
TEST(NewUser, OutputsThatASymlinkLeadsToOneFileAreRefused) {
  const std::string dir = scratch("links");
  fs::create_symlink("c.csv", dir + "/l.csv");
  expect_usage_error("sweep --size 64 -o " + dir + "/l.csv --json " + dir + "/c.csv",
                     "--json: '" + dir + "/c.csv' is the file of --output too");
  if (fs::exists(cbi::test::bin_dir() + "/cbi-viz")) {
    fs::create_symlink("c.csv", dir + "/l.png");
    expect_usage_error("diagram --size 8 -o " + dir + "/l.png --csv " + dir + "/c.csv",
                       "--csv: '" + dir + "/c.csv' is the file of --output too");
  }
  EXPECT_FALSE(fs::exists(dir + "/c.csv"));
  const CliRun one = cbi_run("sweep --size 64 -o " + dir + "/l.csv");
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_TRUE(fs::is_symlink(dir + "/l.csv"));
  EXPECT_EQ(one.out, "");
  EXPECT_NE(cbi::test::slurp(dir + "/c.csv").find("kernel"), std::string::npos);
  fs::create_symlink("loop.csv", dir + "/loop.csv");
  expect_usage_error("simulate -o " + dir + "/loop.csv",
                     "--output: '" + dir + "/loop.csv' is a symlink that leads back to itself");
  EXPECT_TRUE(fs::is_symlink(dir + "/loop.csv"));
}

// --miss-level took a number only: `--miss-level L2`, the level as every stats line names it, was
// "not a positive integer" where the GPU model has an L2, and `--miss-level 2` of the default
// one-level cache said "out of range; allowed: an integer from 1 to 1" without saying why. L2 is
// taken where there is an L2; where there is none, the message names the levels and how to add
// one. The summary's bin line named L1 whatever the level; an unbinned diagram ignored it.
TEST(NewUser, MissLevelTakesTheLevelsNameAndSaysWhichLevelsThereAre) {
  if (!fs::exists(cbi::test::bin_dir() + "/cbi-viz"))
    GTEST_SKIP() << "no cbi-viz in this build";
  const std::string png = scratch("miss_level") + "/d.png";
  const CliRun gpu =
      cbi_run("diagram --model gpu --workload matmul --size 64 --miss-level L2 -o " + png);
  ASSERT_EQ(gpu.exit_code, 0) << gpu.err;
  EXPECT_NE(gpu.out.find("that came from\n     DRAM)"), std::string::npos) << gpu.out;
  const std::string levels = "--level lines=16,line=32 --level lines=64,line=32 ";
  const CliRun two = cbi_run("diagram --size 16 " + levels + "--miss-level l2 -o " + png);
  ASSERT_EQ(two.exit_code, 0) << two.err;
  EXPECT_NE(two.out.find("(colour: share of its accesses that came from memory)"),
            std::string::npos)
      << two.out;
  fs::remove(png);
  expect_usage_error("diagram --size 16 --miss-level L2 -o " + png,
                     "--miss-level: 'L2' is not one of this diagram's cache levels (L1 only); "
                     "allowed: 1 or L1 (more levels: --level size=S,line=B once a level");
  expect_usage_error("diagram --model gpu --size 16 --miss-level 3 -o " + png,
                     "--miss-level: '3' is not one of the GPU model's cache levels (L1, L2); "
                     "allowed: 1 or L1, 2 or L2 (the last: fetched from memory)");
  expect_usage_error(
      "diagram --size 4 --cell-px 4 --miss-level 1 -o " + png,
      "--miss-level: colours binned cells, and this diagram draws one access a cell");
  // cbi view bins to its window, finer than the figure: 441 accesses are one a cell there.
  expect_usage_error(
      "view --size 3 --miss-level 1",
      "--miss-level: colours binned cells, and this diagram draws one access a cell");
  EXPECT_FALSE(fs::exists(png));
}

// `cbi diagram --workload matmul --size 100000` was refused naming --bin, which was not given (its
// cells would count more than 2^32 accesses each); --model gpu replayed for hours before its SM's
// 2^32nd instruction stopped it. Both are refused before any work, naming --size and the largest
// size that draws.
TEST(NewUser, ADiagramTooLargeToDrawIsRefusedNamingSize) {
  if (!fs::exists(cbi::test::bin_dir() + "/cbi-viz"))
    GTEST_SKIP() << "no cbi-viz in this build";
  const std::string png = scratch("large") + "/d.png";
  expect_usage_error("diagram --workload matmul --size 100000 -o " + png,
                     "--size: '100000' is too large to draw: 2000000000000000 time steps leave "
                     "over 2^32 accesses in a cell; allowed: 1 to 8969 for this workload and "
                     "--granularity");
  expect_usage_error("diagram --granularity thread --size 100000 -o " + png,
                     "--size: '100000' is too large to draw: 10000000000 time steps leave over "
                     "2^32 accesses in a cell; allowed: 1 to 6636 for this workload");
  expect_usage_error("diagram --model gpu --workload matmul --size 100000 -o " + png,
                     "--size: '100000' is too large to draw: an SM would issue about "
                     "473486399999 warp instructions, over the 2^32 a diagram counts; allowed: "
                     "1 to 20855 for this workload and --block");
  // --bin given: its own message, naming --bin.
  expect_usage_error("diagram --workload matmul --size 100000 --bin 4x4 -o " + png, "--bin: ");
  EXPECT_FALSE(fs::exists(png));
}

// Ctrl-C (or a batch system's SIGTERM) on a long `cbi trace -o t.trace` left its temporary file
// behind, gigabytes of t.trace.tmp.PID: the signal now removes it, then ends the command as before.
TEST(NewUser, AnInterruptedTraceLeavesNoFileBehind) {
  const std::string dir = scratch("interrupted");
  for (const char *signal : {"INT", "TERM"}) {
    // 1.3 GiB at least: a second of it written when the signal comes.
    const CliRun r =
        cbi::test::run_program("cbi", "trace --size 65536 --stencil 1x1 -o " + dir + "/t.trace",
                               std::string("timeout -s ") + signal + " 1 ");
    EXPECT_EQ(r.exit_code, 124) << signal << ": " << r.err; // timeout's: the signal ended it
    EXPECT_TRUE(fs::is_empty(dir)) << signal;
  }
}

// `cbi diagram --size 100000` (10^10 threads) ran about an hour and said so nowhere: its first
// progress line read "0s elapsed, ETA ?" and the next came a minute later. A replay over 2^30
// accesses now says up front how many it replays and that an ETA follows (the command is stopped
// after two seconds; it leaves no file). cbi trace too.
TEST(NewUser, ALongReplaySaysUpFrontHowManyAccessesItReplays) {
  const std::string dir = scratch("long");
  const std::string viz = fs::exists(cbi::test::bin_dir() + "/cbi-viz")
                              ? "diagram --size 100000 --stencil 1x1 -o " + dir + "/big.png"
                              : "simulate --size 100000 --stencil 1x1";
  for (const std::string &command : {std::string("simulate --size 100000 --stencil 1x1"), viz}) {
    const CliRun r = cbi::test::run_program("cbi", command, "timeout -s INT 2 ");
    EXPECT_EQ(r.exit_code, 124) << command << ": " << r.err;
    EXPECT_NE(r.err.find(": 10,000,000,000 accesses to replay: about "), std::string::npos)
        << command << ": " << r.err;
    EXPECT_NE(r.err.find("--size runs shorter"), std::string::npos) << r.err;
  }
  // cbi trace wrote its 1.6 G accesses (a GiB of file) in silence: said up front, with progress.
  const CliRun trace = cbi::test::run_program(
      "cbi", "trace --size 40000 --stencil 1x1 -o " + dir + "/t.trace", "timeout -s INT 2 ");
  EXPECT_EQ(trace.exit_code, 124) << trace.err;
  EXPECT_EQ(trace.err.rfind("cbi trace: 1,600,000,000 accesses to replay: about ", 0), 0u)
      << trace.err;
  EXPECT_NE(trace.err.find("/1600000000 threads"), std::string::npos) << trace.err;
  EXPECT_TRUE(fs::is_empty(dir));
}

// `cbi plot heatmap --input heat.png` (the plot's own output, input and output swapped) said "row 6
// has 2 cells, the header 1"; a JSON result or a gzip-compressed CSV broke on some row likewise.
// Each is named for what it is, and the plot writes nothing.
TEST(NewUser, APlotInputThatIsNoCsvIsNamedForWhatItIs) {
  if (!fs::exists(cbi::test::bin_dir() + "/cbi-viz"))
    GTEST_SKIP() << "cbi-viz is not built";
  const std::string dir = scratch("foreign");
  const auto write = [&](const std::string &name, const std::string &bytes) {
    std::ofstream(dir + "/" + name, std::ios::binary) << bytes;
    return dir + "/" + name;
  };
  const std::string png = write("heat.png", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16));
  const std::string json = write("r.json", "{\"rows\": [{\"a\": 1,\n \"b\": 2}]}\n");
  const std::string gz = write("s.csv.gz", std::string("\x1f\x8b\x08\0\0\0\0\0\n\x03", 10));
  const std::string out = " -o " + dir + "/h.png";
  const std::string allowed =
      ", not a CSV; allowed: a CSV, such as cbi sweep --output F.csv or a command's --format csv";
  expect_usage_error("plot heatmap --input " + png + out,
                     "--input: this file is a PNG image" + allowed);
  expect_usage_error("plot lines --input " + json + out, "--input: this file is JSON" + allowed);
  expect_usage_error("plot heatmap --input " + gz + out,
                     "--input: this file is gzip-compressed, not a CSV; allowed: a CSV "
                     "(decompress it first: gunzip -k FILE)");
  EXPECT_FALSE(fs::exists(dir + "/h.png"));
}

// `--line-bytes 100` was taken without a word: a line need not be a power of two (the simulator
// divides), only a whole number of elements, and --help now says so. 12-byte lines (3 floats) over
// the 16x16 floats' 1024 bytes: 86 lines, each fetched once by a cache that holds them all.
TEST(NewUser, ALineOfAnyWholeNumberOfElementsIsTakenAndHelpSaysSo) {
  const CliRun r = cbi_run("simulate --line-bytes 12 --lines 1000 --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(",12544,12458,86,"), std::string::npos) << r.out; // accesses, hits, misses
  expect_usage_error("simulate --line-bytes 6", "--line-bytes: a cache unit of 6 B does not hold "
                                                "whole 4 B elements; allowed: a multiple of the "
                                                "element size (--type)");
  for (const char *command : {"simulate", "mrc", "analyze", "diagram"})
    EXPECT_NE(cbi_run(std::string(command) + " --help").out.find("not only powers"),
              std::string::npos)
        << command;
}

// cbi plot --help's examples all read sweeps of a GPU (gpu_time_ms, pred.csv): a new user without
// one could run none of them. Its first examples now make their own CSV with the simulator and
// plot it; each runs, in order, in an empty folder, and writes its PNG. The GPU sweeps' plots
// follow under a line that says so.
TEST(NewUser, PlotsHelpExamplesRunWithoutAGpu) {
  if (!fs::exists(cbi::test::bin_dir() + "/cbi-viz"))
    GTEST_SKIP() << "cbi-viz is not built";
  const std::string dir = scratch("plot_examples");
  const std::string help = cbi_run("plot --help").out;
  const std::size_t from = help.find("Examples:\n"), to = help.find("From sweeps on a GPU");
  ASSERT_NE(from, std::string::npos) << help;
  ASSERT_NE(to, std::string::npos) << help;
  std::istringstream lines(help.substr(from, to - from));
  int ran = 0;
  for (std::string line; std::getline(lines, line);) {
    const std::size_t at = line.find("cbi ");
    if (line.rfind("  cbi ", 0) != 0)
      continue;
    const std::string args = line.substr(at + 4, line.find("  #") - at - 4);
    const CliRun r = cbi::test::run_program("cbi", args, "cd " + dir + " && ");
    EXPECT_EQ(r.exit_code, 0) << line << "\n" << r.err;
    ++ran;
  }
  EXPECT_EQ(ran, 4);
  for (const char *file : {"sweep.csv", "heat.png", "lines.png", "sc.png"})
    EXPECT_TRUE(fs::exists(dir + "/" + file)) << file;
}

// `cbi view --script 'shot:'` and a script's key:P write --screenshot's file; without one they
// wrote nothing and said nothing (exit 0, the screenshot asked for absent). Refused before the
// window opens, so on any machine; with --screenshot they pass the check (and then need a display).
TEST(NewUser, AScriptsScreenshotWithoutAFileIsRefused) {
  if (!fs::exists(cbi::test::bin_dir() + "/cbi-viz"))
    GTEST_SKIP() << "cbi-viz is not built";
  for (const char *step : {"shot:", "key:Space;key:P"})
    expect_usage_error(std::string("view --size 16 --script '") + step + "'",
                       "writes --screenshot's file, and --screenshot is not given; allowed: "
                       "shot:PATH.png, or --screenshot PATH.png");
  const std::string dir = scratch("view_shot");
  const CliRun given = cbi::test::run_program(
      "cbi", "view --size 16 --script 'shot:' --screenshot " + dir + "/s.png", "DISPLAY= ");
  EXPECT_EQ(given.exit_code, 1) << given.err; // past the check: no display here
  EXPECT_NE(given.err.find("needs a display"), std::string::npos) << given.err;
}

// `cbi sweep --size 64 --format json`, as every other command takes it, said "--format: not an
// option of this command" and listed thirty options: a sweep streams CSV and writes JSON with
// --json FILE, and the message says so (and where --format does go).
TEST(NewUser, SweepsFormatSaysWhereItsJsonGoes) {
  for (const char *format : {"--format json", "--format=csv"})
    expect_usage_error(std::string("sweep --size 64 ") + format,
                       "--format: cbi sweep streams CSV, a row per point (--output FILE.csv, or "
                       "stdout), and writes JSON at its end with --json FILE.json; allowed: leave "
                       "it out (cbi sweep merge --format converts a CSV)");
  const std::string dir = scratch("sweep_format");
  ASSERT_EQ(cbi_run("sweep --size 64 -o " + dir + "/s.csv").exit_code, 0);
  const CliRun merged = cbi_run("sweep merge --format json " + dir + "/s.csv");
  EXPECT_EQ(merged.exit_code, 0) << merged.err;
  EXPECT_EQ(merged.out.rfind("{", 0), 0u) << merged.out;
  // Its context names the command as typed: it read "'cbi sweep' merge --format json ...".
  EXPECT_NE(merged.out.find("/cbi sweep merge --format json " + dir + "/s.csv\""),
            std::string::npos)
      << merged.out;
}

// `cbi simulate --order column:1000` on the default 16x16 grid printed linear's counts, 316 misses,
// as column:1000's, and nothing said that the order visits the tasks as linear does (cbi tune
// notes it and drops the order). Both models say so now; an order that differs says nothing.
TEST(NewUser, AnOrderThatMapsAsLinearSaysSo) {
  const std::string note = "column:1000 visits the tasks in linear's order at this --size: its "
                           "counts are linear's";
  for (const char *model : {"", " --model gpu --size 32"}) {
    const CliRun r = cbi_run(std::string("simulate --order column:1000 --format json") + model);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find(note), std::string::npos) << model << r.out;
  }
  const CliRun differs = cbi_run("simulate --order column:8 --format json");
  ASSERT_EQ(differs.exit_code, 0) << differs.err;
  EXPECT_EQ(differs.out.find("visits the tasks in linear's order"), std::string::npos);
}

// `cbi -v` (or -V, --ver) was told that cbi's options go after a command, "cbi simulate -v ...",
// which takes no -v either: a spelling of --version is pointed to it.
TEST(NewUser, AShortVersionPointsToVersion) {
  for (const char *v : {"-v", "-V", "--ver", "-version"})
    expect_usage_error(v, std::string("cbi: ") + v +
                              ": not an option of cbi itself (did you mean --version?); allowed:");
  expect_usage_error("--size 16", "(its options go after a command: cbi simulate --size ...)");
}

// `cbi devices --name h100 extra` said "--name: given twice", though --name was typed once: the
// word NAME and --name are one option, and the message says so.
TEST(NewUser, ANameGivenAsAWordAndAsAnOptionIsSaidSo) {
  for (const char *command :
       {"devices --name h100 extra", "devices extra --name=h100", "presets fig3.1 --name fig3.1"})
    expect_usage_error(command,
                       "NAME: given as a word and as --name too; allowed: one of them, once");
  expect_usage_error("devices --name h100 --name a100", "--name: given twice; allowed: once");
}

// `cbi version`, cbi's own --version typed as a command, was told the commands only.
TEST(NewUser, VersionAsACommandPointsToTheOption) {
  expect_usage_error("version", "cbi: unknown command 'version' (did you mean --version?)");
  EXPECT_EQ(cbi_run("--version").exit_code, 0);
}

// `cbi trace --size 100000 -o t.trace` wrote hundreds of GiB until the disk was full: a trace that
// cannot fit the disk (10 B a warp instruction at least) is refused before it is written; stdout
// streams on.
TEST(NewUser, ATraceLargerThanTheDiskIsRefusedBeforeItIsWritten) {
  const std::string dir = scratch("disk");
  expect_usage_error("trace --size 1048576 -o " + dir + "/t.trace",
                     "--size: the trace of stencil 7x7 on 1048576x1048576 float, clamp takes ");
  const CliRun r = cbi_run("trace --size 1048576 -o " + dir + "/t.trace");
  EXPECT_NE(r.err.find(" free; allowed: a smaller --size"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::is_empty(dir));
  EXPECT_EQ(cbi_run("trace --size 16 -o " + dir + "/t.trace").exit_code, 0);
}

// cbi view keeps each thread's first step besides the diagram: a size whose steps outgrow the
// memory ran out of it once the window was open (exit 1); refused first, as diagram's panels are.
TEST(NewUser, AViewLargerThanTheMemoryIsRefusedBeforeTheWindowOpens) {
  if (!fs::exists(cbi::test::bin_dir() + "/cbi-viz"))
    GTEST_SKIP() << "no cbi-viz in this build";
  expect_usage_error("view --size 400000 --stencil 1x1",
                     "--size: the viewer's stencil 1x1 on 400000x400000 float, clamp needs about ");
}

// A JSON result's context records the command line: `-o "it's.json"` was recorded as
// -o 'it's.json', which a shell cannot read back. A single quote is written '\'' inside single
// quotes, as POSIX sh takes it, and the recorded line runs as typed.
TEST(NewUser, TheRecordedCommandLineQuotesAQuoteForTheShell) {
  const std::string dir = scratch("quote");
  const CliRun r = cbi_run("simulate --size 16 --format json -o \"" + dir + "/it's.json\"");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string json = cbi::test::slurp(dir + "/it's.json");
  // In JSON the backslash is written twice.
  const std::string recorded = "-o '" + dir + "/it'\\\\''s.json'\"";
  ASSERT_NE(json.find(recorded), std::string::npos) << json;
  // The recorded line, pasted back into sh, writes the same file again.
  const auto begin = json.find("\"command\": \"") + 12;
  std::string line = json.substr(begin, json.find("\",", begin) - begin);
  for (std::size_t at = 0; (at = line.find("\\\\", at)) != std::string::npos; ++at)
    line.erase(at, 1);
  fs::remove(dir + "/it's.json");
  ASSERT_EQ(std::system(line.c_str()), 0) << line;
  EXPECT_TRUE(fs::exists(dir + "/it's.json")) << line;
}

// `cbi simulate --stencil 4x4` said "4x4 is not allowed; allowed: odd sizes such as 3x3, 7x7, 9x9"
// and `cbi sweep --stencil 4x4` "'4x4' has an even side; allowed: odd sizes such as 3x3, 9x9": one
// function checks the window for both, and they say one thing.
TEST(NewUser, AnEvenStencilIsOneMessageInEveryCommand) {
  const std::string message =
      "--stencil: '4x4' has an even side; allowed: odd sizes such as 3x3, 7x7, 9x9";
  for (const char *command : {"simulate", "sweep", "trace -o -", "mrc"})
    expect_usage_error(std::string(command) + " --stencil 4x4", message);
  expect_usage_error("sweep --stencil 3x3,3x4",
                     "--stencil: '3x4' has an even side; allowed: odd sizes such as 3x3, 7x7, 9x9");
}

// `cbi view --script 'hover:9999,9999'` ran and showed "hover: -": a hover names a cell of the
// figure (move names a window pixel), and one outside it is refused before the window opens.
TEST(NewUser, AHoverOutsideTheFigureIsRefused) {
  if (!fs::exists(cbi::test::bin_dir() + "/cbi-viz"))
    GTEST_SKIP() << "cbi-viz is not built";
  const std::string allowed = "cells; allowed: hover:COL,ROW with COL 0 to 737 and ROW 0 to 63";
  for (const char *step : {"hover:9999,9999", "hover:738,0", "hover:0,64", "hover:-1,0"})
    expect_usage_error(std::string("view --size 16 --script 'key:Space;") + step + "'",
                       std::string("--script: '") + step + "' is outside the figure's 738x64 " +
                           allowed);
  const CliRun corner =
      cbi::test::run_program("cbi", "view --size 16 --script 'hover:737,63'", "DISPLAY= ");
  EXPECT_EQ(corner.exit_code, 1) << corner.err; // past the check: no display here
  EXPECT_NE(corner.err.find("needs a display"), std::string::npos) << corner.err;
}
