// The sweep engine behind `cbi sweep` and `cbi reproduce`: a grid declared as axes (nvbench style),
// expanded to points with stable ids, sliced into shards, run on the simulator and/or the GPU, and
// streamed as a tidy CSV (one row per point, flushed per row) that --resume continues.
#pragma once

#include "cbi/cli/output.hpp"
#include "cbi/error.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace cbi::sweep {

// The axes every grid has, in the canonical order of point keys and CSV columns.
// kernel: stencil | matmul (both backends) or another `cbi bench` kernel (gpu only);
// size: N or WxH; stencil: SxS; depth: matmul inner dimension (0 = width); type: half|float|double;
// block: threads per block (gpu only; the simulator replays one ordered stream);
// order: a thread order (remap::parse_order); cache: simulator cache preset or level specs joined
// by '/' (sim only).
const std::vector<std::string> &axis_names();

struct Axis {
  std::string name;
  std::vector<std::string> values;
};

struct Grid {
  std::string name = "custom";
  std::string description;
  std::vector<Axis> axes; // one per axis_names() entry, in that order
  bool metrics = false;   // gpu: read hardware counters (CUPTI) for every point

  // Replaces an axis's values (the command-line override). Throws UsageError for unknown axes.
  void set(const std::string &axis, std::vector<std::string> values);
  const std::vector<std::string> &values(const std::string &axis) const;
};

// A grid with every axis at its default: stencil 9x9 on 1024x1024 float, block 256, linear order,
// cache preset "l1-64k".
Grid default_grid();

// One point: a value per axis, in axis_names() order. Axes that do not apply to the kernel (depth for
// stencils, stencil for matmul) hold "-" so that equal configurations have equal keys.
struct Point {
  int64_t index = 0; // position in the expanded (unsharded) grid
  std::vector<std::string> values;
  const std::string &get(const std::string &axis) const;
  std::string key() const; // "kernel=stencil size=4096 ..." (canonical, stable)
  std::string id() const;  // 16 hex digits: FNV-1a 64 of key()
};

// Cartesian product of the axes, last axis fastest, duplicates (after "-" canonicalisation)
// dropped. Validates every value (UsageError naming the axis's option).
std::vector<Point> expand(const Grid &g);

struct Shard {
  int64_t index = 0, count = 1; // shard `index` of `count`, 0-based
  bool contains(const Point &p) const { return p.index % count == index; }
};
// "k/n" with 0 <= k < n; round-robin over the point index so every shard gets large and small sizes.
Shard parse_shard(const std::string &text, const std::string &option = "--shard");

// Simulator cache presets ("l1-64k", ...) and their level specs, for help and reports.
std::vector<std::pair<std::string, std::string>> cache_presets();

// The CSV schema: point identity, axis values, simulator columns (sim_*) and GPU columns (gpu_*).
const std::vector<std::string> &columns();

// Thrown when the gpu backend cannot run (no device, or a build without the CUDA kernels); the CLI
// boundary turns it into exit code 3.
class GpuUnavailable : public NoDeviceError {
public:
  using NoDeviceError::NoDeviceError;
};

struct GpuSettings {
  bool check = true;
  int min_samples = 10;
  double max_seconds = 0.25;
  double max_noise = 0.01;
  bool cold = false;
};

struct Backends {
  bool sim = true;
  bool gpu = false;
};
Backends parse_backends(const std::string &text, const std::string &option = "--backend");

struct RunOptions {
  Backends backends;
  GpuSettings gpu;
  Shard shard;
  std::string output = "-"; // CSV path, "-" = stdout
  std::string json;         // JSON path written at the end ("" = none)
  bool resume = false;
  int jobs = 0; // simulator threads; 0 = all cores
  bool progress = false; // bar with ETA on stderr (also on whenever stderr is a terminal)
  std::vector<std::pair<std::string, std::string>> meta; // command, date, ... for the JSON
};

struct RunSummary {
  int64_t points = 0;   // in this shard
  int64_t skipped = 0;  // already in the CSV (--resume)
  int64_t measured = 0;
  std::string device;   // gpu device name, or "" for sim only
  double seconds = 0;
};

// Runs the shard of `g` and streams rows to opts.output. Throws UsageError for bad values before
// anything is written, GpuUnavailable when the gpu backend cannot run.
RunSummary run(const Grid &g, const RunOptions &opts);

// Reads a sweep CSV (ours: header must equal columns()). Cells that parse as numbers become
// numbers. A trailing partial line (an interrupted write) is ignored.
cli::Table read_csv(const std::string &path);

// Joins shard CSVs: same header required, rows ordered by point index, duplicate point ids kept
// once. Returns the merged table.
cli::Table merge(const std::vector<std::string> &paths);

// The GPU side, implemented in sweep_gpu.cpp when the kernels library is built.
struct GpuMeasurement {
  double time_ms = 0, noise = 0, gbs = 0, rel_error = 0;
  int64_t samples = 0;
  bool check_ran = false, check_passed = false;
  bool metrics = false;
  double l1_hit_pct = 0, l2_hit_pct = 0, l2_to_l1_bytes = 0, dram_read_bytes = 0;
};
class GpuBackend {
public:
  virtual ~GpuBackend() = default;
  virtual std::string device() const = 0;
  virtual GpuMeasurement measure(const Point &p, bool metrics) = 0;
};
// Throws GpuUnavailable when there is no device or the build lacks the kernels.
std::unique_ptr<GpuBackend> make_gpu_backend(const GpuSettings &s);
bool gpu_backend_built();

} // namespace cbi::sweep
