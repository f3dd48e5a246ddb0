// The typed experiment point and axes: spellings round-trip, axes that do not apply to a kernel
// are absent (not placeholder strings), point keys are stable, and the point's simulator and
// kernel configurations carry its values.
#include "cbi/config/point_options.hpp"
#include "cbi/sim/workloads.hpp"
#include "grids.hpp"
#include "sweep.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <tuple>

namespace {

using namespace cbi;
using namespace cbi::sweep;

TEST(Point, AxesThatDoNotApplyAreAbsent) {
  Grid g = default_grid();
  g.set("kernel", {"matmul", "cublas", "stencil-2d"});
  g.set("order", {"tile:16x4"});
  g.set("depth", {"64"});
  const std::vector<Point> points = expand(g);
  ASSERT_EQ(points.size(), 3u);
  EXPECT_EQ(points[0].kernel, kernels::KernelKind::matmul);
  EXPECT_FALSE(points[0].stencil);
  EXPECT_EQ(points[0].depth, std::optional<int64_t>(64));
  ASSERT_TRUE(points[0].order);
  EXPECT_EQ(remap::to_string(*points[0].order), "tile:16x4");
  EXPECT_FALSE(points[1].order) << "cublas takes no order";
  EXPECT_FALSE(points[2].depth) << "stencil-2d has no depth";
  EXPECT_FALSE(points[2].order);
  ASSERT_TRUE(points[2].stencil);
  EXPECT_EQ(points[2].stencil->w, 9);
}

TEST(Point, KeyIsCanonicalAndStable) {
  Grid g = default_grid();
  g.set("size", {"64x32", "128x128"});
  g.set("order", {"naive", "column:32"});
  const std::vector<Point> points = expand(g);
  ASSERT_EQ(points.size(), 4u);
  // The cache is keyed by its levels, not by the preset's name.
  EXPECT_EQ(points[0].key(), "kernel=stencil size=64x32 stencil=9x9 depth=- type=float block=256 "
                             "order=linear cache=size=64KiB,line=128,sector=32");
  EXPECT_EQ(points[3].key(), "kernel=stencil size=128 stencil=9x9 depth=- type=float block=256 "
                             "order=column:32 cache=size=64KiB,line=128,sector=32");
  // FNV-1a 64 of the key, as the CSVs of earlier sweeps carry it (--resume depends on it).
  EXPECT_EQ(points[0].id().size(), 16u);
  EXPECT_NE(points[0].id(), points[1].id());
}

TEST(Point, IdDerivesFromTheConfigurationNotThePresetName) {
  Grid named = default_grid(), spelled = default_grid(), other = default_grid();
  named.set("cache", {"l1-64k"});
  spelled.set("cache", {"size=64KiB,line=128,sector=32"});
  other.set("cache", {"l1-256k"});
  EXPECT_EQ(expand(named)[0].id(), expand(spelled)[0].id());
  EXPECT_EQ(fingerprint(named), fingerprint(spelled));
  EXPECT_NE(expand(named)[0].id(), expand(other)[0].id());
  // table3 means 24 lines for a stencil and 32 for matmul (Tables 3.1 and 3.2).
  Grid t = default_grid();
  t.set("cache", {"table3"});
  t.set("kernel", {"stencil", "matmul"});
  const std::vector<Point> p = expand(t);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(cache_levels(p[0]), "lines=24");
  EXPECT_EQ(cache_levels(p[1]), "lines=32");
}

TEST(Point, FingerprintChangesWithAnyAxisValueOrCounters) {
  Grid g = default_grid();
  const std::string base = fingerprint(g);
  EXPECT_EQ(fingerprint(g), base);
  Grid more = g;
  more.set("order", {"linear", "column:32"});
  EXPECT_NE(fingerprint(more), base);
  Grid swapped = more;
  swapped.set("order", {"column:32", "linear"}); // the same points, other indices
  EXPECT_NE(fingerprint(swapped), fingerprint(more));
  Grid metrics = g;
  metrics.metrics = true;
  EXPECT_NE(fingerprint(metrics), base);
}

TEST(Point, EqualPointsAfterDroppingAxesAreKeptOnce) {
  Grid g = default_grid();
  g.set("kernel", {"cublas"});
  g.set("order", {"linear", "column:32", "column:64"}); // cublas takes no order
  g.set("stencil", {"3x3", "9x9"});                     // nor a stencil
  EXPECT_EQ(expand(g).size(), 1u);
}

TEST(Point, BadValuesNameTheAxisOption) {
  Grid g = default_grid();
  for (const auto &[axis, value] :
       std::vector<std::pair<std::string, std::string>>{{"stencil", "4x4"},
                                                        {"block", "0"},
                                                        {"order", "spiral:3"},
                                                        {"type", "int"},
                                                        {"kernel", "fft"},
                                                        {"size", "0"}}) {
    try {
      g.set(axis, {value});
      ADD_FAILURE() << axis << "=" << value << " was accepted";
    } catch (const UsageError &e) {
      EXPECT_EQ(e.option(), "--" + axis);
    }
  }
  EXPECT_THROW(g.set("colour", {"red"}), UsageError);
}

TEST(Point, ConfigurationsCarryThePointsValues) {
  Grid g = default_grid();
  g.set("kernel", {"matmul"});
  g.set("size", {"128x64"});
  g.set("type", {"double"});
  g.set("block", {"512"});
  g.set("order", {"column:8"});
  g.set("cache", {"table3"});
  const Point p = expand(g).at(0);
  const std::optional<sim::SimConfig> s = sim_config(p);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->workload.kind, sim::kind_of<sim::MatmulWorkload>());
  EXPECT_EQ(s->workload.width, 128);
  EXPECT_EQ(s->workload.height, 64);
  EXPECT_EQ(s->workload.depth, 128) << "depth 0 means I_w";
  EXPECT_EQ(s->workload.elem_bytes, 8);
  ASSERT_EQ(s->levels.size(), 1u);
  EXPECT_EQ(s->levels[0].capacity_lines, 32) << "Table 3.2's cache for matmul";
  EXPECT_EQ(remap::to_string(s->order), "column:8");
  const kernels::BenchConfig b = bench_config(p);
  EXPECT_EQ(b.kernel, kernels::KernelKind::matmul);
  EXPECT_EQ(b.block_threads, 512);
  EXPECT_EQ(b.type, kernels::ElemType::float64);
  EXPECT_EQ(remap::to_string(b.order), "column:8");

  // The tiled kernels are simulated (their tile loads, issue 20 §3) with the point's block order.
  g.set("kernel", {"sgemm-tiled"});
  g.set("type", {"float"});
  g.set("block_order", {"column:4"});
  const std::optional<sim::SimConfig> tiled = sim_config(expand(g).at(0));
  ASSERT_TRUE(tiled) << "the simulator models sgemm-tiled's tile loads";
  EXPECT_EQ(tiled->workload.kind, sim::kind_of<sim::SgemmTiledWorkload>());
  EXPECT_EQ(remap::to_string(tiled->workload.block_order), "column:4");
  EXPECT_EQ(remap::to_string(gpu_config(expand(g).at(0)).workload.block_order), "column:4");
  g.set("kernel", {"cublas"});
  EXPECT_FALSE(sim_config(expand(g).at(0))) << "the simulator does not model cuBLAS";
}

TEST(Point, EveryThesisGridPointIsARunnableKernelConfiguration) {
  // What the GPU backend does before it touches the device: bench_config + kernels::validate.
  for (const auto &[name, what] : grid_list())
    for (const char *suffix : {"", "-half", "-double"}) {
      if (name == "fig5.1b" && std::string(suffix) == "-half")
        continue; // runnable too, kept short
      for (const Point &p : expand(thesis_grid(name + suffix))) {
        const kernels::BenchConfig c = bench_config(p);
        EXPECT_NO_THROW(kernels::validate(c)) << name << suffix << " " << p.key();
        EXPECT_EQ(c.width, p.size.w);
        EXPECT_EQ(c.block_threads, p.block_threads);
      }
    }
  // The last axis varies fastest: point 1 is the second order (column:4) at the first block.
  const Point p = expand(thesis_grid("fig5.1a")).at(1);
  EXPECT_EQ(bench_config(p).describe(), "stencil 9x9 on 4096x4096 float, order column:4, block 32");
}

// Parses a command line against simulate's (or bench's) option groups, as the commands do.
struct Args {
  cli::po::variables_map vm;
  explicit Args(const std::string &line, bool bench = false) {
    cli::po::options_description desc;
    if (bench) {
      desc.add_options()("kernel", cli::list_value(), "")("order", cli::list_value(), "")(
          "block-order", cli::list_value(), "")("remap-math", cli::list_value(), "")(
          "type", cli::list_value(), "")("block", cli::po::value<std::string>(), "")(
          "size", cli::po::value<std::string>(), "")("stencil", cli::po::value<std::string>(), "")(
          "depth", cli::po::value<std::string>(), "")("metrics", cli::po::bool_switch(), "")(
          "cold", cli::po::bool_switch(), "")("no-check", cli::po::bool_switch(), "")(
          "no-time", cli::po::bool_switch(), "")("min-samples", cli::po::value<std::string>(), "")(
          "max-noise", cli::po::value<std::string>(),
          "")("max-seconds", cli::po::value<std::string>(), "")("seed",
                                                                cli::po::value<std::string>(), "");
    } else {
      config::add_workload_options(desc);
      config::add_order_options(desc);
      config::add_cache_options(desc);
      desc.add_options()("device", cli::po::value<std::string>(),
                         "")("block", cli::po::value<std::string>(),
                             "")("classify-misses", cli::po::bool_switch(),
                                 "")("sample-sms", cli::po::value<std::string>(), "");
    }
    std::vector<std::string> words = {"cbi"};
    std::istringstream in(line);
    for (std::string w; in >> w;)
      words.push_back(w);
    std::vector<char *> argv;
    for (std::string &w : words)
      argv.push_back(w.data());
    cli::parse_args(static_cast<int>(argv.size()), argv.data(), desc, vm, "", "");
  }
};

// Every option `cbi simulate` takes reaches the simulator through the one route, options ->
// point_from -> sim_config: the configuration carries each value as given, and the defaults
// (Table 3.1's 24 lines, Table 3.2's 32, lines of 4 elements) where none is.
// Each workload names the CUDA kernel that runs it (WorkloadTraits::kernel, in its own header): a
// kernel of that name exists and a point of that kernel simulates that workload; a kernel the
// simulator does not model simulates none.
TEST(Point, EachWorkloadNamesTheKernelThatRunsIt) {
  int with_kernel = 0;
  sim::for_each_workload([&](auto tag) {
    using W = typename decltype(tag)::type;
    const char *kernel = W::kernel;
    if (!kernel)
      return;
    ++with_kernel;
    Point p;
    p.kernel = kernels::parse_kernel(kernel);
    EXPECT_EQ(sim_workload(p), std::optional<sim::WorkloadKind>(sim::kind_of<W>())) << W::name;
  });
  EXPECT_EQ(with_kernel, 4); // stencil, matmul, sgemm-tiled, stencil-smem; not stencil3d
  EXPECT_EQ(sim::kernel_workload_names(), "stencil, matmul, sgemm-tiled, stencil-smem");
  for (kernels::KernelKind k : {kernels::KernelKind::cublas, kernels::KernelKind::stencil_2d})
    EXPECT_FALSE(simulated(k)) << kernels::to_string(k);
}

TEST(PointOptions, PointFromCarriesEveryOption) {
  const struct {
    const char *args, *order, *granularity, *levels;
    bool classify;
  } cases[] = {
      {"", "linear", "exact", "lines=24,line=16,ways=0,policy=lru", false},
      {"--order column:8", "column:8", "exact", "lines=24,line=16,ways=0,policy=lru", false},
      {"--workload matmul --size 32x16 --depth 8 --order tile:4x2", "tile:4x2", "exact",
       "lines=32,line=16,ways=0,policy=lru", false},
      {"--workload matmul --size 24 --elem-bytes 8 --lines 64", "linear", "exact",
       "lines=64,line=32,ways=0,policy=lru", false},
      {"--workload stencil3d --size 8x6x5 --order column:4", "column:4", "exact",
       "lines=24,line=16,ways=0,policy=lru", false},
      {"--elem-bytes 2 --boundary none --writes --granularity thread", "linear", "thread",
       "lines=24,line=8,ways=0,policy=lru", false},
      {"--writes --classify-misses --ways 4", "linear", "exact",
       "lines=24,line=16,ways=4,policy=lru", true},
      {"--line-bytes 64 --cache-bytes 4KiB --ways 4 --policy fifo --sector-bytes 32", "linear",
       "exact", "lines=64,line=64,ways=4,policy=fifo,sector=32", false},
      {"--policy random --seed 7 --lines 12", "linear", "exact",
       "lines=12,line=16,ways=0,policy=random,seed=7", false},
      {"--size 64 --level size=2KiB,line=64,ways=2,sector=16 --level lines=256,line=128,"
       "policy=volta,seed=3",
       "linear", "exact",
       "lines=32,line=64,ways=2,policy=lru,sector=16/lines=256,line=128,ways=0,policy=volta,"
       "seed=3",
       false}};
  for (const auto &c : cases) {
    const Args a(c.args);
    const Point p = point_from(a.vm, {});
    const std::optional<sim::SimConfig> s = sim_config(p);
    ASSERT_TRUE(s) << c.args;
    EXPECT_EQ(remap::to_string(s->order), c.order) << c.args;
    EXPECT_EQ(s->granularity == sim::Granularity::thread ? "thread" : "exact",
              std::string(c.granularity))
        << c.args;
    std::string levels;
    for (const sim::CacheConfig &l : s->levels)
      levels += (levels.empty() ? "" : "/") + config::level_spec(l);
    EXPECT_EQ(levels, c.levels) << c.args;
    EXPECT_EQ(s->classify_misses, c.classify) << c.args;
    EXPECT_FALSE(p.device) << "the sequential model";
  }
  const sim::SimConfig w = *sim_config(
      point_from(Args("--workload matmul --size 32x16 --depth 8 --elem-bytes 2 --writes").vm, {}));
  EXPECT_EQ(w.workload.kind, sim::kind_of<sim::MatmulWorkload>());
  EXPECT_EQ(std::tie(w.workload.width, w.workload.height, w.workload.depth, w.workload.elem_bytes),
            std::make_tuple(int64_t{32}, int64_t{16}, int64_t{8}, 2));
  EXPECT_TRUE(w.workload.writes);
}

// One table says which options apply to which engine; point_from refuses the others, naming the
// option, before it parses anything.
TEST(PointOptions, OptionsThatDoNotApplyToTheEngineAreRefused) {
  const struct {
    const char *args;
    Engine engine;
    const char *option;
  } cases[] = {{"--cache-bytes 1M", Engine::gpu_model, "--cache-bytes"},
               {"--level lines=8", Engine::gpu_model, "--level"},
               {"--granularity thread", Engine::gpu_model, "--granularity"},
               {"--classify-misses", Engine::gpu_model, "--classify-misses"},
               {"--writes", Engine::gpu_model, "--writes"},
               {"--device v100", Engine::sequential, "--device"},
               {"--block 128", Engine::sequential, "--block"},
               {"--sample-sms 4", Engine::sequential, "--sample-sms"}};
  for (const auto &c : cases) {
    try {
      point_from(Args(c.args).vm, {c.engine});
      ADD_FAILURE() << c.args << " was accepted";
    } catch (const UsageError &e) {
      EXPECT_EQ(e.option(), c.option) << c.args;
      EXPECT_NE(std::string(e.what()).find("applies to --model"), std::string::npos) << e.what();
    }
  }
  EXPECT_NO_THROW(point_from(Args("--classify-misses --ways 4").vm, {Engine::sequential}));
  EXPECT_NO_THROW(point_from(Args("--device v100 --block 128").vm, {Engine::gpu_model}));
}

// A workload option that the chosen workload has no use for is refused, naming the option and
// the workloads that take it, never ignored (the window of a matmul, the depth of a stencil).
TEST(PointOptions, WorkloadOptionsThatDoNotApplyAreRefused) {
  const struct {
    const char *args, *option, *allowed;
  } cases[] = {
      {"--workload matmul --stencil 3x3", "--stencil", "--workload stencil or stencil-smem"},
      {"--workload stencil --depth 8", "--depth", "--workload matmul, stencil3d or sgemm-tiled"},
      {"--workload matmul --boundary none", "--boundary", "--workload stencil"},
      {"--workload stencil3d --size 8x6x5 --stencil 3x3", "--stencil", "stencil-smem"},
      {"--kernel sgemm-tiled --size 256 --boundary clamp", "--boundary", "--workload stencil"},
      {"--kernel matmul --block-order column:4", "--block-order", "sgemm-tiled or stencil-smem"}};
  for (const auto &c : cases) {
    try {
      point_from(Args(c.args).vm, {});
      ADD_FAILURE() << c.args << " was accepted";
    } catch (const UsageError &e) {
      EXPECT_EQ(e.option(), c.option) << c.args;
      EXPECT_NE(std::string(e.what()).find("allowed: leave it out, or "), std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find(c.allowed), std::string::npos) << e.what();
    }
  }
  for (const char *fine :
       {"--workload stencil --stencil 3x3 --boundary none", "--workload matmul --depth 8",
        "--kernel stencil-smem --stencil 5x5", "--workload stencil3d --size 8x6x5"})
    EXPECT_NO_THROW(point_from(Args(fine).vm, {})) << fine;
  // cbi bench takes kernel lists: a window or depth is refused only when no kernel has one.
  for (const auto &[args, option] :
       {std::pair<const char *, const char *>{"--kernel matmul,cublas --stencil 3x3", "--stencil"},
        {"--kernel stencil,stencil-smem --depth 64", "--depth"}}) {
    try {
      bench_points(Args(args, true).vm);
      ADD_FAILURE() << args << " was accepted";
    } catch (const UsageError &e) {
      EXPECT_EQ(e.option(), option) << args;
    }
  }
  EXPECT_NO_THROW(bench_points(Args("--kernel matmul,stencil --stencil 3x3 --depth 64", true).vm));
}

TEST(PointOptions, SimulatePointFieldsAreTypedAndAbsentWhereTheyDoNotApply) {
  const Point m = point_from(Args("--workload matmul --size 32 --depth 8").vm, {});
  EXPECT_EQ(m.kernel, kernels::KernelKind::matmul);
  EXPECT_FALSE(m.workload) << "matmul is the kernel's own workload";
  EXPECT_FALSE(m.stencil);
  EXPECT_EQ(m.depth, std::optional<int64_t>(8));
  const Point s3 = point_from(Args("--workload stencil3d --size 8x6x5").vm, {});
  EXPECT_EQ(s3.workload, std::optional<sim::WorkloadKind>(sim::kind_of<sim::Stencil3dWorkload>()));
  EXPECT_EQ(s3.size, (Extent{8, 6}));
  EXPECT_EQ(s3.depth, std::optional<int64_t>(5)) << "the planes";
  EXPECT_NE(s3.key().find(" workload=stencil3d"), std::string::npos) << s3.key();
  EXPECT_THROW(bench_config(s3), UsageError) << "stencil3d has no CUDA kernel";
  const Point d = point_from(Args("--elem-bytes 8 --boundary none --writes").vm, {});
  EXPECT_EQ(d.type, kernels::ElemType::float64);
  EXPECT_EQ(d.boundary, sim::Boundary::none);
  EXPECT_TRUE(d.writes);
  EXPECT_FALSE(d.depth) << "a 2-D stencil has no depth";
  // Fields no axis spans enter the key only off their defaults, so grid ids stay as recorded.
  const Point plain = point_from(Args("").vm, {});
  EXPECT_EQ(plain.key().find("boundary"), std::string::npos) << plain.key();
  EXPECT_NE(d.key().find(" boundary=none writes=true"), std::string::npos) << d.key();
  EXPECT_NE(d.id(), plain.id());
}

TEST(PointOptions, GpuModelTakesDeviceAndBlockFromThePoint) {
  const Args a(
      "--workload matmul --size 64 --order column:32 --device v100 --block 128 --sample-sms 8");
  const Point p = point_from(a.vm, {Engine::gpu_model});
  EXPECT_EQ(p.device, std::optional<std::string>("v100"));
  const sim::GpuConfig g = gpu_config(p);
  EXPECT_EQ(g.device.name, "v100");
  EXPECT_EQ(g.block_threads, 128);
  EXPECT_EQ(g.sample_sms, 8);
  EXPECT_NE(p.key().find(" device=v100 sample_sms=8"), std::string::npos) << p.key();
  EXPECT_EQ(remap::to_string(g.order), "column:32");
  EXPECT_EQ(g.workload.kind, sim::kind_of<sim::MatmulWorkload>());
  EXPECT_EQ(std::tie(g.workload.width, g.workload.height),
            std::make_tuple(int64_t{64}, int64_t{64}));
  EXPECT_EQ(gpu_config(point_from(Args("").vm, {Engine::gpu_model})).device.name, "h100");
  try {
    point_from(Args("--device nosuch").vm, {Engine::gpu_model});
    ADD_FAILURE() << "an unknown device was accepted";
  } catch (const UsageError &e) {
    EXPECT_EQ(e.option(), "--device");
  }
}

TEST(PointOptions, LevelSpecReadsBackAsTheSameLevel) {
  sim::Workload w;
  for (int64_t line : {16, 64, 128})
    for (int64_t ways : {0, 1, 4})
      for (int64_t sector : {0, 16})
        for (sim::Policy policy : {sim::Policy::lru, sim::Policy::fifo, sim::Policy::volta})
          for (uint64_t seed : {1u, 9u}) {
            sim::CacheConfig c;
            c.line_bytes = line;
            c.capacity_lines = 64;
            c.ways = ways;
            c.sector_bytes = sector;
            c.policy = policy;
            c.seed = seed;
            const std::string spec = config::level_spec(c);
            const sim::CacheConfig r = config::parse_level(spec, w);
            // Only the policies that draw random numbers spell (and take) a seed.
            const uint64_t spelled_seed = sim::policy_uses_seed(policy) ? seed : 1;
            EXPECT_EQ(
                std::tie(r.line_bytes, r.capacity_lines, r.ways, r.sector_bytes, r.seed),
                std::tie(c.line_bytes, c.capacity_lines, c.ways, c.sector_bytes, spelled_seed))
                << spec;
            EXPECT_EQ(r.policy, c.policy) << spec;
          }
}

// bench's options become one point per combination; the kernels' configuration comes from it.
TEST(PointOptions, BenchPointsCrossTheListsWhereTheyApply) {
  const Args a("--kernel stencil,matmul,stencil-2d --order linear,column:32 --type float,double "
               "--block 16x8 --size 512 --stencil 5x5",
               true);
  const BenchPoints b = bench_points(a.vm);
  // stencil and matmul: 2 orders x 2 types; stencil-2d: 2 types.
  ASSERT_EQ(b.points.size(), 10u);
  for (const Point &p : b.points) {
    const kernels::BenchConfig c = bench_config(p);
    EXPECT_EQ(c.width, 512);
    EXPECT_EQ(p.order.has_value(), kernels::is_remapped(p.kernel)) << p.key();
    EXPECT_EQ(p.remap_math.has_value(), kernels::is_remapped(p.kernel)) << p.key();
    EXPECT_EQ(p.depth.has_value(), !kernels::is_stencil(p.kernel)) << p.key();
    if (p.kernel == kernels::KernelKind::stencil_2d) {
      EXPECT_EQ(c.block_x, 16);
      EXPECT_EQ(c.block_threads, 128);
    }
    if (p.kernel == kernels::KernelKind::stencil) {
      EXPECT_EQ(c.block_threads, 128) << "WxH gives 1-D kernels W*H threads";
    }
    if (p.kernel == kernels::KernelKind::matmul) {
      EXPECT_FALSE(p.stencil);
    } else {
      EXPECT_EQ(c.stencil_w, 5);
    }
  }
  // An order no listed kernel takes stays on the point, and validate refuses it.
  const BenchPoints wrong = [] {
    try {
      return bench_points(Args("--kernel cublas --order column:4", true).vm);
    } catch (const UsageError &e) {
      EXPECT_EQ(e.option(), "kernel.order");
      return BenchPoints{};
    }
  }();
  EXPECT_TRUE(wrong.points.empty());
  // A type a listed kernel lacks is skipped with a note.
  const BenchPoints half = bench_points(Args("--kernel sgemm-tiled,matmul --type half", true).vm);
  ASSERT_EQ(half.points.size(), 1u);
  EXPECT_EQ(half.points[0].kernel, kernels::KernelKind::matmul);
  ASSERT_EQ(half.notes.size(), 1u);
  // The measurement settings stay off the point and are applied to its configuration.
  const Args m("--min-samples 5 --max-noise 0.1 --cold --no-check --seed 3", true);
  const kernels::BenchConfig c =
      with_measurement(bench_config(bench_points(m.vm).points.at(0)), measurement_from(m.vm));
  EXPECT_EQ(c.min_samples, 5);
  EXPECT_EQ(c.max_noise, 0.1);
  EXPECT_TRUE(c.cold);
  EXPECT_FALSE(c.check);
  EXPECT_EQ(c.seed, 3u);
}

// --no-time takes no timed samples: the sampling settings were ignored with it, and --no-check
// without --metrics left bench nothing to run; each is refused naming itself.
TEST(PointOptions, BenchWithoutTimingRefusesTheSamplingSettings) {
  for (const char *option : {"--cold", "--min-samples 5", "--max-noise 0.1", "--max-seconds 2"}) {
    const std::string line = std::string("--no-time ") + option;
    try {
      measurement_from(Args(line, true).vm);
      ADD_FAILURE() << line << " was accepted";
    } catch (const UsageError &e) {
      EXPECT_EQ(e.option(), std::string(option).substr(0, std::string(option).find(' '))) << line;
      EXPECT_NE(std::string(e.what()).find("--no-time takes none"), std::string::npos) << e.what();
    }
  }
  try {
    measurement_from(Args("--no-time --no-check", true).vm);
    ADD_FAILURE() << "--no-time --no-check was accepted";
  } catch (const UsageError &e) {
    EXPECT_EQ(e.option(), "--no-time");
  }
  EXPECT_FALSE(measurement_from(Args("--no-time", true).vm).time);
  EXPECT_FALSE(measurement_from(Args("--no-time --no-check --metrics", true).vm).check);
  EXPECT_TRUE(measurement_from(Args("--cold --min-samples 5", true).vm).cold);
}

} // namespace
