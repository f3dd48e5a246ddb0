// A new user's first command lines, each tried as typed: spellings that differ between commands,
// messages that blame an option the user did not give, captions that name another unit, outputs
// that resolve to one file, and values refused only after minutes of work.
#include "cli_run.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace {

namespace fs = std::filesystem;
using cbi::test::cbi_run;
using cbi::test::CliRun;
using cbi::test::expect_usage_error;

std::string scratch(const std::string &name) { return cbi::test::scratch_dir("cbi_new", name); }

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

// Two outputs whose writes land in one file through a symlink, a dangling one too: diagram -o l.png
// --csv c.csv, with l.png -> c.csv not yet there, wrote the PNG over the CSV. A dangling link as
// the only output creates its target (the link stays); a link that leads back to itself is
// refused (the write replaced the link with a regular file).
TEST(NewUser, OutputsThatASymlinkLeadsToOneFileAreRefused) {
  const std::string dir = scratch("links");
  fs::create_symlink("c.csv", dir + "/l.csv");
  expect_usage_error("sweep --size 64 -o " + dir + "/l.csv --json " + dir + "/c.csv",
                     "--json: '" + dir + "/c.csv' is the file of --output too");
  if (fs::exists(cbi::test::bin_dir() + "/cbi-viz")) {
    fs::create_symlink("c.csv", dir + "/l.png");
    expect_usage_error("diagram --size 8 -o " + dir + "/l.png --csv " + dir + "/c.csv",
                       "--csv: '" + dir + "/c.csv' is the file of --output too");
  }
  EXPECT_FALSE(fs::exists(dir + "/c.csv"));
  const CliRun one = cbi_run("sweep --size 64 -o " + dir + "/l.csv");
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_TRUE(fs::is_symlink(dir + "/l.csv"));
  EXPECT_EQ(one.out, "");
  EXPECT_NE(cbi::test::slurp(dir + "/c.csv").find("kernel"), std::string::npos);
  fs::create_symlink("loop.csv", dir + "/loop.csv");
  expect_usage_error("simulate -o " + dir + "/loop.csv",
                     "--output: '" + dir + "/loop.csv' is a symlink that leads back to itself");
  EXPECT_TRUE(fs::is_symlink(dir + "/loop.csv"));
}
