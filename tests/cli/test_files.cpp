// Issue 21 §3 (files and streams) and the §2 refusals that need no engine table, end to end: a
// failed write to stdout or to any output exits 1 with one line; -o follows one rule for symlinks
// in every command (written through, a dangling one too); a failure leaves no empty file; every
// value is checked before any work and every message names the user's option.
#include "cli_run.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

namespace fs = std::filesystem;
using cbi::test::bin_dir;
using cbi::test::cbi_run;
using cbi::test::CliRun;
using cbi::test::count_lines;
using cbi::test::slurp;

// A fresh folder for one test's files.
std::string scratch(const std::string &name) {
  const fs::path dir =
      fs::temp_directory_path() / ("cbi_files_" + name + "_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

// A sweep CSV without its sim_seconds cells (the one column that differs between two runs).
std::string without_seconds(const std::string &csv) {
  std::string out;
  std::size_t column = 0;
  bool skip = false;
  for (char ch : csv) {
    if (ch == '\n') {
      column = 0;
      skip = false;
    } else if (ch == ',') {
      ++column;
      skip = column == 22; // sim_seconds
    } else if (skip) {
      continue;
    }
    out += ch;
  }
  return out;
}

bool have_viz() { return fs::exists(bin_dir() + "/cbi-viz"); }

// Runs `sh -c SCRIPT` (cbi is $CBI) with stderr captured; for redirections of stdout and limits.
CliRun shell(const std::string &script) {
  const std::string err = fs::temp_directory_path() / ("cbi_files_err_" + std::to_string(getpid()));
  const std::string cmd = "CBI='" + bin_dir() + "/cbi' sh -c '" + script + "' 2>" + err;
  const int status = std::system(cmd.c_str());
  CliRun r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.err = slurp(err);
  fs::remove(err);
  return r;
}

// Exit 2 with one line on stderr that names `option` and nothing internal.
void expect_usage_error(const std::string &args, const std::string &option) {
  cbi::test::expect_usage_error(args, option + ": ");
}

} // namespace

TEST(Files, AFullStdoutIsExit1WithOneLine) {
  for (const char *args : {"simulate", "simulate --format json", "presets", "--help", "--version",
                           "sweep --size 16 --order linear,column:4", "simulate --help"}) {
    const CliRun r = shell(std::string("$CBI ") + args + " >/dev/full");
    EXPECT_EQ(r.exit_code, 1) << args << "\n" << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << args << "\n" << r.err;
    EXPECT_NE(r.err.find("stdout"), std::string::npos) << args << "\n" << r.err;
    EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << args << "\n" << r.err;
    EXPECT_EQ(r.err.find("--output"), std::string::npos) << args << ": no -o was given\n" << r.err;
  }
  // A closed stdout is a failed write too.
  const CliRun closed = shell("$CBI simulate >&-");
  EXPECT_EQ(closed.exit_code, 1) << closed.err;
}

TEST(Files, AFailedWriteToAnOutputIsExit1NamingItsOption) {
  for (const auto &[args, option] : std::vector<std::pair<std::string, std::string>>{
           {"simulate -o /dev/full", "--output"},
           {"sweep --size 16 --order linear -o /tmp/cbi_files_json_" + std::to_string(getpid()) +
                ".csv --json /dev/full",
            "--json"},
           {"sweep --size 16 --order linear -o /dev/full", "--output"}}) {
    const CliRun r = cbi_run(args);
    EXPECT_EQ(r.exit_code, 1) << args << "\n" << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << args << "\n" << r.err;
    EXPECT_NE(r.err.find(option + ": writing"), std::string::npos) << args << "\n" << r.err;
  }
  // A failed write never removes what it wrote into when that is a device.
  EXPECT_TRUE(fs::is_character_file("/dev/full")) << "/dev/full was replaced";
}

// One rule in every command: -o at a symlink writes its target, a dangling link's too (creating
// the target), and the link stays a link.
TEST(Files, EveryCommandWritesThroughADanglingSymlink) {
  const std::string dir = scratch("links");
  std::vector<std::pair<std::string, std::string>> cases = {
      {"simulate --format csv -o ", ".csv"},
      {"sweep --size 16 --order linear -o ", ".csv"},
      {"mrc --size 16 --format csv -o ", ".csv"},
      {"sweep --size 16 --order linear -o " + dir + "/j.csv --json ", ".json"}};
  if (have_viz())
    cases.push_back({"diagram --size 8 -o ", ".png"});
  int k = 0;
  for (const auto &[args, ext] : cases) {
    const std::string target = dir + "/target" + std::to_string(k) + ext;
    const std::string link = dir + "/link" + std::to_string(k++) + ext;
    fs::create_symlink(target, link); // dangling: the target does not exist yet
    const CliRun r = cbi_run(args + link);
    ASSERT_EQ(r.exit_code, 0) << args << "\n" << r.err;
    EXPECT_TRUE(fs::is_symlink(link)) << args << ": the symlink was replaced by a file";
    EXPECT_TRUE(fs::is_regular_file(target)) << args << ": the target was not written";
    EXPECT_GT(fs::file_size(target), 0u) << args;
    // And again, now that the target exists: replaced through the link.
    const CliRun again = cbi_run(args + link);
    ASSERT_EQ(again.exit_code, 0) << args << "\n" << again.err;
    EXPECT_TRUE(fs::is_symlink(link)) << args;
  }
  fs::remove_all(dir);
}

// A sweep to a full disk (a file-size limit stands in for it) exits 1 with one line and leaves
// no empty CSV; a limit reached after some rows leaves only complete rows, which --resume
// continues to the same file an unlimited run writes.
TEST(Files, ASweepToAFullDiskLeavesNoEmptyOrPartialFile) {
  const std::string dir = scratch("full");
  const std::string csv = dir + "/s.csv";
  const std::string sweep = "$CBI sweep --size 16,32 --order linear,column:4,column:8 --jobs 1 -o ";
  // The limit applies to the sweep alone (in a subshell); its stderr reaches the test through a
  // pipe, which no file-size limit touches. ulimit -f counts 512-byte blocks in dash.
  auto limited = [&](std::size_t blocks) {
    return shell("( ulimit -f " + std::to_string(blocks) + "; trap \"\" XFSZ; exec " + sweep + csv +
                 " ) 2>&1 >/dev/null | cat >&2");
  };
  // 0 blocks: not even the header fits.
  const CliRun none = limited(0); // a pipeline's status is cat's: the line tells the failure
  EXPECT_EQ(count_lines(none.err), 1) << none.err;
  EXPECT_NE(none.err.find("--output: writing"), std::string::npos) << none.err;
  EXPECT_FALSE(fs::exists(csv)) << "an empty CSV was left behind";

  const CliRun reference = shell(sweep + dir + "/ref.csv");
  ASSERT_EQ(reference.exit_code, 0) << reference.err;
  const std::string full = slurp(dir + "/ref.csv");
  const std::size_t header = full.find('\n') + 1;
  // Room for the header and a row and a half.
  const std::size_t second_row = full.find('\n', header) + 1;
  const std::size_t limit_blocks = (second_row + (second_row - header) / 2) / 512 + 1;
  const CliRun some = limited(limit_blocks);
  EXPECT_EQ(count_lines(some.err), 1) << some.err;
  ASSERT_TRUE(fs::exists(csv));
  EXPECT_NE(some.err.find("--output: writing"), std::string::npos) << some.err;
  const std::string kept = slurp(csv);
  ASSERT_FALSE(kept.empty());
  EXPECT_EQ(kept.back(), '\n') << "a partial row was left behind";
  EXPECT_EQ(without_seconds(full).compare(0, without_seconds(kept).size(), without_seconds(kept)),
            0)
      << "the rows kept differ from a full run's";
  EXPECT_GT(count_lines(kept), 1) << "the header and at least one row were kept";
  const CliRun resumed = shell(sweep + csv + " --resume");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_EQ(without_seconds(slurp(csv)), without_seconds(full));
  fs::remove_all(dir);
}

TEST(Files, ValuesAreCheckedBeforeAnyWork) {
  // A simulation of minutes, refused at once for its format.
  const auto t0 = std::chrono::steady_clock::now();
  expect_usage_error("simulate --size 100000 --stencil 9x9 --format xml", "--format");
  expect_usage_error("mrc --size 100000 --format xml", "--format");
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 10.0);
  // Before the device is looked for: exit 2 on a machine without a GPU too, not 3.
  expect_usage_error("bench --max-noise -1", "--max-noise");
  expect_usage_error("bench --max-seconds 0", "--max-seconds");
  // A report folder that cannot be made, even for root (/proc takes no folders).
  const CliRun proc = cbi_run("reproduce --sim-only --out /proc/cbi-x");
  EXPECT_EQ(proc.exit_code, 2) << proc.err;
  EXPECT_EQ(count_lines(proc.err), 1) << proc.err;
  EXPECT_NE(proc.err.find("--out: "), std::string::npos) << proc.err;
  EXPECT_EQ(proc.err.find("filesystem error"), std::string::npos) << proc.err;
}

TEST(Files, MessagesNameTheUsersOption) {
  // The device has 132 SMs: 7 does not divide them.
  const CliRun r = cbi_run("simulate --model gpu --size 64 --sample-sms 7");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--sample-sms: "), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("gpu."), std::string::npos) << r.err;
}

TEST(Files, SweepMergeRefusesShardsOfDifferentBackends) {
  const std::string dir = scratch("merge");
  const std::string grid = "--size 32 --order linear,column:4 --shard ";
  ASSERT_EQ(cbi_run("sweep " + grid + "0/2 -o " + dir + "/a.csv").exit_code, 0);
  ASSERT_EQ(cbi_run("sweep " + grid + "1/2 --model gpu -o " + dir + "/b.csv").exit_code, 0);
  const CliRun r = cbi_run("sweep merge " + dir + "/a.csv " + dir + "/b.csv");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("--input: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("backend"), std::string::npos) << r.err;
  // A folder or an empty file is said to be one (both were "its header differs").
  cbi::test::expect_usage_error("sweep merge " + dir, ": --input: '" + dir + "' is a folder");
  std::ofstream(dir + "/empty.csv").flush();
  cbi::test::expect_usage_error("sweep merge " + dir + "/empty.csv", "empty.csv' is empty");
  // The same backend merges.
  ASSERT_EQ(cbi_run("sweep " + grid + "1/2 -o " + dir + "/c.csv").exit_code, 0);
  const CliRun ok = cbi_run("sweep merge " + dir + "/a.csv " + dir + "/c.csv");
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  fs::remove_all(dir);
}

TEST(Files, PlotNamesTheOptionAtFault) {
  if (!have_viz())
    GTEST_SKIP() << "no cbi-viz in this build";
  const std::string dir = scratch("plot");
  const std::string csv = dir + "/s.csv";
  ASSERT_EQ(cbi_run("sweep --size 16,32 --order linear,column:4 -o " + csv).exit_code, 0);
  const std::string png = " -o " + dir + "/p.png";
  expect_usage_error("plot lines --input " + csv + " --value order" + png, "--value");
  expect_usage_error("plot lines --input " + csv + " --value nope" + png, "--value");
  expect_usage_error("plot heatmap --input " + csv + " --value order" + png, "--value");
  {
    std::ofstream(dir + "/header.csv") << "a,b\n";
    std::ofstream(dir + "/words.csv") << "a,b\nx,y\n";
  }
  expect_usage_error("plot lines --input " + dir + "/header.csv" + png, "--input");
  expect_usage_error("plot lines --input " + dir + "/words.csv" + png, "--input");
  // A folder was "the CSV is empty"; no kind was "unknown plot ''".
  cbi::test::expect_usage_error("plot lines --input " + dir + png,
                                ": --input: '" + dir + "' is a folder");
  cbi::test::expect_usage_error("plot lines --input " + dir + "/none.csv" + png,
                                "none.csv' does not exist");
  cbi::test::expect_usage_error("plot --input " + csv + png,
                                "cbi plot: plot kind: missing; allowed: heatmap, lines or scatter");
  // An unknown kind was "cbi plot: plot: unknown plot 'bar'": it names the kind and the kinds.
  cbi::test::expect_usage_error("plot bar --input " + csv + png,
                                "cbi plot: plot kind: unknown kind 'bar'; allowed: heatmap, "
                                "lines, scatter");
  EXPECT_FALSE(fs::exists(dir + "/p.png"));
  // The kind among the options, as users write it too: `--input F lines` (it was "unexpected
  // argument"); a word that is an option's value is that value, not the kind.
  const CliRun after = cbi_run("plot --input " + csv + " lines" + png);
  EXPECT_EQ(after.exit_code, 0) << after.err;
  EXPECT_TRUE(fs::exists(dir + "/p.png"));
  cbi::test::expect_usage_error("plot --title lines --input " + csv + png, ": plot kind: missing");
  fs::remove_all(dir);
}

// Issue 21 §4: a sweep ends with the best order of each group and its margin; ties are named.
TEST(SweepSummary, EndsWithTheBestOrderOfEachGroupAndNamesTies) {
  const CliRun r = cbi_run(
      "sweep --size 256,2048 --stencil 9x9 --cache l1-64k --order linear,column:8,column:64");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // 256: linear and column:8 fetch each line once (exact counts, equal): a tie.
  EXPECT_NE(r.err.find("cbi sweep: tie: size 256: linear = column:8 (sim_l1_misses 8192; equal "
                       "counts)"),
            std::string::npos)
      << r.err;
  // 2048: 9 rows no longer fit the 64 KiB L1 in linear order; column:64 is best, by a margin.
  EXPECT_NE(r.err.find("cbi sweep: best: size 2048: column:64 (sim_l1_misses "), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("% below "), std::string::npos) << r.err;
  // The GPU model's times: margins within its error are ties.
  const CliRun model = cbi_run("sweep --model gpu --kernel matmul --size 256 --block 256 --order "
                               "linear,column:32 -o /dev/null");
  ASSERT_EQ(model.exit_code, 0) << model.err;
  EXPECT_NE(model.err.find("(predicted_ms "), std::string::npos) << model.err;
}

// Issue 21 §4: --wide belongs to the terminal table; with another format it is refused, not
// ignored.
TEST(Files, WideAppliesToTheTableOnly) {
  expect_usage_error("simulate --size 64 --format json --wide", "--wide");
  expect_usage_error("devices --format csv --wide", "--wide");
  const CliRun narrow = cbi_run("simulate --size 512 --stencil 3x3");
  ASSERT_EQ(narrow.exit_code, 0) << narrow.err;
  std::size_t widest = 0, start = 0;
  while (start < narrow.out.size()) {
    const std::size_t end = narrow.out.find('\n', start);
    widest = std::max(widest, (end == std::string::npos ? narrow.out.size() : end) - start);
    start = end == std::string::npos ? narrow.out.size() : end + 1;
  }
  EXPECT_LE(widest, 100u) << narrow.out;
  const CliRun wide = cbi_run("simulate --size 512 --stencil 3x3 --wide");
  ASSERT_EQ(wide.exit_code, 0) << wide.err;
  EXPECT_NE(wide.out.find("store_misses"), std::string::npos) << wide.out;
  EXPECT_EQ(narrow.out.find("  store_misses"), std::string::npos) << narrow.out;
  // A stencil has no depth: the table leaves the key out, --wide and the files keep it.
  EXPECT_EQ(narrow.out.find("  depth:"), std::string::npos) << narrow.out;
  EXPECT_NE(wide.out.find("  depth:"), std::string::npos) << wide.out;
  const CliRun matmul = cbi_run("simulate --workload matmul --size 64");
  ASSERT_EQ(matmul.exit_code, 0) << matmul.err;
  EXPECT_NE(matmul.out.find("  depth:"), std::string::npos) << matmul.out;
  EXPECT_EQ(matmul.out.find("  stencil_w:"), std::string::npos) << matmul.out;
}

// Issue 21 §2: blocks are capped at the device's launch limit (1024) in the GPU model and tune as
// in bench and sweep; the GPU model refuses a cache axis it would ignore.
TEST(Files, BlocksAreCappedAndTheModelRefusesACache) {
  expect_usage_error("simulate --model gpu --size 64 --block 2048", "--block");
  expect_usage_error("tune --size 64 --block 2048", "--block");
  const CliRun ok = cbi_run("simulate --model gpu --size 64 --block 1024");
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  expect_usage_error("sweep --model gpu --size 64 --cache l1-64k", "--cache");
  expect_usage_error("sweep --backend model --size 64 --cache l1-64k", "--cache");
}

// Issue 21 §2: simulate, mrc and analyze run one order; a list is refused naming --order and
// pointing at the commands that take lists, as the README says.
TEST(Files, OneOrderCommandsSayWhereListsGo) {
  for (const char *command : {"simulate", "mrc", "analyze"}) {
    const CliRun r = cbi_run(std::string(command) + " --size 64 --order linear,column:4");
    EXPECT_EQ(r.exit_code, 2) << command;
    EXPECT_NE(r.err.find("--order: 'linear,column:4' is a list"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("cbi sweep --order"), std::string::npos) << r.err;
  }
}
