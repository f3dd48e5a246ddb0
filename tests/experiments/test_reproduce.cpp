// reproduce's data and judge: orders come back from the CSV as remap::Order (tile:16x4 is not
// column 16), and the verdicts follow their rules on constructed numbers. The sweep store reads
// and resumes CSVs written before an axis existed.
#include "cbi/cli/csv.hpp"
#include "reproduce_data.hpp"
#include "reproduce_judge.hpp"
#include "sweep.hpp"
#include "thesis.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace {

using namespace cbi;
using namespace cbi::reproduce;

TEST(ReproduceData, TileOrdersAreNotColumns) {
  const std::string path = "/tmp/cbi_test_reproduce_" + std::to_string(getpid()) + ".csv";
  sweep::Grid g = sweep::default_grid();
  g.set("size", {"64"});
  g.set("order", {"linear", "tile:16x4", "column:16"});
  g.set("cache", {"size=2KiB,line=128"});
  sweep::RunOptions ro;
  ro.output = path;
  ro.jobs = 1;
  sweep::run(g, ro);
  const cli::Table t = sweep::read_csv(path);
  ASSERT_EQ(t.rows.size(), 3u);
  const std::size_t misses = sweep::column_index("sim_l1_misses");
  const Values v = load(path, "sim_l1_misses");
  std::remove(path.c_str());
  ASSERT_EQ(v.size(), 2u) << "linear and column:16; the tile order is left out";
  EXPECT_EQ(at(v, 0, 256), double(std::get<int64_t>(t.rows[0][misses])));
  EXPECT_EQ(at(v, 16, 256), double(std::get<int64_t>(t.rows[2][misses])))
      << "column 16's value, not the tile's";
}

// Times per width at one block: naive 1, 32 fastest, its neighbours slower, 4 and 8 far slower.
Values multiples(double c32, double c4) {
  Values v;
  for (const auto &[w, x] : std::vector<std::pair<int, double>>{
           {0, 1.0}, {4, c4}, {8, 1.3}, {30, 1.2}, {31, 1.2}, {32, c32}, {33, 1.2}, {34, 1.2}})
    v[{w, 256, "", ""}] = x;
  return v;
}

TEST(ReproduceJudge, MultiplesOf32) {
  const Values good = multiples(0.9, 2.0), slow32 = multiples(1.5, 2.0),
               wide4 = multiples(0.9, 1.1);
  EXPECT_EQ(judge_multiples({{"a", &good}}, "time").word, "holds");
  EXPECT_EQ(judge_multiples({{"a", &slow32}}, "time").word, "partly holds");
  EXPECT_EQ(judge_multiples({{"a", &slow32}, {"b", &wide4}}, "time").word, "partly holds");
  const Values none;
  EXPECT_EQ(judge_multiples({{"a", &none}}, "time").word, "not testable");
}

// The GPU model's verdict (issue 10 §3, issue 21 §5): Spearman's rho over the widths both sets
// have at the block, ties at their mean rank; the claim judged is the reference's fastest order.
TEST(ReproduceJudge, RanksBySpearman) {
  const Values thesis = thesis_values("fig5.1b");
  int n = 0;
  EXPECT_DOUBLE_EQ(spearman(thesis, thesis, 256, &n), 1.0);
  EXPECT_EQ(n, 17);
  Values reversed;
  for (const auto &[k, x] : thesis)
    reversed[k] = -x;
  EXPECT_NEAR(spearman(reversed, thesis, 256), -1.0, 1e-12) << "ties keep their mean rank";
  // Hand-computed: ranks (1,2,3,4) against (1,2,4,3): rho = 1 - 6*2/(4*15) = 0.8.
  Values a, b;
  for (int w : {0, 4, 8, 16})
    a[{w, 256, "1024", "float"}] = 10 + w;
  b = a;
  std::swap(b[{8, 256, "1024", "float"}], b[{16, 256, "1024", "float"}]);
  EXPECT_NEAR(spearman(a, b, 256), 0.8, 1e-12);
  EXPECT_EQ(judge_rank(a, b, 256, "the thesis's").word, "holds");
  EXPECT_TRUE(std::isnan(spearman(a, b, 128))) << "no widths at block 128";
  EXPECT_EQ(judge_rank(a, b, 128, "the thesis's").word, "not testable");
  EXPECT_EQ(judge_rank(reversed, thesis, 256, "the thesis's").word, "does not hold");
  const Verdict v = judge_rank(thesis, thesis, 256, "the thesis's");
  EXPECT_EQ(v.word, "holds");
  EXPECT_NE(v.why.find("Fastest: column:128 predicted, column:128 in the thesis's (the same)"),
            std::string::npos)
      << v.why;
}

// Fig 5.1a's claim is that column:32 is fastest: a high rank correlation does not make it hold
// when the model puts another order ahead by more than its error (kModelTie).
TEST(ReproduceJudge, TheFastestOrderDecidesNotTheRankCorrelation) {
  Values thesis, model;
  // The thesis: column:32 fastest. The model: the same ranks but naive and column:32 swapped.
  const std::vector<std::pair<int, double>> times = {{0, 1.46},  {4, 7.48},  {8, 3.84}, {16, 1.99},
                                                     {30, 2.05}, {32, 1.29}, {64, 1.31}};
  for (const auto &[w, t] : times) {
    thesis[{w, 256, "", ""}] = t;
    model[{w, 256, "", ""}] = t;
  }
  model[{0, 256, "", ""}] = 1.0;
  model[{32, 256, "", ""}] = 1.2; // 20% behind naive: more than the model's error
  const Verdict far = judge_rank(model, thesis, 256, "the thesis's");
  EXPECT_GE(spearman(model, thesis, 256), 0.8);
  EXPECT_EQ(far.word, "does not hold") << far.why;
  EXPECT_NE(far.brief.find("naive, not column:32"), std::string::npos) << far.brief;
  model[{32, 256, "", ""}] = 1.05; // 5% behind: a tie within the model's error
  EXPECT_EQ(judge_rank(model, thesis, 256, "the thesis's").word, "holds");
  // On a device row not validated on that GPU the model tests nothing, either way, and says what
  // it predicts.
  for (const Verdict &v : {far, judge_rank(model, thesis, 256, "the thesis's")}) {
    const Verdict u = unvalidated_model(v, "Not validated.");
    EXPECT_EQ(u.word, "not testable") << v.word;
    EXPECT_EQ(u.why.rfind("Not validated. What the model says (" + v.word, 0), 0u) << u.why;
    EXPECT_NE(u.why.find(v.why), std::string::npos) << u.why;
    EXPECT_EQ(u.measure, "model: " + v.measure);
  }
  const Verdict none = judge_rank(model, thesis, 128, "the thesis's");
  EXPECT_EQ(unvalidated_model(none, "Not validated.").why, none.why) << "already not testable";
  // Measured data: the same claim over every block, ties within kMeasuredTie.
  EXPECT_EQ(judge_fastest(thesis, 32, kMeasuredTie, "thesis").word, "holds");
  Values measured = thesis;
  measured[{64, 256, "", ""}] = 1.6; // naive the fastest, column:32 0.5% behind it
  measured[{32, 256, "", ""}] = 1.46 * 1.005;
  const Verdict tie = judge_fastest(measured, 32, kMeasuredTie, "measured");
  EXPECT_EQ(tie.word, "holds");
  EXPECT_NE(tie.why.find("a tie"), std::string::npos) << tie.why;
  measured[{32, 256, "", ""}] = 1.46 * 1.03;
  EXPECT_EQ(judge_fastest(measured, 32, kMeasuredTie, "measured").word, "does not hold");
}

TEST(ReproduceJudge, ConclusionWithinAFactorOfTwo) {
  const thesis::Numbers &n = thesis::numbers();
  EXPECT_EQ(judge_conclusion(n.stencil_gain, n.matmul_gain).word, "holds");
  EXPECT_EQ(judge_conclusion(3 * n.stencil_gain, n.matmul_gain).word, "partly holds");
  EXPECT_EQ(judge_conclusion(-0.01, n.matmul_gain).word, "does not hold");
  EXPECT_EQ(judge_conclusion(NAN, n.matmul_gain).word, "not testable");
  EXPECT_EQ(judge_double(0.01).word, "holds");
  EXPECT_EQ(judge_double(0.2).word, "does not hold");
  EXPECT_EQ(judge_double(-1).word, "not testable");
}

TEST(ReproduceJudge, ModelBoundsAndEstimates) {
  std::vector<ModelRow> rows = {{"s", "linear", "eq. 3.5", "bound", 100, 90},
                                {"s", "column:4", "eq. 3.8", "estimate", 100, 110}};
  EXPECT_EQ(judge_model(rows).word, "holds");
  rows[0].simulated = 101; // over the bound
  EXPECT_EQ(judge_model(rows).word, "partly holds");
  rows[1].simulated = 200; // estimate off by 100%
  EXPECT_EQ(judge_model(rows).word, "does not hold");
}

TEST(ThesisNumbers, TablesCoverEveryWidthAndBlock) {
  const thesis::Numbers &n = thesis::numbers();
  for (const thesis::TimeTable *t : {&n.fig5_1a, &n.fig5_1b, &n.fig5_2}) {
    ASSERT_EQ(t->ms.size(), thesis::column_widths().size() + 1) << t->figure;
    for (int w : t->widths)
      for (int b : thesis::blocks())
        EXPECT_TRUE(std::isfinite(t->at(w, b))) << t->figure << " " << w << " " << b;
  }
  // The thesis's own numbers under the conclusion's rule (fastest column against fastest naive).
  EXPECT_NEAR(best_gain(thesis_values("fig5.1b"), thesis::column_widths()), 1 - 1.66 / 2.31, 1e-12);
}

} // namespace

namespace {

std::string slurp_file(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

TEST(SweepStore, CsvsWrittenBeforeAnAxisExistedStillReadAndResume) {
  const std::string path = "/tmp/cbi_test_store_" + std::to_string(getpid()) + ".csv";
  sweep::Grid g = sweep::default_grid();
  g.set("kernel", {"stencil", "matmul"});
  g.set("size", {"32"});
  g.set("cache", {"size=2KiB,line=128"});
  sweep::RunOptions ro;
  ro.output = path;
  ro.jobs = 1;
  sweep::run(g, ro); // (the sim backend refuses cublas, which it cannot simulate)
  const cli::Table now = sweep::read_csv(path);
  // The file as a sweep wrote it before remap_math and block_order existed.
  std::string old;
  for (std::vector<std::string> r : cli::parse_csv_records(slurp_file(path))) {
    r.erase(r.begin() + long(sweep::column_index("remap_math")),
            r.begin() + long(sweep::column_index("block_order")) + 1);
    old += cli::csv_line(r);
  }
  { std::ofstream(path, std::ios::binary) << old; }
  const cli::Table then = sweep::read_csv(path);
  ASSERT_EQ(then.rows.size(), now.rows.size());
  for (std::size_t r = 0; r < now.rows.size(); ++r)
    for (std::size_t c = 0; c < now.columns.size(); ++c) {
      if (now.columns[c] != "sim_seconds") {
        EXPECT_EQ(cli::format_cell(then.rows[r][c]), cli::format_cell(now.rows[r][c]))
            << now.columns[c];
      }
    }
  // --resume finds every point (the ids did not change) and rewrites the file in today's schema.
  ro.resume = true;
  const sweep::RunSummary s = sweep::run(g, ro);
  EXPECT_EQ(s.skipped, 2);
  EXPECT_EQ(s.measured, 0);
  EXPECT_EQ(cli::parse_csv(slurp_file(path)).columns, sweep::columns());
  std::remove(path.c_str());
}

} // namespace

namespace {

// Best relative value per size at one block, as Values.
cbi::reproduce::Values by_size(const std::vector<std::pair<std::string, double>> &best) {
  cbi::reproduce::Values v;
  for (const auto &[size, r] : best) {
    v[{0, 256, size, ""}] = 1.0;
    v[{32, 256, size, ""}] = r;
  }
  return v;
}

} // namespace

TEST(ReproduceJudge, TrendSaysWhenTheStencilNeverGains) {
  using namespace cbi::reproduce;
  // The H100's Fig 5.3: the stencil gains only at N = 512 (1.7%) and loses from 1024 on.
  const Values h100_stencil = by_size({{"256", 1.005},
                                       {"512", 0.983},
                                       {"1024", 1.034},
                                       {"2048", 1.047},
                                       {"4096", 1.052},
                                       {"8192", 1.053}});
  const Values matmul = by_size({{"128", 1.058}, {"256", 1.046}, {"512", 0.924}, {"1024", 0.827}});
  const Verdict v = judge_trend(h100_stencil, matmul, "time");
  EXPECT_EQ(v.word, "holds");
  EXPECT_NE(v.why.find("The stencil's largest gain is 1.7% (N = 512); at N = 8192 it is -5.3%: "
                       "gains shrink"),
            std::string::npos)
      << v.why;
  // A stencil that never gains has no gains to shrink: the sentence and the verdict say so.
  const Values never = by_size({{"1024", 1.034}, {"2048", 1.047}, {"8192", 1.053}});
  const Verdict n = judge_trend(never, matmul, "time");
  EXPECT_EQ(n.word, "partly holds");
  EXPECT_NE(n.why.find("The stencil never beats naive"), std::string::npos) << n.why;
  EXPECT_EQ(n.why.find("gains shrink"), std::string::npos) << n.why;
  EXPECT_NE(n.why.find("matmul gains -5.8% at N = 128 and 17.3% at N = 1024: gains grow."),
            std::string::npos)
      << n.why;
}
