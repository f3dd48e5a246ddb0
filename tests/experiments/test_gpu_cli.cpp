// `cbi simulate --model gpu`, `cbi devices` and `cbi tune` end to end (no GPU needed): the JSON
// carries the Nsight-named counts as numbers, the tiny matmul's request count is warps x loads,
// tune ranks fastest first, and bad values exit 2 naming the option.
#include "cli_run.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <iterator>
#include <set>
#include <string>

using cbi::test::run_program;

// The ncu names, in the list (issue 10 §2).
const char *const kNcuNames[] = {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
                                 "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                                 "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
                                 "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum",
                                 "l1tex__t_sector_hit_rate.pct",
                                 "lts__t_sectors_srcunit_tex_op_read.sum",
                                 "lts__t_sector_hit_rate.pct",
                                 "dram__bytes_read.sum"};

// {"metrics": {ncu name: number, ...}, "predicted_ms": number, ...}: exactly the eight names, as
// JSON numbers, in an object of their own; hits + misses = sectors; the rate is hits / sectors.
TEST(GpuCli, SimulateModelGpuPrintsNsightNamedCountsAsJsonNumbers) {
  const auto r = run_program("cbi", "simulate --model gpu --workload matmul --size 64 --order "
                                    "column:32 --block 128 --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_FALSE(j.contains("rows")) << "one result, not a list of one";
  const auto &metrics = j.at("metrics");
  ASSERT_TRUE(metrics.is_object());
  EXPECT_EQ(metrics.size(), std::size(kNcuNames)) << metrics;
  for (const char *key : kNcuNames) {
    EXPECT_TRUE(metrics.at(key).is_number()) << key;
    EXPECT_FALSE(j.contains(key)) << key << " sits only under metrics";
  }
  EXPECT_TRUE(j.at("predicted_ms").is_number());
  EXPECT_GT(j.at("predicted_ms").get<double>(), 0.0);
  // 64 x 64 threads in warps of 32, 2 x 64 loads each.
  EXPECT_EQ(metrics.at("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum").get<int64_t>(),
            64 * 64 / 32 * 128);
  const auto sectors = metrics.at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum").get<int64_t>();
  const auto hits =
      metrics.at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum").get<int64_t>();
  EXPECT_EQ(hits + metrics.at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum")
                       .get<int64_t>(),
            sectors);
  EXPECT_DOUBLE_EQ(metrics.at("l1tex__t_sector_hit_rate.pct").get<double>(),
                   100.0 * double(hits) / double(sectors));
  EXPECT_TRUE(j.at("context").contains("cbi_version"));
  EXPECT_EQ(j.at("config").at("block"), 128);
}

TEST(GpuCli, DevicesListsTheTable) {
  const auto r = run_program("cbi", "devices --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char *name : {"h100,", "rtx2080super,", "a100,", "v100,"})
    EXPECT_NE(r.out.find(name), std::string::npos) << name;
}

// {"ranking": [{"order": "column:32", "predicted_ms": 0.33, "metrics": {...}}, ...]}, fastest
// first, each order once, and the context block kept.
TEST(GpuCli, TuneRanksFastestFirst) {
  const auto r = run_program("cbi", "tune --workload matmul --size 128 --block 128 --orders "
                                    "linear,column:4,column:32 --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_FALSE(j.contains("rows"));
  EXPECT_TRUE(j.at("context").contains("git_commit"));
  const auto ranking = j.at("ranking");
  ASSERT_EQ(ranking.size(), 3u);
  std::set<std::string> orders;
  for (std::size_t k = 0; k < ranking.size(); ++k) {
    orders.insert(ranking[k].at("order").get<std::string>());
    EXPECT_TRUE(ranking[k].at("predicted_ms").is_number());
    for (const char *key : {"l1tex__t_sector_hit_rate.pct", "lts__t_sectors_srcunit_tex_op_read.sum",
                            "dram__bytes_read.sum"})
      EXPECT_TRUE(ranking[k].at("metrics").at(key).is_number()) << key;
    if (k > 0) {
      EXPECT_LE(ranking[k - 1].at("predicted_ms").get<double>(),
                ranking[k].at("predicted_ms").get<double>());
    }
  }
  EXPECT_EQ(orders, (std::set<std::string>{"linear", "column:4", "column:32"}));
  EXPECT_EQ(j.at("meta").at("winner"), ranking[0].at("order"));
}

TEST(GpuCli, BadValuesExitTwoNamingTheOption) {
  const auto device = run_program("cbi", "simulate --model gpu --device h1000");
  EXPECT_EQ(device.exit_code, 2);
  EXPECT_NE(device.err.find("--device"), std::string::npos) << device.err;
  const auto model = run_program("cbi", "simulate --model cycle");
  EXPECT_EQ(model.exit_code, 2);
  EXPECT_NE(model.err.find("sequential, gpu"), std::string::npos) << model.err;
  const auto block = run_program("cbi", "simulate --model gpu --block 4096");
  EXPECT_EQ(block.exit_code, 2);
  EXPECT_EQ(block.err.rfind("cbi simulate: --block: ", 0), 0u) << block.err;
  EXPECT_EQ(block.err.find("gpu."), std::string::npos) << "sim's field maps to the option";
}
