// cbi tune's ranking logic (cbi/sim/tune.hpp).
#include "cbi/sim/tune.hpp"

#include "cbi/order_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace cbi::sim {
namespace {

bool differ(remap::Task<int64_t> a, remap::Task<int64_t> b) { return a.x != b.x || a.y != b.y; }

// Whether two orders map every task index alike on `shape`: a sample of indices first (most
// distinct orders differ within the first row), then every index.
bool same_mapping(const remap::Order &a, const remap::Order &b, remap::Shape<int64_t> shape) {
  const int64_t n = shape.width * shape.height;
  return remap::visit(a, [&](auto oa) {
    return remap::visit(b, [&](auto ob) {
      const int64_t stride = std::max<int64_t>(1, n / 4096);
      for (int64_t i = 0; i < n; i += stride)
        if (differ(oa.map(i, shape), ob.map(i, shape)))
          return false;
      for (int64_t i = 0; i < n; ++i)
        if (differ(oa.map(i, shape), ob.map(i, shape)))
          return false;
      return true;
    });
  });
}

// How many times b is a, as "1.8x".
std::string times(double a, double b) {
  char s[32];
  std::snprintf(s, sizeof s, "%.2gx", b > 0 ? a / b : 0.0);
  return s;
}

std::string pct(double v) {
  char s[32];
  std::snprintf(s, sizeof s, "%.1f%%", v);
  return s;
}

// Integer instructions of the remap per thread (as the time model counts them: gpu_model.cpp).
int divisions(const remap::Order &o) { return static_cast<int>(remap::remap_instructions(o)); }

// Why `r` is slower than the fastest `best`, from the bound that sets r's time.
std::string why_slower(const GpuConfig &c, const GpuResult &r, const GpuConfig &bc,
                       const GpuResult &best) {
  const GpuMetrics &m = r.metrics, &bm = best.metrics;
  const std::string &bound = r.time.bound;
  if (bound == "instruction issue") {
    if (divisions(c.order) != divisions(bc.order))
      return "the remap's integer work (about " + std::to_string(divisions(c.order)) +
             " instructions per thread against " + std::to_string(divisions(bc.order)) +
             "), not cache misses";
    return "instruction issue: " + times(r.time.arithmetic_ms, best.time.arithmetic_ms) +
           " the fastest's";
  }
  if (bound == "L2->L1 bandwidth")
    return "L2->L1 traffic " +
           times(double(m.l2_requested_sectors), double(bm.l2_requested_sectors)) +
           " the fastest's (L1 hits " + pct(m.l1_hit_pct()) + " against " + pct(bm.l1_hit_pct()) +
           ")";
  if (bound == "L1 wavefronts")
    return "L1 wavefronts " + times(double(m.l1_wavefronts), double(bm.l1_wavefronts)) +
           " the fastest's (lines per request: coalescing)";
  if (bound == "DRAM bandwidth")
    return "DRAM bytes " + times(double(m.dram_read_bytes), double(bm.dram_read_bytes)) +
           " the fastest's";
  return "replay cycles " + times(double(r.cycles), double(best.cycles)) +
         " the fastest's (latency: L1 hits " + pct(m.l1_hit_pct()) + " against " +
         pct(bm.l1_hit_pct()) + ")";
}

} // namespace

std::vector<remap::Order>
distinct_orders(const std::vector<remap::Order> &orders, const Workload &w,
                std::vector<std::pair<remap::Order, remap::Order>> *dropped) {
  const remap::Shape<int64_t> shape =
      visit_workload(w.kind, [&](auto tag) { return decltype(tag)::type::task_shape(w); });
  std::vector<remap::Order> kept;
  for (const remap::Order &o : orders) {
    const auto same = std::find_if(
        kept.begin(), kept.end(), [&](const remap::Order &k) { return same_mapping(k, o, shape); });
    if (same == kept.end())
      kept.push_back(o);
    else if (dropped)
      dropped->push_back({o, *same});
  }
  return kept;
}

std::vector<std::string> default_block_orders(const Workload &w) {
  const remap::Shape<int64_t> grid = visit_workload(w.kind, [&](auto tag) {
    using W = typename decltype(tag)::type;
    if constexpr (W::has_block_order)
      return W::tile_grid(w);
    else
      return remap::Shape<int64_t>{1, 1};
  });
  std::vector<std::string> orders = {"linear"};
  for (int64_t c : {2, 4, 8, 16, 32, 64})
    if (c < grid.width)
      orders.push_back("column:" + std::to_string(c));
  for (int64_t t : {4, 8})
    if (t < grid.width && t < grid.height)
      orders.push_back("tile:" + std::to_string(t) + "x" + std::to_string(t));
  if (grid.height > 1 && grid.width > 1)
    orders.push_back("tile:1x8");
  for (int64_t z : {8, 16})
    if (z < grid.width)
      orders.push_back("zigzag:" + std::to_string(z));
  return orders;
}

double validated_time_error(WorkloadKind kind) {
  if (kind == kind_of<StencilWorkload>())
    return 0.0557;
  if (kind == kind_of<MatmulWorkload>())
    return 0.1059;
  return 0.0792;
}

std::vector<Ranked> rank_orders(const std::vector<GpuConfig> &configs,
                                const std::vector<GpuResult> &results, double ln_error) {
  std::vector<std::size_t> order(results.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return results[a].time.predicted_ms < results[b].time.predicted_ms;
  });
  std::vector<Ranked> out;
  if (order.empty())
    return out;
  const double tolerance = std::exp(ln_error);
  const GpuResult &best = results[order[0]];
  int group = 1;
  double group_first = best.time.predicted_ms;
  for (std::size_t k = 0; k < order.size(); ++k) {
    const GpuResult &r = results[order[k]];
    if (r.time.predicted_ms > group_first * tolerance) {
      ++group;
      group_first = r.time.predicted_ms;
    }
    Ranked x;
    x.index = order[k];
    x.tie_group = group;
    x.margin_pct = 100.0 * (r.time.predicted_ms - best.time.predicted_ms) /
                   std::max(best.time.predicted_ms, 1e-300);
    x.bound = r.time.bound;
    if (k > 0)
      x.why = r.time.predicted_ms == best.time.predicted_ms
                  ? "the same predicted time"
                  : why_slower(configs[order[k]], r, configs[order[0]], best);
    out.push_back(std::move(x));
  }
  return out;
}

} // namespace cbi::sim
