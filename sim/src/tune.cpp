// cbi tune as a library: candidates, the staged search and the ranking (cbi/sim/tune.hpp).
#include "cbi/sim/tune.hpp"

#include "cbi/error.hpp"
#include "cbi/order_text.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <exception>
#include <limits>
#include <mutex>
#include <numeric>
#include <thread>
#include <type_traits>

namespace cbi::sim {
namespace {

// replay_seconds' rates: one thread of the 2-core development machine, full device. The replay
// runs about 6 G instructions a second there (matmul 1024^3, block 256, h100: about 50 G in
// 8.2-8.8 s at load 1) and about 850 instructions a warp load (matmul 512^3: 7.1 G for 8.4 M); a
// warp's start (its lanes' tasks, its sector sets) costs up to about 30 k more (the h200's double
// 3x3 stencil on 5760x1600 at block 192: 10.9 G for 288 k warps of 9 loads), so a short kernel's
// replay is mostly its warps (docs/results/gpu-model-speed.md, 2026-11-29).
constexpr double kReplaySecondsPerWarpLoad = 130e-9;
constexpr double kReplaySecondsPerWarp = 5e-6;

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
  std::snprintf(s, sizeof s, "%.3gx", b > 0 ? a / b : 0.0); // 1.01x, not 1x
  return s;
}

std::string pct(double v) {
  char s[32];
  std::snprintf(s, sizeof s, "%.1f%%", v);
  return s;
}

std::string fixed2(double v) {
  char s[32];
  std::snprintf(s, sizeof s, "%.2f", v);
  return s;
}

// Instructions of the remap per thread (as the time model counts them: gpu_model.cpp).
int divisions(const GpuConfig &c) {
  return static_cast<int>(remap_instructions_per_thread(c) + 0.5);
}

// Why `r` is slower than the fastest `best`, from the bound that sets r's time.
std::string why_slower(const GpuConfig &c, const GpuResult &r, const GpuConfig &bc,
                       const GpuResult &best) {
  const GpuMetrics &m = r.metrics, &bm = best.metrics;
  const std::string &bound = r.time.bound;
  if (bound == "instruction issue") {
    if (divisions(c) != divisions(bc))
      return "the remap's integer work (about " + std::to_string(divisions(c)) +
             " instructions per thread against " + std::to_string(divisions(bc)) +
             "), not cache misses";
    return "instruction issue: " + times(r.time.arithmetic_ms, best.time.arithmetic_ms) +
           " the fastest's";
  }
  if (bound == "DRAM stream and issue")
    return "instructions a DRAM-bound kernel cannot hide behind its loads (issue " +
           times(r.time.arithmetic_ms, best.time.arithmetic_ms) + " the fastest's; the remap " +
           std::to_string(divisions(c)) + " instructions per thread against " +
           std::to_string(divisions(bc)) + ")";
  if (bound == "L2->L1 bandwidth") {
    // The L2 read bound's slower limit: its line requests or its sectors' bytes.
    const L2ReadCycles l2 = l2_read_cycles(m, c.device);
    if (l2.requests > l2.bytes)
      return "L2 line requests " + times(double(m.l2_read_requests), double(bm.l2_read_requests)) +
             " the fastest's (sectors a request " +
             fixed2(double(m.l2_read_sectors) / double(m.l2_read_requests)) + ")";
    return "L2->L1 traffic " + times(double(m.l2_read_sectors), double(bm.l2_read_sectors)) +
           " the fastest's (L1 hits " + pct(m.l1_hit_pct()) + " against " + pct(bm.l1_hit_pct()) +
           ")";
  }
  if (bound == "L1 requests")
    return "L1 requests " + times(double(m.l1_requests), double(bm.l1_requests)) +
           " the fastest's (the L1 takes each for l1_request_cycles at least)";
  if (bound == "L1 wavefronts")
    return "L1 wavefronts " + times(double(m.l1_wavefronts), double(bm.l1_wavefronts)) +
           " the fastest's (lines per request: coalescing)";
  if (bound == "CTA launcher")
    return "the CTA launcher: its CTAs are short, and the device starts " +
           std::to_string(std::lround(c.device.launcher_ctas_per_us)) +
           " CTAs a us (replay cycles " + times(double(r.cycles), double(best.cycles)) +
           " the fastest's)";
  if (bound == "DRAM bandwidth")
    return "DRAM bytes " + times(double(m.dram_read_bytes), double(bm.dram_read_bytes)) +
           " the fastest's";
  return "replay cycles " + times(double(r.cycles), double(best.cycles)) +
         " the fastest's (latency: L1 hits " + pct(m.l1_hit_pct()) + " against " +
         pct(bm.l1_hit_pct()) + ")";
}

// Why a row of the best's predicted time ranks below it: more DRAM traffic, or nothing.
std::string same_time(const GpuResult &r, const GpuResult &best) {
  const int64_t d = r.metrics.dram_read_bytes, bd = best.metrics.dram_read_bytes;
  return d > bd ? "the same predicted time; DRAM bytes " + times(double(d), double(bd)) +
                      " the fastest's"
                : "the same predicted time";
}

// Thrown inside a replay that is stopped because another thread's interrupt fired.
struct Stopped {};

// The search's state: its configs and results, and the progress shared by the worker threads.
struct Search {
  std::vector<GpuConfig> &configs;
  std::vector<GpuResult> &results;
  const TuneResult &names;
  const TuneProgress &progress;
  const Progress &interrupt;
  unsigned jobs;
  int64_t total;
  int64_t done = 0;
};

// Runs configs[which] on up to `jobs` threads (where there are fewer configs than threads, each
// replay on several: GpuConfig::jobs, the same prediction on any count), reporting each finished
// one. The calling thread waits, calling the interrupt about every 50 ms; when it throws, the
// replays stop at their next progress check and its exception is rethrown once they have.
void run_all(Search &s, const std::vector<std::size_t> &which, const std::string &stage) {
  for (std::size_t c : which)
    s.configs[c].jobs =
        static_cast<int>(std::max<std::size_t>(1, s.jobs / std::max<std::size_t>(1, which.size())));
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex mutex;
  std::condition_variable finished;
  std::size_t running = std::min<std::size_t>(s.jobs, which.size());
  std::exception_ptr error;
  const Progress check = [&](int64_t, int64_t) {
    if (stop)
      throw Stopped{};
  };
  std::vector<std::thread> pool;
  for (std::size_t k = 0; k < running; ++k)
    pool.emplace_back([&] {
      try {
        for (std::size_t i; !stop && (i = next++) < which.size();) {
          const std::size_t c = which[i];
          s.results[c] = simulate_gpu(s.configs[c], check);
          const std::lock_guard<std::mutex> lock(mutex);
          ++s.done;
          if (s.progress)
            s.progress(s.done, s.total, stage, s.names.order_of(c));
        }
      } catch (const Stopped &) {
      } catch (...) {
        const std::lock_guard<std::mutex> lock(mutex);
        if (!error)
          error = std::current_exception();
        stop = true;
      }
      const std::lock_guard<std::mutex> lock(mutex);
      --running;
      finished.notify_all();
    });
  std::unique_lock<std::mutex> lock(mutex);
  while (running > 0) {
    finished.wait_for(lock, std::chrono::milliseconds(50));
    if (s.interrupt && !stop && running > 0) {
      const int64_t done = s.done;
      lock.unlock();
      try {
        s.interrupt(done, s.total);
      } catch (...) {
        lock.lock();
        if (!error)
          error = std::current_exception();
        stop = true;
        continue;
      }
      lock.lock();
    }
  }
  lock.unlock();
  for (std::thread &t : pool)
    t.join();
  if (error)
    std::rethrow_exception(error);
}

// The results of `which` ranked among themselves, their indices into all the results.
std::vector<Ranked> rank_of(const TuneResult &t, const std::vector<std::size_t> &which,
                            double error) {
  std::vector<GpuConfig> cs;
  std::vector<GpuResult> rs;
  for (std::size_t i : which) {
    cs.push_back(t.configs[i]);
    rs.push_back(t.results[i]);
  }
  std::vector<Ranked> r = rank_orders(cs, rs, error);
  for (Ranked &x : r)
    x.index = which[x.index];
  return r;
}

// One config per candidate, each checked (a block order the tiles cannot take, a sample that does
// not divide the device: UsageError naming the field).
std::vector<GpuConfig> candidates(const TuneConfig &c, const std::vector<remap::Order> &orders,
                                  bool tiled, int64_t sample) {
  std::vector<GpuConfig> configs;
  for (const remap::Order &o : orders) {
    GpuConfig g = c.base;
    (tiled ? g.workload.block_order : g.order) = o;
    g.sample_sms = sample;
    validate(g);
    configs.push_back(g);
  }
  return configs;
}

// Stage two's sample in a staged search whose stage one samples `stage_one` SMs: the config's
// final_sms, checked to divide the device's SMs and to exceed stage one's (0, or every SM: the full
// device, returned as 0).
int64_t final_sample(const TuneConfig &c, int64_t stage_one) {
  const Device &d = c.base.device;
  const int64_t n = c.final_sms;
  if (n < 0 || n > d.sms || (n > 0 && d.sms % n != 0))
    throw UsageError("tune.final_sms", std::to_string(n) + " SMs do not divide the " + sms_of(d) +
                                           "; allowed: 0 (the full device) or a divisor");
  if (n > 0 && n <= stage_one)
    throw UsageError(
        "tune.final_sms",
        std::to_string(n) + " SMs are no more than stage one's " + std::to_string(stage_one) +
            "; allowed: 0 (the full device) or a larger divisor of " + std::to_string(d.sms));
  return n == d.sms ? 0 : n;
}

// The position of linear, the kernel as written, in stage one's ranking `first` (npos: not a
// candidate). Stage two replays it beside the finalists wherever stage one left it out: the
// sampled stage over-predicts the orders whose neighbouring CTAs, on SMs it does not simulate,
// bring their rows into L2 (linear on DRAM-heavy stencils 43-49% slow: Y9 in docs/results/tight/
// y-set.md §2, E3 in dram-pages.md §4), so the baseline stands on stage two's replay.
std::size_t linear_position(const std::vector<Ranked> &first, const std::vector<GpuConfig> &cs) {
  for (std::size_t k = 0; k < first.size(); ++k)
    if (cs[first[k].index].order.kind == remap::OrderKind::linear)
      return k;
  return std::string::npos;
}

} // namespace

std::string TuneResult::order_of(std::size_t config) const {
  const GpuConfig &c = configs[config];
  return remap::to_string(tiled ? c.workload.block_order : c.order);
}

std::vector<std::string> default_tune_orders() {
  return {"linear",     "column:4",   "column:8",   "column:16",   "column:30",   "column:31",
          "column:32",  "column:33",  "column:34",  "column:48",   "column:64",   "column:96",
          "column:128", "column:256", "column:512", "column:1024", "column:2048", "tile:16",
          "tile:32x8",  "zigzag:32",  "zigzag:64"};
}

int64_t stage_one_sample(const Device &d) {
  for (int64_t n = std::min<int64_t>(12, d.sms); n > 1; --n)
    if (d.sms % n == 0)
      return n;
  return 0;
}

int64_t staged_sample(const TuneConfig &c) {
  const int64_t n = c.sample_sms > 0 ? c.sample_sms : stage_one_sample(c.base.device);
  const bool tiled = workload_traits(c.base.workload.kind).has_block_order;
  return c.staged && !tiled && n > 0 && n < c.base.device.sms ? n : 0;
}

TuneResult tune(const TuneConfig &c, const TuneProgress &progress, const Progress &interrupt) {
  TuneResult t;
  t.tiled = workload_traits(c.base.workload.kind).has_block_order;
  if (c.orders.empty())
    throw UsageError("tune.orders", "no order given; allowed: one or more orders");
  validate(c.base.workload);
  // An order given twice (the same once parsed: column:32 and column:32x1 alike) is ranked once.
  std::vector<remap::Order> once;
  std::vector<std::string> seen;
  for (const remap::Order &o : c.orders) {
    const std::string text = remap::to_string(o);
    if (std::find(seen.begin(), seen.end(), text) == seen.end()) {
      seen.push_back(text);
      once.push_back(o);
    } else if (std::find(t.repeated.begin(), t.repeated.end(), text) == t.repeated.end()) {
      t.repeated.push_back(text);
    }
  }
  // The tiled kernels' default block orders leave out those equal to linear on the tiles already.
  const std::vector<remap::Order> orders =
      t.tiled ? once : distinct_orders(once, c.base.workload, &t.dropped);
  // Staged when it saves work: more orders than finalists, and a sample smaller than the device.
  // Never for the tiled kernels: a sampled SM's CTAs miss the L2 data that their neighbouring
  // tiles' CTAs, on SMs not simulated, bring in (the smem stencil's DRAM bytes 49-55% high with 4
  // SMs: docs/results/tight/model-vs-tiled.md), so stage one would rank them on wrong traffic.
  const int64_t stage_sample = c.sample_sms > 0 ? c.sample_sms : stage_one_sample(c.base.device);
  t.staged = staged_sample(c) > 0 && static_cast<int64_t>(orders.size()) > c.finalists;
  const int64_t sample = t.staged ? stage_sample : c.sample_sms;
  // Stage two's sample: the full device (0) unless given; checked also where too few orders
  // leave nothing to stage.
  const int64_t final_sms =
      c.staged && !t.tiled && stage_sample > 0 ? final_sample(c, stage_sample) : 0;
  t.final_sms = t.staged ? final_sms : 0;
  t.configs = candidates(c, orders, t.tiled, sample);
  t.results.resize(t.configs.size());
  t.finalists =
      t.staged ? std::min<std::size_t>(t.configs.size(), static_cast<std::size_t>(c.finalists)) : 0;
  Search s{t.configs,
           t.results,
           t,
           progress,
           interrupt,
           static_cast<unsigned>(std::max(1, c.jobs)),
           static_cast<int64_t>(t.configs.size() + t.finalists)};
  std::vector<std::size_t> all(t.configs.size());
  std::iota(all.begin(), all.end(), std::size_t{0});
  if (progress)
    progress(0, s.total, sample > 0 ? "sampled" : "full", "");
  run_all(s, all, sample > 0 ? "sampled" : "full");
  std::vector<bool> final_row(t.configs.size(), !t.staged && sample == 0);
  t.ln_error = validated_time_error(c.base.workload.kind);
  if (t.staged) { // stage two: the fastest in sampled mode, replayed on the full device or on
                  // stage two's larger sample (final_sms)
    const std::string stage_two =
        t.final_sms > 0 ? "sampled " + std::to_string(t.final_sms) + " SMs" : "full";
    const std::vector<Ranked> first = rank_orders(t.configs, t.results, 0.0);
    // Replays stage one's rows at `positions` in stage two, each once.
    const auto replay = [&](const std::vector<std::size_t> &positions) {
      std::vector<std::size_t> which;
      for (std::size_t k : positions)
        if (!final_row[first[k].index]) {
          which.push_back(first[k].index);
          t.configs[first[k].index].sample_sms = t.final_sms;
          final_row[first[k].index] = true;
        }
      s.total += static_cast<int64_t>(which.size()) - static_cast<int64_t>(positions.size());
      run_all(s, which, stage_two);
    };
    const auto range = [](std::size_t from, std::size_t to) {
      std::vector<std::size_t> r(to - from);
      std::iota(r.begin(), r.end(), from);
      return r;
    };
    // The finalists, and linear beside them where stage one left it out (linear_position).
    std::vector<std::size_t> batch = range(0, t.finalists);
    const std::size_t linear = linear_position(first, t.configs);
    if (linear != std::string::npos && linear >= t.finalists) {
      batch.push_back(linear);
      ++s.total;
    }
    replay(batch);
    // A tie group that takes in every finalist may go on among the sampled rows: while the
    // slowest stage-two row is within the validated error of the fastest, the next as many in
    // stage one's order are replayed in stage two too.
    const auto all_tied = [&] {
      double best = std::numeric_limits<double>::infinity(), worst = 0;
      for (std::size_t k = 0; k < t.finalists; ++k) {
        const double ms = t.results[first[k].index].time.predicted_ms;
        best = std::min(best, ms);
        worst = std::max(worst, ms);
      }
      return best > 0 && std::log(worst / best) <= t.ln_error;
    };
    while (t.finalists > 0 && t.finalists < first.size() && all_tied()) {
      const std::size_t to = std::min(first.size(), 2 * t.finalists);
      s.total += static_cast<int64_t>(to - t.finalists);
      replay(range(t.finalists, to));
      t.finalists = to;
    }
    t.baseline_replayed = linear != std::string::npos && linear >= t.finalists;
  }
  // The rows of stage two (every row unless staged) are ranked with tie groups; a staged
  // search's other rows follow in their stage-one order, without a tie group.
  std::vector<std::size_t> head, tail;
  for (std::size_t i = 0; i < t.configs.size(); ++i)
    (t.staged && !final_row[i] ? tail : head).push_back(i);
  t.rows = rank_of(t, head, t.ln_error);
  for (Ranked x : rank_of(t, tail, 0.0)) {
    x.tie_group = 0;
    x.why = "sampled only: not among the fastest " + std::to_string(t.finalists) + " of stage one";
    t.rows.push_back(x);
  }
  return t;
}

double replay_seconds(const GpuConfig &c) {
  const Workload &w = c.workload;
  const double warps = double(w.tasks()) / double(std::max<int64_t>(1, c.device.warp_size));
  const double loads_per_task = double(
      visit_workload(w.kind, [&](auto tag) { return decltype(tag)::type::loads_per_task(w); }));
  return warps * (kReplaySecondsPerWarp + loads_per_task * kReplaySecondsPerWarpLoad);
}

double full_search_seconds(const TuneConfig &c, int threads) {
  const std::vector<remap::Order> orders = distinct_orders(c.orders, c.base.workload);
  GpuConfig full = c.base;
  full.sample_sms = 0;
  return double(orders.size()) * replay_seconds(full) / double(std::max(1, threads));
}

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

namespace {
// A workload's own validated_time_error where its header declares one, else the mean over every
// family's pairs (docs/results/tight/tie-tolerance.md: 2145 pairs in 381 configurations).
template <class W, class = void> struct ValidatedTimeError {
  static constexpr double value = 0.0585;
};
template <class W> struct ValidatedTimeError<W, std::void_t<decltype(W::validated_time_error)>> {
  static constexpr double value = W::validated_time_error;
};
} // namespace

double validated_time_error(WorkloadKind kind) {
  return visit_workload(
      kind, [](auto tag) { return ValidatedTimeError<typename decltype(tag)::type>::value; });
}

std::vector<Ranked> rank_orders(const std::vector<GpuConfig> &configs,
                                const std::vector<GpuResult> &results, double ln_error) {
  std::vector<std::size_t> order(results.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  // By predicted time; orders of the same time by their DRAM bytes (the tiled SGEMM's orders are
  // all bound by its arithmetic, and differ in traffic alone).
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const GpuTime &ta = results[a].time, &tb = results[b].time;
    if (ta.predicted_ms != tb.predicted_ms)
      return ta.predicted_ms < tb.predicted_ms;
    return results[a].metrics.dram_read_bytes < results[b].metrics.dram_read_bytes;
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
                  ? same_time(r, best)
                  : why_slower(configs[order[k]], r, configs[order[0]], best);
    out.push_back(std::move(x));
  }
  return out;
}

} // namespace cbi::sim
