#include "cbi/config/options.hpp"

#include "cbi/config/applicability.hpp"
#include "cbi/config/cache.hpp"

#include "cbi/cli/command.hpp"
#include "cbi/kernels/config.hpp"

#include "cbi/sim/workloads.hpp"

#include "cbi/order_text.hpp"
#include "cbi/remap/fold.hpp"

#include <algorithm>
#include <set>

namespace cbi::config {

using cli::Cell;
using cli::check_memory;
using cli::get;
using cli::has;
using cli::list_from;
using cli::list_value;

// The registered workloads (sim/workloads.hpp), so that a new one needs no edit here.
static std::string workload_help(bool tiled) {
  std::string h = sim::workload_names(tiled) + " (default stencil)";
  sim::for_each_workload([&](auto tag) {
    using W = typename decltype(tag)::type;
    if (W::size_dims == 3)
      h += std::string("; ") + W::name + " takes --size WxHxP (P planes)";
  });
  return h;
}

static std::string kernel_help(bool tiled) {
  return "the workload by its CUDA kernel's name, as cbi bench spells it: " +
         sim::kernel_workload_names(tiled) + " (instead of --workload)";
}

static const std::string &block_order_help() {
  static const std::string help = [] {
    std::string tiled;
    sim::for_each_workload([&](auto tag) {
      using W = typename decltype(tag)::type;
      if (W::has_block_order)
        tiled += (tiled.empty() ? "" : ", ") + std::string(W::name);
    });
    return tiled +
           ": the order of the thread blocks over the tiles (block k computes tile map(k)), as "
           "cbi bench takes it: " +
           remap::order_syntax() + "; default linear";
  }();
  return help;
}

void add_workload_options(po::options_description &desc, bool tiled) {
  // clang-format off
  desc.add_options()
    ("workload", po::value<std::string>(), workload_help(tiled).c_str())
    ("size", po::value<std::string>(), "task grid WxH (or N for NxN): the output's I_w x I_h; "
                                       "default 16x16 (thesis Tables 3.1/3.2; 16x16x16 for "
                                       "stencil3d). N-d sizes WxHxD... fold into W x (H*D*...) "
                                       "(§4.1.2)")
    ("stencil", po::value<std::string>(), "stencil window SxS (odd), default 7x7 (Table 3.1)")
    ("depth", po::value<std::string>(), "matmul inner dimension D: A is I_h x D, B is D x I_w; "
                                        "default I_w (0 says it too, as sweep's depth axis does)")
    ("type", po::value<std::string>(), "element type: half | float (default) | double, as cbi "
                                       "sweep and cbi bench spell it")
    ("elem-bytes", po::value<std::string>(), "the element type by its size, the same as --type: 2 "
                                             "(half), 4 (float), 8 (double)")
    ("boundary", po::value<std::string>(), "stencil edges: clamp (listing 3, default) | none "
                                           "(unclamped, as the thesis diagrams)")
    ("writes", po::bool_switch(), "also replay each task's output store (off by default; the GPU model always does, so it refuses the option)")
    ("kernel", po::value<std::string>(), kernel_help(tiled).c_str());
  // clang-format on
  if (tiled)
    desc.add_options()("block-order", list_value(), block_order_help().c_str());
}

void add_trace_option(po::options_description &desc) {
  desc.add_options()("trace", po::value<std::string>(),
                     "replay this trace instead of a built-in workload: cbi's (cbi trace) or an "
                     "Accel-Sim kernel trace (kernel-N.traceg); docs/traces.md");
}

sim::Workload workload_from(const po::variables_map &vm) {
  sim::Workload w;
  if (has(vm, "kernel")) {
    if (has(vm, "workload"))
      throw UsageError("--kernel", "give --kernel or --workload, not both; allowed: one of them");
    const std::string kernel = get(vm, "kernel", "");
    try {
      w.kind = sim::parse_workload_kind(kernel, "--kernel");
    } catch (const UsageError &) {
      // A kernel that cbi bench runs (cublas, stencil-2d) but the simulator has no model of is
      // not an "unknown workload"; and the allowed names are kernels, not every workload.
      bool benched = true;
      try {
        kernels::parse_kernel(kernel);
      } catch (const UsageError &) {
        benched = false;
      }
      throw UsageError("--kernel", "'" + kernel + "' " +
                                       (benched ? "runs on a GPU only (cbi bench): the simulator "
                                                  "has no model of it"
                                                : "is not a kernel") +
                                       "; allowed: " + sim::kernel_workload_names());
    }
    const char *name = sim::to_string(w.kind);
    if (!sim::workload_traits(w.kind).kernel)
      throw UsageError("--kernel", std::string(name) + " has no CUDA kernel; allowed: " +
                                       sim::kernel_workload_names() + " (or --workload " + name +
                                       ")");
  } else {
    w.kind = sim::parse_workload_kind(get(vm, "workload", "stencil"), "--workload");
  }
  refuse_inapplicable(vm, w.kind); // --block-order on a kernel without tiles
  const std::vector<std::string> block_orders = list_from(vm, "block-order", {});
  if (block_orders.size() > 1)
    throw UsageError("--block-order", "one block order here; allowed: a single order (cbi tune "
                                      "and cbi bench take a list)");
  if (!block_orders.empty())
    w.block_order = remap::parse_order(block_orders.front(), "--block-order");
  // N-d sizes fold into the 2D task grid (§4.1.2): the first extent stays horizontal, the rest
  // multiply into the vertical one.
  // Every extent positive, none empty ("16x" and "16x16x" are errors) and their product checked
  // before the fold multiplies them.
  const sim::WorkloadTraits traits = sim::workload_traits(w.kind);
  // The default: Table 3.1's 16x16, or a volume of 16 planes for a 3-D workload.
  const std::string size_text = get(vm, "size", traits.size_dims == 3 ? "16" : "16x16");
  std::vector<int64_t> dims;
  for (long long d : parse_dims(size_text, "--size", kMaxExtent, kMaxTasks))
    dims.push_back(d);
  // N stands for NxN (NxNxN for a volume): its product is checked as if typed so.
  const std::size_t square = traits.size_dims == 3 ? 3 : 2;
  if (dims.size() == 1) {
    std::string spelled = size_text;
    for (std::size_t k = 1; k < square; ++k)
      spelled += "x" + size_text;
    int64_t product = dims[0];
    for (std::size_t k = 1; k < square; ++k) {
      if (product > kMaxTasks / dims[0])
        throw UsageError("--size", "'" + size_text + "' means " + spelled + ", more than " +
                                       limit_text(kMaxTasks) +
                                       " elements; allowed: a smaller size");
      product *= dims[0];
      dims.push_back(dims[0]);
    }
  }
  if (traits.size_dims == 3 && dims.size() != 3)
    // The volume I_w x I_h x P; the workload folds it into the task grid itself.
    throw UsageError("--size",
                     std::string(traits.name) + " needs a volume; allowed: WxHxP (or N for NxNxN)");
  const remap::Shape<int64_t> folded = remap::fold(dims.data(), static_cast<int>(dims.size()));
  w.width = folded.width;
  w.height = folded.height;
  const auto [sw, sh] = parse_extent(get(vm, "stencil", "7x7"), "--stencil", true, 1 << 15);
  w.stencil_w = sw;
  w.stencil_h = sh;
  const int64_t depth = has(vm, "depth") ? parse_depth(get(vm, "depth", "")) : 0;
  w.depth = depth > 0 ? depth : w.width;
  if (traits.size_dims == 3) {
    w.height = dims[1];
    w.depth = dims[2];
  }
  w.elem_bytes = elem_bytes_from(vm);
  const std::string b = get(vm, "boundary", "clamp");
  if (b == "clamp")
    w.boundary = sim::Boundary::clamp;
  else if (b == "none")
    w.boundary = sim::Boundary::none;
  else
    throw UsageError("--boundary", "unknown boundary '" + b + "'; allowed: clamp, none");
  w.writes = vm.count("writes") && vm["writes"].as<bool>();
  try {
    sim::validate(w);
  } catch (const UsageError &e) { // sgemm-tiled is float only: name the spelling given
    if (e.option() != "workload.elem_bytes")
      throw;
    throw UsageError(element_type_option(vm), e.what());
  }
  return w;
}

int elem_bytes_from(const po::variables_map &vm) {
  int bytes = 4;
  if (has(vm, "type"))
    bytes = kernels::elem_bytes(kernels::parse_type(get(vm, "type", ""), "--type"));
  if (has(vm, "elem-bytes")) {
    const std::string eb = get(vm, "elem-bytes", "");
    if (eb != "2" && eb != "4" && eb != "8")
      throw UsageError("--elem-bytes", "'" + eb +
                                           "' is not allowed; allowed: 2 (half), 4 (float), 8 "
                                           "(double), or --type half|float|double");
    const int given = std::stoi(eb);
    if (has(vm, "type") && given != bytes)
      throw UsageError("--elem-bytes", eb + " (" + sim::elem_type_name(given) +
                                           ") disagrees with --type " + get(vm, "type", "") +
                                           "; allowed: one of the two, or both naming one type");
    bytes = given;
  }
  return bytes;
}

std::string element_type_option(const po::variables_map &vm) {
  return has(vm, "elem-bytes") && !has(vm, "type") ? "--elem-bytes" : "--type";
}

void add_cache_options(po::options_description &desc) {
  // clang-format off
  desc.add_options()
    ("line-bytes", po::value<std::string>(), "cache line size in bytes, a multiple of the element "
                                             "size (any, not only powers of two: GPUs use 32, "
                                             "64, 128); default 4 elements (Table 3.1: 16 B for "
                                             "float)")
    ("lines", po::value<std::string>(), "capacity in lines; default 24 for stencil (Table 3.1), "
                                        "32 for matmul (Table 3.2)")
    ("cache-bytes", po::value<std::string>(), "capacity in bytes instead of lines: N, NK, NKiB, "
                                              "NMiB (K, KB, KiB are all 1024; any case)")
    ("ways", po::value<std::string>(), "associativity; 0 = fully associative (default)")
    ("policy", po::value<std::string>(), "replacement: lru (default) | fifo | random | volta "
                                         "(evict 4 consecutive lines at random, §2.1.2)")
    ("sector-bytes", po::value<std::string>(), "sectored lines: sector size in bytes, e.g. 32 as on "
                                               "NVIDIA L1/L2; hits and misses count per sector")
    ("seed", po::value<std::string>(), "seed for random and volta policies (default 1)")
    ("level", po::value<std::vector<std::string>>()->composing(),
     "a cache level, repeatable, L1 first: size=32KiB,line=128,ways=8[,policy=lru][,sector=32]"
     "[,seed=1] (or lines=N instead of size); replaces the single-level options");
  // clang-format on
}

sim::CacheConfig parse_level(const std::string &spec, const sim::Workload &w) {
  const LevelSpec l = parse_level_spec(spec, "--level");
  if (!l.capacity_bytes && !l.capacity_lines)
    throw UsageError("--level", "'" + spec + "' gives no capacity; allowed: size=BYTES or lines=N");
  return resolve(l, w, "--level");
}

std::string level_spec(const sim::CacheConfig &c) { return spell(spec_of(c)); }

// The single-level option that sets a cache field.
static std::string single_level_option(const std::string &field, const po::variables_map &vm) {
  if (field == "cache.line_bytes")
    return "--line-bytes";
  if (field == "cache.capacity")
    return has(vm, "cache-bytes") ? "--cache-bytes" : "--lines";
  if (field == "cache.ways")
    return "--ways";
  if (field == "cache.sector_bytes")
    return "--sector-bytes";
  if (field == "cache.policy")
    return "--policy";
  return field;
}

std::vector<sim::CacheConfig> levels_from(const po::variables_map &vm, const sim::Workload &w) {
  if (has(vm, "level")) {
    for (const char *single :
         {"line-bytes", "lines", "cache-bytes", "ways", "policy", "sector-bytes", "seed"})
      if (has(vm, single))
        throw UsageError(
            std::string("--") + single,
            "cannot be combined with --level; allowed: put it inside each --level spec");
    std::vector<sim::CacheConfig> levels;
    for (const std::string &spec : vm["level"].as<std::vector<std::string>>())
      levels.push_back(parse_level(spec, w));
    return levels;
  }
  sim::CacheConfig c;
  c.line_bytes = has(vm, "line-bytes")
                     ? parse_positive(get(vm, "line-bytes", ""), "--line-bytes", 1 << 20)
                     : 4 * w.elem_bytes;
  if (has(vm, "lines") && has(vm, "cache-bytes"))
    throw UsageError("--cache-bytes", "given with --lines, and both set the capacity; allowed: "
                                      "one of them (--lines N or --cache-bytes BYTES)");
  if (has(vm, "cache-bytes")) {
    const int64_t bytes = parse_bytes(get(vm, "cache-bytes", ""), "--cache-bytes");
    if (bytes % c.line_bytes != 0)
      throw UsageError("--cache-bytes", std::to_string(bytes) + " B is not a whole number of " +
                                            std::to_string(c.line_bytes) +
                                            " B lines; allowed: a multiple of --line-bytes");
    c.capacity_lines = bytes / c.line_bytes;
  } else {
    c.capacity_lines = has(vm, "lines") ? parse_positive(get(vm, "lines", ""), "--lines", 1LL << 31)
                                        : sim::workload_traits(w.kind).table_lines;
  }
  const std::string ways = get(vm, "ways", "0");
  c.ways = parse_count(ways, "--ways", 1LL << 31, "fully associative");
  if (c.ways > c.capacity_lines || (c.ways && c.capacity_lines % c.ways != 0))
    throw UsageError("--ways", std::to_string(c.capacity_lines) +
                                   " lines do not divide into whole "
                                   "sets of " +
                                   ways +
                                   " ways; allowed: 0 (fully associative) or a "
                                   "divisor of the line count");
  c.policy = sim::parse_policy(get(vm, "policy", "lru"), "--policy");
  if (has(vm, "sector-bytes"))
    c.sector_bytes = parse_positive(get(vm, "sector-bytes", ""), "--sector-bytes", 1 << 20);
  if (has(vm, "seed")) {
    if (!sim::policy_uses_seed(c.policy))
      throw UsageError("--seed", std::string("--policy ") + sim::to_string(c.policy) +
                                     " draws no random numbers; allowed: leave it out, or "
                                     "--policy random or volta");
    c.seed = static_cast<uint64_t>(parse_positive(get(vm, "seed", ""), "--seed", 1LL << 62));
  }
  try {
    sim::validate(c);
  } catch (const UsageError &e) {
    throw UsageError(single_level_option(e.option(), vm), e.what());
  }
  return {c};
}

void add_order_options(po::options_description &desc) {
  static const std::string order_help =
      std::string("thread order, one per run: ") + remap::order_syntax() +
      "; default linear (several at once: cbi sweep --order A,B, cbi diagram --order A,B)";
  // clang-format off
  desc.add_options()
    ("order", po::value<std::string>(), order_help.c_str())
    ("granularity", po::value<std::string>(), "exact (every access in program order, default) | "
                                              "thread (each thread's distinct lines, ascending; §3.2)");
  // clang-format on
}

void validate(const sim::SimConfig &c, const po::variables_map &vm) {
  try {
    sim::validate(c);
  } catch (const UsageError &e) {
    throw UsageError(has(vm, "level") ? option_for_field(e.option())
                                      : single_level_option(e.option(), vm),
                     e.what());
  }
  // Before the levels are allocated: a cache larger than memory is exit 2 naming its option, not
  // a std::bad_alloc or the kernel's OOM killer.
  const std::string option = has(vm, "level")         ? "--level"
                             : has(vm, "cache-bytes") ? "--cache-bytes"
                                                      : "--lines";
  const bool fully_associative =
      std::any_of(c.levels.begin(), c.levels.end(), [](const sim::CacheConfig &l) {
        return l.ways == 0 || l.ways >= l.capacity_lines;
      });
  check_memory(sim::state_bytes(c),
               c.classify_misses ? "the simulated cache state and its 3C shadow"
                                 : "the simulated cache state",
               option,
               "fewer lines (a smaller " + option + ")" +
                   (!fully_associative ? std::string()
                    : option == "--level"
                        ? ", or ways=N in the spec (a set-associative level keeps a quarter of "
                          "the state)"
                        : ", or --ways N (a set-associative level keeps a quarter of the state)") +
                   (c.classify_misses ? ", or no --classify-misses (its fully associative "
                                        "shadow of every level)"
                                      : ""));
}

sim::Granularity parse_granularity(const std::string &text) {
  if (text == "exact")
    return sim::Granularity::exact;
  if (text == "thread")
    return sim::Granularity::thread;
  throw UsageError("--granularity", "unknown granularity '" + text + "'; allowed: exact, thread");
}

Fields workload_fields(const sim::Workload &w) {
  if (w.kind == sim::kUserWorkloadKind) // a trace or a workload of your own: its description
    return {{"workload", w.describe()},
            {"width", w.width},
            {"height", w.height},
            {"elem_bytes", int64_t{w.elem_bytes}}};
  // A field the kind does not have is missing (an empty cell: JSON null, an empty CSV cell), not
  // the struct's default: matmul has no stencil window and no boundary, a stencil no depth.
  const sim::WorkloadTraits traits = sim::workload_traits(w.kind);
  const auto applies = [](bool has, Cell value) { return has ? value : Cell{std::string()}; };
  Fields f = {
      {"workload", std::string(sim::to_string(w.kind))},
      {"width", w.width},
      {"height", w.height},
      {"stencil_w", applies(traits.has_window, w.stencil_w)},
      {"stencil_h", applies(traits.has_window, w.stencil_h)},
      {"depth", applies(traits.has_depth, w.depth)},
      {"elem_bytes", int64_t{w.elem_bytes}},
      {"boundary", applies(traits.has_boundary,
                           std::string(w.boundary == sim::Boundary::clamp ? "clamp" : "none"))},
      {"writes", w.writes}};
  if (traits.has_block_order) // the tiled kernels' CTA order
    f.push_back({"block_order", remap::to_string(w.block_order)});
  return f;
}

Fields gpu_workload_fields(const sim::Workload &w) {
  sim::Workload shown = w;
  if (!shown.user)
    shown.writes = true;
  return workload_fields(shown);
}

std::vector<std::string> workload_fields_not_applying(const sim::Workload &w) {
  const sim::WorkloadTraits traits = sim::workload_traits(w.kind);
  std::vector<std::string> omit;
  if (!traits.has_window)
    omit.insert(omit.end(), {"stencil_w", "stencil_h"});
  if (!traits.has_depth)
    omit.push_back("depth");
  if (!traits.has_boundary)
    omit.push_back("boundary");
  return omit;
}

Fields sim_config_fields(const sim::SimConfig &c) {
  Fields f = workload_fields(c.workload);
  f.push_back({"order", remap::to_string(c.order)});
  f.push_back(
      {"granularity", std::string(c.granularity == sim::Granularity::exact ? "exact" : "thread")});
  return f;
}

Fields gpu_metric_fields(const sim::GpuMetrics &m) {
  Fields f;
  for (const auto &[name, value] : m.named()) {
    const bool rate = name.size() > 4 && name.compare(name.size() - 4, 4, ".pct") == 0;
    f.push_back({name, rate ? Cell{value} : Cell{static_cast<int64_t>(value)}});
  }
  return f;
}

std::string device_help() {
  return std::string("device row (cbi devices), default ") + kDefaultDevice;
}

std::string block_help() {
  return "threads per block, 1..1024, default " + std::to_string(kDefaultBlockThreads) +
         " (or the device's largest block where that is smaller: tiny's 1)";
}

std::string option_for_field(const std::string &field) {
  static const std::pair<const char *, const char *> kFields[] = {
      {"workload.kind", "--workload"},
      {"workload.size", "--size"},
      {"workload.stencil", "--stencil"},
      {"workload.depth", "--depth"},
      {"workload.elem_bytes", "--type"}, // or its alias --elem-bytes (element_type_option)
      {"workload.boundary", "--boundary"},
      {"workload.writes", "--writes"},
      {"workload.block_order", "--block-order"},
      // A workload of your own reaches the command line only as a trace.
      {"workload.user", "--trace"},
      {"workload.instructions", "--trace"},
      {"workload.block_threads", "--trace"},
      {"order", "--order"},
      {"granularity", "--granularity"},
      {"gpu.block_threads", "--block"},
      {"gpu.observe_sm", "--sm"},
      {"gpu.sample_sms", "--sample-sms"},
      {"gpu.l1_bytes", "--device"}, // the device row's L1
      {"gpu.l1_ways", "--device"},
      {"tune.final_sms", "--final-sms"},
      {"tune.orders", "--order"}, // sim::tune's candidates (the tiled kernels': --block-order)
      {"kernel.size", "--size"},
      {"kernel.stencil", "--stencil"},
      {"kernel.depth", "--depth"},
      {"kernel.block", "--block"},
      {"kernel.type", "--type"},
      {"kernel.order", "--order"},
      {"kernel.block_order", "--block-order"},
      {"kernel.remap_math", "--remap-math"},
      {"kernel.min_samples", "--min-samples"},
      {"kernel.max_noise", "--max-noise"}};
  for (const auto &[f, option] : kFields)
    if (field == f)
      return option;
  if (field == "cache" || field.rfind("cache.", 0) == 0)
    return "--level"; // a cache level's field: --level names every one of them
  return field;
}

} // namespace cbi::config
