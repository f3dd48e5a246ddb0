// cli/: the command registry and its exit codes, list parsing, and running a sibling binary with
// its stderr captured through a pipe.
#include "cbi/cli/command.hpp"
#include "cbi/cli/csv.hpp"
#include "cbi/cli/output.hpp"
#include "cbi/cli/progress.hpp"
#include "cbi/config/options.hpp"
#include "cbi/config/tune.hpp"
#include "cbi/error.hpp"
#include "cbi/parse.hpp"
#include "cbi/sim/cache.hpp"
#include "cbi/text.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <set>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

namespace {

using namespace cbi;

int throws_usage(int, char **) { throw UsageError("--size", "'0' is out of range"); }
int throws_no_device(int, char **) { throw NoDeviceError("no CUDA device: none"); }
int throws_runtime(int, char **) { throw std::runtime_error("disk full"); }
int returns_argc(int argc, char **argv) {
  return argc == 2 && std::string(argv[0]) == "cbi t-ok" ? 0 : 1;
}

const cli::Registration r1{{"t-usage", "throws a usage error", throws_usage, 1002}};
const cli::Registration r2{{"t-device", "throws no device", throws_no_device, 1001}};
const cli::Registration r3{{"t-runtime", "throws a runtime error", throws_runtime, 1003}};
const cli::Registration r4{{"t-ok", "runs", returns_argc, 1000}};

int run(const char *name) {
  std::string prog = "cbi", cmd = name, extra = "x";
  char *argv[] = {prog.data(), cmd.data(), extra.data(), nullptr};
  const cli::Command *c = cli::find_command(name);
  EXPECT_NE(c, nullptr) << name;
  return c ? cli::run_command(*c, 3, argv) : -1;
}

TEST(CliCommand, ErrorsBecomeExitCodesAtOneBoundary) {
  EXPECT_EQ(run("t-ok"), cli::kExitOk);
  EXPECT_EQ(run("t-usage"), cli::kExitUsage);
  EXPECT_EQ(run("t-device"), cli::kExitNoDevice);
  EXPECT_EQ(run("t-runtime"), cli::kExitFailure);
  EXPECT_EQ(cli::find_command("no-such-command"), nullptr);
}

TEST(CliCommand, RegistryIsOrderedByRank) {
  std::vector<std::string> names;
  for (const cli::Command &c : cli::commands())
    names.push_back(c.name);
  EXPECT_EQ(names, (std::vector<std::string>{"t-ok", "t-device", "t-usage", "t-runtime"}));
}

TEST(CliParse, SplitListKeepsInnerEmptiesDropsTrailing) {
  using V = std::vector<std::string>;
  EXPECT_EQ(split_list("a,b,c"), (V{"a", "b", "c"}));
  EXPECT_EQ(split_list("a,,b"), (V{"a", "", "b"}));
  EXPECT_EQ(split_list("a,"), (V{"a"}));
  EXPECT_EQ(split_list(",a"), (V{"", "a"}));
  EXPECT_EQ(split_list(""), V{});
  EXPECT_EQ(split_list("size=1/size=2", '/'), (V{"size=1", "size=2"}));
}

TEST(CliParse, BytesAndExtents) {
  EXPECT_EQ(parse_bytes("32KiB", "--cache-bytes"), 32 * 1024);
  EXPECT_EQ(parse_bytes("4MiB", "--cache-bytes"), 4 << 20);
  EXPECT_THROW(parse_bytes("4XB", "--cache-bytes"), UsageError);
  EXPECT_EQ(parse_extent("64x32", "--size", false), (std::pair<long long, long long>{64, 32}));
  try { // a third extent was "'3x3' is not a positive integer", naming the tail only
    parse_extent("3x3x3", "--stencil", true);
    FAIL();
  } catch (const UsageError &e) {
    EXPECT_EQ(std::string(e.what()), "'3x3x3' has more than two extents; allowed: WxH (or N for "
                                     "NxN), each an integer from 1 to 2^30, e.g. 64x32");
  }
  EXPECT_THROW(parse_positive("-3", "--ways"), UsageError);
  try {
    parse_positive("0", "--lines");
    FAIL();
  } catch (const UsageError &e) {
    EXPECT_EQ(e.option(), "--lines");
  }
}

// A number error said "'-5' is not a positive integer" and stopped: every one now says what is
// allowed, with a large limit as a power of two (2^40, not 1099511627776).
TEST(CliParse, EveryNumberErrorSaysWhatIsAllowed) {
  const auto message = [](auto parse) {
    try {
      parse();
    } catch (const UsageError &e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message([] { parse_positive("-5", "--lines", 1024); }),
            "'-5' is not a positive integer; allowed: an integer from 1 to 1024");
  EXPECT_EQ(message([] { parse_positive("0", "--lines", 1LL << 31); }),
            "'0' is out of range; allowed: an integer from 1 to 2^31");
  EXPECT_EQ(message([] { parse_positive("", "--lines", 8); }),
            "empty value; allowed: an integer from 1 to 8");
  EXPECT_EQ(message([] { parse_positive("99999999999999999999999", "--seed", 1LL << 62); }),
            "'99999999999999999999999' is out of range; allowed: an integer from 1 to 2^62");
  EXPECT_EQ(parse_positive("4611686018427387904", "--seed", 1LL << 62), 1LL << 62);
  // One digit past a small limit (--miss-level 2 of one level) is out of range too.
  EXPECT_EQ(message([] { parse_positive("2", "--miss-level", 1); }),
            "'2' is out of range; allowed: an integer from 1 to 1");
  EXPECT_EQ(message([] { parse_positive("1025", "--block", 1024); }),
            "'1025' is out of range; allowed: an integer from 1 to 1024");
  EXPECT_EQ(parse_positive("1024", "--block", 1024), 1024);
  EXPECT_EQ(message([] { parse_count("-1", "--ways", 1LL << 31, "fully associative"); }),
            "'-1' is not allowed; allowed: 0 (fully associative) or an integer from 1 to 2^31");
  // A size's range is in bytes, with an example of the suffixes (it was "a positive integer from
  // 1 to 1099511627776").
  for (const char *zero : {"0", "0K", "0KiB"})
    EXPECT_EQ(message([&] { parse_bytes(zero, "--cache-bytes"); }),
              "'" + std::string(zero) +
                  "' is out of range; allowed: a size from 1 B to 1TiB, e.g. 4096, 32KiB or 4MiB");
  EXPECT_EQ(message([] { parse_bytes("99999999999999999999K", "--cache-bytes"); }),
            "'99999999999999999999K' is out of range; allowed: a size from 1 B to 1TiB, e.g. "
            "4096, 32KiB or 4MiB");
  EXPECT_EQ(parse_bytes("1024G", "--cache-bytes"), 1LL << 40);
}

// An extent's error named its tail alone: "--window 10x" said "empty value; allowed: an integer
// from 1 to 8192", and "--bin 0x4" "'0' is out of range".
TEST(CliParse, AnExtentErrorNamesTheWholeExtent) {
  const auto message = [](const std::string &text, bool square_ok) {
    try {
      parse_extent(text, "--window", square_ok, 8192);
    } catch (const UsageError &e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("10x", false),
            "'10x' has an empty extent; allowed: WxH, each an integer from 1 to 8192, e.g. 64x32");
  EXPECT_EQ(message("x10", true), "'x10' has an empty extent; allowed: WxH (or N for NxN), each "
                                  "an integer from 1 to 8192, e.g. 64x32");
  EXPECT_EQ(message("0x4", false),
            "in '0x4', '0' is out of range; allowed: an integer from 1 to 8192");
  EXPECT_EQ(message("64", false), "'64' is not WxH; allowed: WxH, each an integer from 1 to 8192, "
                                  "e.g. 64x32");
  EXPECT_EQ(parse_extent("64X32", "--window", false, 8192),
            (std::pair<long long, long long>{64, 32}));
}

TEST(CliParse, ByteSuffixesAreOneCaseInsensitiveBinarySet) {
  for (const char *k : {"1K", "1k", "1KB", "1kb", "1KiB", "1kib", "1024", "1024B"})
    EXPECT_EQ(parse_bytes(k, "--cache-bytes"), 1024) << k;
  EXPECT_EQ(parse_bytes("2m", "--cache-bytes"), 2LL << 20);
  EXPECT_EQ(parse_bytes("1G", "--cache-bytes"), 1LL << 30);
  // The range's end, 1TiB, as its message spells it: "1TiB" was "not a size" (T was no suffix).
  for (const char *t : {"1T", "1tb", "1TiB"})
    EXPECT_EQ(parse_bytes(t, "--cache-bytes"), 1LL << 40) << t;
  for (const char *bad : {"K", "", "2T", "1 K", "1KiBs", "-1K", "2048GiB", "1P"})
    EXPECT_THROW(parse_bytes(bad, "--cache-bytes"), UsageError) << bad;
}

TEST(CliParse, ListsRejectEmptyItemsAndDimsRejectEmptyExtentsAndOverflow) {
  using V = std::vector<std::string>;
  EXPECT_EQ(parse_list("a,b", "--order"), (V{"a", "b"}));
  for (const char *bad : {"", ",", "a,", ",a", "a,,b"})
    EXPECT_THROW(parse_list(bad, "--order"), UsageError) << bad;
  EXPECT_EQ(parse_dims("4x2x2", "--size", 1 << 30, 1LL << 40), (std::vector<long long>{4, 2, 2}));
  EXPECT_EQ(parse_dims("7", "--size", 1 << 30, 1LL << 40), (std::vector<long long>{7}));
  for (const char *bad : {"16x", "16x16x", "x16", "16xx16", "3x7695460x429509837x5581"})
    EXPECT_THROW(parse_dims(bad, "--size", 1 << 30, 1LL << 40), UsageError) << bad;
}

TEST(CliOutput, CellsInFilesAreExact) {
  EXPECT_EQ(cli::format_cell(cli::Cell(1234567.0)), "1234567");
  EXPECT_EQ(cli::format_cell(cli::Cell(int64_t{123456789012})), "123456789012");
  EXPECT_EQ(cli::format_cell(cli::Cell(0.1)), "0.1");
  EXPECT_EQ(std::stod(cli::format_cell(cli::Cell(2.0 / 3.0))), 2.0 / 3.0); // round-trips
  EXPECT_EQ(cli::format_cell_short(cli::Cell(2.0 / 3.0)), "0.666667");
  // A million or more is never in exponent form for people (3.13754e+06 in cbi sweep's best line).
  EXPECT_EQ(cli::format_cell_short(cli::Cell(3137540.0)), "3137540");
  EXPECT_EQ(cli::format_cell_short(cli::Cell(-1234567.5)), "-1234568");
  EXPECT_EQ(cli::format_cell_short(cli::Cell(999999.5)), "1000000");
  EXPECT_EQ(cli::format_cell_short(cli::Cell(999999.4)), "999999");
  // A list of names: as a list option is typed in files, spaced for people.
  const cli::Cell names = cli::Names{"linear", "column:8"};
  EXPECT_EQ(cli::format_cell(names), "linear,column:8");
  EXPECT_EQ(cli::format_cell_short(names), "linear, column:8");
}

TEST(CliProgram, StderrComesBackThroughAPipe) {
  std::string err;
  EXPECT_EQ(cli::run_program({"/bin/sh", "-c", "echo out; echo oops >&2; exit 3"}, &err), 3);
  EXPECT_EQ(err, "oops\n");
  EXPECT_EQ(cli::run_program({"/no/such/binary"}, &err), -1);
  EXPECT_FALSE(err.empty());
}

} // namespace

namespace {

cbi::cli::Table sample_table() {
  cbi::cli::Table t;
  t.title = "sample";
  t.columns = {"order", "misses", "hit_rate", "ok"};
  t.add_row({std::string("column:8, \"quoted\""), int64_t{96}, 0.5, true});
  t.add_row({std::string("tile:16x4"), int64_t{316}, std::nan(""), false});
  t.meta = {{"device", "none"}};
  t.notes = {"a note"};
  return t;
}

std::string printed(const std::string &format) {
  std::ostringstream os;
  cbi::cli::find_printer(format).print(os, sample_table());
  return os.str();
}

TEST(CliPrinters, EveryFormatIsRegisteredOnce) {
  EXPECT_EQ(cbi::cli::printer_names(), "table, json, csv, markdown");
  try {
    cbi::cli::find_printer("yaml");
    FAIL();
  } catch (const cbi::UsageError &e) {
    EXPECT_EQ(e.option(), "--format");
    EXPECT_NE(std::string(e.what()).find("allowed: table, json, csv, markdown"), std::string::npos);
  }
}

TEST(CliPrinters, CsvQuotesAndReadsBack) {
  const std::string csv = printed("csv");
  EXPECT_EQ(csv, "order,misses,hit_rate,ok\n\"column:8, \"\"quoted\"\"\",96,0.5,true\n"
                 "tile:16x4,316,nan,false\n");
  const cbi::cli::CsvTable back = cbi::cli::parse_csv(csv);
  ASSERT_EQ(back.rows.size(), 2u);
  EXPECT_EQ(back.rows[0][0], "column:8, \"quoted\"");
  EXPECT_EQ(back.index("hit_rate"), 2);
  EXPECT_THROW(cbi::cli::parse_csv("a,b\n1\n"), cbi::UsageError);
}

TEST(CliPrinters, JsonIsTypedAndEscaped) {
  const nlohmann::json j = nlohmann::json::parse(printed("json"));
  EXPECT_EQ(j["title"], "sample");
  EXPECT_EQ(j["meta"]["device"], "none");
  EXPECT_EQ(j["rows"][0]["order"], "column:8, \"quoted\"");
  EXPECT_EQ(j["rows"][0]["misses"], 96);
  EXPECT_EQ(j["rows"][0]["hit_rate"], 0.5);
  EXPECT_EQ(j["rows"][0]["ok"], true);
  EXPECT_TRUE(j["rows"][1]["hit_rate"].is_null()) << "NaN is null";
  EXPECT_EQ(j["notes"][0], "a note");
}

// The JSON printer's shaping: grouped columns nest under their group in each row, the list of
// rows takes the table's key, and a single-row result becomes the document's own keys. The other
// printers keep every column flat.
TEST(CliPrinters, JsonGroupsAndRowKeyShapeTheDocument) {
  cbi::cli::Table t;
  t.title = "shaped";
  t.columns = {"order", "hits.sum", "hit_rate.pct", "predicted_ms"};
  t.add_row({std::string("column:32"), int64_t{7}, 87.5, 0.33});
  t.add_row({std::string("linear"), int64_t{3}, 43.75, 0.5});
  t.json_groups = {{"metrics", {"hits.sum", "hit_rate.pct"}}};
  t.json_rows = "ranking";
  std::ostringstream os;
  cbi::cli::print_json(os, t);
  const nlohmann::json j = nlohmann::json::parse(os.str());
  EXPECT_FALSE(j.contains("rows")) << j;
  ASSERT_EQ(j.at("ranking").size(), 2u);
  const nlohmann::json &first = j["ranking"][0];
  EXPECT_EQ(first.at("order"), "column:32");
  EXPECT_EQ(first.at("metrics").at("hits.sum"), 7);
  EXPECT_TRUE(first["metrics"]["hit_rate.pct"].is_number_float());
  EXPECT_EQ(first.at("predicted_ms"), 0.33);
  EXPECT_FALSE(first.contains("hits.sum")) << "grouped columns are not repeated flat";
  EXPECT_EQ(j["ranking"][1]["metrics"]["hit_rate.pct"], 43.75);

  std::ostringstream csv;
  cbi::cli::print_csv(csv, t);
  EXPECT_EQ(csv.str().rfind("order,hits.sum,hit_rate.pct,predicted_ms\n", 0), 0u) << csv.str();

  t.rows.pop_back();
  t.json_single_row = true;
  std::ostringstream one;
  cbi::cli::print_json(one, t);
  const nlohmann::json s = nlohmann::json::parse(one.str());
  EXPECT_FALSE(s.contains("ranking"));
  EXPECT_EQ(s.at("metrics").at("hits.sum"), 7);
  EXPECT_EQ(s.at("predicted_ms"), 0.33);
  EXPECT_EQ(s.at("title"), "shaped");
  EXPECT_TRUE(s.at("meta").is_object());

  t.add_row({std::string("linear"), int64_t{3}, 43.75, 0.5}); // two rows cannot be one record
  std::ostringstream bad;
  EXPECT_THROW(cbi::cli::print_json(bad, t), std::logic_error);
}

TEST(CliPrinters, MarkdownPipeTable) {
  cbi::cli::Table t;
  t.columns = {"order", "b32"};
  t.add_row({std::string("naive"), std::string("1.5 | 2")});
  std::ostringstream os;
  cbi::cli::print_markdown(os, t);
  EXPECT_EQ(os.str(), "| order | b32 |\n|---|---|\n| naive | 1.5 \\| 2 |\n");
  const std::string full = printed("markdown");
  EXPECT_EQ(full.rfind("**sample**\n\n- device: none\n\n| order | misses | hit_rate | ok |\n", 0),
            0u)
      << full;
}

TEST(CliPrinters, TerminalTableAlignsColumns) {
  const std::string text = printed("table");
  EXPECT_NE(text.find("sample\n  device: none\n"), std::string::npos) << text;
  EXPECT_NE(text.find("tile:16x4              316       nan  false\n"), std::string::npos) << text;
  EXPECT_NE(text.find("note: a note\n"), std::string::npos);
}

// Issue 21 §4: the default table fits 100 columns, leaves out all-zero columns (and says which),
// and groups thousands; --wide (Table::wide) shows everything as it is.
cbi::cli::Table wide_table(int rows) {
  cbi::cli::Table t;
  t.title = "wide";
  t.columns = {"level"};
  for (int c = 0; c < 14; ++c)
    t.columns.push_back("counter_number_" + std::to_string(c));
  t.columns.push_back("stores");
  for (int r = 0; r < rows; ++r) {
    std::vector<cbi::cli::Cell> row(16, cbi::cli::Cell(int64_t{0}));
    row[0] = cbi::cli::Cell(std::string("L") + std::to_string(r + 1));
    for (int c = 0; c < 14; ++c)
      row[static_cast<std::size_t>(c) + 1] = cbi::cli::Cell(int64_t{1234567} * (c + 1));
    t.add_row(row);
  }
  t.notes.push_back(std::string(150, 'x').replace(70, 1, " "));
  return t;
}

std::size_t widest_line(const std::string &text) {
  std::size_t most = 0, start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    most = std::max(most, (end == std::string::npos ? text.size() : end) - start);
    start = end == std::string::npos ? text.size() : end + 1;
  }
  return most;
}

TEST(CliPrinters, TerminalTableFitsOneHundredColumns) {
  for (int rows : {1, 3}) {
    std::ostringstream os;
    cbi::cli::print_table(os, wide_table(rows));
    const std::string text = os.str();
    EXPECT_LE(widest_line(text), 100u) << text;
    EXPECT_NE(text.find("1,234,567"), std::string::npos) << text;  // thousands grouped
    EXPECT_NE(text.find("17,283,938"), std::string::npos) << text; // the last counter is shown
    EXPECT_EQ(text.find("stores "), std::string::npos) << text;    // all zero: left out ...
    EXPECT_NE(text.find("all zero, not shown (--wide shows every column): stores"),
              std::string::npos)
        << text; // ... and named
    // Several rows: every block of columns is led by the row names.
    std::size_t named = 0;
    for (std::size_t at = text.find("\nL1 "); at != std::string::npos;
         at = text.find("\nL1 ", at + 1))
      ++named;
    if (rows > 1) {
      EXPECT_GE(named, 2u) << text;
    }
  }
  cbi::cli::Table wide = wide_table(3);
  wide.wide = true;
  std::ostringstream os;
  cbi::cli::print_table(os, wide);
  EXPECT_GT(widest_line(os.str()), 100u);
  EXPECT_NE(os.str().find(" stores"), std::string::npos);
  EXPECT_NE(os.str().find("1234567"), std::string::npos);
  // --wide is "full precision": a rate as the files have it (it printed 6 digits, 0.666667).
  cbi::cli::Table rates;
  rates.columns = {"level", "rate"};
  rates.add_row({cbi::cli::Cell(std::string("L1")), cbi::cli::Cell(2.0 / 3.0)});
  rates.wide = true;
  std::ostringstream full;
  cbi::cli::print_table(full, rates);
  EXPECT_NE(full.str().find(" " + cbi::cli::format_cell(cbi::cli::Cell(2.0 / 3.0))),
            std::string::npos)
      << full.str();
  EXPECT_EQ(full.str().find("0.666667 "), std::string::npos) << full.str();
}

TEST(CliPrinters, SeparatorsNeverReachFiles) {
  const cbi::cli::Table t = wide_table(2);
  std::ostringstream csv, json;
  cbi::cli::print_csv(csv, t);
  cbi::cli::print_json(json, t);
  EXPECT_EQ(csv.str().find("1,234,567"), std::string::npos);
  EXPECT_NE(csv.str().find("1234567"), std::string::npos);
  EXPECT_EQ(json.str().find("1,234,567"), std::string::npos);
}

} // namespace

namespace {

// sim names the field that is wrong; the boundary maps fields to the options that set them.
std::string field_of(const cbi::sim::CacheConfig &c) {
  try {
    cbi::sim::validate(c);
  } catch (const cbi::UsageError &e) {
    return e.option();
  }
  return "";
}

TEST(CliErrors, SimNamesFieldsTheCliNamesOptions) {
  cbi::sim::CacheConfig c{128, 64, 0, cbi::sim::Policy::lru};
  EXPECT_EQ(field_of(c), "");
  c.ways = 3;
  EXPECT_EQ(field_of(c), "cache.ways");
  c.ways = 0;
  c.sector_bytes = 48;
  EXPECT_EQ(field_of(c), "cache.sector_bytes");
  c.sector_bytes = 0;
  c.line_bytes = 1 << 21;
  EXPECT_EQ(field_of(c), "cache.line_bytes");
  EXPECT_EQ(cbi::config::option_for_field("cache.capacity"), "--level");
  EXPECT_EQ(cbi::config::option_for_field("workload.size"), "--size");
  EXPECT_EQ(cbi::config::option_for_field("workload.elem_bytes"), "--type");
  EXPECT_EQ(cbi::config::option_for_field("gpu.block_threads"), "--block");
  EXPECT_EQ(cbi::config::option_for_field("kernel.block_order"), "--block-order");
  EXPECT_EQ(cbi::config::option_for_field("--order"), "--order") << "options pass through";
  EXPECT_EQ(cbi::config::option_for_field("gpu.sample_sms"), "--sample-sms");
}

// Issue 21 §2: every message names the user's option. Every field that sim/ and kernels/ throw
// (UsageError("area.field", ...)) maps to an option, so that none reaches the user as
// "gpu.sample_sms:".
TEST(CliErrors, EveryFieldThrownBelowTheCliMapsToAnOption) {
  std::set<std::string> fields;
  for (const char *dir : {"sim", "kernels"})
    for (const auto &entry :
         std::filesystem::recursive_directory_iterator(std::string(CBI_SOURCE_DIR) + "/" + dir)) {
      if (!entry.is_regular_file())
        continue;
      std::ifstream f(entry.path());
      const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
      const std::string key = "UsageError(\"";
      for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + 1)) {
        const std::size_t start = at + key.size(), end = text.find('"', start);
        const std::string field = text.substr(start, end - start);
        if (field.rfind("--", 0) != 0)
          fields.insert(field);
      }
    }
  ASSERT_GE(fields.size(), 10u) << "the scan found too few fields; has the source moved?";
  for (const std::string &field : fields)
    EXPECT_EQ(cbi::config::option_for_field(field).rfind("--", 0), 0u)
        << "'" << field << "' reaches the user as an internal name";
}

// The search that cbi tune's options (argv, less the command) ask for.
cbi::sim::TuneConfig config(std::vector<const char *> argv) {
  namespace po = boost::program_options;
  po::options_description desc;
  cbi::config::add_tune_options(desc);
  argv.insert(argv.begin(), "tune");
  po::variables_map vm;
  po::store(po::parse_command_line(static_cast<int>(argv.size()), argv.data(), desc), vm);
  return cbi::config::tune_config(vm);
}

// cbi tune shows its progress unasked for a long search, as simulate does for a long replay (off a
// terminal it showed nothing without --progress: the README's 1024 matmul ran minutes silently).
TEST(CliTune, ALongSearchIsALongRun) {
  // 2 x 1024^3 accesses per order.
  EXPECT_TRUE(cbi::config::long_tune(config({"--workload", "matmul", "--size", "1024"})));
  EXPECT_FALSE(cbi::config::long_tune(config({"--workload", "matmul", "--size", "128"})));
  // 4096^2 x 81 accesses, over 2^30 for one order alone.
  EXPECT_TRUE(
      cbi::config::long_tune(config({"--size", "4096", "--stencil", "9x9", "--orders", "linear"})));
  EXPECT_FALSE(cbi::config::long_tune(
      config({"--size", "1024", "--stencil", "9x9", "--orders", "linear,column:32"})));
}

// Unasked, a search whose full search is estimated at kFullSearchSeconds or less on its threads,
// or whose orders replay at most 2^32 accesses in all, runs in full (the sampled stage is for
// speed, and on a 0.05 ms stencil it left the measured best out of stage two); a costlier one is
// staged, and a search asked for is the one run.
TEST(CliTune, ACheapSearchRunsInFullUnlessAskedOtherwise) {
  // 1024^2 x 81 loads, 21 default orders: about 10 s on one thread.
  EXPECT_FALSE(config({"--size", "1024", "--stencil", "9x9", "--jobs", "1"}).staged);
  // 18 distinct orders of 500^2 x 1000 loads: 5.3 G accesses, but about 19 s on one thread.
  EXPECT_FALSE(config({"--workload", "matmul", "--size", "500", "--jobs", "1"}).staged);
  // 4096^2 x 10 accesses, 21 orders (3.5 G): in full though about a minute on one thread (staged,
  // stage one left its fastest order, column:16, out of stage two).
  EXPECT_FALSE(config({"--size", "4096", "--stencil", "3x3", "--jobs", "1"}).staged);
  // 19 distinct orders of 2 x 1024^3 loads, several seconds each: staged.
  EXPECT_TRUE(config({"--workload", "matmul", "--size", "1024", "--jobs", "1"}).staged);
  // Asked for: staged stays staged, and so do the staged search's own options.
  EXPECT_TRUE(config({"--size", "64", "--search", "staged"}).staged);
  EXPECT_TRUE(config({"--size", "64", "--finalists", "2"}).staged);
  EXPECT_TRUE(config({"--size", "64", "--sample-sms", "4"}).staged);
  EXPECT_FALSE(config({"--workload", "matmul", "--size", "1024", "--search", "full"}).staged);
}

} // namespace

// A bar made at the simulator's first report starts with threads already done: its rate counts
// only those done since. It showed "0s elapsed, ETA 0s" at 4194304 of 10^10 threads (a diagram of
// hours): the rate of the threads done before the clock started was infinite.
TEST(CliProgress, AnEtaNeedsThreadsDoneSinceTheStart) {
  std::ostringstream err;
  std::streambuf *old = std::cerr.rdbuf(err.rdbuf());
  const auto report = cli::thread_counter();
  report(4194304, 10000000000); // the first report: no rate yet
  std::cerr.rdbuf(old);
  EXPECT_NE(err.str().find("4194304/10000000000 threads, 0s elapsed, ETA ?"), std::string::npos)
      << err.str();
  EXPECT_EQ(err.str().find("ETA 0s"), std::string::npos) << err.str();
  // Done is done: the last report's ETA is 0s, rate or not.
  std::ostringstream end;
  old = std::cerr.rdbuf(end.rdbuf());
  cli::thread_counter()(100, 100);
  std::cerr.rdbuf(old);
  EXPECT_NE(end.str().find("100/100 threads, 0s elapsed, ETA 0s"), std::string::npos) << end.str();
}

// Off a terminal a line per tenth, and one whenever quiet_max has passed without one (a minute by
// default): a run of hours printed its first line and then nothing for tens of minutes.
TEST(CliProgress, OffATerminalALineAtLeastEveryQuietMax) {
  if (isatty(2))
    GTEST_SKIP() << "stderr is a terminal: the bar is redrawn in place";
  const auto lines_of = [](std::chrono::duration<double> quiet_max) {
    std::ostringstream err;
    std::streambuf *old = std::cerr.rdbuf(err.rdbuf());
    cli::ProgressBar bar(1000, true, 0, "threads");
    bar.quiet_max = quiet_max;
    for (int done = 1; done <= 5; ++done) // all in the first tenth
      bar.update(done, "");
    std::cerr.rdbuf(old);
    return err.str();
  };
  const std::string first = lines_of(std::chrono::seconds(60));
  EXPECT_EQ(std::count(first.begin(), first.end(), '\n'), 1) << first; // the first tenth's line
  const std::string every = lines_of(std::chrono::seconds(0));
  EXPECT_EQ(std::count(every.begin(), every.end(), '\n'), 5) << every;
  EXPECT_NE(every.find("5/1000 threads"), std::string::npos) << every;
}

// Off a terminal the first line with an ETA comes as soon as the rate is known (first_eta_after
// past), not a tenth or a minute later: a diagram of an hour said "ETA ?" and nothing more for its
// first minute. One such line only: the lines after it keep to tenths and quiet_max.
TEST(CliProgress, OffATerminalTheFirstEtaComesOnceTheRateIsKnown) {
  if (isatty(2))
    GTEST_SKIP() << "stderr is a terminal: the bar is redrawn in place";
  std::ostringstream err;
  std::streambuf *old = std::cerr.rdbuf(err.rdbuf());
  cli::ProgressBar bar(1000000, true, 0, "threads", 1);
  bar.first_eta_after = std::chrono::seconds(0);
  for (int done = 1; done <= 4; ++done) // all in the first tenth, within quiet_max
    bar.update(done, "");
  std::cerr.rdbuf(old);
  const std::string s = err.str();
  EXPECT_EQ(std::count(s.begin(), s.end(), '\n'), 2) << s;
  EXPECT_NE(s.find("1/1000000 threads, 0s elapsed, ETA ?"), std::string::npos) << s;
  EXPECT_NE(s.find("2/1000000 threads"), std::string::npos) << s;
  EXPECT_EQ(s.find("2/1000000 threads, 0s elapsed, ETA ?"), std::string::npos) << s;
}

// A long replay says up front how many accesses it replays, roughly how long that takes and what
// makes it shorter, on stderr at once (a refused command has thrown before); a short one says
// nothing.
TEST(CliProgress, ALongRunIsAnnouncedWithItsAccessesAndTime) {
  const auto said_by = [](double accesses) {
    std::ostringstream err;
    std::streambuf *old = std::cerr.rdbuf(err.rdbuf());
    cli::announce_long_run("cbi diagram", accesses, "a smaller --size", 5e7, 5e8);
    std::cerr.rdbuf(old);
    return err.str();
  };
  const std::string said = said_by(4.9e11);
  EXPECT_EQ(said.rfind("cbi diagram: 490,000,000,000 accesses to replay: about 16m20s to 2h43m at "
                       "500 to 50 million a",
                       0),
            0u)
      << said;
  std::string joined = said; // the line wrapped at 100 columns, read as one
  for (std::size_t at; (at = joined.find("\n  ")) != std::string::npos;)
    joined.replace(at, 3, " ");
  EXPECT_NE(joined.find("an ETA within seconds; a smaller --size runs shorter\n"),
            std::string::npos)
      << said;
  for (std::size_t start = 0, end; (end = said.find('\n', start)) != std::string::npos;
       start = end + 1)
    EXPECT_LE(end - start, 100u) << said;
  EXPECT_NE(said_by(2e15).find("about 46 days to 463 days"), std::string::npos) << said_by(2e15);
  EXPECT_EQ(said_by(1e6), "");
  EXPECT_EQ(cli::rough_duration(3 * 86400.0), "3 days");
  EXPECT_EQ(cli::rough_duration(800 * 86400.0), "2 years");
}

// cbi tune's ETA by work: a staged search's stage one replays 12 of the h100's 132 SMs an order,
// stage two the full device. By orders, 19 of 23 sampled orders done said "ETA 15s", and the four
// full-device replays after them took minutes. Stage one's 23 orders are a third of the work, not
// 23 of 27; a tie group that grows stage two adds whole orders' work.
TEST(CliProgress, TuneCountsWorkNotOrders) {
  const double share = 12.0 / 132;
  config::TuneWork work(share, 1.0, 4);
  work.report(0, 27); // 23 candidates and 4 finalists
  EXPECT_DOUBLE_EQ(work.total(), 23 * share + 4);
  for (int64_t done = 1; done <= 23; ++done)
    work.report(done, 27);
  EXPECT_DOUBLE_EQ(work.done(), 23 * share);
  EXPECT_LT(work.done() / work.total(), 0.35);
  work.report(27, 31); // the finalists tie: four more in stage two
  EXPECT_DOUBLE_EQ(work.done(), 23 * share + 4);
  EXPECT_DOUBLE_EQ(work.total(), 23 * share + 8);
  // Not staged (a full search, or too few orders to stage): every order the same work.
  config::TuneWork full(1.0, 1.0, 0);
  full.report(0, 5);
  full.report(2, 5);
  EXPECT_DOUBLE_EQ(full.done() / full.total(), 0.4);
  config::TuneWork few(share, 1.0, 4);
  few.report(0, 3); // 3 orders, no more than the finalists: stage one only
  few.report(3, 3);
  EXPECT_DOUBLE_EQ(few.done(), few.total());
}

// cbi tune's stage two grows where a tie group takes in every finalist: the bar's total grows with
// it (set_total), and a count past the total fills the bar. It threw (basic_string::_M_create:
// a string of -1 dots) once the staged search of the README's matmul replayed more than its
// first total, and the tune ended in 'error' after minutes of replays.
TEST(CliProgress, ABarWhoseTotalGrowsCountsOnAndNeverOverflows) {
  std::ostringstream err;
  std::streambuf *old = std::cerr.rdbuf(err.rdbuf());
  cli::ProgressBar bar(4, true, 0, "orders");
  bar.update(4, "full a");
  bar.set_total(8);
  bar.update(8, "full b");
  EXPECT_NO_THROW(bar.update(9, "past the total"));
  std::cerr.rdbuf(old);
  EXPECT_NE(err.str().find("8/8 orders"), std::string::npos) << err.str();
  EXPECT_NE(err.str().find("[##############################] 9/8"), std::string::npos) << err.str();
}

// base's one join: nothing for no items, no separator before the first or after the last, and a
// projection for items that are not text (the loop it replaced in two dozen places).
TEST(Join, SeparatesItemsAndSpellsEachAsAsked) {
  EXPECT_EQ(cbi::join(std::vector<std::string>{}), "");
  EXPECT_EQ(cbi::join(std::vector<std::string>{"a"}), "a");
  EXPECT_EQ(cbi::join(std::vector<std::string>{"a", "", "c"}), "a, , c");
  EXPECT_EQ(cbi::join(std::vector<const char *>{"x", "y"}, "/"), "x/y");
  EXPECT_EQ(cbi::join(std::vector<int>{1, 22, 3}, " or ", [](int i) { return std::to_string(i); }),
            "1 or 22 or 3");
}

// A value given twice is refused with its later spelling and, where it differs, the earlier.
TEST(Join, RefuseRepeatsNamesBothSpellings) {
  EXPECT_NO_THROW(cbi::refuse_repeats({"a", "b"}, {"a", "b"}, "--x"));
  try {
    cbi::refuse_repeats({"64", "b", "0064"}, {"64", "b", "64"}, "--size");
    ADD_FAILURE() << "0064 after 64 was accepted";
  } catch (const cbi::UsageError &e) {
    EXPECT_EQ(e.option(), "--size");
    EXPECT_STREQ(e.what(), "'0064' is given twice (as '64'); allowed: each value once");
  }
}
