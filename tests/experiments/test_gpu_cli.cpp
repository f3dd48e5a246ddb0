// `cbi simulate --model gpu`, `cbi devices` and `cbi tune` end to end (no GPU needed): the JSON
// carries the Nsight-named counts as numbers, the tiny matmul's request count is warps x loads,
// tune ranks fastest first, and bad values exit 2 naming the option.
#include "cli_run.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

using cbi::test::run_program;

TEST(GpuCli, SimulateModelGpuPrintsNsightNamedCountsAsJsonNumbers) {
  const auto r = run_program("cbi", "simulate --model gpu --workload matmul --size 64 --order "
                                    "column:32 --block 128 --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const auto &row = j.at("rows").at(0);
  for (const char *key : {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
                          "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                          "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
                          "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum",
                          "l1tex__t_sector_hit_rate.pct", "lts__t_sectors_srcunit_tex_op_read.sum",
                          "lts__t_sector_hit_rate.pct", "dram__bytes_read.sum", "predicted_ms"})
    EXPECT_TRUE(row.at(key).is_number()) << key;
  // 64 x 64 threads in warps of 32, 2 x 64 loads each.
  EXPECT_EQ(row.at("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum").get<int64_t>(),
            64 * 64 / 32 * 128);
  EXPECT_GT(row.at("predicted_ms").get<double>(), 0.0);
}

TEST(GpuCli, DevicesListsTheTable) {
  const auto r = run_program("cbi", "devices --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char *name : {"h100,", "rtx2080super,", "a100,", "v100,"})
    EXPECT_NE(r.out.find(name), std::string::npos) << name;
}

TEST(GpuCli, TuneRanksFastestFirst) {
  const auto r = run_program("cbi", "tune --workload matmul --size 128 --block 128 --orders "
                                    "linear,column:4,column:32 --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto rows = nlohmann::json::parse(r.out).at("rows");
  ASSERT_EQ(rows.size(), 3u);
  for (std::size_t k = 1; k < rows.size(); ++k)
    EXPECT_LE(rows[k - 1].at("predicted_ms").get<double>(),
              rows[k].at("predicted_ms").get<double>());
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
