// `cbi simulate --model gpu`, `cbi devices` and `cbi tune` end to end (no GPU needed): the JSON
// carries the Nsight-named counts as numbers, the tiny matmul's request count is warps x loads,
// tune ranks fastest first, and bad values exit 2 naming the option.
#include "cbi/cli/csv.hpp"
#include "cli_run.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <iterator>
#include <set>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

using cbi::test::run_program;

// The ncu names, in the list (issue 10 §2), and the L2's read requests (l2-bw.md).
const char *const kNcuNames[] = {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
                                 "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                                 "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
                                 "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum",
                                 "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct",
                                 "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
                                 "l1tex__t_sector_hit_rate.pct",
                                 "lts__t_sectors_srcunit_tex_op_read.sum",
                                 "lts__t_requests_srcunit_tex_op_read.sum",
                                 "lts__t_sector_hit_rate.pct",
                                 "dram__bytes_read.sum"};

// {"metrics": {ncu name: number, ...}, "predicted_ms": number, ...}: exactly the eleven names, as
// JSON numbers, in an object of their own; hits + misses = sectors; the load-sector rate is hits /
// sectors, and Nsight's l1tex__t_sector_hit_rate.pct counts the stores' sectors too (as misses):
// hits / (load sectors + store sectors), 64 x 64 floats stored = 512 sectors.
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
  EXPECT_EQ(
      hits +
          metrics.at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum").get<int64_t>(),
      sectors);
  EXPECT_DOUBLE_EQ(
      metrics.at("l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct").get<double>(),
      100.0 * double(hits) / double(sectors));
  EXPECT_EQ(metrics.at("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum").get<int64_t>(),
            64 * 64 * 4 / 32);
  EXPECT_DOUBLE_EQ(metrics.at("l1tex__t_sector_hit_rate.pct").get<double>(),
                   100.0 * double(hits) / double(sectors + 64 * 64 * 4 / 32));
  EXPECT_TRUE(j.at("context").contains("cbi_version"));
  EXPECT_EQ(j.at("config").at("block"), 128);
  EXPECT_EQ(j.at("config").at("writes"), true) << "the GPU model always replays the store";
}

// The GPU model always stores (issue 21 §2): --writes changes nothing there, so it is refused,
// in simulate (which has --model) and in tune (which has not, and is not told to use it).
TEST(GpuCli, WritesIsRefusedWhereStoresAlwaysRun) {
  const auto sim = run_program("cbi", "simulate --model gpu --size 64 --writes");
  EXPECT_EQ(sim.exit_code, 2);
  EXPECT_EQ(sim.err.rfind("cbi simulate: --writes: applies to --model sequential only", 0), 0u)
      << sim.err;
  EXPECT_NE(sim.err.find("or --model sequential"), std::string::npos) << sim.err;
  const auto tune = run_program("cbi", "tune --workload matmul --size 64 --orders linear --writes");
  EXPECT_EQ(tune.exit_code, 2);
  EXPECT_EQ(tune.err.rfind("cbi tune: --writes: ", 0), 0u) << tune.err;
  EXPECT_NE(tune.err.find("does not apply: cbi tune runs the GPU model"), std::string::npos)
      << tune.err;
  EXPECT_EQ(tune.err.find("--model"), std::string::npos) << "tune has no --model: " << tune.err;
  EXPECT_EQ(run_program("cbi", "simulate --size 64 --writes --format json").exit_code, 0);
}

// Issue 18 §3: simulate --model gpu --progress shows the threads done, the elapsed time and an
// ETA on stderr; the result on stdout is the same as without it.
TEST(GpuCli, SimulateGpuShowsProgressWhenAsked) {
  const std::string args = "simulate --model gpu --workload matmul --size 128 --block 128 --jobs 1";
  const auto with = run_program("cbi", args + " --progress --format csv");
  ASSERT_EQ(with.exit_code, 0) << with.err;
  EXPECT_NE(with.err.find("16384/16384 threads"), std::string::npos) << with.err;
  EXPECT_NE(with.err.find("elapsed"), std::string::npos) << with.err;
  const auto without = run_program("cbi", args + " --format csv");
  ASSERT_EQ(without.exit_code, 0) << without.err;
  EXPECT_EQ(without.err, "") << "not a terminal, not asked";
  auto body = [](const std::string &csv) { return csv.substr(csv.find('\n')); };
  EXPECT_EQ(body(with.out), body(without.out));
}

TEST(GpuCli, DevicesListsTheTable) {
  const auto r = run_program("cbi", "devices --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char *name : {"h100,", "h200,", "rtx2080super,", "a100,", "v100,"})
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
  // The model replays each task's output store, as the kernels do; the config says so.
  EXPECT_EQ(j.at("config").at("writes"), true) << j.at("config");
  const auto ranking = j.at("ranking");
  ASSERT_EQ(ranking.size(), 3u);
  std::set<std::string> orders;
  for (std::size_t k = 0; k < ranking.size(); ++k) {
    orders.insert(ranking[k].at("order").get<std::string>());
    EXPECT_TRUE(ranking[k].at("predicted_ms").is_number());
    // Typed fields (issue 18 §3): the tie group, the margin over the fastest and the bound.
    EXPECT_TRUE(ranking[k].at("tie_group").is_number_integer()) << ranking[k];
    EXPECT_TRUE(ranking[k].at("margin_pct").is_number()) << ranking[k];
    EXPECT_TRUE(ranking[k].at("bound").is_string()) << ranking[k];
    EXPECT_EQ(ranking[k].at("replay"), "full"); // a staged search replays 4 of 3: all full
    for (const char *key : {"l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct",
                            "lts__t_sectors_srcunit_tex_op_read.sum", "dram__bytes_read.sum"})
      EXPECT_TRUE(ranking[k].at("metrics").at(key).is_number()) << key;
    if (k > 0) {
      EXPECT_LE(ranking[k - 1].at("predicted_ms").get<double>(),
                ranking[k].at("predicted_ms").get<double>());
    }
  }
  EXPECT_EQ(orders, (std::set<std::string>{"linear", "column:4", "column:32"}));
  EXPECT_EQ(j.at("meta").at("winner"), ranking[0].at("order"));
}

// The default candidates are the distinct orders for the size: at width 64 every column:w with
// w >= 64 maps as linear and is left out, said in a note; each row is typed and carries its replay.
TEST(GpuCli, TuneDefaultCandidatesAreDistinct) {
  // --search staged: a search this small runs in full unasked (TuneACheapSearchRunsInFull).
  const auto r = run_program(
      "cbi", "tune --workload matmul --size 64 --block 64 --search staged --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  std::set<std::string> orders;
  for (const auto &row : j.at("ranking")) {
    const std::string o = row.at("order").get<std::string>();
    EXPECT_TRUE(orders.insert(o).second) << o;
    if (o.rfind("column:", 0) == 0) {
      EXPECT_LT(std::stoi(o.substr(7)), 64) << o;
    }
    EXPECT_TRUE(row.at("replay").is_string());
  }
  EXPECT_EQ(orders.count("linear"), 1u);
  const std::string notes = j.at("notes").dump();
  EXPECT_NE(notes.find("column:64 maps as linear"), std::string::npos) << notes;
  EXPECT_NE(notes.find("column:2048 maps as linear"), std::string::npos) << notes;
  // Staged: the first four on the full device (more while they all tie with the fastest) have a
  // tie group and come first; the others were only sampled and have none.
  const auto &ranking = j.at("ranking");
  ASSERT_GT(ranking.size(), 4u);
  std::size_t full = 0;
  while (full < ranking.size() && ranking[full].at("replay") == "full")
    ++full;
  EXPECT_GE(full, 4u);
  for (std::size_t k = 0; k < ranking.size(); ++k) {
    EXPECT_EQ(ranking[k].at("replay") == "full", k < full) << ranking[k];
    EXPECT_EQ(ranking[k].at("tie_group").is_null(), k >= full) << ranking[k];
  }
  EXPECT_EQ(ranking[0].at("tie_group"), 1);
  EXPECT_EQ(j.at("config").at("stage_two"), "full"); // the default stage two: the full device
}

// Unasked, a search this small (64^2 x 128 accesses an order) replays every order on the full
// device: every row's replay is "full" and has a tie group or none past the fastest's.
TEST(GpuCli, TuneACheapSearchRunsInFull) {
  const auto r = run_program("cbi", "tune --workload matmul --size 64 --block 64 --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("config").at("search"), "full");
  ASSERT_GT(j.at("ranking").size(), 4u);
  for (const auto &row : j.at("ranking"))
    EXPECT_EQ(row.at("replay"), "full") << row;
}

// --final-sms N: stage two replays the finalists on N sampled SMs, not the full device; their rows
// and the config say so, and the rows of stage one alone keep their 12 SMs.
TEST(GpuCli, TuneFinalSmsSamplesStageTwo) {
  const auto r = run_program(
      "cbi", "tune --workload matmul --size 64 --block 64 --final-sms 33 --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("config").at("stage_two"), "sampled 33 SMs");
  const auto &ranking = j.at("ranking");
  std::size_t final_rows = 0;
  for (const auto &row : ranking) {
    const bool stage_two = !row.at("tie_group").is_null();
    final_rows += stage_two;
    EXPECT_EQ(row.at("replay"), stage_two ? "sampled 33 SMs" : "sampled 12 SMs") << row;
  }
  EXPECT_GE(final_rows, 4u); // four finalists, more while they all tie
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

// --jobs (issue 18 §2): the GPU model's host threads; the same JSON counts on 1 and 3 threads;
// refused by the sequential replay and for a value that is not a positive count, naming --jobs.
TEST(GpuCli, JobsChangesNoCountAndIsRefusedWhereItDoesNotApply) {
  const std::string args = "simulate --model gpu --workload stencil --stencil 5x5 --size 300x200 "
                           "--order column:16 --block 128 --format json --jobs ";
  const auto one = run_program("cbi", args + "1");
  const auto three = run_program("cbi", args + "3");
  ASSERT_EQ(one.exit_code, 0) << one.err;
  ASSERT_EQ(three.exit_code, 0) << three.err;
  const auto j1 = nlohmann::json::parse(one.out), j3 = nlohmann::json::parse(three.out);
  EXPECT_EQ(j1.at("metrics"), j3.at("metrics"));
  EXPECT_EQ(j1.at("predicted_ms"), j3.at("predicted_ms"));
  const auto sequential = run_program("cbi", "simulate --jobs 2");
  EXPECT_EQ(sequential.exit_code, 2);
  EXPECT_EQ(sequential.err.rfind("cbi simulate: --jobs: ", 0), 0u) << sequential.err;
  EXPECT_TRUE(sequential.out.empty());
  const auto zero = run_program("cbi", "simulate --model gpu --jobs 0");
  EXPECT_EQ(zero.exit_code, 2);
  EXPECT_EQ(zero.err.rfind("cbi simulate: --jobs: ", 0), 0u) << zero.err;
}

// The tiled kernels (issue 20 §3), spelled as cbi bench spells them: simulate --model gpu replays
// the tile loads under a block order, tune ranks block orders, and the options that do not apply
// are refused naming the option.
TEST(GpuCli, TiledKernelsTakeABlockOrderInSimulateAndTune) {
  // sgemm-tiled 256 x 256, D = 64: 4 CTAs of 256 threads, 8 steps of 2 loads each.
  const auto sim = run_program("cbi", "simulate --model gpu --kernel sgemm-tiled --size 256 "
                                      "--depth 64 --block-order column:2 --format json");
  ASSERT_EQ(sim.exit_code, 0) << sim.err;
  const auto j = nlohmann::json::parse(sim.out);
  EXPECT_EQ(j.at("config").at("workload"), "sgemm-tiled");
  EXPECT_EQ(j.at("config").at("block_order"), "column:2");
  EXPECT_EQ(j.at("metrics").at("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 4 * 8 * 16);
  const auto tune = run_program("cbi", "tune --kernel stencil-smem --size 256 --stencil 5x5 "
                                       "--block-order linear,column:2,tile:2x2 --format json");
  ASSERT_EQ(tune.exit_code, 0) << tune.err;
  const auto ranking = nlohmann::json::parse(tune.out).at("ranking");
  std::set<std::string> orders;
  for (const auto &row : ranking)
    orders.insert(row.at("block_order").get<std::string>());
  EXPECT_EQ(orders, (std::set<std::string>{"linear", "column:2", "tile:2"}));
  // Wrong option for the kernel: each names what the user typed.
  for (const auto &[args, option] : std::vector<std::pair<std::string, std::string>>{
           {"simulate --model gpu --kernel sgemm-tiled --order column:8", "--order"},
           {"simulate --model gpu --workload matmul --block-order column:8", "--block-order"},
           {"simulate --model gpu --kernel sgemm-tiled --elem-bytes 8", "--elem-bytes"},
           {"simulate --model gpu --kernel stencil-2d", "--kernel"},
           {"simulate --kernel matmul --workload matmul", "--kernel"},
           {"tune --kernel sgemm-tiled --orders linear", "--orders"},
           // The tiled kernels are ranked on the full device: the staged search is refused.
           {"tune --kernel sgemm-tiled --size 256 --search staged", "--search"},
           {"tune --kernel stencil-smem --size 256 --finalists 2", "--finalists"},
           {"tune --kernel stencil-smem --size 256 --final-sms 33", "--final-sms"},
           // Stage two's sample divides the device's SMs, exceeds stage one's, and is staged.
           {"tune --workload matmul --size 64 --final-sms 7", "--final-sms"},
           {"tune --workload matmul --size 64 --final-sms 12", "--final-sms"},
           {"tune --workload matmul --size 64 --final-sms 33 --search full", "--final-sms"},
           // ... and so is a sampled device, whose CTAs miss their neighbours' tiles in the L2.
           {"tune --kernel sgemm-tiled --size 256 --sample-sms 4", "--sample-sms"},
           {"simulate --model gpu --kernel stencil-smem --size 256 --sample-sms 4", "--sample-sms"},
           {"tune --workload matmul --block-order column:8", "--block-order"},
           // Refused even at its default value, and by the sequential engine too (applicability
           // table): an option that does not apply is never accepted and ignored.
           {"simulate --workload matmul --size 64 --block-order linear", "--block-order"},
           {"simulate --model gpu --workload stencil --block-order linear", "--block-order"},
           {"tune --workload matmul --size 64 --block-order linear", "--block-order"},
           {"tune --kernel sgemm-tiled --size 256 --block-order column:0", "--block-order"}}) {
    const auto r = run_program("cbi", args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_NE(r.err.find(": " + option + ": "), std::string::npos) << args << ": " << r.err;
  }
  // tune's JSON config holds no block order: the block order is what it ranks.
  EXPECT_FALSE(nlohmann::json::parse(tune.out).at("config").contains("block_order"));
}

// An order given twice is refused, naming the option, for thread orders and block orders alike (it
// was ranked once, with a note: every command refuses a value given twice); the tiled kernels'
// title names no fixed block order (tune ranks them).
TEST(GpuCli, TuneRefusesARepeatedOrderAndItsTiledTitleNamesNoBlockOrder) {
  const auto naive = run_program("cbi", "tune --workload matmul --size 64 --block 64 --orders "
                                        "column:4,linear,column:4 --format json");
  EXPECT_EQ(naive.exit_code, 2) << naive.err;
  EXPECT_NE(naive.err.find("--orders: 'column:4' is given twice"), std::string::npos) << naive.err;
  const auto repeated = run_program("cbi", "tune --kernel sgemm-tiled --size 256 --depth 64 "
                                           "--block-order tile:4,linear,tile:4x4");
  EXPECT_EQ(repeated.exit_code, 2) << repeated.err;
  EXPECT_NE(repeated.err.find("--block-order: 'tile:4x4' is given twice (as 'tile:4')"),
            std::string::npos)
      << repeated.err;
  const auto tiled = run_program("cbi", "tune --kernel sgemm-tiled --size 256 --depth 64 "
                                        "--block-order column:2,linear --format json");
  ASSERT_EQ(tiled.exit_code, 0) << tiled.err;
  const auto t = nlohmann::json::parse(tiled.out);
  std::set<std::string> orders;
  for (const auto &row : t.at("ranking"))
    EXPECT_TRUE(orders.insert(row.at("block_order").get<std::string>()).second) << row;
  EXPECT_EQ(orders, (std::set<std::string>{"linear", "column:2"}));
  const std::string title = t.at("title").get<std::string>();
  EXPECT_EQ(title.find("blocks "), std::string::npos) << title;
  EXPECT_NE(title.find("block orders ranked"), std::string::npos) << title;
}

// cbi sweep --model gpu (issue 10 §3): the block axis and --device reach the GPU model, and each
// row's *_pred columns are exactly what cbi simulate --model gpu prints for that point.
TEST(GpuSweep, ModelRowsMatchSimulateAndHonourBlockAndDevice) {
  const auto r = run_program("cbi", "sweep --model gpu --kernel matmul --size 64 --block 64,128 "
                                    "--order column:32");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const cbi::cli::CsvTable t = cbi::cli::parse_csv(r.out);
  ASSERT_EQ(t.rows.size(), 2u);
  auto at = [&](std::size_t row, const std::string &col) {
    const int c = t.index(col);
    EXPECT_GE(c, 0) << col;
    return c < 0 ? std::string() : t.rows[row][static_cast<std::size_t>(c)];
  };
  for (std::size_t k = 0; k < 2; ++k) {
    EXPECT_EQ(at(k, "backend"), "model");
    EXPECT_EQ(at(k, "model_device"), "h100");
    EXPECT_EQ(at(k, "sim_l1_hit_pct"), "") << "the sequential replay did not run";
    EXPECT_EQ(at(k, "l1tex__t_sector_hit_rate.pct_meas"), "") << "no hardware";
    const auto sim = run_program("cbi", "simulate --model gpu --workload matmul --size 64 "
                                        "--order column:32 --format json --block " +
                                            at(k, "block"));
    ASSERT_EQ(sim.exit_code, 0) << sim.err;
    const auto j = nlohmann::json::parse(sim.out);
    for (const char *name : kNcuNames)
      EXPECT_DOUBLE_EQ(std::stod(at(k, std::string(name) + "_pred")),
                       j.at("metrics").at(name).get<double>())
          << name << " at block " << at(k, "block");
    EXPECT_DOUBLE_EQ(std::stod(at(k, "predicted_ms")), j.at("predicted_ms").get<double>());
  }
  EXPECT_NE(at(0, "l1tex__t_sector_hit_rate.pct_pred"), at(1, "l1tex__t_sector_hit_rate.pct_pred"))
      << "block 64 and 128 share B lines differently";

  const auto rtx = run_program("cbi", "sweep --model gpu --device rtx2080super --kernel matmul "
                                      "--size 64 --block 64 --order column:32");
  ASSERT_EQ(rtx.exit_code, 0) << rtx.err;
  const cbi::cli::CsvTable d = cbi::cli::parse_csv(rtx.out);
  ASSERT_EQ(d.rows.size(), 1u);
  EXPECT_EQ(d.rows[0][static_cast<std::size_t>(d.index("model_device"))], "rtx2080super");
  EXPECT_NE(d.rows[0][static_cast<std::size_t>(d.index("predicted_ms"))], at(0, "predicted_ms"));
  EXPECT_NE(d.rows[0][static_cast<std::size_t>(d.index("point_id"))], at(0, "point_id"))
      << "the device is part of the point";
}

// cbi reproduce without --sim-only needs a device: without one it exits 3 naming --sim-only and
// leaves no report folder behind where it created it; a folder that was there stays.
TEST(GpuReproduce, WithoutADeviceItExits3AndLeavesNoFolderItMade) {
  const std::string out = ::testing::TempDir() + "/cbi_reproduce_no_device";
  std::filesystem::remove_all(out);
  const auto r = run_program("cbi", "reproduce --tiny -o " + out);
  if (r.exit_code == 0)
    GTEST_SKIP() << "a CUDA device is present";
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("--sim-only"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(out)) << "the report folder it made is left behind";
  std::filesystem::create_directories(out);
  const auto again = run_program("cbi", "reproduce --tiny -o " + out);
  EXPECT_EQ(again.exit_code, 3) << again.err;
  EXPECT_TRUE(std::filesystem::exists(out)) << "a folder that was there is the user's";
  std::filesystem::remove_all(out);
}

// --backend sim+gpu: the GPU model beside the hardware. Without a device it exits 3 naming the
// backend and writes nothing; --dry-run needs no device. Bad combinations exit 2.
TEST(GpuSweep, SimPlusGpuNeedsADeviceButNotForADryRun) {
  const std::string out = ::testing::TempDir() + "/cbi_sim_gpu.csv";
  std::remove(out.c_str());
  const auto r =
      run_program("cbi", "sweep --backend sim+gpu --kernel matmul --size 64 --output " + out);
  if (r.exit_code == 0)
    GTEST_SKIP() << "a CUDA device is present";
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_EQ(r.err.rfind("cbi sweep: --backend sim+gpu: no usable CUDA device", 0), 0u) << r.err;
  EXPECT_NE(access(out.c_str(), F_OK), 0) << "no CSV without a device";
  const auto dry = run_program("cbi", "sweep --backend sim+gpu --kernel matmul --size 64 --block "
                                      "64,128 --dry-run");
  EXPECT_EQ(dry.exit_code, 0) << dry.err;
  EXPECT_EQ(cbi::test::count_lines(dry.out), 2) << dry.out;
  for (const auto &[args, option] : std::vector<std::pair<std::string, std::string>>{
           {"--model gpu --backend gpu", "--model"},
           {"--backend sim+gpu --model sequential", "--model"},
           {"--device h100", "--device"},
           {"--model gpu --device h1000", "--device"},
           {"--model cycle", "--model"},
           {"--backend gpu+sim", "--backend"}}) {
    const auto bad = run_program("cbi", "sweep --kernel matmul --size 64 " + args);
    EXPECT_EQ(bad.exit_code, 2) << args;
    EXPECT_EQ(bad.err.rfind("cbi sweep: " + option + ": ", 0), 0u) << args << ": " << bad.err;
  }
}
