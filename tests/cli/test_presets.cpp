// The preset table (issue 12 item 2): each name is one configuration, the options it expands to
// parse back into exactly that configuration, every command refuses an unknown name with exit 2
// naming the option and the allowed names, and the thread-granularity counts never carry the
// per-access names.
#include "cbi/cli/options.hpp"
#include "cbi/config/point_options.hpp"
#include "cbi/config/presets.hpp"
#include "cli_run.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <set>
#include <unistd.h>

namespace {

using namespace cbi;
using test::cbi_run;
using test::count_lines;
using test::slurp;

// argv through the same option groups that `cbi simulate` reads.
sim::SimConfig parse(const std::vector<std::string> &argv) {
  cli::po::options_description desc;
  desc.add_options()("preset", cli::po::value<std::string>(), "");
  config::add_workload_options(desc);
  config::add_order_options(desc);
  config::add_cache_options(desc);
  std::vector<std::string> args = config::expand_preset(argv, true);
  std::vector<char *> ptrs;
  for (std::string &a : args)
    ptrs.push_back(a.data());
  cli::po::variables_map vm;
  cli::po::store(
      cli::po::command_line_parser(static_cast<int>(ptrs.size()), ptrs.data()).options(desc).run(),
      vm);
  return *config::sim_config(config::point_from(vm, {}));
}

std::string fingerprint(const sim::SimConfig &c) {
  std::string s = c.workload.describe() + " | depth " + std::to_string(c.workload.depth) + " | " +
                  remap::to_string(c.order) +
                  (c.granularity == sim::Granularity::thread ? " | thread" : " | exact");
  for (const sim::CacheConfig &l : c.levels)
    s += " | " + config::level_spec(l);
  return s;
}

TEST(Presets, NamesAreUniqueAndEachParsesBackToItsRow) {
  std::set<std::string> names;
  for (const sim::Preset &p : sim::presets()) {
    SCOPED_TRACE(p.name);
    EXPECT_TRUE(names.insert(p.name).second) << "duplicate name";
    ASSERT_FALSE(p.orders.empty());
    EXPECT_EQ(remap::to_string(p.config.order), remap::to_string(p.orders.front()));
    EXPECT_NO_THROW(sim::validate(p.config));
    // --preset NAME reads back as the row, through the parser every command uses.
    EXPECT_EQ(fingerprint(parse({"cbi", "--preset", p.name})), fingerprint(p.config));
    // The options a preset expands to name every setting, so no default fills a gap.
    const std::vector<std::string> args = config::preset_args(p);
    for (const char *opt : {"--workload", "--size", "--type", "--granularity", "--order"})
      EXPECT_NE(std::find(args.begin(), args.end(), opt), args.end()) << opt;
  }
}

TEST(Presets, Table31IsTheThesisDiagramConfiguration) {
  // Table 3.1 with §3.2's thread granularity and eq. 3.2's unclamped footprint.
  const sim::SimConfig &c = sim::find_preset("table3.1").config;
  EXPECT_EQ(c.workload.describe(), "stencil 7x7 on 16x16 float, no boundary");
  EXPECT_EQ(c.granularity, sim::Granularity::thread);
  ASSERT_EQ(c.levels.size(), 1u);
  EXPECT_EQ(config::level_spec(c.levels[0]), "lines=24,line=16,ways=0,policy=lru");
  // The kernel's reading of the same table is another name with another configuration.
  const sim::SimConfig &k = sim::find_preset("table3.1-clamp-exact").config;
  EXPECT_EQ(k.workload.boundary, sim::Boundary::clamp);
  EXPECT_EQ(k.granularity, sim::Granularity::exact);
  EXPECT_NE(fingerprint(c), fingerprint(k));
}

TEST(Presets, UserOptionsOverrideThePreset) {
  EXPECT_EQ(parse({"cbi", "--preset", "table3.1", "--order", "column:8"}).order.param_w, 8);
  EXPECT_EQ(
      parse({"cbi", "--preset", "table3.1", "--cache-bytes", "1KiB"}).levels[0].capacity_lines, 64);
  const sim::SimConfig two = parse(
      {"cbi", "--preset", "table3.1", "--level", "lines=8,line=16", "--level", "lines=64,line=16"});
  ASSERT_EQ(two.levels.size(), 2u);
  EXPECT_EQ(two.workload.boundary, sim::Boundary::none);
}

TEST(Presets, SimulateDefaultsAreTheClampExactPreset) {
  const test::CliRun plain = cbi_run("simulate --format csv");
  const test::CliRun named = cbi_run("simulate --preset table3.1-clamp-exact --format csv");
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(plain.out, named.out);
}

// Golden: Table 3.1 as the thesis counts it, per thread-line, under its own column names.
TEST(Presets, SimulateTable31MatchesGolden) {
  const test::CliRun r = cbi_run("simulate --preset table3.1 --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            slurp(std::string(CBI_SOURCE_DIR) + "/tests/cli/golden/simulate_preset_table31.csv"));
  EXPECT_NE(r.out.find("thread_line_hit_pct"), std::string::npos);
  EXPECT_EQ(r.out.find(",hit_pct"), std::string::npos);
  EXPECT_EQ(r.out.find(",accesses,"), std::string::npos);
  const test::CliRun exact = cbi_run("simulate --preset table3.1 --granularity exact --format csv");
  EXPECT_NE(exact.out.find(",accesses,"), std::string::npos);
  EXPECT_EQ(exact.out.find("thread_line"), std::string::npos);
  // mrc counts the same misses at the preset's 24 lines, under a per-thread-line name.
  const test::CliRun mrc = cbi_run("mrc --preset table3.1 --sizes 24 --format csv");
  ASSERT_EQ(mrc.exit_code, 0) << mrc.err;
  EXPECT_NE(mrc.out.find("thread_line_miss_pct"), std::string::npos);
  EXPECT_NE(mrc.out.find(",16,24,384,462,"), std::string::npos) << mrc.out;
}

TEST(Presets, UnknownNameIsExit2NamingTheOptionAndTheNames) {
  std::remove("/tmp/cbi_p.png");
  for (const std::string cmd : {"simulate --preset fig9", "mrc --preset fig9",
                                "analyze --preset fig9", "diagram --preset fig9 -o /tmp/cbi_p.png",
                                "view --preset fig9", "sweep --grid fig9 --dry-run"}) {
    SCOPED_TRACE(cmd);
    const test::CliRun r = cbi_run(cmd);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(cmd.find("sweep") == 0 ? "--grid" : "--preset"), std::string::npos);
    // The names it allows: every preset, or for sweep every grid, sweepable presets included.
    const bool sweep = cmd.find("sweep") == 0;
    EXPECT_NE(r.err.find(sweep ? "table3.1-clamp-exact" : "table3.1,"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(sweep ? "fig5.1a" : "fig4.4"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
  }
  EXPECT_NE(access("/tmp/cbi_p.png", F_OK), 0) << "no half-written diagram";
}

TEST(Presets, GpuModelRefusesAPresetItWouldNotHonour) {
  const test::CliRun r = cbi_run("simulate --preset table3.1 --model gpu");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("--preset"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST(Presets, ListedInFull) {
  const test::CliRun r = cbi_run("presets --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const sim::Preset &p : sim::presets())
    EXPECT_NE(r.out.find("\n" + p.name + ","), std::string::npos) << p.name;
  for (const char *column : {"boundary", "granularity", "levels", "orders", "elem_bytes"})
    EXPECT_NE(r.out.find(column), std::string::npos) << column;
}

} // namespace
