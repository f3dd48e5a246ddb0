// End-to-end tests of what a researcher trying every command for the first time runs into: one
// spelling of an option across commands, machine-readable output that is typed, counts whose 0
// means the same everywhere, progress on long runs, and every command taking the words its help
// shows.
#include "cli_run.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace {

using cbi::test::cbi_run;
using cbi::test::CliRun;
using cbi::test::count_lines;
using cbi::test::expect_usage_error;

nlohmann::json json_of(const std::string &args) {
  const CliRun r = cbi_run(args + " --format json");
  EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.err;
  return r.exit_code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json::object();
}

// A command's help as one line: Boost wraps the text where it pleases.
std::string help_line(const std::string &command) {
  std::string help;
  for (char c : cbi_run(command + " --help").out)
    if (!std::isspace(static_cast<unsigned char>(c)) || (!help.empty() && help.back() != ' '))
      help += std::isspace(static_cast<unsigned char>(c)) ? ' ' : c;
  return help;
}

} // namespace

// simulate, tune, mrc, analyze and trace take the element type as cbi sweep and cbi bench spell
// it (--type half|float|double); --elem-bytes stays, the same type by its size.
TEST(FirstUse, TheElementTypeIsSpelledAsSweepAndBenchSpellIt) {
  const std::pair<const char *, int> types[] = {{"half", 2}, {"float", 4}, {"double", 8}};
  for (const auto &[type, bytes] : types) {
    const std::string by_name = "--type " + std::string(type);
    const std::string by_size = "--elem-bytes " + std::to_string(bytes);
    for (const std::string command :
         {"simulate --size 32", "mrc --size 32", "analyze --size 32 --no-simulate",
          "tune --size 32 --orders linear,column:4 --search full", "simulate --preset table3.1",
          "simulate --model gpu --size 32"}) {
      SCOPED_TRACE(command + " " + by_name);
      const nlohmann::json named = json_of(command + " " + by_name);
      EXPECT_EQ(named["config"]["elem_bytes"], bytes);
      const nlohmann::json sized = json_of(command + " " + by_size);
      EXPECT_EQ(named["config"], sized["config"]);
      // Both, naming one type, are the same again.
      EXPECT_EQ(json_of(command + " " + by_name + " " + by_size)["config"], named["config"]);
    }
    const CliRun trace = cbi_run("trace --size 16 -o - " + by_name);
    EXPECT_EQ(trace.exit_code, 0) << trace.err;
    EXPECT_EQ(trace.out, cbi_run("trace --size 16 -o - " + by_size).out);
  }
  // Both given and disagreeing, an unknown type, a size that is none: one line each.
  expect_usage_error("simulate --type half --elem-bytes 4",
                     ": --elem-bytes: 4 (float) disagrees with --type half");
  expect_usage_error("tune --type double --elem-bytes 2", ": --elem-bytes:");
  expect_usage_error("simulate --type int", ": --type: unknown type 'int'; allowed: half, float, "
                                            "double");
  expect_usage_error("simulate --elem-bytes 3", ": --elem-bytes: '3' is not allowed; allowed: 2 "
                                                "(half), 4 (float), 8 (double)");
  // An error about the type names the spelling given.
  expect_usage_error("simulate --model gpu --kernel sgemm-tiled --size 128 --type half",
                     ": --type: sgemm-tiled is float only");
  expect_usage_error("simulate --model gpu --kernel sgemm-tiled --size 128 --elem-bytes 2",
                     ": --elem-bytes: sgemm-tiled is float only");
  // A trace fixes the type in either spelling.
  expect_usage_error("mrc --trace /dev/null --type half", ": --type: a trace fixes");
  // Every command that takes it says so in its help, beside the alias.
  for (const char *command : {"simulate", "tune", "mrc", "analyze", "trace"}) {
    const std::string help = cbi_run(std::string(command) + " --help").out;
    EXPECT_NE(help.find("--type arg"), std::string::npos) << command;
    EXPECT_NE(help.find("--elem-bytes arg"), std::string::npos) << command;
  }
}

// --jobs's default (the cores idle at the start) is spelled out in the help of both commands that
// take it, and the count a run took is in its result, given or not.
TEST(FirstUse, JobsDefaultIsSpelledOutAndTheCountTakenReported) {
  for (const char *command : {"simulate", "tune"}) {
    const std::string help = help_line(command);
    for (const char *said :
         {"default: the cores idle at the start", "/proc/loadavg", "at least 1", "meta.jobs"})
      EXPECT_NE(help.find(said), std::string::npos) << command << ": " << said;
  }
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  EXPECT_EQ(json_of("simulate --model gpu --size 32 --jobs 2")["meta"]["jobs"], std::min(2, cores));
  EXPECT_EQ(json_of("tune --size 32 --orders linear,column:4 --jobs 3")["meta"]["jobs"],
            std::min(3, cores));
  for (const std::string args :
       {"simulate --model gpu --size 32", "tune --size 32 --orders linear,column:4"}) {
    const nlohmann::json j = json_of(args);
    ASSERT_TRUE(j["meta"].contains("jobs")) << args;
    EXPECT_GE(j["meta"]["jobs"].get<int>(), 1) << args;
    EXPECT_LE(j["meta"]["jobs"].get<int>(), j["context"]["host_cores"].get<int>()) << args;
  }
}

// --jobs above the cores (simulate --model gpu --jobs 1024 on 2 cores printed nothing for 20 s)
// takes the cores and says so in one stderr line naming --jobs, the count taken being meta.jobs;
// for every command that takes --jobs, and each one's help says so.
TEST(FirstUse, JobsAboveTheCoresTakeTheCores) {
  const unsigned cores = std::thread::hardware_concurrency();
  ASSERT_GT(cores, 0u);
  const std::string above = std::to_string(cores + 1), n = std::to_string(cores);
  const std::string said =
      "cbi: --jobs " + above + " is more than the " + n + " cores here; using " + n + "\n";
  const CliRun tune =
      cbi_run("tune --size 32 --orders linear,column:4 --format json --jobs " + above);
  ASSERT_EQ(tune.exit_code, 0) << tune.err;
  EXPECT_EQ(tune.err, said);
  EXPECT_EQ(nlohmann::json::parse(tune.out)["meta"]["jobs"], cores);
  const CliRun simulate = cbi_run("simulate --model gpu --size 32 --format json --jobs " + above);
  ASSERT_EQ(simulate.exit_code, 0) << simulate.err;
  EXPECT_EQ(simulate.err, said);
  EXPECT_LE(nlohmann::json::parse(simulate.out)["meta"]["jobs"].get<unsigned>(), cores);
  const auto out = std::filesystem::temp_directory_path() / "cbi-jobs-above-cores.csv";
  const CliRun sweep =
      cbi_run("sweep --size 16 --order linear --jobs " + above + " -o " + out.string());
  std::filesystem::remove(out);
  EXPECT_EQ(sweep.exit_code, 0) << sweep.err;
  EXPECT_NE(sweep.err.find(said), std::string::npos) << sweep.err;
  for (const char *command : {"simulate", "tune", "sweep", "reproduce"}) {
    const std::string help = help_line(command);
    EXPECT_NE(help.find("a count above this machine's cores takes the cores"), std::string::npos)
        << command;
  }
}

// A command refused for another option after --jobs above the cores was read printed two lines
// (the --jobs notice, then the error): a refused command prints its one error line alone.
TEST(FirstUse, JobsAboveTheCoresOnARefusedCommandPrintOnlyTheError) {
  const unsigned cores = std::thread::hardware_concurrency();
  ASSERT_GT(cores, 0u);
  const std::string above = " --jobs " + std::to_string(cores + 1);
  const std::string dir = cbi::test::scratch_dir("cbi_jobs_refused", "first_use");
  const std::string csv = dir + "/s.csv";
  ASSERT_EQ(cbi_run("sweep --size 16 --order linear -o " + csv).exit_code, 0);
  expect_usage_error("simulate --model gpu --size 32 --sample-sms 5000" + above, ": --sample-sms:");
  expect_usage_error("tune --size 32 --orders linear,column:4 --final-sms 7" + above,
                     ": --final-sms:");
  expect_usage_error("sweep --size 32 --order linear --resume -o " + csv + above, ": --resume:");
  expect_usage_error("reproduce --sim-only --only bogus -o " + dir + "/report" + above,
                     ": --only: unknown part 'bogus'");
  std::filesystem::remove_all(dir);
}

// --only names a part of the other run (a GPU part with --sim-only, sim-sec5.2 without it): it
// said "unknown part", as for a typo; now it says which run has it, listing this run's parts.
TEST(FirstUse, ReproduceOnlyAPartOfTheOtherRunSaysWhy) {
  const std::string dir = cbi::test::scratch_dir("cbi_only_other", "first_use");
  expect_usage_error("reproduce --sim-only --only gpu-fig5.2 -o " + dir + "/r",
                     ": --only: 'gpu-fig5.2' is a part of the run on a GPU, which --sim-only "
                     "leaves out; allowed: sim-fig5.1a,");
  expect_usage_error("reproduce --only sim-sec5.2 -o " + dir + "/r",
                     ": --only: 'sim-sec5.2' is a part of the run with --sim-only (the "
                     "simulator-only job); allowed: gpu-fig5.1a,");
  EXPECT_FALSE(std::filesystem::exists(dir + "/r"));
  std::filesystem::remove_all(dir);
}

// cbi tune's orders that the model cannot tell apart are a JSON list of order names, the rows of
// tie group 1 in rank order; the table and CSV name them joined.
TEST(FirstUse, TuneTiesAreAListOfOrderNames) {
  const std::string args = "tune --workload matmul --size 64 --orders "
                           "linear,column:4,column:8,column:16 --search full --jobs 1";
  const nlohmann::json t = json_of(args);
  const nlohmann::json &tied = t["meta"]["indistinguishable_by_the_model"];
  ASSERT_TRUE(tied.is_array()) << tied;
  std::vector<std::string> group_one;
  for (const nlohmann::json &row : t["ranking"])
    if (row["tie_group"] == 1)
      group_one.push_back(row["order"]);
  ASSERT_GT(group_one.size(), 1u) << t.dump(2);
  EXPECT_EQ(tied.get<std::vector<std::string>>(), group_one);
  std::string joined;
  for (const std::string &o : group_one)
    joined += (joined.empty() ? "" : ", ") + o;
  const CliRun table = cbi_run(args);
  EXPECT_NE(table.out.find("indistinguishable_by_the_model: " + joined), std::string::npos)
      << table.out;
  EXPECT_NE(cbi_run(args + " --format markdown").out.find(joined), std::string::npos);
}

// --sample-sms 0 is the full device in both commands that take it: simulate --model gpu as
// leaving it out, tune every order replayed in full (the full search); the tiled kernels, ranked
// on the full device, take 0 too.
TEST(FirstUse, SampleSmsZeroIsTheFullDeviceInSimulateAndTune) {
  const std::string tune = "tune --size 32 --orders linear,column:4 --jobs 1";
  const nlohmann::json zero = json_of(tune + " --sample-sms 0");
  const nlohmann::json full = json_of(tune + " --search full");
  EXPECT_EQ(zero["config"]["search"], "full");
  EXPECT_EQ(zero["ranking"], full["ranking"]);
  for (const nlohmann::json &row : zero["ranking"])
    EXPECT_EQ(row["replay"], "full");
  EXPECT_EQ(json_of(tune + " --sample-sms 0 --search full")["ranking"], full["ranking"]);
  const std::string simulate = "simulate --model gpu --size 32 --jobs 1";
  const nlohmann::json metrics = json_of(simulate)["metrics"];
  ASSERT_TRUE(metrics.is_object()) << metrics;
  EXPECT_EQ(json_of(simulate + " --sample-sms 0")["metrics"], metrics);
  EXPECT_EQ(cbi_run("tune --kernel sgemm-tiled --size 256 --block-order linear,column:2 "
                    "--sample-sms 0 --jobs 1")
                .exit_code,
            0);
  EXPECT_EQ(cbi_run("simulate --model gpu --kernel sgemm-tiled --size 256 --sample-sms 0 "
                    "--jobs 1")
                .exit_code,
            0);
  // A staged search asked for besides has no sampled stage: refused, as a negative count is.
  expect_usage_error(tune + " --sample-sms 0 --search staged", ": --sample-sms: 0 is the full");
  expect_usage_error(tune + " --sample-sms 0 --finalists 2", ": --sample-sms: 0 is the full");
  expect_usage_error(tune + " --sample-sms -1", ": --sample-sms: '-1' is not allowed; allowed: 0 "
                                                "(all SMs)");
  expect_usage_error("tune --kernel sgemm-tiled --size 256 --sample-sms 2",
                     ": --sample-sms: sgemm-tiled's block orders are replayed on the full device");
  for (const char *command : {"simulate", "tune"})
    EXPECT_NE(cbi_run(std::string(command) + " --help").out.find("full device"), std::string::npos)
        << command;
}

// cbi presets NAME shows that preset in full with the options it stands for; an unknown name is one
// line with the allowed names; a second name is refused, not dropped.
TEST(FirstUse, PresetsNameShowsThatPreset) {
  const CliRun one = cbi_run("presets table3.1");
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_NE(one.out.find("cbi presets: table3.1\n"), std::string::npos) << one.out;
  EXPECT_NE(one.out.find("--preset table3.1 stands for --workload stencil --size 16x16"),
            std::string::npos)
      << one.out;
  EXPECT_EQ(one.out.find("fig4.4"), std::string::npos) << "only the one preset\n" << one.out;
  // JSON: the full listing's row, alone; the same with --name and with the word after an option.
  const nlohmann::json all = json_of("presets");
  for (const std::string args :
       {"presets fig4.4", "presets --name fig4.4", "presets --wide fig4.4"}) {
    const CliRun r = cbi_run(args);
    EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.err;
    if (args.find("--wide") != std::string::npos)
      continue; // --wide is the table's
    const nlohmann::json j = json_of(args);
    ASSERT_EQ(j["rows"].size(), 1u) << args;
    EXPECT_EQ(j["rows"][0]["name"], "fig4.4");
    bool listed = false;
    for (const nlohmann::json &row : all["rows"])
      listed = listed || row == j["rows"][0];
    EXPECT_TRUE(listed) << j["rows"][0];
  }
  expect_usage_error("presets nope", ": NAME: unknown preset 'nope'; allowed: table3.1, ");
  expect_usage_error("presets table3.1 fig4.4", ": NAME: more than one given");
  expect_usage_error("presets table3.1 --name fig4.4",
                     ": NAME: given as a word and as --name too; allowed: one of them, once");
  // Given as --name, an unknown name is --name's error.
  expect_usage_error("presets --name nope", ": --name: unknown preset 'nope'; allowed: table3.1");
  expect_usage_error("presets --name=nope", ": --name: unknown preset 'nope'; allowed: table3.1");
  EXPECT_NE(cbi_run("presets --help").out.find("cbi presets table3.1"), std::string::npos);
  // The other list command reads a name alike: cbi devices NAME is that one row (it was
  // "unexpected argument"), an unknown one is NAME's error, two are refused.
  const CliRun device = cbi_run("devices h200 --format csv");
  ASSERT_EQ(device.exit_code, 0) << device.err;
  EXPECT_EQ(count_lines(device.out), 2) << device.out;
  EXPECT_EQ(device.out.find("\nh200,132,"), device.out.find('\n')) << device.out;
  expect_usage_error("devices nope", ": NAME: unknown device 'nope'; allowed: h100, h200, ");
  expect_usage_error("devices --name nope", ": --name: unknown device 'nope'");
  expect_usage_error("devices h100 h200", ": NAME: more than one given");
}

// cbi sweep --list prints the grids and runs nothing: an option beside it is refused, not ignored.
TEST(FirstUse, SweepListTakesNoOtherOption) {
  const CliRun list = cbi_run("sweep --list");
  ASSERT_EQ(list.exit_code, 0) << list.err;
  EXPECT_NE(list.out.find("fig5.1a"), std::string::npos) << list.out;
  for (const char *other : {"--grid fig5.1a", "--size 16", "--dry-run", "--output x.csv"})
    expect_usage_error(std::string("sweep --list ") + other,
                       std::string(": ") +
                           std::string(other).substr(0, std::string(other).find(' ')) +
                           ": does not go with --list, which prints the built-in grids");
}

// cbi sweep refuses the hardware's measurement settings where no gpu backend measures, and an axis
// that no kernel of the grid has, instead of running without them.
TEST(FirstUse, SweepRefusesOptionsThatNoBackendOrKernelReads) {
  const std::pair<const char *, const char *> refused[] = {
      {"--cold", ": --cold: applies to the gpu backend only"},
      {"--no-check", ": --no-check: applies to the gpu backend only"},
      {"--min-samples 5", ": --min-samples: applies to the gpu backend only"},
      {"--max-seconds 1", ": --max-seconds: applies to the gpu backend only"},
      {"--max-noise 0.1", ": --max-noise: applies to the gpu backend only"},
      {"--model gpu --cold", ": --cold: applies to the gpu backend only"},
      {"--depth 8", ": --depth: no listed kernel has an inner dimension"},
      {"--kernel matmul --stencil 3x3", ": --stencil: no listed kernel has a stencil window"},
      {"--grid fig5.1b --stencil 3x3", ": --stencil: no listed kernel has a stencil window"},
      {"--kernel matmul --block-order column:2", ": --block-order: no listed kernel has tiles"},
      {"--kernel sgemm-tiled --remap-math div --backend gpu",
       ": --remap-math: no listed kernel maps its threads"},
      {"--backend gpu --max-noise -1", ": --max-noise: '-1' is not allowed; allowed: a noise "
                                       "target stdev/mean from 0 to 1e6"},
  };
  for (const auto &[args, what] : refused)
    expect_usage_error(std::string("sweep --size 64 --dry-run ") + args, what);
  // Where a backend or a kernel reads them, they run; on a sim run the unsimulated axes pick among
  // the grid's own values, whose point ids a gpu run of the grid shares
  // (FirstUse.SweepRefusesAxesTheSimulatorDoesNotCount).
  for (const char *args :
       {"--block 256 --remap-math fast", "--backend sim,gpu --cold --max-noise 0.1 --metrics",
        "--kernel matmul,stencil --stencil 3x3 --depth 8",
        "--kernel sgemm-tiled --block-order "
        "column:2"}) {
    const CliRun r = cbi_run(std::string("sweep --size 64 --dry-run ") + args);
    EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.err;
  }
}

// cbi diagram --progress: one bar on stderr over all panels' threads, with an ETA, a line per
// tenth when stderr is not a terminal; nothing there without it.
TEST(FirstUse, DiagramShowsProgressWhenAsked) {
  if (!std::filesystem::exists(cbi::test::bin_dir() + "/cbi-viz"))
    GTEST_SKIP() << "no cbi-viz in this build";
  const std::string dir = cbi::test::scratch_dir("cbi_first_use", "diagram");
  for (const char *model : {"", "--model gpu --workload matmul "}) {
    const std::string args =
        std::string("diagram ") + model + "--size 64 --order linear,column:8 -o " + dir + "/d.png";
    const CliRun quiet = cbi_run(args);
    ASSERT_EQ(quiet.exit_code, 0) << quiet.err;
    EXPECT_EQ(quiet.err, "") << args;
    const CliRun shown = cbi_run(args + " --progress");
    ASSERT_EQ(shown.exit_code, 0) << shown.err;
    EXPECT_NE(shown.out.find("wrote "), std::string::npos) << shown.out; // the summary: stdout
    // Two panels of 64x64 threads: 8192 in all, counted to the end, one line per tenth at most.
    EXPECT_NE(shown.err.find("8192/8192 threads"), std::string::npos) << args << shown.err;
    EXPECT_NE(shown.err.find("ETA"), std::string::npos) << shown.err;
    EXPECT_LE(count_lines(shown.err), 11) << shown.err;
  }
  EXPECT_NE(cbi_run("diagram --help").out.find("--progress"), std::string::npos);
  std::filesystem::remove_all(dir);
}

// --size N is NxN (NxNxN for stencil3d) and is checked as if typed so: a huge N is one line at
// once, not a replay that never ends; stencil3d without --size runs its default volume.
TEST(FirstUse, SizeNIsCheckedAsTheGridItStandsFor) {
  expect_usage_error("simulate --size 99999999", ": --size: '99999999' means 99999999x99999999, "
                                                 "more than 2^40 elements");
  expect_usage_error("mrc --size 2000000", ": --size: '2000000' means 2000000x2000000");
  expect_usage_error("simulate --workload stencil3d --size 20000",
                     ": --size: '20000' means 20000x20000x20000");
  // The same product typed out was refused already: the two spellings agree.
  expect_usage_error("simulate --size 99999999x99999999", ": --size:");
  const nlohmann::json volume = json_of("simulate --workload stencil3d");
  EXPECT_EQ(volume["config"]["width"], 16);
  EXPECT_EQ(volume["config"]["depth"], 16); // 16 planes
  EXPECT_EQ(volume["config"], json_of("simulate --workload stencil3d --size 16x16x16")["config"]);
  EXPECT_NE(cbi_run("simulate --help").out.find("16x16x16 for"), std::string::npos);
}

// sweep --json - with the CSV on stdout too would interleave two documents: refused, in sweep
// and in sweep merge; with the CSV in a file, the JSON alone is on stdout.
TEST(FirstUse, SweepWritesOneDocumentToStdout) {
  const std::string dir = cbi::test::scratch_dir("cbi_first_use", "sweep_json");
  expect_usage_error("sweep --size 64 --json -", ": --json: '-' is stdout, where the CSV goes");
  const CliRun r = cbi_run("sweep --size 64 --json - -o " + dir + "/s.csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["rows"].size(), 1u);
  expect_usage_error("sweep merge --json - " + dir + "/s.csv", ": --json: '-' is stdout");
  std::filesystem::remove_all(dir);
}

// A diagram whose --csv cannot be written (a full disk: /dev/full) fails leaving no PNG; the PNG
// was written first and stayed.
TEST(FirstUse, ADiagramWhoseCsvFailsLeavesNoPng) {
  const std::string dir = cbi::test::scratch_dir("cbi_first_use", "diagram_csv");
  const CliRun r = cbi_run("diagram --size 16 -o " + dir + "/d.png --csv /dev/full");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("--csv: writing '/dev/full' failed"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/d.png"));
  std::filesystem::remove_all(dir);
}

// cbi help COMMAND is cbi COMMAND --help, for cbi's commands and cbi-viz's.
TEST(FirstUse, HelpCommandIsTheCommandsHelp) {
  for (const char *command : {"simulate", "sweep", "presets", "diagram"}) {
    const CliRun help = cbi_run(std::string("help ") + command);
    EXPECT_EQ(help.exit_code, 0) << command << help.err;
    EXPECT_EQ(help.out, cbi_run(std::string(command) + " --help").out) << command;
    // cbi --help COMMAND and cbi -h COMMAND too (they printed cbi's own help).
    EXPECT_EQ(cbi_run(std::string("--help ") + command).out, help.out) << command;
    EXPECT_EQ(cbi_run(std::string("-h ") + command).out, help.out) << command;
  }
  expect_usage_error("--help simulate tune", "--help: unexpected argument 'tune'");
  expect_usage_error("help nope", "unknown command 'nope'; allowed: simulate");
  // An option before the command is not a command: it says where options go.
  expect_usage_error("--size 16", "cbi: --size: not an option of cbi itself (its options go after "
                                  "a command: cbi simulate --size ...); allowed: --help, "
                                  "--version, or a command first: simulate, ");
  expect_usage_error("--versio", "cbi: --versio: not an option of cbi itself");
  expect_usage_error("help simulate tune", "help: unexpected argument 'tune'");
  expect_usage_error("help --version", "help: unexpected argument '--version'");
  EXPECT_NE(cbi_run("--help").out.find("cbi help <command>"), std::string::npos);
}

// Every command's --help fits the terminal's 100 columns, as its tables do (characters, not
// bytes: § and — are one each), cbi view's key list too.
TEST(FirstUse, EveryHelpFitsOneHundredColumns) {
  for (const char *command :
       {"", "simulate", "devices", "tune", "presets", "trace", "mrc", "analyze", "sweep",
        "sweep merge", "reproduce", "bench", "diagram", "view", "plot"}) {
    const CliRun r = cbi_run(std::string(command) + " --help");
    ASSERT_EQ(r.exit_code, 0) << command << "\n" << r.err;
    std::size_t start = 0;
    for (std::size_t end; (end = r.out.find('\n', start)) != std::string::npos; start = end + 1) {
      const std::string line = r.out.substr(start, end - start);
      std::size_t columns = 0;
      for (const char c : line)
        columns += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
      EXPECT_LE(columns, 100u) << "cbi " << command << " --help:\n" << line;
    }
  }
}

// cbi analyze has no model of the tiled kernels (it printed an empty table, exit 0): it refuses
// them in one line naming the option given, its help does not offer them, and --block-order (which
// only they take) is not one of its options.
TEST(FirstUse, AnalyzeRefusesTheTiledKernels) {
  for (const char *kernel : {"sgemm-tiled", "stencil-smem"}) {
    expect_usage_error(std::string("analyze --kernel ") + kernel,
                       std::string(": --kernel: ") + kernel + " has no analytical model");
    expect_usage_error(std::string("analyze --workload ") + kernel,
                       ": --workload: " + std::string(kernel) +
                           " has no analytical model (the thesis's covers listings 3 and 4); "
                           "allowed: stencil, matmul, stencil3d");
    const std::string help = cbi_run("analyze --help").out;
    EXPECT_EQ(help.find(kernel), std::string::npos) << help;
  }
  expect_usage_error("analyze --block-order column:4", ": --block-order: not an option");
  EXPECT_EQ(json_of("analyze --kernel matmul --size 16")["config"]["workload"], "matmul");
}

// A preset shown alone lists what applies to its workload: no empty depth line for a stencil, no
// empty stencil or boundary line for matmul (CSV and JSON keep the keys, empty).
TEST(FirstUse, OnePresetShowsOnlyTheKeysThatApply) {
  const std::string stencil = cbi_run("presets table3.1").out;
  EXPECT_NE(stencil.find("\n  stencil: 7x7\n"), std::string::npos) << stencil;
  EXPECT_EQ(stencil.find("depth:"), std::string::npos) << stencil;
  const std::string matmul = cbi_run("presets table3.2").out;
  EXPECT_NE(matmul.find("\n  depth: 16\n"), std::string::npos) << matmul;
  EXPECT_EQ(matmul.find("stencil:"), std::string::npos) << matmul;
  EXPECT_EQ(matmul.find("boundary:"), std::string::npos) << matmul;
  for (const std::string &all : {cbi_run("presets").out, stencil, matmul})
    EXPECT_EQ(all.find(": \n"), std::string::npos) << all;
  EXPECT_TRUE(json_of("presets table3.1")["rows"][0]["depth"].is_null());
}

// cbi sweep merge's errors name cbi sweep merge, not cbi sweep.
TEST(FirstUse, SweepMergeErrorsNameTheSubcommand) {
  expect_usage_error("sweep merge", "cbi sweep merge: --input: no CSV files to merge");
  expect_usage_error("sweep merge /nonexistent/a.csv", "cbi sweep merge: --input: ");
  expect_usage_error("sweep merge --bogus", "cbi sweep merge: --bogus: not an option of this "
                                            "command; allowed: --input, --json, --partial");
}

// --max-noise and --max-seconds: one range and one message in cbi bench and cbi sweep (sweep
// refused --max-noise 0, which bench takes: sample until --max-seconds).
TEST(FirstUse, BenchAndSweepTakeTheSameMeasurementRanges) {
  const std::string noise = ": --max-noise: '-1' is not allowed; allowed: a noise target "
                            "stdev/mean from 0 to 1e6, e.g. 0.01 (0: sample until --max-seconds)";
  const std::string seconds = ": --max-seconds: '0' is not allowed; allowed: a time budget per "
                              "point in seconds, > 0 up to 1e6, e.g. 0.25";
  for (const std::string command : {"bench --kernel stencil", "sweep --size 64 --backend gpu "
                                                              "--dry-run"}) {
    expect_usage_error(command + " --max-noise -1", "cbi " + command.substr(0, 5) + noise);
    expect_usage_error(command + " --max-noise 1e7", ": --max-noise: '1e7' is not allowed");
    expect_usage_error(command + " --max-seconds 0", "cbi " + command.substr(0, 5) + seconds);
    // 0 passes the parse: bench then looks for a device (3), sweep's dry run succeeds (0).
    const CliRun zero = cbi_run(command + " --max-noise 0");
    EXPECT_NE(zero.exit_code, 2) << command << "\n" << zero.err;
  }
}

// -o FILE without --format: the ending picks the format (.csv, .json, .md); a --format that
// disagrees with the ending is one line, exit 2, and no file.
TEST(FirstUse, TheOutputEndingPicksTheFormat) {
  const std::string dir = cbi::test::scratch_dir("cbi_first_use", "ending");
  for (const std::string command : {"simulate --size 16", "presets", "analyze --size 16"}) {
    SCOPED_TRACE(command);
    ASSERT_EQ(cbi_run(command + " -o " + dir + "/r.json").exit_code, 0);
    EXPECT_TRUE(nlohmann::json::accept(cbi::test::slurp(dir + "/r.json")));
    ASSERT_EQ(cbi_run(command + " -o " + dir + "/r.csv").exit_code, 0);
    EXPECT_EQ(cbi::test::slurp(dir + "/r.csv"), cbi_run(command + " --format csv").out);
    ASSERT_EQ(cbi_run(command + " -o " + dir + "/r.md").exit_code, 0);
    EXPECT_EQ(cbi::test::slurp(dir + "/r.md").rfind("**cbi ", 0), 0u); // Markdown's bold title
    ASSERT_EQ(cbi_run(command + " -o " + dir + "/r.txt").exit_code, 0);
    EXPECT_EQ(cbi::test::slurp(dir + "/r.txt").rfind("cbi ", 0), 0u); // the table
    expect_usage_error(command + " --format table -o " + dir + "/bad.json",
                       ": --format: table does not match --output " + dir +
                           "/bad.json (json); allowed: --format json");
    expect_usage_error(command + " --wide -o " + dir + "/bad.csv", ": --wide: applies to the "
                                                                   "terminal table only");
    EXPECT_FALSE(std::filesystem::exists(dir + "/bad.json"));
    EXPECT_FALSE(std::filesystem::exists(dir + "/bad.csv"));
  }
  std::filesystem::remove_all(dir);
}

// A finished run's progress off a terminal, for 256 x 256 threads: lines (no carriage returns)
// that count every thread and give an ETA.
static void expect_progress_lines(const CliRun &r) {
  EXPECT_EQ(r.err.find('\r'), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("65536/65536 threads"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("ETA"), std::string::npos) << r.err;
}

// simulate --progress off a terminal: a line per tenth with the elapsed time and an ETA (it was a
// counter redrawn with carriage returns into the log, without an ETA).
TEST(FirstUse, SimulateProgressIsLinesWhenNotATerminal) {
  const CliRun r = cbi_run("simulate --size 256 --progress --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_progress_lines(r);
  EXPECT_LE(count_lines(r.err), 11) << r.err;
  EXPECT_EQ(cbi_run("simulate --size 256 --format csv").err, "") << "short, not asked";
}

// Progress comes by work, not by 2^20 threads: a matmul thread makes 2 x depth accesses, and a 4096
// matmul ran minutes before its first report (even with --progress). 65536 threads of 4096
// accesses report every 4096 threads: a line per tenth, not one line at the end.
TEST(FirstUse, SimulateProgressComesByWorkNotByThreads) {
  const CliRun r =
      cbi_run("simulate --workload matmul --size 256 --depth 2048 --progress --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("] 4096/65536 threads"), std::string::npos) << r.err;
  EXPECT_GE(count_lines(r.err), 5) << r.err;
  EXPECT_LE(count_lines(r.err), 12) << r.err;
}

// --block's allowed range is the one a device can run: --block 0 said "from 1 to 1048576" in
// simulate --model gpu, tune and trace, and 2048 then said "allowed: 1..1024".
TEST(FirstUse, BlockOutOfRangeNamesTheRangeADeviceRuns) {
  for (const std::string command :
       {"simulate --model gpu --size 32", "tune --size 32", "trace --size 32 -o -"})
    for (const char *block : {"0", "2048", "1048576"})
      expect_usage_error(command + " --block " + block,
                         ": --block: '" + std::string(block) +
                             "' is out of range; allowed: an integer from 1 to 1024");
}

// analyze --no-simulate runs the model alone: options that change only the simulation were
// ignored there; with the simulation, --writes is said to be outside the model.
TEST(FirstUse, AnalyzeModelAloneRefusesWhatOnlyTheSimulationReads) {
  for (const char *option : {"--writes", "--policy random --seed 4", "--sector-bytes 8"})
    expect_usage_error(std::string("analyze --size 64 --no-simulate ") + option,
                       "--no-simulate runs the model alone");
  expect_usage_error("analyze --size 64 --no-simulate --writes", ": --writes: changes the "
                                                                 "simulation only");
  const CliRun model = cbi_run("analyze --size 64 --no-simulate --policy random --format csv");
  EXPECT_EQ(model.exit_code, 0) << model.err; // the model notes the policy
  const CliRun writes = cbi_run("analyze --size 64 --writes");
  EXPECT_EQ(writes.exit_code, 0) << writes.err;
  EXPECT_NE(writes.out.find("include the output stores' lines"), std::string::npos) << writes.out;
}

// Options whose file always holds one format: sweep -o r.json wrote CSV into r.json (every other
// command's -o picks the format from the ending), --json r.csv JSON into r.csv, diagram --csv
// c.json CSV into c.json. Refused before any work, no file left.
TEST(FirstUse, AFileOfOneFormatRefusesAnEndingNamingAnother) {
  const std::string dir = cbi::test::scratch_dir("cbi_first_use", "one_format");
  expect_usage_error("sweep --size 16 -o " + dir + "/r.json",
                     ": --output: '" + dir + "/r.json' ends as json does, and --output writes csv");
  expect_usage_error("sweep --size 16 -o " + dir + "/r.md", ": --output:");
  expect_usage_error("sweep --size 16 -o " + dir + "/r.csv --json " + dir + "/r2.csv",
                     ": --json: '" + dir + "/r2.csv' ends as csv does, and --json writes json");
  std::vector<std::string> expected_absent = {"r.json", "r.md", "r.csv", "r2.csv"};
  if (std::filesystem::exists(cbi::test::bin_dir() + "/cbi-viz")) {
    expect_usage_error("diagram --size 16 --csv " + dir + "/c.json -o " + dir + "/d.png",
                       ": --csv: '" + dir + "/c.json' ends as json does");
    expected_absent.insert(expected_absent.end(), {"c.json", "d.png"});
  }
  for (const std::string &f : expected_absent)
    EXPECT_FALSE(std::filesystem::exists(dir + "/" + f)) << f;
  // The endings that match, or say nothing, still run.
  EXPECT_EQ(cbi_run("sweep --size 16 -o " + dir + "/r.csv --json " + dir + "/r.json").exit_code, 0);
  EXPECT_EQ(cbi_run("sweep --size 16 -o " + dir + "/r.dat").exit_code, 0);
  EXPECT_NE(cbi::test::slurp(dir + "/r.dat").find("point,point_id,"), std::string::npos);
  std::filesystem::remove_all(dir);
}

// .txt names the table, in every command: sweep -o r.txt wrote CSV into it (and sweep merge -o
// r.txt too, its default), where simulate -o r.txt writes the table. A file of one format refuses
// it; merge, which has --format, writes the table; --format json -o r.txt disagrees.
TEST(FirstUse, ATxtEndingNamesTheTableInEveryCommand) {
  const std::string dir = cbi::test::scratch_dir("cbi_first_use", "txt");
  expect_usage_error("sweep --size 16 -o " + dir + "/r.txt",
                     "cbi sweep: --output: '" + dir +
                         "/r.txt' ends as the table (.txt) does, and --output writes csv; "
                         "allowed: a path ending in .csv");
  expect_usage_error("sweep --size 16 -o " + dir + "/r.csv --json " + dir + "/r.txt",
                     ": --json: '" + dir + "/r.txt' ends as the table (.txt) does");
  expect_usage_error("trace --size 16 -o " + dir + "/t.txt", ": --output: '" + dir + "/t.txt'");
  expect_usage_error("simulate --format json -o " + dir + "/r.txt",
                     ": --format: json does not match --output " + dir + "/r.txt (table)");
  for (const char *f : {"r.txt", "r.csv", "t.txt"})
    EXPECT_FALSE(std::filesystem::exists(dir + "/" + f)) << f;
  ASSERT_EQ(cbi_run("sweep --size 16 -o " + dir + "/s.csv").exit_code, 0);
  ASSERT_EQ(cbi_run("sweep merge " + dir + "/s.csv -o " + dir + "/m.txt").exit_code, 0);
  const std::string table = cbi::test::slurp(dir + "/m.txt");
  EXPECT_EQ(table.rfind("cbi sweep merge: 1 CSV\n", 0), 0u) << table;
  EXPECT_EQ(table.find("point,point_id"), std::string::npos) << table;
  std::filesystem::remove_all(dir);
}

// sweep --block N on the sequential simulator was taken and changed no count (only the rows'
// label). It picks among the grid's own blocks there (the points a gpu run of the grid measures,
// as cbi reproduce's sim parts do); any other block is refused. --remap-math likewise; --metrics
// reads the hardware's counters and applies to a gpu backend only.
TEST(FirstUse, SweepRefusesAxesTheSimulatorDoesNotCount) {
  expect_usage_error("sweep --size 16 --block 128",
                     "cbi sweep: --block: 128 changes nothing the sequential simulator counts "
                     "(there it only picks among the grid's own: 256); allowed: leave it out, "
                     "256, --model gpu, or --backend gpu, sim,gpu or sim+gpu");
  expect_usage_error("sweep --size 16 --block 256,512", "--block: 512 changes nothing");
  expect_usage_error("sweep --size 16 --remap-math div",
                     "--remap-math: div changes nothing the sequential simulator counts");
  expect_usage_error("sweep --size 16 --model gpu --remap-math div",
                     "--remap-math: div changes nothing the GPU model counts");
  expect_usage_error("sweep --size 16 --metrics", "--metrics: applies to the gpu backend only");
  expect_usage_error("sweep --size 16 --model gpu --metrics", "--metrics: applies to the gpu");
  // --backend gpu alone simulates nothing: a cache or --jobs there was taken and changed nothing.
  expect_usage_error("sweep --size 16 --backend gpu --cache l1-256k --dry-run",
                     "cbi sweep: --cache: applies to the simulator only, and --backend gpu "
                     "simulates nothing; allowed: leave it out, or --backend sim,gpu");
  expect_usage_error("sweep --size 16 --backend gpu --jobs 2", "--jobs: applies to the simulator");
  expect_usage_error("sweep --size 16 --backend gpu --model sequential --dry-run",
                     "--model: applies to the simulator only");
  EXPECT_EQ(cbi_run("sweep --size 16 --backend sim,gpu --cache l1-256k --dry-run").exit_code, 0);
  // Where blocks count, or to pick a grid's own block, it runs.
  const CliRun model = cbi_run("sweep --size 16 --model gpu --block 128 --dry-run");
  EXPECT_EQ(model.exit_code, 0) << model.err;
  EXPECT_NE(model.out.find("block=128"), std::string::npos) << model.out;
  const CliRun pick = cbi_run("sweep --grid fig5.1a --size 64 --block 128 --backend sim --dry-run");
  EXPECT_EQ(pick.exit_code, 0) << pick.err;
  EXPECT_NE(pick.err.find(", 17 points, "), std::string::npos) << pick.err;
  EXPECT_EQ(cbi_run("sweep --size 16 --block 256 --dry-run").exit_code, 0);
  // The plan's one point is "1 point", not "1 points".
  EXPECT_NE(model.err.find(", 1 point, shard 0/1 holds 1"), std::string::npos) << model.err;
}

// An order's parameter out of range named 2147483647 as its bound for column:0; the bound is
// named only where a number passes it.
TEST(FirstUse, AnOrdersBadParameterNamesAMeaningfulRange) {
  expect_usage_error("simulate --order column:0",
                     "--order: 'column:0' has a bad parameter; allowed: column:W with positive "
                     "integers (1 or more)");
  expect_usage_error("simulate --order tile:0x4", "tile:TWxTH with positive integers (1 or more)");
  expect_usage_error("sweep --size 16 --block-order zigzag:-3 --kernel sgemm-tiled",
                     "zigzag:W with positive integers (1 or more)");
  expect_usage_error("simulate --order column:99999999999",
                     "column:W with positive integers from 1 to 2^31 - 1");
  expect_usage_error("analyze --threads 0", "--threads: '0' is out of range; allowed: an integer "
                                            "from 1 to 2^31 - 1");
  const CliRun r = cbi_run("simulate --order column:0");
  EXPECT_EQ(r.err.find("2147483647"), std::string::npos) << r.err;
  // A known order with its parameter missing or extra was an "unknown order".
  expect_usage_error("simulate --order tile", "--order: 'tile' needs a parameter; allowed: "
                                              "tile:T, tile:TWxTH with positive integers");
  expect_usage_error("simulate --order hilbert",
                     "'hilbert' needs a parameter; allowed: hilbert:S with positive integers (1 or "
                     "more); S a power of two");
  expect_usage_error("simulate --order linear:3",
                     "--order: 'linear:3' takes no parameter; allowed: linear");
  // mrc --sizes counts lines: 32KiB was "not a positive integer" and no more.
  expect_usage_error("mrc --size 16 --sizes 64,32KiB",
                     "--sizes: '32KiB' is not a positive integer; allowed: an integer from 1 to "
                     "2^31 (capacities in lines, e.g. 64,256,1024)");
  // A bad extent of WxH names the whole size, not its fragment '0' alone.
  expect_usage_error("simulate --size 0x16", "--size: in '0x16', '0' is out of range");
}

// A PNG's ending in any case, as r.JSON is JSON: diagram -o fig.PNG was "does not end in .png".
TEST(FirstUse, APngEndingIsTakenInAnyCase) {
  if (!std::filesystem::exists(cbi::test::bin_dir() + "/cbi-viz"))
    GTEST_SKIP() << "no cbi-viz in this build";
  const std::string dir = cbi::test::scratch_dir("cbi_first_use", "png_case");
  const CliRun d = cbi_run("diagram --size 16 -o " + dir + "/d.PNG");
  EXPECT_EQ(d.exit_code, 0) << d.err;
  EXPECT_TRUE(std::filesystem::exists(dir + "/d.PNG"));
  ASSERT_EQ(cbi_run("sweep --size 16 --order linear,column:4 -o " + dir + "/s.csv").exit_code, 0);
  const CliRun p = cbi_run("plot lines --input " + dir + "/s.csv -o " + dir + "/p.Png");
  EXPECT_EQ(p.exit_code, 0) << p.err;
  EXPECT_TRUE(std::filesystem::exists(dir + "/p.Png"));
  expect_usage_error("diagram --size 16 -o " + dir + "/d.jpg",
                     ": --output: '" + dir + "/d.jpg' does not end in .png");
  std::filesystem::remove_all(dir);
}

// cbi view --window 300x200 opened 600x400, silently, and --screenshot shot.jpg (or a script's
// shot:a.jpg) wrote a PNG into a .jpg. Refused before the display is looked for.
TEST(FirstUse, ViewRefusesAWindowItWouldEnlargeAndAShotThatIsNoPng) {
  if (!std::filesystem::exists(cbi::test::bin_dir() + "/cbi-viz"))
    GTEST_SKIP() << "no cbi-viz in this build";
  const std::string dir = cbi::test::scratch_dir("cbi_first_use", "view");
  expect_usage_error("view --size 16 --window 300x200",
                     "cbi view: --window: '300x200' is smaller than the viewer's least window; "
                     "allowed: WxH from 600x400 to 8192x8192");
  expect_usage_error("view --size 16 --screenshot " + dir + "/a.jpg",
                     ": --screenshot: '" + dir + "/a.jpg' does not end in .png");
  expect_usage_error("view --size 16 --script 'shot:" + dir + "/b.jpg;quit'",
                     ": --script: '" + dir + "/b.jpg' does not end in .png");
  EXPECT_FALSE(std::filesystem::exists(dir + "/a.jpg"));
  std::filesystem::remove_all(dir);
}

// cbi diagram --device h100 was told "does not apply: cbi diagram runs the sequential simulator;
// allowed: leave it out", where --model gpu takes it; cbi view --sm 3 was told "cbi diagram
// runs". Both name the model, as cbi simulate does.
TEST(FirstUse, DiagramAndViewNameTheModelAnOptionAppliesTo) {
  if (!std::filesystem::exists(cbi::test::bin_dir() + "/cbi-viz"))
    GTEST_SKIP() << "no cbi-viz in this build";
  expect_usage_error("diagram --size 16 --device h100 -o /tmp/never.png",
                     "cbi diagram: --device: applies to --model gpu only (the sequential simulator "
                     "has no device); allowed: leave it out or --model gpu");
  expect_usage_error("diagram --size 16 --model gpu --cache-bytes 1KiB -o /tmp/never.png",
                     "--cache-bytes: applies to --model sequential only");
  const CliRun view = cbi_run("view --size 16 --sm 3");
  EXPECT_EQ(view.exit_code, 2) << view.err;
  EXPECT_EQ(view.err.rfind("cbi view: --sm: applies to --model gpu only", 0), 0u) << view.err;
  EXPECT_FALSE(std::filesystem::exists("/tmp/never.png"));
}

// A list given to a command that runs one configuration: simulate --size 16,32 was "'16,32' is
// not a positive integer", mrc --type float,double "unknown type". It says it is a list, as
// --order did, and where lists run.
TEST(FirstUse, AListWhereOneValueRunsSaysSo) {
  expect_usage_error("simulate --size 16,32",
                     "cbi simulate: --size: '16,32' is a list, and cbi simulate runs one size; "
                     "allowed: one value (several side by side: cbi sweep --size A,B gives a row "
                     "each)");
  expect_usage_error("mrc --size 16 --type float,double",
                     "cbi mrc: --type: 'float,double' is a list, and cbi mrc runs one type");
  expect_usage_error("tune --size 16 --stencil 3x3,5x5", "--stencil: '3x3,5x5' is a list");
  expect_usage_error("simulate --kernel stencil,matmul", "--kernel: 'stencil,matmul' is a list");
  expect_usage_error("simulate --order linear,column:4",
                     "--order: 'linear,column:4' is a list, and cbi simulate runs one order; "
                     "allowed: one of linear, ");
}

// reproduce -o /proc/x/R named '/proc' alone, a folder the user never typed: the line names the
// folder given first, then the one above it that stops it and why.
TEST(FirstUse, AnUnwritableReportFolderIsNamedAsGiven) {
  const CliRun r = cbi_run("reproduce --sim-only --tiny -o /proc/x/R");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
  EXPECT_EQ(r.err.rfind("cbi reproduce: --output: cannot use '/proc/x/R': no folder can be "
                        "created in '/proc' (",
                        0),
            0u)
      << r.err;
  const std::string dir = cbi::test::scratch_dir("cbi_first_use", "folder");
  { std::ofstream(dir + "/file") << "x"; }
  expect_usage_error("reproduce --sim-only --tiny -o " + dir + "/file",
                     ": --output: cannot use '" + dir + "/file': it is not a folder");
  expect_usage_error("reproduce --sim-only --tiny -o " + dir + "/file/R",
                     ": --output: cannot use '" + dir + "/file/R': ");
  std::filesystem::remove_all(dir);
}

// `command --size 256` with --progress shows progress lines on stderr and the same output as
// without it; without it (a short run) stderr stays empty; its --help names the option.
static void expect_progress_when_asked(const std::string &command) {
  const CliRun r = cbi_run(command + " --size 256 --progress --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_progress_lines(r);
  const CliRun quiet = cbi_run(command + " --size 256 --format csv");
  EXPECT_EQ(r.out, quiet.out);
  EXPECT_EQ(quiet.err, "") << "short, not asked";
  EXPECT_NE(cbi_run(command + " --help").out.find("--progress"), std::string::npos);
}

// mrc showed no progress at all, not even asked: it takes --progress as simulate does (and shows
// it unasked over 2^30 accesses), as lines with an ETA off a terminal.
TEST(FirstUse, MrcShowsProgressAsSimulateDoes) { expect_progress_when_asked("mrc"); }

// analyze replays the simulation too and showed no progress, even for a run of minutes (--size 8192
// ran 25 s silent): it takes --progress as simulate does, and refuses it beside --no-simulate.
TEST(FirstUse, AnalyzeShowsTheSimulationsProgressAsSimulateDoes) {
  expect_progress_when_asked("analyze");
  expect_usage_error("analyze --size 64 --no-simulate --progress",
                     ": --progress: shows the simulation's progress, and --no-simulate runs the "
                     "model alone");
}
