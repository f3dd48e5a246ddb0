// The sweep's runner: a shard of a grid's points on the simulator (a pool of worker threads, one
// job per distinct simulation) and/or the GPU (the calling thread, one long-lived harness), each
// point's row streamed to the store as soon as it is measured.
#pragma once

#include "cbi/cli/output.hpp"
#include "cbi/error.hpp"
#include "grid.hpp"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cbi::sweep {

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
  // The simulator side is the GPU model (simulate --model gpu: the block axis and the device count)
  // instead of the sequential replay; its predictions fill the *_pred columns.
  bool model = false;
};
// "sim", "gpu", "sim,gpu" (the sequential replay beside the hardware); "model" (the GPU model) and
// "sim+gpu" = "model+gpu" (the GPU model beside the hardware, issue 10 §3).
Backends parse_backends(const std::string &text, const std::string &option = "--backend");
// The CSV's backend column: "sim", "gpu", "sim+gpu" (sequential beside the hardware), "model",
// "model+gpu".
std::string backend_name(const Backends &b);

struct RunOptions {
  Backends backends;
  GpuSettings gpu;
  Shard shard;
  std::string output = "-"; // CSV path, "-" = stdout
  std::string json;         // JSON path written at the end ("" = none)
  bool resume = false;
  int jobs = 0;          // simulator threads; 0 = all cores
  bool progress = false; // bar with ETA on stderr (also on whenever stderr is a terminal, and
                         // for a sweep of over 2^30 simulated accesses)
  std::vector<std::pair<std::string, std::string>> meta; // command, date, ... for the JSON
};

struct RunSummary {
  int64_t points = 0;  // in this shard
  int64_t skipped = 0; // already in the CSV (--resume)
  int64_t measured = 0;
  std::string device; // gpu device name, or "" for sim only
  double seconds = 0;
  bool interrupted = false;                 // SIGINT stopped it; the rows measured so far are saved
  std::vector<std::vector<cli::Cell>> rows; // the rows this run wrote, in order
};

// Checks every point as the run would (the simulator's configuration for the sim backend, the
// kernels' for the gpu backend) and returns the simulator configurations. Throws UsageError naming
// the option of the first bad value. `cbi sweep --dry-run` and run() share it.
std::vector<std::optional<sim::SimConfig>> validate(const std::vector<Point> &points,
                                                    const Backends &b);

// The cost of a point in simulated accesses (threads x accesses per thread), the ETA's weight.
double work(const Point &p);

// Throws run()'s UsageError (naming --resume) where opts.output holds rows that this run cannot
// continue: another backend's, grid's or shard's. Reads only; run() checks it too.
void check_resume(const Grid &g, const RunOptions &opts);

// Runs the shard of `g` and streams rows to opts.output. Throws UsageError for bad values before
// anything is written, GpuUnavailable when the gpu backend cannot run. SIGINT during the run stops
// it after the current row (summary.interrupted); a second SIGINT kills.
RunSummary run(const Grid &g, const RunOptions &opts);

// The GPU side, implemented in sweep_gpu.cpp when the kernels library is built.
struct GpuMeasurement {
  double time_ms = 0, noise = 0, gbs = 0, rel_error = 0;
  int64_t samples = 0;
  bool check_ran = false, check_passed = false;
  bool metrics = false;
  double l1_hit_pct = 0, l2_hit_pct = 0, l2_to_l1_bytes = 0, dram_read_bytes = 0;
  // In sectors, as ncu counts them: l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,
  // ..._lookup_miss.sum and lts__t_sectors_srcunit_tex_op_read.sum.
  double l1_hit_sectors = 0, l1_miss_sectors = 0, l2_to_l1_sectors = 0;
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
