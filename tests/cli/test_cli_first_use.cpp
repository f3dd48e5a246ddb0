// End-to-end tests of what a researcher trying every command for the first time runs into: one
// spelling of an option across commands, machine-readable output that is typed, counts whose 0
// means the same everywhere, progress on long runs, and every command taking the words its help
// shows.
#include "cli_run.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

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
