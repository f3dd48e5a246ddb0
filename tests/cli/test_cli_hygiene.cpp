// End-to-end tests of the command-line hygiene that every command of cbi and cbi-viz shares (issue
// 12 items 7, 8 and 12): stray words, lists, byte units, overflowing sizes, malformed values,
// output paths checked before any work and written through FIFOs and symlinks, --version, no GPU;
// typed JSON with a context block, CSVs that concatenate.
#include "cli_run.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

namespace fs = std::filesystem;
using cbi::test::cbi_run;
using cbi::test::CliRun;
using cbi::test::count_lines;
using cbi::test::expect_usage_error;
using cbi::test::slurp;

// A fresh folder for one test's files.
std::string scratch(const std::string &name) { return cbi::test::scratch_dir("cbi_hyg", name); }

bool have_viz() { return fs::exists(cbi::test::bin_dir() + "/cbi-viz"); }

} // namespace

TEST(Hygiene, StrayPositionalArgumentsAreErrorsInEveryCommand) {
  // The issue's case: the second order was silently dropped.
  expect_usage_error("sweep --order linear column:32 --dry-run", "column:32");
  for (const char *args :
       {"simulate extra", "simulate --size 16 extra", "mrc --size 16 extra", "analyze extra",
        "devices extra", "tune --size 16 extra", "bench --size 16 extra", "reproduce --out x extra",
        "sweep --dry-run extra"})
    expect_usage_error(args, "extra");
  if (have_viz())
    for (const char *args : {"diagram --size 8 extra -o /tmp/cbi_hyg_never.png",
                             "plot heatmap extra --input x.csv", "view --size 8 extra"})
      expect_usage_error(args, "extra");
}

// An option the command does not have names itself and lists what the command takes.
TEST(Hygiene, UnknownOptionsListWhatTheCommandTakes) {
  const struct {
    const char *args, *option, *taken;
  } cases[] = {{"sweep --workload matmul", "--workload", "--grid"},
               {"trace --format json", "--format", "--workload"},
               {"analyze --model gpu", "--model", "--cache-bytes"}};
  for (const auto &c : cases) {
    expect_usage_error(c.args, std::string("cbi ") + std::string(c.args).substr(0, 5));
    const CliRun r = cbi_run(c.args);
    EXPECT_NE(r.err.find(std::string(c.option) + ": not an option of this command; allowed: --"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find(c.taken), std::string::npos) << c.args << ": " << r.err;
  }
}

// Boost's own messages said neither what is allowed nor, for a value given to a switch, why.
TEST(Hygiene, AMissingValueOrAValueForASwitchSaysWhatIsAllowed) {
  expect_usage_error("simulate --size", ": --size: needs a value; allowed: --size VALUE");
  expect_usage_error("simulate -o", ": --output: needs a value; allowed: --output VALUE");
  expect_usage_error("sweep merge --output", ": --output: needs a value; allowed: --output VALUE");
  expect_usage_error("simulate --writes=true",
                     ": --writes: is a switch and takes no value; allowed: --writes alone");
  expect_usage_error("sweep merge --partial=1 x.csv",
                     ": --partial: is a switch and takes no value; allowed: --partial alone");
  expect_usage_error("sweep merge --partial --partial x.csv", ": --partial: given twice");
}

// Options are spelled in full: Boost's prefix guessing took --cache as --cache-bytes, silently.
// An abbreviation is refused, naming the options it begins, in every command.
TEST(Hygiene, AbbreviatedOptionsAreRefusedNamingTheFullSpelling) {
  const struct {
    const char *args, *given, *meant;
  } cases[] = {{"simulate --cache 1KiB", "--cache", "--cache-bytes"},
               {"simulate --line 16", "--line", "--line-bytes or --lines"},
               {"mrc --siz 16", "--siz", "--size or --sizes"},
               {"analyze --no-sim", "--no-sim", "--no-simulate"},
               {"tune --orde linear", "--orde", "--order or --orders"},
               {"trace --work matmul -o -", "--work", "--workload"},
               {"sweep --dry --size 16", "--dry", "--dry-run"},
               {"sweep merge --part x.csv", "--part", "--partial"},
               {"presets --form csv", "--form", "--format"},
               {"devices --form csv", "--form", "--format"},
               {"bench --siz 16", "--siz", "--size"},
               {"reproduce --ou x", "--ou", "--output or --out"},
               // Near misses (they were offered nothing): a letter more, fewer, changed or swapped.
               {"simulate --orders linear", "--orders", "--order"},
               {"sweep --orders linear --dry-run", "--orders", "--order"},
               {"simulate --stencl 3x3", "--stencl", "--stencil"},
               {"simulate --wokrload matmul", "--wokrload", "--workload"},
               {"simulate --cahce-bytes 1KiB", "--cahce-bytes", "--cache-bytes"},
               {"mrc --sise 16", "--sise", "--size"}};
  for (const auto &c : cases) {
    const std::string said = std::string(c.given) + ": not an option of this command (did you " +
                             "mean " + c.meant + "?); allowed: --";
    expect_usage_error(c.args, said);
  }
  if (have_viz())
    for (const char *args :
         {"diagram --siz 8 -o /tmp/cbi_hyg_never.png", "view --siz 8", "plot heatmap --inp x.csv"})
      expect_usage_error(args, "not an option of this command (did you mean --");
}

// A single dash or another case names the option it meant (-size, --Size were offered nothing);
// --order= with nothing after it said Boost's "should follow immediately after the equal sign".
TEST(Hygiene, AMisspelledDashOrCaseNamesTheOption) {
  expect_usage_error("simulate -size 16", "-size: not an option of this command (did you mean "
                                          "--size?)");
  expect_usage_error("simulate --Size 16", "--Size: not an option of this command (did you mean "
                                           "--size?)");
  expect_usage_error("simulate --order=", "--order: needs a value after '='; allowed: "
                                          "--order=VALUE or --order VALUE");
}

// cbi diagram --order linear,linear drew two equal panels (sweep and tune take an order once):
// refused, naming the order, before any work; tile:4 and tile:4x4 are one order.
TEST(Hygiene, ADiagramOrderGivenTwiceIsRefused) {
  if (!have_viz())
    GTEST_SKIP() << "no cbi-viz in this build";
  const std::string dir = scratch("twice");
  expect_usage_error("diagram --size 8 --order linear,linear -o " + dir + "/d.png",
                     "--order: 'linear' is given twice; allowed: each order once, a panel each");
  expect_usage_error("diagram --size 8 --order tile:4,column:2,tile:4x4 -o " + dir + "/d.png",
                     "--order: 'tile:4x4' is given twice (as 'tile:4')");
  expect_usage_error("diagram --model gpu --size 8 --order linear --order linear -o " + dir +
                         "/d.png",
                     "'linear' is given twice");
  EXPECT_FALSE(fs::exists(dir + "/d.png"));
  EXPECT_EQ(cbi_run("diagram --size 8 --order linear,column:4 -o " + dir + "/d.png").exit_code, 0);
  fs::remove_all(dir);
}

TEST(Hygiene, ListsAreCommasOrRepeatedOptions) {
  const CliRun commas = cbi_run("sweep --order linear,column:4 --size 16 --dry-run");
  const CliRun repeated = cbi_run("sweep --order linear --order column:4 --size 16 --dry-run");
  ASSERT_EQ(commas.exit_code, 0) << commas.err;
  EXPECT_EQ(commas.out, repeated.out);
  EXPECT_EQ(count_lines(commas.out), 2) << commas.out;
  const CliRun mixed = cbi_run("mrc --size 16 --sizes 4,8 --sizes 16 --format csv");
  ASSERT_EQ(mixed.exit_code, 0) << mixed.err;
  EXPECT_EQ(count_lines(mixed.out), 4) << mixed.out; // header + 3 sizes
  // mrc's sizes are a curve's: ascending, however they are given; a size given twice is refused.
  const CliRun curve = cbi_run("mrc --size 16 --sizes 8,2 --sizes 4 --format csv");
  ASSERT_EQ(curve.exit_code, 0) << curve.err;
  EXPECT_EQ(curve.out, cbi_run("mrc --size 16 --sizes 2,4,8 --format csv").out);
  EXPECT_EQ(count_lines(curve.out), 4) << curve.out; // header + 3 sizes
  const CliRun tune = cbi_run("tune --size 16 --orders linear --orders column:4 --format csv");
  ASSERT_EQ(tune.exit_code, 0) << tune.err;
  EXPECT_EQ(count_lines(tune.out), 3) << tune.out;
}

TEST(Hygiene, EmptyListsAndEmptyItemsAreErrors) {
  expect_usage_error("mrc --size 16 --sizes ''", "--sizes");
  expect_usage_error("mrc --size 16 --sizes 4,,8", "--sizes");
  expect_usage_error("mrc --size 16 --sizes 4,", "--sizes");
  expect_usage_error("reproduce --out /tmp/cbi_hyg_never --only ''", "--only");
  expect_usage_error("sweep --order '' --dry-run", "--order");
  expect_usage_error("tune --size 16 --orders linear,,column:4", "--orders");
  expect_usage_error("bench --kernel stencil,,matmul", "--kernel");
}

// Both capacities given: one line naming --cache-bytes and what is allowed (it said "give either
// --lines or --cache-bytes, not both", with no allowed values), in every command that takes them.
TEST(Hygiene, LinesAndCacheBytesTogetherSayWhatIsAllowed) {
  std::vector<std::string> commands = {"simulate", "analyze"};
  if (have_viz())
    commands.push_back("diagram -o /tmp/cbi_both.png");
  for (const std::string &command : commands)
    expect_usage_error(command + " --lines 24 --cache-bytes 384",
                       ": --cache-bytes: given with --lines, and both set the capacity; allowed: "
                       "one of them (--lines N or --cache-bytes BYTES)");
  EXPECT_FALSE(std::filesystem::exists("/tmp/cbi_both.png"));
}

TEST(Hygiene, ByteUnitsAreOneSetInEveryCase) {
  // K, KB, KiB and k are all 1024: one capacity, one result.
  std::string first;
  for (const char *size : {"1KiB", "1K", "1KB", "1k", "1kb", "1024"}) {
    const CliRun r =
        cbi_run(std::string("simulate --line-bytes 16 --cache-bytes ") + size + " --format csv");
    ASSERT_EQ(r.exit_code, 0) << size << ": " << r.err;
    if (first.empty())
      first = r.out;
    EXPECT_EQ(r.out, first) << size;
  }
  const CliRun level = cbi_run("simulate --level size=1k,line=16 --format csv");
  ASSERT_EQ(level.exit_code, 0) << level.err;
  EXPECT_EQ(level.out, first);
  // A rejected unit lists every accepted one.
  for (const char *bad : {"--cache-bytes 32KX", "--cache-bytes 32Kib2", "--level size=2P,line=16",
                          "--cache-bytes KiB"}) {
    const CliRun r = cbi_run(std::string("simulate ") + bad);
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_NE(r.err.find("K, KB, KiB, M, MB, MiB, G, GB, GiB, T, TB, TiB"), std::string::npos)
        << r.err;
  }
  expect_usage_error("simulate --cache-bytes 4096GiB", "--cache-bytes"); // overflow, not wrapped
}

TEST(Hygiene, SizesAreCheckedForOverflowAndEmptyExtents) {
  expect_usage_error("simulate --size 3x7695460x429509837x5581", "--size");
  expect_usage_error("simulate --size 16x", "--size");
  expect_usage_error("simulate --size 16x16x", "--size");
  expect_usage_error("simulate --size x16", "--size");
  expect_usage_error("simulate --size 16xx16", "--size");
  expect_usage_error("mrc --size 3x7695460x429509837x5581", "--size");
  // A valid N-d size still folds (§4.1.2): 4x2x2 is 4 x 4.
  const CliRun nd = cbi_run("simulate --size 4x2x2 --format csv");
  const CliRun flat = cbi_run("simulate --size 4x4 --format csv");
  ASSERT_EQ(nd.exit_code, 0) << nd.err;
  EXPECT_EQ(nd.out, flat.out);
}

TEST(Hygiene, MalformedValuesOfTheIssueAreErrors) {
  expect_usage_error("simulate --level size=1KiB,lines=8", "--level");
  expect_usage_error("simulate --level lines=8,line=16,lines=9", "--level");
  expect_usage_error("simulate --level lines=8,,line=16", "--level");
  expect_usage_error("simulate --output ''", "--output");
  expect_usage_error("simulate -o ''", "--output");
  expect_usage_error("sweep --dry-run --json ''", "--json");
  // A cache without its keys: it said "unknown key '1KiB' in '1KiB'".
  expect_usage_error("sweep --size 16 --dry-run --cache 1KiB",
                     ": --cache: unknown cache '1KiB'; allowed: a preset (table3, l1-64k, ");
  expect_usage_error("sweep --size 16 --dry-run --cache size=1KiB,8",
                     ": --cache: '8' in 'size=1KiB,8' is not KEY=VALUE; allowed: keys size, ");
  expect_usage_error("simulate --level 32KiB",
                     ": --level: '32KiB' in '32KiB' is not KEY=VALUE; allowed: keys size, lines, "
                     "line, ways, policy, sector, seed, as in size=32KiB,line=128,ways=8");
}

TEST(Hygiene, UnwritableOutputsAreExitTwoNamingTheOptionBeforeAnyWork) {
  const std::string missing = "/nonexistent-cbi-folder/out";
  for (const char *cmd : {"simulate", "mrc --size 16", "analyze", "devices", "tune --size 16"})
    expect_usage_error(std::string(cmd) + " --output " + missing + ".csv", "--output");
  expect_usage_error("sweep --size 16 --output " + missing + ".csv", "--output");
  expect_usage_error("sweep --size 16 --json " + missing + ".json", "--json");
  expect_usage_error("sweep merge --output " + missing + ".csv x.csv", "--output");
  // Checked before the device: without a GPU the bad path still wins (exit 2, not 3).
  expect_usage_error("bench --output " + missing + ".csv", "--output");
  const std::string dir = scratch("unwritable");
  expect_usage_error("simulate --output " + dir, "--output"); // a folder
  { std::ofstream(dir + "/file") << "x"; }
  expect_usage_error("reproduce --sim-only --out " + dir + "/file/sub", "--out");
  if (have_viz()) {
    expect_usage_error("diagram --size 8 -o " + missing + ".png", "--output");
    expect_usage_error("diagram --size 8 --csv " + missing + ".csv -o " + dir + "/d.png", "--csv");
    expect_usage_error("plot heatmap --input x.csv -o " + missing + ".png", "--output");
    EXPECT_FALSE(fs::exists(dir + "/d.png")); // nothing drawn before the check
    // A PNG cannot go to stdout, and the error does not offer it.
    const CliRun png = cbi_run("diagram --size 8 -o /nonexistent-cbi-folder/d.png");
    EXPECT_EQ(png.err.find("stdout"), std::string::npos) << png.err;
    expect_usage_error("plot heatmap --input x.csv -o -", "--output");
  }
  // A run big enough to take minutes fails at once: the check precedes the work.
  const auto t0 = std::chrono::steady_clock::now();
  expect_usage_error("simulate --size 1000000x1000 --output " + missing + ".csv", "--output");
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5.0);
  fs::remove_all(dir);
}

// /proc takes no files, even for root, whom access() lets write anywhere: the folder is probed
// before any work (it was "cannot write '/proc/x': No such file or directory" after the run in
// most commands, and "allowed: a writable path" with no reason in sweep).
TEST(Hygiene, AFolderThatTakesNoFilesIsRefusedBeforeAnyWork) {
  const std::string said = "--output: cannot write '/proc/cbi-x.csv': folder '/proc' takes no new "
                           "files";
  for (const char *cmd : {"simulate", "mrc --size 16", "analyze", "devices", "tune --size 16",
                          "sweep --size 16", "trace --size 16"})
    expect_usage_error(std::string(cmd) + " --output /proc/cbi-x.csv", said);
  expect_usage_error("sweep --size 16 --json /proc/cbi-x.json",
                     "--json: cannot write '/proc/cbi-x.json': folder '/proc' takes no new files");
  if (have_viz())
    expect_usage_error("diagram --size 8 -o /proc/cbi-x.png",
                       "--output: cannot write '/proc/cbi-x.png': folder '/proc' takes no new");
  const auto t0 = std::chrono::steady_clock::now();
  expect_usage_error("simulate --size 1000000x1000 --output /proc/cbi-x.csv", said);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5.0);
}

// --dry-run writes no file and runs nothing: an option for the run beside it was ignored
// (sweep --dry-run -o F.csv printed the plan on stdout and left F.csv unwritten, unsaid).
TEST(Hygiene, DryRunRefusesTheOptionsOfARun) {
  const std::string dir = scratch("dry");
  const std::string csv = dir + "/plan.csv";
  for (const std::string &extra :
       {"-o " + csv, "--output " + csv, "--json " + dir + "/p.json", std::string("--resume"),
        std::string("--jobs 2"), std::string("--progress")}) {
    const std::string option =
        extra.rfind("-o ", 0) == 0 ? "--output" : extra.substr(0, extra.find(' '));
    expect_usage_error("sweep --size 16 --dry-run " + extra,
                       "cbi sweep: " + option + ": does not go with --dry-run");
  }
  EXPECT_FALSE(fs::exists(csv));
  const CliRun plan = cbi_run("sweep --size 16 --dry-run");
  EXPECT_EQ(plan.exit_code, 0) << plan.err;
  EXPECT_NE(plan.out.find("size=16"), std::string::npos) << plan.out;
  fs::remove_all(dir);
}

// An ending names its format in any case: r.JSON was refused as "names no format", r.CSV and
// r.TXT too, while r.json, r.csv and r.txt were taken.
TEST(Hygiene, AnOutputEndingNamesItsFormatInAnyCase) {
  const std::string dir = scratch("ending_case");
  ASSERT_EQ(cbi_run("simulate -o " + dir + "/r.JSON").exit_code, 0);
  EXPECT_EQ(nlohmann::json::parse(slurp(dir + "/r.JSON"))["config"]["workload"], "stencil");
  ASSERT_EQ(cbi_run("simulate -o " + dir + "/r.Csv").exit_code, 0);
  EXPECT_EQ(slurp(dir + "/r.Csv"), cbi_run("simulate --format csv").out);
  ASSERT_EQ(cbi_run("simulate -o " + dir + "/r.TXT").exit_code, 0);
  EXPECT_EQ(slurp(dir + "/r.TXT").rfind("cbi simulate: ", 0), 0u);
  expect_usage_error("simulate --format csv -o " + dir + "/r.JSON",
                     ": --format: csv does not match --output " + dir + "/r.JSON (json)");
  fs::remove_all(dir);
}

// Without --format, -o's ending picks the format: one that names none (r.xml) was written as the
// table, silently. It is refused, listing the endings, and nothing is written; --format takes any.
TEST(Hygiene, AnOutputEndingThatNamesNoFormatIsRefused) {
  const std::string dir = scratch("endings");
  for (const char *cmd : {"simulate", "mrc --size 16", "analyze", "devices", "presets",
                          "tune --size 16", "bench", "sweep merge x.csv"}) {
    SCOPED_TRACE(cmd);
    expect_usage_error(std::string(cmd) + " -o " + dir + "/r.xml",
                       ": --output: '" + dir +
                           "/r.xml' ends in .xml, which names no format; "
                           "allowed: an ending .csv, .json, .md or .txt");
    EXPECT_FALSE(fs::exists(dir + "/r.xml"));
  }
  // --format names it for any ending; .txt and no ending are the default (the table).
  ASSERT_EQ(cbi_run("simulate --format json -o " + dir + "/r.xml").exit_code, 0);
  EXPECT_EQ(nlohmann::json::parse(slurp(dir + "/r.xml"))["config"]["workload"], "stencil");
  for (const char *name : {"/r.txt", "/r"}) {
    ASSERT_EQ(cbi_run(std::string("simulate -o ") + dir + name).exit_code, 0) << name;
    const std::string table = slurp(dir + name), stdout_table = cbi_run("simulate").out;
    EXPECT_EQ(table.substr(0, table.find('\n')), stdout_table.substr(0, stdout_table.find('\n')));
    EXPECT_NE(table.find("\nhit_pct "), std::string::npos) << name << ": " << table;
  }
  // A trace is no CSV, JSON or markdown: an ending that says so is refused.
  expect_usage_error("trace --size 16 -o " + dir + "/t.json",
                     ": --output: '" + dir +
                         "/t.json' ends as json does, and --output writes trace");
  EXPECT_FALSE(fs::exists(dir + "/t.json"));
  fs::remove_all(dir);
}

TEST(Hygiene, OutputWritesThroughSymlinksAndFifos) {
  const std::string dir = scratch("through");
  const std::string target = dir + "/target.csv", link = dir + "/link.csv";
  { std::ofstream(target) << "old\n"; }
  fs::create_symlink(target, link);
  const CliRun r = cbi_run("simulate --format csv -o " + link);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(link)) << "the symlink was replaced by a file";
  EXPECT_EQ(slurp(target).rfind("workload,", 0), 0u) << slurp(target);

  const std::string fifo = dir + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::string read_back;
  std::thread reader([&] { read_back = slurp(fifo); });
  const CliRun f = cbi_run("simulate --format csv -o " + fifo);
  reader.join();
  EXPECT_EQ(f.exit_code, 0) << f.err;
  struct stat st {};
  ASSERT_EQ(stat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode)) << "the FIFO was replaced by a regular file";
  EXPECT_EQ(read_back.rfind("workload,", 0), 0u) << read_back;

  const CliRun null = cbi_run("simulate --format csv -o /dev/null");
  EXPECT_EQ(null.exit_code, 0) << null.err;
  ASSERT_EQ(stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  fs::remove_all(dir);
}

TEST(Hygiene, VersionNamesTheCommit) {
  const CliRun r = cbi_run("--version");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("cbi ", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("commit "), std::string::npos) << r.out;
  EXPECT_EQ(count_lines(r.out), 1) << r.out;
  EXPECT_EQ(cbi_run("--version extra").exit_code, 2);
  if (have_viz()) {
    const CliRun v = cbi::test::run_program("cbi-viz", "--version");
    EXPECT_EQ(v.exit_code, 0);
    EXPECT_EQ(v.out.substr(v.out.find(' ')), r.out.substr(r.out.find(' '))) << v.out;
  }
}

TEST(Hygiene, BenchWithoutAGpuSaysSo) {
  const CliRun r = cbi_run("bench --size 64");
  if (r.exit_code != 3)
    GTEST_SKIP() << "a CUDA device is present";
  EXPECT_NE(r.err.find("no CUDA device or driver was found"), std::string::npos) << r.err;
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
}

TEST(Hygiene, MemoryThatCannotFitNamesTheNeedAndTheOption) {
  // 2^30 x 2^10 floats in 4-byte lines: about 4 Ti lines, far beyond any test machine.
  const CliRun r = cbi_run("mrc --size 1073741824x1024 --line-bytes 4");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("GiB"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--line-bytes"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--size"), std::string::npos) << r.err;
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
}

// Item 8: files for tools.
namespace {

// Every value in `j`, recursively: no empty strings and no strings that hold a number.
void expect_typed(const nlohmann::json &j, const std::string &where) {
  if (j.is_object() || j.is_array()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      expect_typed(*it, where + "/" + (j.is_object() ? it.key() : std::string("[]")));
    return;
  }
  if (!j.is_string())
    return;
  const std::string s = j.get<std::string>();
  EXPECT_FALSE(s.empty()) << where << " is \"\" (a missing value is null)";
  char *end = nullptr;
  std::strtod(s.c_str(), &end);
  EXPECT_FALSE(!s.empty() && *end == 0) << where << " is the numeric string \"" << s << "\"";
}

} // namespace

TEST(FilesForTools, JsonIsTypedAndCarriesTheContext) {
  for (const char *args :
       {"simulate --format json", "simulate --model gpu --size 64 --format json",
        "mrc --size 16 --format json", "analyze --format json", "devices --format json",
        "tune --size 16 --orders linear,column:4 --format json"}) {
    const CliRun r = cbi_run(args);
    ASSERT_EQ(r.exit_code, 0) << args << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    expect_typed(j, args);
    const nlohmann::json &c = j.at("context");
    EXPECT_FALSE(c.at("cbi_version").get<std::string>().empty()) << args;
    EXPECT_FALSE(c.at("git_commit").get<std::string>().empty()) << args;
    EXPECT_NE(c.at("command").get<std::string>().find(std::string(args).substr(0, 5)),
              std::string::npos)
        << args;
    EXPECT_EQ(c.at("date").get<std::string>().size(), 20u) << args; // 2026-11-23T06:30:00Z
    EXPECT_GE(c.at("host_cores").get<int>(), 1) << args;
    EXPECT_TRUE(c.at("host_cpu").is_string() && c.at("compiler").is_string()) << args;
  }
  const nlohmann::json sim = nlohmann::json::parse(cbi_run("simulate --format json").out);
  EXPECT_TRUE(sim["meta"]["threads"].is_number_integer());
  EXPECT_TRUE(sim["meta"]["seconds"].is_number());
  EXPECT_EQ(sim["config"]["width"], 16);
  EXPECT_EQ(sim["rows"][0]["misses"], 316);
  EXPECT_DOUBLE_EQ(sim["rows"][0]["hit_pct"].get<double>(), 100.0 * 12228 / 12544);
  // analyze leaves the simulated column of model-only rows empty: null, not "".
  const nlohmann::json an = nlohmann::json::parse(cbi_run("analyze --format json").out);
  EXPECT_TRUE(an["rows"][0]["simulated"].is_null()) << an["rows"][0];
}

// A configuration field the workload does not have is null (an empty CSV cell), never the
// default of another workload: matmul had "stencil_w": 7 and "boundary": "clamp", the stencil
// "depth": 1024, as if they had been set.
TEST(FilesForTools, FieldsThatDoNotApplyAreNull) {
  const nlohmann::json mm = nlohmann::json::parse(
      cbi_run("simulate --workload matmul --size 32 --format json").out)["config"];
  EXPECT_TRUE(mm["stencil_w"].is_null() && mm["stencil_h"].is_null()) << mm;
  EXPECT_TRUE(mm["boundary"].is_null()) << mm;
  EXPECT_EQ(mm["depth"], 32) << mm;
  const nlohmann::json st = nlohmann::json::parse(
      cbi_run("simulate --model gpu --size 32 --stencil 3x3 --format json").out)["config"];
  EXPECT_TRUE(st["depth"].is_null()) << st;
  EXPECT_EQ(st["stencil_w"], 3) << st;
  EXPECT_EQ(st["boundary"], "clamp") << st;
  const nlohmann::json tiled = nlohmann::json::parse(
      cbi_run("tune --kernel sgemm-tiled --size 256 --block-order linear,column:2 --format json")
          .out)["config"];
  EXPECT_TRUE(tiled["stencil_w"].is_null()) << tiled;
  // cbi presets likewise: Table 3.2's matmul has no boundary.
  for (const nlohmann::json &row :
       nlohmann::json::parse(cbi_run("presets --format json").out)["rows"]) {
    if (row["name"] == "table3.2") {
      EXPECT_TRUE(row["boundary"].is_null()) << row;
    }
  }
  // The terminal table leaves them out.
  const CliRun table = cbi_run("simulate --workload matmul --size 32");
  for (const char *key : {"stencil_w:", "boundary:"})
    EXPECT_EQ(table.out.find(key), std::string::npos) << key << table.out;
}

// One name, one fact: the device row's name (config) and its description (meta) were both
// "device", printed twice in the table with two different values.
TEST(FilesForTools, TheDeviceRowAndItsDescriptionHaveTwoNames) {
  for (const char *args : {"simulate --model gpu --size 32", "tune --size 32 --orders linear"}) {
    const CliRun r = cbi_run(args);
    ASSERT_EQ(r.exit_code, 0) << args << r.err;
    EXPECT_EQ(r.out.find("device:"), r.out.rfind("device:")) << args << "\n" << r.out;
    const nlohmann::json j =
        nlohmann::json::parse(cbi_run(std::string(args) + " --format json").out);
    EXPECT_EQ(j["config"]["device"], "h100") << args;
    EXPECT_NE(j["meta"]["device_description"].get<std::string>().find("H100"), std::string::npos);
  }
}

// cbi devices: a 0 in a stage's rate or window (launcher_ctas_per_us 0 on the a100) read as a
// value ("0 CTAs a microsecond"); the notes say it is a stage the row leaves out.
TEST(FilesForTools, DevicesSayWhatAZeroStageMeans) {
  const CliRun r = cbi_run("devices");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string said = r.out + r.err;
  EXPECT_NE(said.find("stream_issue_norm: the device's model has no such stage"),
            std::string::npos)
      << said; // the table's notes wrap at 100 columns: the whole sentence is in the JSON's
  const nlohmann::json j = nlohmann::json::parse(cbi_run("devices --format json").out);
  bool noted = false;
  for (const auto &n : j["notes"])
    noted = noted || n.get<std::string>().find("stream_issue_norm: the device's model has no "
                                               "such stage or limit") != std::string::npos;
  EXPECT_TRUE(noted) << j["notes"];
}

TEST(FilesForTools, CsvsOfSeveralRunsConcatenate) {
  const CliRun a = cbi_run("simulate --format csv");
  const CliRun b = cbi_run("simulate --workload matmul --order column:8 --sector-bytes 8 "
                           "--format csv");
  ASSERT_EQ(a.exit_code, 0);
  ASSERT_EQ(b.exit_code, 0) << b.err;
  const std::string header = a.out.substr(0, a.out.find('\n'));
  EXPECT_EQ(b.out.substr(0, b.out.find('\n')), header) << "same columns for every configuration";
  for (const char *column : {"workload", "width", "height", "order", "count_unit", "hit_pct"})
    EXPECT_NE(header.find(column), std::string::npos) << column;
  EXPECT_EQ(header.find("hit_rate"), std::string::npos) << "percentages are *_pct";
  // The configuration is in the row, and sector counts say so.
  const std::string row = b.out.substr(b.out.find('\n') + 1);
  EXPECT_EQ(row.rfind("matmul,16,16,", 0), 0u) << row;
  EXPECT_NE(row.find(",column:8,"), std::string::npos) << row;
  EXPECT_NE(row.find(",sector,"), std::string::npos) << row;
  // Integers exact, percentages not cut to 6 digits.
  EXPECT_NE(a.out.find(",97.48086734693877,"), std::string::npos) << a.out;
  const CliRun big = cbi_run("simulate --size 1024 --stencil 3x3 --format csv");
  EXPECT_NE(big.out.find(",9437184,"), std::string::npos) << big.out; // 1024^2 x 9 accesses
}

// A number in a --level or --cache spec named the bad value alone ("--level: '0' is out of range;
// allowed: a positive integer from 1 to 1099511627776"): the item is named whole, sizes in bytes.
TEST(Hygiene, ALevelNumberErrorNamesItsKeyAndUnits) {
  expect_usage_error("simulate --level size=0,line=128",
                     ": --level: 'size=0' is out of range; allowed: a size from 1 B to 1TiB, e.g. "
                     "4096, 32KiB or 4MiB");
  expect_usage_error("simulate --level size=32KiB,line=abc",
                     ": --level: 'line=abc' is not a positive integer; allowed: an integer from 1 "
                     "to 1048576");
  expect_usage_error("simulate --level size=32KiB,line=",
                     ": --level: 'line=' has an empty value; allowed: an integer from 1 to");
  expect_usage_error("sweep --cache size=1KiB,ways=-2 --dry-run",
                     ": --cache: 'ways=-2' is not allowed; allowed: 0 (ways=0: fully associative)");
  expect_usage_error("simulate --cache-bytes 0", ": --cache-bytes: '0' is out of range; allowed: a "
                                                 "size from 1 B to 1TiB");
}

// A near miss of an option names it (AbbreviatedOptionsAreRefusedNamingTheFullSpelling: --orders
// in simulate, --stencl); and of a command: 'simulat' and 'diagrm' were offered nothing.
TEST(Hygiene, ANearMissNamesTheOptionOrCommandMeant) {
  // Short or far: nothing offered.
  const CliRun far = cbi_run("simulate --xyz 1");
  EXPECT_EQ(far.err.find("did you mean"), std::string::npos) << far.err;
  for (const auto &[typed, meant] :
       std::vector<std::pair<std::string, std::string>>{{"simulat", "simulate"},
                                                        {"Simulate", "simulate"},
                                                        {"simualte", "simulate"},
                                                        {"sweeps", "sweep"},
                                                        {"diagrm", "diagram"}})
    expect_usage_error(typed, "cbi: unknown command '" + typed + "' (did you mean " + meant +
                                  "?); allowed: simulate, ");
  const CliRun none = cbi_run("zzzz");
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_EQ(none.err.find("did you mean"), std::string::npos) << none.err;
}
