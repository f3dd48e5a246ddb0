// Issue 12 item 12: an allocation that cannot fit is refused before it is tried, with exit 2, one
// line naming the option to change and how much memory the configuration needs, and no output
// file; for every command that allocates a cache by configuration.
#include "cbi/cli/command.hpp"
#include "cbi/config/options.hpp"
#include "cli_run.hpp"

#include <gtest/gtest.h>

#include <filesystem>

namespace {

using namespace cbi;

TEST(Memory, EstimateCountsEveryLevel) {
  sim::CacheConfig full; // fully associative
  full.capacity_lines = 1000;
  sim::CacheConfig sets = full;
  sets.ways = 8;
  EXPECT_GE(config::cache_state_bytes({full}), 56.0 * 1000); // measured: 56 B a line
  EXPECT_GE(config::cache_state_bytes({sets}), 9.0 * 1000);  // 8-byte tag and a sector mask
  EXPECT_EQ(config::cache_state_bytes({full, sets}),
            config::cache_state_bytes({full}) + config::cache_state_bytes({sets}));
}

TEST(Memory, TooLargeACacheIsExit2NamingItsOption) {
  // 2^31 fully associative lines need about 128 GiB of engine state.
  if (cli::available_memory_bytes() > (int64_t{120} << 30))
    GTEST_SKIP() << "this machine could hold the cache; nothing to refuse";
  const std::string png = "/tmp/cbi_test_memory.png", csv = "/tmp/cbi_test_memory.csv";
  std::filesystem::remove(png);
  std::filesystem::remove(csv);
  const std::pair<std::string, std::string> cases[] = {
      {"simulate --lines 2147483648", "--lines"},
      {"simulate --level size=32GiB,line=16", "--level"},
      {"analyze --cache-bytes 32GiB", "--cache-bytes"},
      {"diagram --lines 2147483648 -o " + png, "--lines"},
      {"sweep --size 64 --cache lines=2147483648 -o " + csv, "--cache"},
  };
  for (const auto &[args, option] : cases) {
    SCOPED_TRACE(args);
    const test::CliRun r = test::cbi_run(args);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(test::count_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(option + ": "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("needs about 1"), std::string::npos) << r.err; // 119-128 GiB
    EXPECT_NE(r.err.find(" GiB of memory"), std::string::npos) << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists(png));
  EXPECT_FALSE(std::filesystem::exists(csv));
}

} // namespace
