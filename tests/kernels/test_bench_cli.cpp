// `cbi bench` end to end: bad options exit 2 naming the option on any machine; without a device it
// exits 3 with one line; with one, JSON carries the device and every sample.
#include "cbi/kernels/bench.hpp"

#include <gtest/gtest.h>

#include "cli_run.hpp"

#include <algorithm>
#include <cstdio>
#include <unistd.h>

namespace {

using cbi::test::CliRun;
using cbi::test::slurp;

CliRun cbi(const std::string &args) { return cbi::test::cbi_run(args); }

TEST(BenchCli, BadOptionsExit2NamingTheOption) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--kernel conv", "--kernel"},
      {"--order diagonal:3", "--order"},
      {"--block 1025", "--block"},
      {"--stencil 8x8", "--stencil"},
      {"--type bf16", "--type"},
      {"--size 0", "--size"},
      {"--format xml", "--format"},
      {"--kernel sgemm-tiled --type double", "--type"},
      {"--kernel cublas --order column:32", "--order"},
      {"--max-noise abc", "--max-noise"},
      {"--remap-math exact", "--remap-math"},
      {"--kernel sgemm-tiled --block-order spiral:2", "--block-order"},
      {"--kernel stencil --block-order column:4", "--block-order"},
      // No listed kernel maps its threads through an order: --remap-math was dropped, not refused.
      {"--kernel cublas --remap-math div", "--remap-math: no listed kernel maps its threads"},
      {"--kernel sgemm-tiled,stencil-smem --remap-math fast", "--remap-math: no listed kernel"},
  };
  for (const auto &[args, option] : cases) {
    const CliRun r = cbi("bench " + args + " --output /tmp/cbi_bench_never.json");
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.err;
    EXPECT_NE(r.err.find(option), std::string::npos) << args << ": " << r.err;
    EXPECT_NE(r.err.find("allowed"), std::string::npos) << args << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  EXPECT_NE(access("/tmp/cbi_bench_never.json", F_OK), 0);
}

TEST(BenchCli, KernelFieldErrorsNameTheOptionGiven) {
  // kernels::validate names the field (kernel.block); the CLI prints the option the user gave.
  const CliRun r =
      cbi("bench --kernel stencil-smem --block 128 --output /tmp/cbi_bench_never.json");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err.rfind("cbi bench: --block: ", 0), 0u) << r.err;
  EXPECT_EQ(r.err.find("kernel."), std::string::npos) << r.err;
}

TEST(BenchCli, HelpTeachesWithExamples) {
  const CliRun r = cbi("bench --help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("Examples:"), std::string::npos);
  EXPECT_NE(r.out.find("--metrics"), std::string::npos);
  EXPECT_NE(r.out.find("column:32"), std::string::npos);
}

TEST(BenchCli, NoDeviceExits3OrDeviceGivesJson) {
  std::string why;
  const std::string path = "/tmp/cbi_bench_test_" + std::to_string(getpid()) + ".json";
  const CliRun r = cbi("bench --kernel stencil,stencil-smem --order linear,column:32 --size 256 "
                       "--min-samples 20 --format json --output " +
                       path);
  if (!cbi::kernels::device_available(&why)) {
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_NE(r.err.find("no CUDA device"), std::string::npos) << r.err;
    EXPECT_NE(access(path.c_str(), F_OK), 0) << "no output file without a device";
    return;
  }
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string json = slurp(path);
  std::remove(path.c_str());
  for (const char *key :
       {"\"device\"", "\"copy_gbs_measured\"", "\"samples_ms\"", "\"median_ms\"", "\"noise\"",
        "\"roofline_fraction\"", "\"registers\"", "\"passed\": true"})
    EXPECT_NE(json.find(key), std::string::npos) << key;
  // 2 remapped configurations of stencil and one of stencil-smem (orders do not apply to it).
  size_t configs = 0;
  for (size_t at = json.find("\"config\""); at != std::string::npos;
       at = json.find("\"config\"", at + 1))
    ++configs;
  EXPECT_EQ(configs, 3u);
  EXPECT_EQ(json.find("\"passed\": false"), std::string::npos);
}

} // namespace
