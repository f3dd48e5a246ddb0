// Issue 12 item 10 through `cbi simulate`: loads and stores apart (accesses, bytes, hits, misses)
// in every output, and --classify-misses's 3C columns, which sum to the misses of their level and
// are absent without the option.
#include "cli_run.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

namespace {

using cbi::test::cbi_run;
using cbi::test::CliRun;
using nlohmann::json;

json simulate_json(const std::string &args) {
  const CliRun r = cbi_run("simulate " + args + " --format json");
  EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.err;
  return json::parse(r.out);
}

} // namespace

TEST(SimulateCounts, LoadsAndStoresByHandForASmallStencil) {
  // 3x3 clamped stencil on 4x4 floats writing out[i]: 144 loads (576 B) and 16 stores (64 B); a
  // 64-line cache misses each of the 4 input lines once (loads) and each of the 4 output lines
  // once (stores).
  const json j = simulate_json("--size 4 --stencil 3x3 --writes --lines 64 --line-bytes 16");
  const json &l1 = j["rows"][0];
  EXPECT_EQ(l1["loads"], 144);
  EXPECT_EQ(l1["load_bytes"], 576);
  EXPECT_EQ(l1["load_hits"], 140);
  EXPECT_EQ(l1["load_misses"], 4);
  EXPECT_EQ(l1["stores"], 16);
  EXPECT_EQ(l1["store_bytes"], 64);
  EXPECT_EQ(l1["store_hits"], 12);
  EXPECT_EQ(l1["store_misses"], 4);
  EXPECT_EQ(l1["accesses"], 160);
  ASSERT_EQ(j["notes"].size(), 1u);
  EXPECT_NE(j["notes"][0].get<std::string>().find("write-allocate"), std::string::npos);
  EXPECT_FALSE(l1.contains("misses_conflict")) << "3C columns only with --classify-misses";
}

TEST(SimulateCounts, ClassifiedMissesSumToEachLevelsMisses) {
  const json j = simulate_json("--size 64 --stencil 5x5 --writes --classify-misses "
                               "--level size=1KiB,line=64,ways=4 "
                               "--level size=8KiB,line=128,ways=8,sector=32");
  ASSERT_EQ(j["rows"].size(), 2u);
  for (const json &row : j["rows"]) {
    const int64_t c = row["misses_compulsory"], cap = row["misses_capacity"],
                  con = row["misses_conflict"];
    EXPECT_EQ(c + cap + con, row["misses"].get<int64_t>()) << row.dump();
    EXPECT_EQ(row["loads"].get<int64_t>() + row["stores"].get<int64_t>(),
              row["accesses"].get<int64_t>());
  }
  // Compulsory misses are the distinct units: 64x64 floats in and out = 32 KiB, 512 lines of
  // 64 B at L1, 1024 sectors of 32 B at L2.
  EXPECT_EQ(j["rows"][0]["misses_compulsory"], 512);
  EXPECT_EQ(j["rows"][1]["count_unit"], "sector");
  EXPECT_EQ(j["rows"][1]["misses_compulsory"], 1024);
  // The 4-way 1 KiB L1 (4 sets of 64 B lines, a 256 B row a set apart) thrashes on conflicts.
  EXPECT_GT(j["rows"][0]["misses_conflict"].get<int64_t>(),
            j["rows"][0]["misses_capacity"].get<int64_t>());
  // The same counts without the option.
  const json plain = simulate_json("--size 64 --stencil 5x5 --writes "
                                   "--level size=1KiB,line=64,ways=4 "
                                   "--level size=8KiB,line=128,ways=8,sector=32");
  for (std::size_t k = 0; k < 2; ++k)
    EXPECT_EQ(plain["rows"][k]["misses"], j["rows"][k]["misses"]);
}

TEST(SimulateCounts, ClassifyMissesIsForTheSequentialModelOnly) {
  const CliRun r = cbi_run("simulate --model gpu --device tiny --classify-misses");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--classify-misses"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("sequential"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
}
