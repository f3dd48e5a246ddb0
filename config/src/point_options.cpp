#include "cbi/config/point_options.hpp"

#include "cbi/cli/command.hpp"

#include "cbi/error.hpp"
#include "cbi/order_text.hpp"
#include "cbi/parse.hpp"
#include "cbi/sim/trace.hpp"

#include <algorithm>
#include <cstdlib>

namespace cbi::config {

namespace {

using cli::get;
using cli::has;

kernels::ElemType type_of_bytes(int elem_bytes) {
  return elem_bytes == 2   ? kernels::ElemType::half
         : elem_bytes == 8 ? kernels::ElemType::float64
                           : kernels::ElemType::float32;
}

} // namespace

Point point_from(const cli::po::variables_map &vm, const PointRequest &request,
                 const OwnWorkload &own) {
  refuse_inapplicable(vm, request.engine, request.command, own.user.get());
  // One configuration per run here; a list is sweep's (a row each) and, of orders, diagram's (a
  // panel each). --size 16,32 was "not a positive integer", --type float,double "unknown type".
  for (const std::string option : {"order", "kernel", "size", "stencil", "depth", "type"}) {
    const bool order = option == "order";
    if ((order && !request.order) || !has(vm, option) ||
        get(vm, option, "").find(',') == std::string::npos)
      continue;
    throw UsageError("--" + option,
                     "'" + get(vm, option, "") + "' is a list, and cbi " + request.command +
                         " runs one " + option + "; allowed: one " +
                         (order ? "of " + std::string(remap::order_syntax()) : "value") +
                         " (several side by side: cbi sweep --" + option + " A,B gives a row each" +
                         (order ? ", cbi diagram --order A,B a panel each)" : ")"));
  }
  Point p;
  if (own.user) {
    if (has(vm, "trace"))
      throw UsageError("--trace", "a workload is given already; allowed: one of them");
    p.user = own.user;
    p.type = type_of_bytes(own.elem_bytes);
    const remap::Shape<int64_t> shape = p.user->task_shape();
    p.size = {shape.width, shape.height};
  } else if (has(vm, "trace")) {
    // A trace (docs/traces.md) in place of the workload options: it is checked whole here, so a
    // bad file exits 2 naming --trace before any result.
    p.trace = get(vm, "trace", "");
    p.user = sim::open_trace(*p.trace, request.trace_progress);
    p.type = type_of_bytes(sim::trace_info(*p.user)->elem_bytes);
    const remap::Shape<int64_t> shape = p.user->task_shape();
    p.size = {shape.width, shape.height};
  }
  // The option groups parse and check their values under their own names.
  const sim::Workload w = p.user ? workload_of(p) : workload_from(vm);
  if (!p.user) {
    const sim::WorkloadTraits traits = sim::workload_traits(w.kind);
    if (traits.kernel) // the kernel that runs it; else (stencil3d) the default, stencil
      p.kernel = kernels::parse_kernel(traits.kernel);
    if (traits.has_block_order) { // the tiled kernels: sgemm-tiled, stencil-smem
      p.block_order = w.block_order;
      if (has(vm, "order") &&
          remap::parse_order(get(vm, "order", "")).kind != remap::OrderKind::linear)
        throw UsageError("--order", std::string(traits.name) +
                                        "'s threads keep their launch order; allowed: linear "
                                        "(order its thread blocks with --block-order)");
    }
    if (sim_workload(p) != w.kind)
      p.workload = w.kind; // simulated only (stencil3d): no CUDA kernel runs it
    p.size = {w.width, w.height};
    if (traits.has_window)
      p.stencil = Extent{w.stencil_w, w.stencil_h};
    if (traits.has_depth)
      p.depth = w.depth; // matmul's D, stencil3d's planes
    p.type = type_of_bytes(w.elem_bytes);
    p.boundary = w.boundary;
    p.writes = w.writes;
  }
  // A trace's tasks are visited as traced: the linear order over its blocks (cbi/sim/trace.hpp).
  p.order = remap::parse_order(request.order && !p.user ? get(vm, "order", kDefaultOrder)
                                                        : kDefaultOrder);
  if (request.engine == Engine::gpu_model) {
    p.device = get(vm, "device", kDefaultDevice);
    const sim::Device &device = sim::find_device(*p.device); // UsageError naming --device
    // The default block, or the device's largest where that is smaller (tiny: 1 thread), so that
    // --device tiny alone is not refused for a --block the user never gave. 1024 is CUDA's
    // largest block; a device row may allow fewer (and says so naming --block).
    p.block_threads =
        has(vm, "block")
            ? int(parse_positive(get(vm, "block", ""), "--block", kernels::kMaxBlockThreads))
            : std::min(
                  {kDefaultBlockThreads, device.max_threads_per_block, device.max_threads_per_sm});
    if (p.user && p.user->block_threads() > 0)
      p.block_threads = int(p.user->block_threads()); // the traced launch's blocks
    if (has(vm, "sample-sms")) {
      const int64_t sample =
          parse_count(get(vm, "sample-sms", ""), "--sample-sms", 1 << 20, "all SMs");
      // A sampled device's CTAs miss the L2 data of their neighbours' tiles, and the block order
      // decides exactly that: sgemm-tiled 2048 column:8 read 358 MB of DRAM sampled (12 SMs) and
      // 33.5 MB on the full device (docs/results/tight/model-vs-tiled.md: sampled mode is no
      // shortcut there). Refused, not answered wrongly; 0, the full device, is what they run.
      if (p.block_order && sample > 0)
        throw UsageError("--sample-sms",
                         std::string(sim::workload_traits(w.kind).name) +
                             "'s block orders are replayed on the full device (a sampled SM's "
                             "CTAs miss the L2 data of their neighbours' tiles: "
                             "docs/results/tight/model-vs-tiled.md); allowed: 0 (all SMs) or "
                             "leave it out");
      if (sample > 0) // 0 is the default, the full device: the same point as leaving it out
        p.sample_sms = sample;
    }
    if (has(vm, "jobs"))
      p.jobs = cli::parse_jobs(get(vm, "jobs", ""));
    return p;
  }
  p.granularity =
      has(vm, "granularity") ? parse_granularity(get(vm, "granularity", "")) : request.granularity;
  p.classify_misses = vm.count("classify-misses") && vm["classify-misses"].as<bool>();
  sim::SimConfig checked;
  checked.workload = w;
  checked.order = *p.order;
  checked.granularity = p.granularity;
  checked.levels = levels_from(vm, w);
  checked.classify_misses = p.classify_misses; // its shadows count in the memory check
  validate(checked, vm); // a cache unit that does not hold whole elements names its option
  p.cache = Cache{};
  for (const sim::CacheConfig &level : checked.levels)
    p.cache.levels.push_back(spec_of(level));
  return p;
}

namespace {

// Each item of --NAME (or `fallback`) parsed, none given twice: bench --type float,float timed the
// same kernel twice.
template <class T, class Parse>
std::vector<T> each_once(const cli::po::variables_map &vm, const std::string &name,
                         const std::vector<std::string> &fallback, Parse parse) {
  const std::vector<std::string> texts = cli::list_from(vm, name, fallback);
  std::vector<T> values;
  std::vector<std::string> canonical;
  for (const std::string &text : texts) {
    values.push_back(parse(text));
    canonical.push_back(to_string(values.back())); // kernels:: or remap::, by the type
  }
  refuse_repeats(texts, canonical, "--" + name);
  return values;
}

} // namespace

BenchPoints bench_points(const cli::po::variables_map &vm) {
  Point base;
  base.size = {4096, 4096};
  if (has(vm, "size")) {
    const auto [w, h] = parse_size(get(vm, "size", ""));
    base.size = {w, h};
  }
  const auto [sw, sh] = parse_extent(get(vm, "stencil", "9x9"), "--stencil", true, 1 << 15);
  // matmul's D; 0 means I_w
  const int64_t depth = has(vm, "depth") ? parse_depth(get(vm, "depth", "")) : 0;
  const bool block_given = has(vm, "block");
  const std::string block = get(vm, "block", "256");

  const auto kinds = each_once<kernels::KernelKind>(
      vm, "kernel", {"stencil"}, [](auto &t) { return kernels::parse_kernel(t); });
  const std::vector<remap::Order> orders =
      remap::parse_orders(cli::list_from(vm, "order", {kDefaultOrder}));
  const std::vector<remap::Order> block_orders =
      remap::parse_orders(cli::list_from(vm, "block-order", {"linear"}), "--block-order");
  const auto maths = each_once<remap::RemapMath>(
      vm, "remap-math", {"fast"}, [](auto &t) { return remap::parse_remap_math(t); });
  if (block_orders.empty() || maths.empty())
    throw UsageError(block_orders.empty() ? "--block-order" : "--remap-math",
                     "empty list; allowed: one value or a comma list");
  const auto types = each_once<kernels::ElemType>(vm, "type", {"float"},
                                                  [](auto &t) { return kernels::parse_type(t); });
  if (kinds.empty() || orders.empty() || types.empty())
    throw UsageError(kinds.empty()    ? "--kernel"
                     : orders.empty() ? "--order"
                                      : "--type",
                     "empty list; allowed: one value or a comma list");

  refuse_unused_kernel_axes(vm, kinds);

  // --block N or WxH: 1D kernels take W*H threads, stencil-2d a W-wide block (32 for N, N under
  // 32). "--block 2000" was told "in '32x2000', ...", a spelling the user never gave.
  const bool two_d = block.find_first_of("xX") != std::string::npos;
  const auto [bx, by] = two_d ? parse_extent(block, "--block", false, kernels::kMaxBlockThreads)
                              : std::pair<long long, long long>{0, 0};
  const int threads =
      two_d ? int(bx * by) : int(parse_positive(block, "--block", kernels::kMaxBlockThreads));

  // An --order (--block-order) that no listed kernel takes stays on the point, so that
  // kernels::validate refuses it rather than it being ignored (--remap-math: refused above).
  const bool any_remapped = std::any_of(kinds.begin(), kinds.end(), kernels::is_remapped);
  const bool any_blocked = std::any_of(kinds.begin(), kinds.end(), kernels::is_block_ordered);
  const bool listed =
      kinds.size() * orders.size() * types.size() * block_orders.size() * maths.size() > 1;
  BenchPoints out;
  for (kernels::KernelKind k : kinds)
    for (kernels::ElemType t : types)
      for (size_t oi = 0; oi < (kernels::is_remapped(k) ? orders.size() : 1); ++oi)
        for (size_t mi = 0; mi < (kernels::is_remapped(k) ? maths.size() : 1); ++mi)
          for (size_t bi = 0; bi < (kernels::is_block_ordered(k) ? block_orders.size() : 1); ++bi) {
            Point p = base;
            p.kernel = k;
            p.type = t;
            if (kernels::is_stencil(k))
              p.stencil = Extent{sw, sh};
            else
              p.depth = depth;
            if (kernels::is_remapped(k) || !any_remapped)
              p.order = orders[oi];
            if (kernels::is_remapped(k))
              p.remap_math = maths[mi];
            if (kernels::is_block_ordered(k) || !any_blocked)
              p.block_order = block_orders[bi];
            if (k == kernels::KernelKind::stencil_2d) {
              p.block_x = two_d ? int(bx) : std::min(32, threads);
              p.block_threads = threads;
            } else if (block_given) {
              p.block_threads = threads;
            }
            const kernels::BenchConfig c = bench_config(p);
            try {
              kernels::validate(c);
            } catch (const UsageError &e) {
              if (!listed || e.option() != "kernel.type")
                throw;
              out.notes.push_back("skipped " + c.describe() + ": " + e.what());
              continue;
            }
            out.points.push_back(p);
          }
  if (out.points.empty())
    throw UsageError("--type", "no kernel in --kernel offers these types; allowed: float for "
                               "sgemm-tiled, half|float|double for the others");
  return out;
}

void refuse_unused_kernel_axes(const cli::po::variables_map &vm,
                               const std::vector<kernels::KernelKind> &kinds) {
  if (has(vm, "stencil") && std::none_of(kinds.begin(), kinds.end(), kernels::is_stencil))
    throw UsageError("--stencil", "no listed kernel has a stencil window; allowed: leave it out, "
                                  "or a stencil kernel (stencil, stencil-2d, stencil-smem)");
  if (has(vm, "depth") && std::all_of(kinds.begin(), kinds.end(), kernels::is_stencil))
    throw UsageError("--depth", "no listed kernel has an inner dimension; allowed: leave it out, "
                                "or a matrix kernel (matmul, sgemm-tiled, cublas)");
  if (has(vm, "remap-math") && std::none_of(kinds.begin(), kinds.end(), kernels::is_remapped))
    throw UsageError("--remap-math", "no listed kernel maps its threads through an order; "
                                     "allowed: leave it out, or stencil or matmul in --kernel");
}

namespace {

// A decimal number in [low, 1e6] (low excluded unless `zero_ok`), else a UsageError naming
// `option` with `allowed`.
double parse_measurement(const std::string &text, const char *option, bool zero_ok,
                         const std::string &allowed) {
  char *end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  // Decimal only: strtod also took " 0.5" and the hex "0x10" (16 s).
  const bool decimal = text.find_first_not_of("0123456789.eE+-") == std::string::npos;
  if (text.empty() || !decimal || *end != 0 || !(zero_ok ? v >= 0 : v > 0) || v > 1e6)
    throw UsageError(option, "'" + text + "' is not allowed; allowed: " + allowed);
  return v;
}

} // namespace

double parse_max_noise(const std::string &text) {
  return parse_measurement(text, "--max-noise", true,
                           "a noise target stdev/mean from 0 to 1e6, e.g. 0.01 (0: sample until "
                           "--max-seconds)");
}

double parse_max_seconds(const std::string &text) {
  return parse_measurement(text, "--max-seconds", false,
                           "a time budget per point in seconds, > 0 up to 1e6, e.g. 0.25");
}

int parse_min_samples(const std::string &text) {
  return int(parse_positive(text, "--min-samples", 1 << 20));
}

kernels::BenchConfig measurement_from(const cli::po::variables_map &vm) {
  kernels::BenchConfig c;
  c.check = !vm["no-check"].as<bool>();
  c.time = !vm["no-time"].as<bool>();
  c.metrics = vm["metrics"].as<bool>();
  c.cold = vm["cold"].as<bool>();
  if (has(vm, "min-samples"))
    c.min_samples = parse_min_samples(get(vm, "min-samples", ""));
  c.max_samples = std::max(c.max_samples, c.min_samples);
  if (has(vm, "max-noise"))
    c.max_noise = parse_max_noise(get(vm, "max-noise", ""));
  if (has(vm, "max-seconds"))
    c.max_seconds = parse_max_seconds(get(vm, "max-seconds", ""));
  if (has(vm, "seed"))
    c.seed = uint64_t(parse_positive(get(vm, "seed", ""), "--seed", 1LL << 62));
  // Without timed samples the sampling settings would be ignored: refused, naming each.
  if (!c.time) {
    for (const char *option : {"cold", "min-samples", "max-noise", "max-seconds"})
      if (has(vm, option) && !vm[option].defaulted())
        throw UsageError(std::string("--") + option,
                         "applies to the timed samples, and --no-time takes none; allowed: leave "
                         "it out, or leave out --no-time");
    if (!c.check && !c.metrics)
      throw UsageError("--no-time", "with --no-check and without --metrics nothing is run; "
                                    "allowed: --no-time with the check or --metrics");
  }
  return c;
}

kernels::BenchConfig with_measurement(kernels::BenchConfig c, const kernels::BenchConfig &m) {
  c.check = m.check;
  c.time = m.time;
  c.metrics = m.metrics;
  c.cold = m.cold;
  c.min_samples = m.min_samples;
  c.max_samples = m.max_samples;
  c.max_noise = m.max_noise;
  c.max_seconds = m.max_seconds;
  c.seed = m.seed;
  return c;
}

} // namespace cbi::config
