// A new user's first command lines, each tried as typed: spellings that differ between commands,
// messages that blame an option the user did not give, captions that name another unit, outputs
// that resolve to one file, and values refused only after minutes of work.
#include "cli_run.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace {

using cbi::test::cbi_run;
using cbi::test::CliRun;
using cbi::test::expect_usage_error;

} // namespace

// sweep, bench, diagram and simulate spell the order list --order, and tune spelled it --orders
// only: `cbi tune --order a,b` was "not an option of this command". --order ranks the same orders
// as --orders (still taken); both at once are refused, not merged.
TEST(NewUser, TuneTakesOrderAsEveryCommandSpellsIt) {
  const std::string tune = "tune --workload matmul --size 32 --block 64 --search full ";
  const CliRun order = cbi_run(tune + "--order linear,column:4 --format csv");
  ASSERT_EQ(order.exit_code, 0) << order.err;
  const CliRun orders = cbi_run(tune + "--orders linear,column:4 --format csv");
  ASSERT_EQ(orders.exit_code, 0) << orders.err;
  EXPECT_EQ(order.out, orders.out);
  expect_usage_error(tune + "--order linear --orders column:4",
                     "--orders: is --order's other spelling, and --order is given too; allowed: "
                     "one of them");
  // Its messages name the spelling given.
  expect_usage_error(tune + "--order column:4,column:4", "--order: 'column:4' is given twice");
  expect_usage_error(tune + "--orders column:4,column:4", "--orders: 'column:4' is given twice");
  const CliRun help = cbi_run("tune --help");
  EXPECT_NE(help.out.find("[--order LIST]"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("--orders arg "), std::string::npos) << help.out;
}

// `sweep --grid fig5.1a --model gpu --device tiny` said "--block: 32 threads per block is not
// allowed on tiny", an option the user never gave: the grid's own blocks do not fit the device.
TEST(NewUser, AGridsBlocksTooLargeForTheDeviceNameGridAndDevice) {
  expect_usage_error("sweep --grid fig5.1a --model gpu --device tiny",
                     "--device: tiny runs blocks of at most 1 thread, and --grid fig5.1a's blocks "
                     "of 32, 64, 128, 256, 512, 1024 threads do not fit it; allowed: --device "
                     "h100, h200, rtx2080super, a100, v100, or --block 1 in place of the grid's "
                     "blocks");
  const CliRun one = cbi_run("sweep --grid fig5.1a --model gpu --device tiny --block 1 --dry-run");
  EXPECT_EQ(one.exit_code, 0) << one.err;
  const CliRun fits = cbi_run("sweep --grid fig5.1a --model gpu --device a100 --dry-run");
  EXPECT_EQ(fits.exit_code, 0) << fits.err;
}
