#include "reproduce_judge.hpp"

#include "thesis.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

namespace cbi::reproduce {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string order_name(int width) {
  return width == 0 ? std::string("naive") : "column:" + std::to_string(width);
}

// "+8.7%": how much slower `slow` is than `fast`.
std::string slower(double slow, double fast) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f%%", 100.0 * (slow / fast - 1.0));
  return buf;
}

} // namespace

Verdict judge_multiples(const std::vector<std::pair<std::string, const Values *>> &data,
                        const std::string &what) {
  int blocks = 0, beats = 0, narrow = 0;
  std::string detail;
  for (const auto &[name, v] : data) {
    for (int b : blocks_of(*v)) {
      const double naive = at(*v, 0, b), c32 = at(*v, 32, b), c4 = at(*v, 4, b), c8 = at(*v, 8, b);
      double neighbour = INFINITY;
      for (int w : {30, 31, 33, 34})
        neighbour = std::min(neighbour, at(*v, w, b));
      if (!std::isfinite(naive) || !std::isfinite(c32) || !std::isfinite(neighbour))
        continue;
      ++blocks;
      beats += c32 < neighbour;
      narrow += c4 / naive >= 1.5 && c8 / naive >= 1.2;
    }
    detail += (detail.empty() ? "" : "; ") + name;
  }
  if (blocks == 0)
    return {"not testable", "no data for " + what + ".", "", ""};
  std::ostringstream why;
  why << "Width 32 beat its neighbours (30, 31, 33, 34) in " << beats << " of " << blocks
      << " block sizes, and widths 4 and 8 were at least 1.5x and 1.2x the naive " << what << " in "
      << narrow << " of " << blocks << " (" << detail << ").";
  const std::string of = " of " + std::to_string(blocks);
  const std::string measure = "32 first in " + std::to_string(beats) + of +
                              " blocks; 4 and 8 slow in " + std::to_string(narrow) + of;
  std::string brief = "both, in every block";
  if (beats < blocks)
    brief = "32 beat its neighbours in " + std::to_string(beats) + of + " blocks only";
  if (narrow < blocks)
    brief += std::string(beats < blocks ? "; " : "but ") + "4 and 8 were that slow in " +
             std::to_string(narrow) + of;
  const std::string word = beats == blocks && narrow == blocks           ? "holds"
                           : 2 * beats >= blocks || 2 * narrow >= blocks ? "partly holds"
                                                                         : "does not hold";
  return {word, why.str(), measure, brief};
}

Verdict judge_fastest(const Values &v, int width, double tie, const std::string &what) {
  int best_w = -1, best_b = 0, claimed_b = 0;
  double best = INFINITY, claimed = INFINITY;
  for (const auto &[k, x] : v) {
    if (x < best) {
      best = x;
      best_w = k.width;
      best_b = k.block;
    }
    if (k.width == width && x < claimed) {
      claimed = x;
      claimed_b = k.block;
    }
  }
  if (best_w < 0 || !std::isfinite(claimed))
    return {"not testable", "no " + order_name(width) + " runs in the " + what + " data.", "", ""};
  const std::string at_best =
      order_name(best_w) + " at b" + std::to_string(best_b) + ", " + fixed(best, 3) + " ms";
  const std::string mine =
      order_name(width) + " at b" + std::to_string(claimed_b) + ", " + fixed(claimed, 3) + " ms";
  const std::string margin = slower(claimed, best);
  const std::string tie_text = pct(tie, 1);
  if (best_w == width)
    return {"holds", "The fastest " + what + " run is " + mine + ".", "fastest: " + mine,
            order_name(width) + " is the fastest order"};
  if (claimed <= best * (1 + tie))
    return {"holds",
            "The fastest " + what + " run is " + at_best + "; " + mine + " is " + margin +
                ", within " + tie_text + ": a tie.",
            "fastest: " + order_name(best_w) + "; " + order_name(width) + " " + margin,
            order_name(width) + " ties the fastest (" + margin + ", within " + tie_text + ")"};
  return {"does not hold",
          "The fastest " + what + " run is " + at_best + "; " + mine + " is " + margin +
              " (more than " + tie_text + ", so not a tie).",
          "fastest: " + order_name(best_w) + "; " + order_name(width) + " " + margin,
          order_name(best_w) + " is faster than " + order_name(width) + " by more than " +
              tie_text};
}

Verdict judge_matmul(const Values &v, const std::string &what) {
  const std::vector<int> mid = {32, 64, 96, 128};
  int better = 0, n = 0, best_w = 0, best_block = 0;
  double best = kNaN;
  for (int b : blocks_of(v)) {
    int w = 0;
    const double r = best_relative(v, b, mid, &w);
    if (!std::isfinite(r))
      continue;
    ++n;
    better += r < 1.0;
    if (!(r >= best)) {
      best = r;
      best_w = w;
      best_block = b;
    }
  }
  if (n == 0)
    return {"not testable", "no data.", "", ""};
  const std::string of = std::to_string(better) + " of " + std::to_string(n) + " blocks";
  const std::string why = "A width of 32-128 beat naive " + what + " in " + std::to_string(better) +
                          " of " + std::to_string(n) + " block sizes; the best, column " +
                          std::to_string(best_w) + " at b" + std::to_string(best_block) + ", is " +
                          pct(1.0 - best) + " below naive.";
  return {better == n  ? "holds"
          : better > 0 ? "partly holds"
                       : "does not hold",
          why,
          "beat naive in " + of + "; best " + pct(1.0 - best) +
              " (column:" + std::to_string(best_w) + ", b" + std::to_string(best_block) + ")",
          better == n ? "a 32-128 column beat naive at every block"
                      : "a 32-128 column beat naive in " + of + " only"};
}

Verdict judge_trend(const Values &stencil, const Values &matmul, const std::string &what) {
  const std::vector<int> widths = {32, 64, 128, 256, 512, 1024, 2048};
  const Trend ts = trend(stencil, widths), tm = trend(matmul, widths);
  if (ts.best.size() < 2 || tm.best.size() < 2)
    return {"not testable", "fewer than two sizes were run.", "", ""};
  // The rule: a gain is 1 - best relative value (negative: every order is worse than naive).
  // Stencil gains shrink when some smaller N gains and the largest N gains less than the best of
  // them; matmul gains grow when the largest N gains, and more than the smallest N.
  auto gain = [](const std::pair<std::string, double> &x) { return 1.0 - x.second; };
  std::size_t top = 0;
  for (std::size_t i = 0; i + 1 < ts.best.size(); ++i)
    if (gain(ts.best[i]) > gain(ts.best[top]))
      top = i;
  const double s_top = gain(ts.best[top]), s_last = gain(ts.best.back());
  const bool s_ok = s_top > 0 && s_last < s_top;
  const double m_first = gain(tm.best.front()), m_last = gain(tm.best.back());
  const bool m_ok = m_last > 0 && m_last > m_first;
  std::string why = "Best " + what + " relative to naive by N — stencil: " + trend_text(ts) +
                    "; matmul: " + trend_text(tm) + ". ";
  if (s_top <= 0)
    why += "The stencil never beats naive (no gain at any N, so none to shrink)";
  else
    why += "The stencil's largest gain is " + pct(s_top) + " (N = " + ts.best[top].first +
           "); at N = " + ts.best.back().first + " it is " + pct(s_last) +
           (s_ok ? ": gains shrink" : ": gains do not shrink");
  why += "; matmul gains " + pct(m_first) + " at N = " + tm.best.front().first + " and " +
         pct(m_last) + " at N = " + tm.best.back().first +
         (m_ok ? ": gains grow." : ": gains do not grow.") +
         " (Rule: gain = 1 - best relative value; shrink = the largest N gains less than the best "
         "smaller N, which gains; grow = the largest N gains, and more than the smallest.)";
  const std::string measure = "stencil best gain " + pct(s_top) + (s_ok ? ", shrinking" : "") +
                              "; matmul " + pct(m_first) + " (N = " + tm.best.front().first +
                              ") to " + pct(m_last) + " (N = " + tm.best.back().first + ")";
  std::string brief = s_top <= 0 ? "the stencil never gains, so nothing shrinks"
                      : s_ok     ? "stencil gains shrink"
                                 : "stencil gains do not shrink";
  brief += m_ok ? "; matmul gains grow" : "; matmul gains do not grow";
  return {s_ok && m_ok   ? "holds"
          : s_ok || m_ok ? "partly holds"
                         : "does not hold",
          why, measure, brief};
}

Verdict judge_counters(const CounterPair &c) {
  if (!std::isfinite(c.l1_naive) || !std::isfinite(c.l1_column32))
    return {"not testable", "no counters in the CSV.", "", ""};
  const bool l1_up = c.l1_column32 - c.l1_naive >= 20,
             traffic_down = c.bytes_column32 < 0.5 * c.bytes_naive,
             l2_down = c.l2_column32 < c.l2_naive;
  const int ok = l1_up + traffic_down + l2_down;
  const std::string measure = "L1 " + fixed(c.l1_naive, 1) + "% → " + fixed(c.l1_column32, 1) +
                              "%, L2→L1 " + fixed(c.bytes_naive / 1e9, 2) + " → " +
                              fixed(c.bytes_column32 / 1e9, 2) + " GB, L2 " + fixed(c.l2_naive, 1) +
                              "% → " + fixed(c.l2_column32, 1) + "%";
  std::string brief;
  for (const auto &[ok_part, text] : {std::pair<bool, const char *>{l1_up, "L1 hit rate +20"},
                                      {traffic_down, "traffic halved"},
                                      {l2_down, "L2 hit rate drops"}})
    if (!ok_part)
      brief += (brief.empty() ? "not: " : ", ") + std::string(text);
  return {ok == 3   ? "holds"
          : ok >= 1 ? "partly holds"
                    : "does not hold",
          std::string("L1 hit rate ") +
              (l1_up ? "rises by 20 points or more" : "does not rise by 20 points") +
              ", L2→L1 traffic " + (traffic_down ? "at least halves" : "does not halve") +
              ", L2 hit rate " + (l2_down ? "drops" : "does not drop") + " with column 32.",
          measure, brief.empty() ? "all three counters move as the thesis says" : brief};
}

double spearman(const Values &a, const Values &b, int block, int *n) {
  std::vector<std::pair<double, double>> pairs;
  for (const auto &[k, x] : a)
    if (k.block == block) {
      const double y = at(b, k.width, block);
      if (std::isfinite(x) && std::isfinite(y))
        pairs.push_back({x, y});
    }
  if (n)
    *n = static_cast<int>(pairs.size());
  if (pairs.size() < 3)
    return std::nan("");
  // Mean ranks (ties share the mean of their positions), then Pearson on the ranks.
  auto ranks = [&](bool second) {
    std::vector<std::size_t> idx(pairs.size());
    for (std::size_t i = 0; i < idx.size(); ++i)
      idx[i] = i;
    auto v = [&](std::size_t i) { return second ? pairs[i].second : pairs[i].first; };
    std::sort(idx.begin(), idx.end(), [&](std::size_t i, std::size_t j) { return v(i) < v(j); });
    std::vector<double> r(pairs.size());
    for (std::size_t i = 0; i < idx.size();) {
      std::size_t j = i;
      while (j + 1 < idx.size() && v(idx[j + 1]) == v(idx[i]))
        ++j;
      for (std::size_t k = i; k <= j; ++k)
        r[idx[k]] = 0.5 * double(i + j) + 1;
      i = j + 1;
    }
    return r;
  };
  const std::vector<double> ra = ranks(false), rb = ranks(true);
  const double m = 0.5 * double(pairs.size() + 1);
  double sab = 0, saa = 0, sbb = 0;
  for (std::size_t i = 0; i < ra.size(); ++i) {
    sab += (ra[i] - m) * (rb[i] - m);
    saa += (ra[i] - m) * (ra[i] - m);
    sbb += (rb[i] - m) * (rb[i] - m);
  }
  return saa > 0 && sbb > 0 ? sab / std::sqrt(saa * sbb) : std::nan("");
}

Verdict judge_rank(const Values &model, const Values &reference, int block,
                   const std::string &reference_name) {
  int n = 0;
  const double rho = spearman(model, reference, block, &n);
  if (!std::isfinite(rho))
    return {"not testable",
            "fewer than three orders with both a prediction and " + reference_name + " at block " +
                std::to_string(block) + ".",
            "", ""};
  // Widths with both values at the block, fastest first in the model and in the reference.
  std::vector<int> widths;
  for (const auto &[k, x] : model)
    if (k.block == block && std::isfinite(x) && std::isfinite(at(reference, k.width, block)))
      widths.push_back(k.width);
  auto fastest = [&](const Values &v) {
    return *std::min_element(widths.begin(), widths.end(),
                             [&](int a, int b) { return at(v, a, block) < at(v, b, block); });
  };
  const int m_width = fastest(model), r_width = fastest(reference);
  // The reference's fastest orders: its fastest and every order within kMeasuredTie of it (a
  // measurement cannot rank them).
  std::vector<int> r_set;
  for (int w : widths)
    if (at(reference, w, block) <= at(reference, r_width, block) * (1 + kMeasuredTie))
      r_set.push_back(w);
  int r_best_in_model = r_width; // the reference's fastest that the model puts first
  for (int w : r_set)
    if (at(model, w, block) < at(model, r_best_in_model, block))
      r_best_in_model = w;
  const std::string m = order_name(m_width), r = order_name(r_width);
  std::string tied; // the reference's other fastest orders
  for (int w : r_set)
    if (w != r_width)
      tied += (tied.empty() ? "" : ", ") + order_name(w);
  const bool same = std::find(r_set.begin(), r_set.end(), m_width) != r_set.end();
  const double t_r = at(model, r_best_in_model, block), t_m = at(model, m_width, block);
  const bool tie = !same && t_r <= t_m * (1 + kModelTie);
  const std::string margin = slower(t_r, t_m), rn = order_name(r_best_in_model);
  std::string why =
      "The claim: " + r + " is the fastest order (" + reference_name + ")" +
      (tied.empty() ? "" : ", tied within " + pct(kMeasuredTie, 0) + " with " + tied) +
      ". Fastest: " + m + " predicted, " + r + " in " + reference_name;
  why += same  ? (m == r ? " (the same)" : " (one of the tied)")
         : tie ? "; the model has " + rn + " " + margin + " behind, within " + pct(kModelTie, 1) +
                     " (its error): a tie"
               : "; the model has " + rn + " " + margin + " behind, more than " +
                     pct(kModelTie, 1) + " (its error)";
  why += ". Spearman's rho of predicted against " + reference_name + " time over " +
         std::to_string(n) + " orders at block " + std::to_string(block) + ": " + fixed(rho, 2) +
         " (the ranks agree at 0.8, issue 10's target).";
  const std::string measure =
      "fastest " + m + (same ? "" : " (" + rn + " " + margin + ")") + "; rho " + fixed(rho, 2);
  if (!same && !tie)
    return {"does not hold", why, measure,
            "the model's fastest is " + m + ", not " + r +
                (rho >= 0.8 ? ", though the ranks agree" : "")};
  return {rho >= 0.8 ? "holds" : "partly holds", why, measure,
          std::string(same ? "the same fastest order" : "the fastest ties") +
              (rho >= 0.8 ? ", ranks agree" : ", but ranks differ (rho < 0.8)")};
}

Verdict unvalidated_model(const Verdict &v, const std::string &unvalidated) {
  if (v.word == "not testable")
    return v;
  return {"not testable",
          unvalidated + " What the model says (" + v.word + " on its own terms): " + v.why,
          "model: " + v.measure, "the device row is not validated; the model says " + v.brief};
}

Verdict judge_double(double best_double_gain) {
  if (best_double_gain < 0)
    return {"not testable", "no double runs.", "", ""};
  const std::string measure = "best double gain " + pct(best_double_gain);
  if (best_double_gain < 0.05)
    return {"holds",
            "No order beats naive by 5% or more in double (best " + pct(best_double_gain) + ").",
            measure, "no order beats naive by 5% in double"};
  return {"does not hold", "An order beats naive by " + pct(best_double_gain) + " in double.",
          measure, "an order beats naive by 5% or more in double"};
}

Verdict judge_conclusion(double gs, double gm) {
  if (!std::isfinite(gs) || !std::isfinite(gm))
    return {"not testable", "missing float grids.", "", ""};
  // Holds: within a factor of two of the thesis's figures; partly: both positive.
  const thesis::Numbers &n = thesis::numbers();
  const bool s_in = gs > n.stencil_gain / 2 &&
                    gs<2 * n.stencil_gain, m_in = gm> n.matmul_gain / 2 && gm < 2 * n.matmul_gain;
  return {s_in && m_in         ? "holds"
          : (gs > 0 && gm > 0) ? "partly holds"
                               : "does not hold",
          "Fastest column run against fastest naive run: stencil " + pct(gs) + ", matmul " +
              pct(gm) + " (holds: within a factor of two of " + pct(n.stencil_gain, 0) + " and " +
              pct(n.matmul_gain, 0) + "; partly: both positive).",
          "stencil " + pct(gs) + ", matmul " + pct(gm),
          std::string(s_in ? "stencil within 2x of " : "stencil not within 2x of ") +
              pct(n.stencil_gain, 0) +
              (m_in ? ", matmul within 2x of " : ", matmul not within 2x of ") +
              pct(n.matmul_gain, 0)};
}

Verdict judge_model(const std::vector<ModelRow> &rows) {
  int bounds = 0, bounds_ok = 0, estimates = 0, estimates_close = 0;
  for (const ModelRow &r : rows) {
    if (r.kind == "bound") {
      ++bounds;
      bounds_ok += double(r.simulated) <= r.model + 1e-9;
    } else {
      ++estimates;
      estimates_close += std::abs(double(r.simulated) - r.model) <= 0.25 * r.model;
    }
  }
  const std::string why = std::to_string(bounds_ok) + " of " + std::to_string(bounds) +
                          " simulated fetch counts respect the model's upper bound; " +
                          std::to_string(estimates_close) + " of " + std::to_string(estimates) +
                          " estimates are within 25% of the simulation.";
  return {bounds_ok == bounds && estimates_close == estimates ? "holds"
          : bounds_ok + estimates_close > 0                   ? "partly holds"
                                                              : "does not hold",
          why,
          "bounds kept " + std::to_string(bounds_ok) + " of " + std::to_string(bounds) +
              "; estimates within 25% " + std::to_string(estimates_close) + " of " +
              std::to_string(estimates),
          bounds_ok == bounds ? "every bound kept" : "a column's window outgrows the cache"};
}

} // namespace cbi::reproduce
