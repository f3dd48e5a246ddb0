// cbi tune's ranking logic (issue 18 §3, §4): distinct default candidates, and tie groups from the
// validated time error on a constructed case.
#include "cbi/sim/tune.hpp"

#include "cbi/error.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace cbi;

std::vector<remap::Order> parse(const std::vector<std::string> &texts) {
  std::vector<remap::Order> v;
  for (const std::string &t : texts)
    v.push_back(remap::parse_order(t));
  return v;
}

std::vector<std::string> names(const std::vector<remap::Order> &orders) {
  std::vector<std::string> v;
  for (const remap::Order &o : orders)
    v.push_back(remap::to_string(o));
  return v;
}

} // namespace

TEST(Tune, DistinctOrdersDropThoseThatMapAsAnother) {
  sim::Workload w;
  w.kind = sim::kind_of<sim::MatmulWorkload>();
  w.width = w.height = w.depth = 1024;
  const auto all = parse({"linear", "column:32", "column:512", "column:1024", "column:2048",
                          "tile:16", "tile:32x8", "zigzag:32"});
  std::vector<std::pair<remap::Order, remap::Order>> dropped;
  const auto kept = sim::distinct_orders(all, w, &dropped);
  EXPECT_EQ(names(kept), (std::vector<std::string>{"linear", "column:32", "column:512", "tile:16",
                                                   "tile:32x8", "zigzag:32"}));
  ASSERT_EQ(dropped.size(), 2u);
  EXPECT_EQ(remap::to_string(dropped[0].first), "column:1024");
  EXPECT_EQ(remap::to_string(dropped[0].second), "linear");
  EXPECT_EQ(remap::to_string(dropped[1].first), "column:2048");
  // No two kept orders map alike: each differs from every other at some task index.
  const remap::Shape<int64_t> shape{w.width, w.height};
  for (std::size_t a = 0; a < kept.size(); ++a)
    for (std::size_t b = a + 1; b < kept.size(); ++b) {
      bool differ = false;
      remap::visit(kept[a], [&](auto oa) {
        return remap::visit(kept[b], [&](auto ob) {
          for (int64_t i = 0; i < shape.width * shape.height && !differ; ++i) {
            const auto ta = oa.map(i, shape), tb = ob.map(i, shape);
            differ = ta.x != tb.x || ta.y != tb.y;
          }
          return 0;
        });
      });
      EXPECT_TRUE(differ) << names(kept)[a] << " and " << names(kept)[b];
    }
  // On a narrow input more of them collapse: at width 32, column:32 and wider are linear.
  w.width = 32;
  const auto narrow = sim::distinct_orders(all, w);
  for (const std::string &n : names(narrow))
    EXPECT_TRUE(n.rfind("column", 0) != 0) << n;
}

TEST(Tune, TieGroupsFollowTheValidatedError) {
  // Five orders at 1.00, 1.03, 1.03, 1.20, 1.24 and 2.0 ms with a 5% error: {1.00, 1.03, 1.03}
  // are indistinguishable, 1.20 starts group 2 (1.24 is within 5% of it), 2.0 group 3.
  const double times[] = {1.20, 1.03, 1.00, 2.0, 1.24, 1.03};
  const char *bounds[] = {"L2->L1 bandwidth",  "replay",        "replay",
                          "instruction issue", "L1 wavefronts", "replay"};
  std::vector<sim::GpuConfig> configs(6);
  std::vector<sim::GpuResult> results(6);
  for (int k = 0; k < 6; ++k) {
    configs[k].order = remap::parse_order(k == 3 ? "tile:16" : "column:32");
    results[k].time.predicted_ms = times[k];
    results[k].time.bound = bounds[k];
    results[k].metrics.l1_sectors = 100;
    results[k].metrics.l1_sector_hits = 90 - k;
    results[k].metrics.l2_read_sectors = 10 + k;
    results[k].cycles = 1000 + k;
  }
  configs[2].order = remap::parse_order("linear");
  const auto r = sim::rank_orders(configs, results, std::log(1.05));
  ASSERT_EQ(r.size(), 6u);
  const std::size_t order[] = {2, 1, 5, 0, 4, 3};
  const int groups[] = {1, 1, 1, 2, 2, 3};
  for (int k = 0; k < 6; ++k) {
    EXPECT_EQ(r[k].index, order[k]) << k;
    EXPECT_EQ(r[k].tie_group, groups[k]) << k;
    EXPECT_EQ(r[k].bound, bounds[order[k]]) << k;
    EXPECT_NEAR(r[k].margin_pct, 100.0 * (times[order[k]] - 1.0), 1e-9) << k;
  }
  EXPECT_TRUE(r[0].why.empty());
  EXPECT_NE(r[1].why.find("replay cycles"), std::string::npos) << r[1].why;
  EXPECT_NE(r[3].why.find("L2->L1 traffic"), std::string::npos) << r[3].why;
  // The issue-bound order differs from the fastest (linear) in its remap's integer work.
  EXPECT_NE(r[5].why.find("integer work"), std::string::npos) << r[5].why;
  // No error: every distinct time is its own group, equal times share one.
  const auto strict = sim::rank_orders(configs, results, 0.0);
  EXPECT_EQ(strict[1].tie_group, 2);
  EXPECT_EQ(strict[2].tie_group, 2);
  EXPECT_EQ(strict[5].tie_group, 5);
}

TEST(Tune, WhyNamesTheL2LimitThatHolds) {
  // The L2 read bound is the slower of the sectors' bytes and the line requests
  // (docs/results/tight/l2-bw.md): an order bound by it is slower for the one that holds.
  std::vector<sim::GpuConfig> configs(2);
  std::vector<sim::GpuResult> results(2);
  for (int k = 0; k < 2; ++k) {
    configs[k].device = sim::find_device("h100");
    configs[k].order = remap::parse_order(k == 0 ? "linear" : "column:32");
    results[k].time.predicted_ms = 1.0 + k;
    results[k].time.bound = k == 0 ? "replay" : "L2->L1 bandwidth";
    results[k].metrics.l2_read_sectors = 4000 * (k + 1);
    results[k].metrics.l2_read_requests = 1000 * (k + 1); // 4 sectors a request: the bytes hold
  }
  auto r = sim::rank_orders(configs, results, 0.0);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_NE(r[1].why.find("L2->L1 traffic 2x"), std::string::npos) << r[1].why;
  results[1].metrics.l2_read_requests = 6000; // 1.33 sectors a request: the requests hold
  r = sim::rank_orders(configs, results, 0.0);
  EXPECT_NE(r[1].why.find("L2 line requests 6x"), std::string::npos) << r[1].why;
  EXPECT_NE(r[1].why.find("sectors a request 1.33"), std::string::npos) << r[1].why;
}

TEST(Tune, ValidatedErrorIsPerFamily) {
  // Each measured family has its own (docs/results/tight/tie-tolerance.md; that they are the
  // data's is tests/python/test_tie_tolerance.py's check).
  const double stencil = sim::validated_time_error(sim::kind_of<sim::StencilWorkload>());
  const double matmul = sim::validated_time_error(sim::kind_of<sim::MatmulWorkload>());
  const double sgemm = sim::validated_time_error(sim::kind_of<sim::SgemmTiledWorkload>());
  const double smem = sim::validated_time_error(sim::kind_of<sim::StencilSmemWorkload>());
  // A family without measurements (the 3-D stencil, a workload of your own) takes the mean over
  // every family's pairs.
  const double other = sim::validated_time_error(sim::kind_of<sim::Stencil3dWorkload>());
  EXPECT_EQ(sim::validated_time_error(sim::kUserWorkloadKind), other);
  for (const double e : {stencil, matmul, sgemm, smem, other}) {
    EXPECT_GT(e, 0.0);
    EXPECT_LT(e, 1.0);
  }
  EXPECT_NE(stencil, matmul);
  EXPECT_NE(sgemm, matmul);
  EXPECT_NE(other, stencil);
  EXPECT_NE(other, matmul);
}

// The tiled kernels' default block orders keep only those that differ from linear on the grid of
// tiles: a column as wide as the grid, a group as large as it, or a zigzag of its width is linear.
TEST(Tune, DefaultBlockOrdersFitTheGridOfTiles) {
  sim::Workload w;
  w.kind = sim::kind_of<sim::SgemmTiledWorkload>();
  w.width = w.height = w.depth = 512; // 128 x 128 tiles: a 4 x 4 grid
  EXPECT_EQ(sim::default_block_orders(w),
            (std::vector<std::string>{"linear", "column:2", "tile:1x8"}));
  w.width = w.height = w.depth = 4096; // 32 x 32 tiles
  EXPECT_EQ(
      sim::default_block_orders(w),
      (std::vector<std::string>{"linear", "column:2", "column:4", "column:8", "column:16",
                                "tile:4x4", "tile:8x8", "tile:1x8", "zigzag:8", "zigzag:16"}));
  w.kind = sim::kind_of<sim::MatmulWorkload>(); // no tiles: its thread order is what tune ranks
  EXPECT_EQ(sim::default_block_orders(w), (std::vector<std::string>{"linear"}));
}

namespace {

// A matmul on the H100 row, its order replaced by each candidate.
sim::TuneConfig matmul_tune(int64_t size, const std::vector<std::string> &orders) {
  sim::TuneConfig c;
  c.base.workload.kind = sim::kind_of<sim::MatmulWorkload>();
  c.base.workload.width = c.base.workload.height = c.base.workload.depth = size;
  c.base.device = sim::find_device("h100");
  c.base.block_threads = 256;
  c.orders = parse(orders);
  c.jobs = 2;
  return c;
}

} // namespace

TEST(Tune, StagedSearchReplaysTheFastestInFullAndKeepsTheOthersSampled) {
  sim::TuneConfig c = matmul_tune(128, {"linear", "column:4", "column:8", "column:16", "tile:8"});
  c.finalists = 2;
  int64_t reports = 0, last_total = 0;
  const sim::TuneResult t =
      sim::tune(c, [&](int64_t done, int64_t total, const std::string &, const std::string &) {
        EXPECT_EQ(done, reports++); // 0 at the start, then one per replay
        last_total = total;
      });
  ASSERT_TRUE(t.staged);
  // Two finalists, or four where both tie (the tie group goes on: the next test), and linear
  // where stage one left it out (the baseline: the test after the next).
  EXPECT_TRUE(t.finalists == 2 || t.finalists == 4) << t.finalists;
  const std::size_t full = t.finalists + t.baseline_replayed;
  EXPECT_EQ(last_total, 5 + int64_t(full)); // five sampled, the finalists in full
  EXPECT_EQ(reports, 1 + 5 + int64_t(full));
  ASSERT_EQ(t.rows.size(), 5u);
  for (std::size_t k = 0; k < t.rows.size(); ++k) {
    const sim::GpuConfig &g = t.configs[t.rows[k].index];
    // 12 sampled SMs of the H100's 132 in stage one; the finalists on the full device.
    EXPECT_EQ(g.sample_sms, k < full ? 0 : 12) << k;
    EXPECT_EQ(t.rows[k].tie_group > 0, k < full) << k;
    // Each row's prediction is that of the model run alone on its configuration.
    sim::GpuConfig alone = g;
    alone.jobs = 1;
    EXPECT_EQ(t.results[t.rows[k].index].time.predicted_ms,
              sim::simulate_gpu(alone).time.predicted_ms)
        << t.order_of(t.rows[k].index);
  }
  EXPECT_LE(t.results[t.rows[0].index].time.predicted_ms,
            t.results[t.rows[1].index].time.predicted_ms);
}

// TuneConfig::final_sms: stage two replays the finalists (and the tie group's extension) on that
// many sampled SMs; each row's config is the sample its prediction came from.
TEST(Tune, StageTwoOnASampleReplaysTheFinalistsThere) {
  sim::TuneConfig c = matmul_tune(128, {"linear", "column:4", "column:8", "column:16", "tile:8"});
  c.finalists = 2;
  EXPECT_EQ(sim::tune(c).final_sms, 0); // the default: the full device
  c.final_sms = 33;
  std::vector<std::string> stages;
  const sim::TuneResult s =
      sim::tune(c, [&](int64_t done, int64_t, const std::string &stage, const std::string &) {
        if (done > 0)
          stages.push_back(stage);
      });
  ASSERT_TRUE(s.staged);
  EXPECT_EQ(s.final_sms, 33);
  const std::size_t second = s.finalists + s.baseline_replayed;
  ASSERT_EQ(stages.size(), 5 + second);
  for (std::size_t k = 0; k < stages.size(); ++k)
    EXPECT_EQ(stages[k], k < 5 ? "sampled" : "sampled 33 SMs") << k;
  for (std::size_t k = 0; k < s.rows.size(); ++k) {
    const sim::GpuConfig &g = s.configs[s.rows[k].index];
    EXPECT_EQ(g.sample_sms, k < second ? 33 : 12) << k;
    EXPECT_EQ(s.rows[k].tie_group > 0, k < second) << k;
    sim::GpuConfig alone = g;
    alone.jobs = 1;
    EXPECT_EQ(s.results[s.rows[k].index].time.predicted_ms,
              sim::simulate_gpu(alone).time.predicted_ms)
        << s.order_of(s.rows[k].index);
  }
  // A sample of every SM is the full device; one that does not divide the device, or is no
  // larger than stage one's, is refused naming the field.
  c.final_sms = 132;
  EXPECT_EQ(sim::tune(c).final_sms, 0);
  for (int64_t n : {7, 12, 264}) {
    c.final_sms = n;
    try {
      sim::tune(c);
      FAIL() << n;
    } catch (const UsageError &e) {
      EXPECT_EQ(e.option(), "tune.final_sms") << n;
    }
  }
}

// linear, the kernel as written, is replayed in stage two even where stage one ranks it out of
// the finalists (its sampled prediction can be 43-49% slow on DRAM-heavy stencils: docs/results/
// tight/dram-pages.md §4), and only then; the other orders stage one left out stay sampled.
TEST(Tune, AStagedSearchReplaysLinearInStageTwo) {
  // 512 x 512, depth 64: stage one ranks linear behind column:64 and column:32, which do not tie
  // (one finalist goes on to two, not four), and among four finalists.
  bool replayed_once = false;
  for (std::size_t finalists : {std::size_t{1}, std::size_t{4}}) {
    sim::TuneConfig c =
        matmul_tune(512, {"column:32", "column:64", "tile:8", "column:4", "column:8", "linear"});
    c.base.workload.depth = 64;
    c.finalists = static_cast<int64_t>(finalists);
    const sim::TuneResult t = sim::tune(c);
    ASSERT_TRUE(t.staged);
    // Stage one's ranking: was linear among the finalists?
    std::vector<sim::GpuResult> sampled;
    std::vector<sim::GpuConfig> configs = t.configs;
    for (sim::GpuConfig &g : configs) {
      g.sample_sms = 12;
      g.jobs = 1;
      sampled.push_back(sim::simulate_gpu(g));
    }
    const std::vector<sim::Ranked> first = sim::rank_orders(configs, sampled, 0.0);
    bool finalist = false;
    for (std::size_t k = 0; k < t.finalists; ++k)
      finalist = finalist || t.order_of(first[k].index) == "linear";
    EXPECT_EQ(t.baseline_replayed, !finalist) << finalists;
    std::size_t full = 0;
    for (const sim::Ranked &r : t.rows) {
      full += t.configs[r.index].sample_sms == 0;
      if (t.order_of(r.index) == "linear") {
        EXPECT_EQ(t.configs[r.index].sample_sms, 0);
        EXPECT_GT(r.tie_group, 0);
      }
    }
    EXPECT_EQ(full, t.finalists + t.baseline_replayed);
    replayed_once = replayed_once || t.baseline_replayed;
  }
  EXPECT_TRUE(replayed_once);
}

TEST(Tune, AStagedTieGroupOfEveryFinalistGoesOnAmongTheSampledRows) {
  // One finalist is always tied with itself: the next in stage one's order is replayed in full
  // too, and so on (as many again each time) while the full-device rows all lie within the
  // validated error of the fastest. Every order of tie group 1 is then a full-device row, and the
  // first row outside it (or none) ends the extension.
  sim::TuneConfig c = matmul_tune(128, {"linear", "column:64", "column:32", "tile:8", "column:4"});
  c.finalists = 1;
  const sim::TuneResult t = sim::tune(c);
  ASSERT_TRUE(t.staged);
  EXPECT_GT(t.finalists, 1u);
  const double fastest = t.results[t.rows[0].index].time.predicted_ms;
  std::size_t full = 0;
  for (const sim::Ranked &r : t.rows) {
    const bool on_full_device = t.configs[r.index].sample_sms == 0;
    full += on_full_device;
    if (r.tie_group == 1) {
      EXPECT_TRUE(on_full_device) << t.order_of(r.index);
    }
    if (on_full_device) {
      EXPECT_GT(r.tie_group, 0) << t.order_of(r.index);
    }
  }
  EXPECT_EQ(full, t.finalists + t.baseline_replayed);
  // The extension stopped because a full-device row left the group, or every order is full.
  bool left = full == t.rows.size();
  for (const sim::Ranked &r : t.rows)
    left = left || (r.tie_group > 1 && t.configs[r.index].sample_sms == 0);
  EXPECT_TRUE(left);
  EXPECT_GT(fastest, 0);
}

TEST(Tune, TheFullSearchDropsOrdersThatMapAlike) {
  sim::TuneConfig c = matmul_tune(64, {"linear", "column:64", "column:8"});
  c.staged = false;
  const sim::TuneResult t = sim::tune(c);
  EXPECT_FALSE(t.staged);
  ASSERT_EQ(t.rows.size(), 2u); // column:64 is linear at width 64
  ASSERT_EQ(t.dropped.size(), 1u);
  EXPECT_EQ(remap::to_string(t.dropped[0].first), "column:64");
  for (const sim::Ranked &r : t.rows)
    EXPECT_EQ(t.configs[r.index].sample_sms, 0);
}

// The full search's time estimate, which decides whether cbi tune runs it unasked
// (config::kFullSearchSeconds): a replay's seconds grow with its warps and their loads, the search
// counts each distinct order once and divides among its threads.
TEST(Tune, TheFullSearchTimeFollowsWarpLoadsOrdersAndThreads) {
  sim::TuneConfig c = matmul_tune(1024, {"linear", "column:32", "column:1024", "column:2048"});
  const double one = sim::replay_seconds(c.base);
  // 32768 warps of 2048 loads: several seconds on the 2-core development machine (8.2-8.8 s
  // measured at load 1), far more than matmul 256's 64 times fewer warp loads.
  EXPECT_GT(one, 4.0);
  EXPECT_LT(one, 20.0);
  sim::TuneConfig small = matmul_tune(256, {"linear"});
  EXPECT_NEAR(sim::replay_seconds(small.base) * 64, one, 0.1 * one); // 16 times fewer warps
  // column:1024 and column:2048 map as linear at width 1024: two orders, on 2 threads.
  EXPECT_DOUBLE_EQ(sim::full_search_seconds(c, 2), one);
  EXPECT_DOUBLE_EQ(sim::full_search_seconds(c, 1), 2 * one);
  // A sample asked for in the base is not what the full search replays.
  c.base.sample_sms = 12;
  EXPECT_DOUBLE_EQ(sim::replay_seconds(c.base), one);
  // Many short warps cost more than their loads: a 3x3 stencil's warps of 9 loads each.
  sim::GpuConfig st = c.base;
  st.workload = sim::Workload{};
  st.workload.kind = sim::kind_of<sim::StencilWorkload>();
  st.workload.width = st.workload.height = 1024;
  st.workload.stencil_w = st.workload.stencil_h = 3;
  EXPECT_GT(sim::replay_seconds(st), 32768 * 9 * 100e-9);
}

TEST(Tune, AnInterruptStopsTheSearchAndIsRethrown) {
  sim::TuneConfig c = matmul_tune(2048, {"linear", "column:32"});
  c.staged = false; // two full-device replays of a 2048^2 matmul: many seconds each
  int calls = 0;
  int64_t finished_replays = 0;
  EXPECT_THROW(sim::tune(
                   c,
                   [&](int64_t done, int64_t, const std::string &, const std::string &) {
                     finished_replays = done;
                   },
                   [&](int64_t, int64_t) {
                     if (++calls == 3) // about 150 ms in
                       throw std::runtime_error("interrupted");
                   }),
               std::runtime_error);
  EXPECT_EQ(calls, 3) << "no interrupt check after the one that threw";
  // The replays stopped where they were (no wall-clock bound: that would be a timed test).
  EXPECT_EQ(finished_replays, 0) << "a replay ran to its end after the interrupt";
}

TEST(Tune, ACandidateTheModelCannotRunNamesItsField) {
  sim::TuneConfig c = matmul_tune(64, {"linear", "column:8"});
  c.staged = false;
  c.sample_sms = 7; // not a divisor of 132
  try {
    sim::tune(c);
    FAIL() << "a sample of 7 SMs on 132 was taken";
  } catch (const UsageError &e) {
    EXPECT_EQ(e.option(), "gpu.sample_sms");
  }
}
