#include "runner.hpp"

#include "cbi/cli/command.hpp"
#include "cbi/cli/output.hpp"
#include "cbi/cli/progress.hpp"
#include "cbi/config/options.hpp"
#include "cbi/parse.hpp"
#include "store.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <signal.h>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace cbi::sweep {

namespace {

// Equal for points whose simulations are equal: the block size and the GPU-only settings do not
// change the sequential simulation (the simulator replays one ordered stream); the GPU model's
// depends on the block and the device too.
std::string sim_key(const Point &p, bool model) {
  std::string k;
  for (const AxisDef &d : axis_defs())
    if (d.simulated)
      k += std::string(d.name) + "=" + axis_text(d, p).value_or("") + " ";
  if (model)
    k += "block=" + std::to_string(p.block_threads) +
         " device=" + p.device.value_or(config::kDefaultDevice);
  return k;
}

// One simulation: the sequential replay (config) or the GPU model (gpu_config).
struct SimSlot {
  std::optional<sim::SimConfig> config;
  std::optional<sim::GpuConfig> gpu_config;
  std::optional<sim::SimResult> result;
  std::optional<sim::GpuResult> gpu_result;
  std::exception_ptr error;
  bool done = false;
};

// Simulator work: one job per distinct simulated configuration, run by worker threads in point
// order so results arrive roughly when the writer needs them.
class SimPool {
public:
  SimPool(std::vector<SimSlot> slots, unsigned jobs) : m_slots(std::move(slots)) {
    jobs = std::min<unsigned>(jobs, static_cast<unsigned>(m_slots.size()));
    for (unsigned t = 0; t < jobs; ++t)
      m_workers.emplace_back([this] { work(); });
  }
  ~SimPool() {
    m_cancel = true;
    for (std::thread &t : m_workers)
      t.join();
  }
  // Waits for slot `s`; rethrows its error.
  const SimSlot &result(std::size_t s) {
    std::unique_lock<std::mutex> lock(m_mu);
    m_cv.wait(lock, [&] { return m_slots[s].done; });
    if (m_slots[s].error)
      std::rethrow_exception(m_slots[s].error);
    return m_slots[s];
  }

private:
  void work() {
    for (std::size_t s; !m_cancel && (s = m_next++) < m_slots.size();) {
      std::optional<sim::SimResult> r;
      std::optional<sim::GpuResult> g;
      std::exception_ptr err;
      try {
        if (m_slots[s].gpu_config)
          g = sim::simulate_gpu(*m_slots[s].gpu_config);
        else
          r = sim::simulate(*m_slots[s].config);
      } catch (...) {
        err = std::current_exception();
      }
      std::lock_guard<std::mutex> lock(m_mu);
      m_slots[s].result = std::move(r);
      m_slots[s].gpu_result = std::move(g);
      m_slots[s].error = err;
      m_slots[s].done = true;
      m_cv.notify_all();
    }
  }

  std::vector<SimSlot> m_slots;
  std::mutex m_mu;
  std::condition_variable m_cv;
  std::atomic<std::size_t> m_next{0};
  std::atomic<bool> m_cancel{false};
  std::vector<std::thread> m_workers;
};

// Set by SIGINT while a sweep runs: the runner stops after the row it is writing.
std::atomic<bool> g_interrupted{false};

extern "C" void on_sigint(int) { g_interrupted = true; }

// SIGINT stops the sweep between rows while this lives; a second SIGINT kills as usual.
class InterruptGuard {
public:
  InterruptGuard() {
    g_interrupted = false;
    struct sigaction sa {};
    sa.sa_handler = on_sigint;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &m_old);
  }
  ~InterruptGuard() { sigaction(SIGINT, &m_old, nullptr); }

private:
  struct sigaction m_old {};
};

// The model columns (store.hpp's model_columns): the GPU model's device, time and counts where it
// ran, the hardware's ncu-named counters where they were read; empty otherwise.
void model_cells(std::vector<cli::Cell> &row, const std::optional<sim::GpuResult> &r,
                 const Point &p, const GpuMeasurement *m) {
  const cli::Cell blank = std::string();
  if (r) {
    row.insert(row.end(),
               {p.device.value_or(config::kDefaultDevice), r->time.predicted_ms, r->time.bound});
    for (auto &[name, value] : config::gpu_metric_fields(r->metrics))
      row.push_back(value);
  } else {
    row.insert(row.end(), 3 + sim::GpuMetrics{}.named().size(), blank);
  }
  if (m && m->metrics) {
    // ncu's names, as store.cpp's model_columns lists them.
    row.insert(row.end(),
               {m->l1_hit_sectors + m->l1_miss_sectors, m->l1_hit_sectors, m->l1_miss_sectors,
                m->l1_hit_pct, m->l2_to_l1_sectors, m->l2_hit_pct, m->dram_read_bytes});
  } else {
    row.insert(row.end(), 7, blank);
  }
}

// `jobs` simulations run at once: the largest `jobs` of them must fit in memory together.
void check_concurrent_memory(const std::vector<SimSlot> &slots, unsigned jobs) {
  std::vector<double> state;
  for (const SimSlot &s : slots)
    if (s.config)
      state.push_back(sim::state_bytes(*s.config));
  std::sort(state.begin(), state.end(), std::greater<>());
  state.resize(std::min<std::size_t>(state.size(), jobs));
  double total = 0;
  for (double b : state)
    total += b;
  if (state.size() > 1)
    cli::check_memory(total, std::to_string(state.size()) + " simulations at once", "--jobs",
                      "fewer --jobs, or a smaller --cache");
}

} // namespace

// The accesses the simulation of `p` replays, as its workload counts them (Workload::accesses: the
// stencil window, matmul's 2 D loads, the 3-D stencil's 7 points, plus stores with --writes); a
// kernel the simulator does not model counts as the simulated kernel of its family.
double work(const Point &p) {
  Point q = p;
  if (!sim_workload(q))
    q.kernel =
        kernels::is_stencil(p.kernel) ? kernels::KernelKind::stencil : kernels::KernelKind::matmul;
  return double(workload_of(q).accesses());
}

std::vector<std::optional<sim::SimConfig>> validate(const std::vector<Point> &points,
                                                    const Backends &b) {
  std::vector<std::optional<sim::SimConfig>> configs(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (b.sim && b.model) {
      if (!sim_workload(points[i]))
        throw UsageError("--kernel",
                         std::string(kernels::to_string(points[i].kernel)) +
                             " is not modelled; allowed: " + sim::kernel_workload_names());
      sim::validate(gpu_config(points[i]));
      configs[i] = sim_config(points[i]); // the workload's own checks; the model replays it
    } else if (b.sim) {
      // A kernel with no simulation (cublas, stencil-2d) and no hardware backend would be a row
      // of empty cells counted as "measured": refused, as the GPU model refuses it.
      if (!sim_workload(points[i]) && !b.gpu)
        throw UsageError("--kernel", std::string(kernels::to_string(points[i].kernel)) +
                                         " runs on a GPU only: the sim backend has nothing to "
                                         "replay; allowed: " +
                                         sim::kernel_workload_names() +
                                         ", or --backend gpu (or sim,gpu) to time it");
      configs[i] = sim_config(points[i]);
      if (configs[i]) // before any point runs: a cache larger than memory names --cache
        cli::check_memory(sim::state_bytes(*configs[i]),
                          "the simulated cache state of " + cache_levels(points[i]), "--cache",
                          "fewer lines or set-associative levels (ways=N)");
    }
    if (b.gpu)
      kernels::validate(bench_config(points[i]));
  }
  return configs;
}

Backends parse_backends(const std::string &text, const std::string &option) {
  const char *allowed = "allowed: sim, gpu, sim,gpu (the sequential replay beside the hardware), "
                        "model (the GPU model), sim+gpu or model+gpu (the GPU model beside the "
                        "hardware)";
  if (text == "sim+gpu" || text == "model+gpu")
    return {true, true, true};
  if (text == "model")
    return {true, false, true};
  Backends b{false, false};
  for (const std::string &part : split_list(text)) {
    if (part == "sim")
      b.sim = true;
    else if (part == "gpu")
      b.gpu = true;
    else
      throw UsageError(option, "unknown backend '" + part + "'; " + allowed);
  }
  if (!b.sim && !b.gpu)
    throw UsageError(option, std::string("no backend given; ") + allowed);
  return b;
}

std::string backend_name(const Backends &b) {
  if (b.model && b.sim)
    return b.gpu ? "model+gpu" : "model";
  return b.sim && b.gpu ? "sim+gpu" : b.gpu ? "gpu" : "sim";
}

namespace {

// The simulations still to run, one slot per distinct simulated configuration (points that share
// one share its slot), and the ETA's weights: a simulation costs its accesses once, a GPU point
// about its traffic.
struct SimPlan {
  std::vector<SimSlot> slots;
  std::vector<int> slot_of;   // per point: its slot, or -1 (nothing simulated)
  std::vector<double> weight; // per point
  double total_work = 0;
};

SimPlan plan_simulations(const std::vector<Point> &mine, const std::vector<std::size_t> &pending,
                         const std::vector<std::optional<sim::SimConfig>> &configs,
                         const Backends &backends) {
  SimPlan plan;
  plan.slot_of.assign(mine.size(), -1);
  plan.weight.assign(mine.size(), 0.0);
  std::map<std::string, int> by_key;
  for (std::size_t i : pending) {
    if (!configs[i])
      continue;
    const auto [it, fresh] =
        by_key.emplace(sim_key(mine[i], backends.model), static_cast<int>(plan.slots.size()));
    if (fresh) {
      plan.slots.emplace_back();
      if (backends.model)
        plan.slots.back().gpu_config = gpu_config(mine[i]);
      else
        plan.slots.back().config = configs[i];
      plan.weight[i] += work(mine[i]);
    }
    plan.slot_of[i] = it->second;
  }
  for (std::size_t i : pending) {
    if (backends.gpu)
      plan.weight[i] += work(mine[i]);
    plan.total_work += plan.weight[i];
  }
  return plan;
}

// What every row starts with: the point's identity and the sweep's, then one cell per axis.
struct RowContext {
  const std::string &backend;
  const std::string &grid_id;
  int64_t grid_points;
  std::string shard;
};

// One point's CSV row: identity, axes, the simulation's counts, the GPU's measurement and the GPU
// model's cells; empty cells where a part did not run (JSON null).
std::vector<cli::Cell> point_row(const Point &p, const RowContext &ctx, const SimSlot *slot,
                                 GpuBackend *gpu, bool metrics, const std::string &device) {
  const cli::Cell blank = std::string();
  std::vector<cli::Cell> row = {p.index,     p.id(),          ctx.backend,
                                ctx.grid_id, ctx.grid_points, ctx.shard};
  for (const AxisDef &d : axis_defs())
    row.push_back(axis_text(d, p).value_or("")); // empty: does not apply (JSON null)
  if (slot && slot->result) {
    const sim::SimResult &r = *slot->result;
    const sim::CacheStats &l1 = r.levels[0];
    row.insert(row.end(), {l1.accesses, l1.misses, 100.0 * l1.hit_rate(), l1.bytes_fetched,
                           r.levels.size() > 1 ? cli::Cell(100.0 * r.levels[1].hit_rate()) : blank,
                           r.levels.back().bytes_fetched, r.seconds});
  } else {
    row.insert(row.end(), 7, blank);
  }
  GpuMeasurement measured;
  if (gpu) {
    const GpuMeasurement m = measured = gpu->measure(p, metrics);
    auto metric = [&](double v) { return m.metrics ? cli::Cell(v) : blank; };
    row.insert(row.end(),
               {device, m.time_ms, m.noise, m.samples, m.gbs,
                m.check_ran ? cli::Cell(std::string(m.check_passed ? "pass" : "FAIL")) : blank,
                m.check_ran ? cli::Cell(m.rel_error) : blank, metric(m.l1_hit_pct),
                metric(m.l2_hit_pct), metric(m.l2_to_l1_bytes), metric(m.dram_read_bytes)});
  } else {
    row.insert(row.end(), 11, blank);
  }
  model_cells(row, slot ? slot->gpu_result : std::nullopt, p, gpu ? &measured : nullptr);
  return row;
}

// --json: the sweep's rows (those written to stdout, or the CSV read back) with its metadata.
void write_sweep_json(const Grid &g, const RunOptions &opts, const CsvStore &store,
                      std::vector<std::vector<cli::Cell>> written, const RunSummary &summary,
                      const std::string &backend, const std::string &grid_id) {
  cli::Table t;
  if (store.to_stdout())
    t.rows = std::move(written);
  else
    t = read_csv(opts.output);
  t.columns = columns();
  t.title = "cbi sweep: grid " + g.name;
  t.meta.assign(opts.meta.begin(), opts.meta.end());
  t.meta.insert(t.meta.begin(),
                {{"grid", g.name},
                 {"grid_description", g.description},
                 {"backend", backend},
                 {"device", summary.device.empty() ? "none (simulator)" : summary.device},
                 {"grid_id", grid_id},
                 {"shard", opts.shard.text()}});
  std::ostringstream os;
  cli::print_json(os, t);
  cli::write_file_atomic(opts.json, os.str(), "--json");
}

// Who writes opts.output: the backend, the grid's fingerprint and size, the shard.
CsvStore::Identity writer(const Grid &g, const RunOptions &opts) {
  return {backend_name(opts.backends), fingerprint(g), opts.shard.text(),
          static_cast<int64_t>(expand(g).size())};
}

} // namespace

void check_resume(const Grid &g, const RunOptions &opts) {
  const CsvStore store(opts.output, opts.resume, writer(g, opts)); // reads, writes nothing
}

RunSummary run(const Grid &g, const RunOptions &opts) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<Point> mine;
  for (Point &p : expand(g))
    if (opts.shard.contains(p))
      mine.push_back(std::move(p));
  const std::string backend = backend_name(opts.backends);

  // Everything that can be wrong with the request is found before a byte is written.
  const std::vector<std::optional<sim::SimConfig>> configs = validate(mine, opts.backends);
  const CsvStore::Identity who = writer(g, opts);
  const std::string &grid_id = who.grid_id;
  const int64_t grid_points = who.grid_points;
  CsvStore store(opts.output, opts.resume, who);
  std::vector<std::size_t> pending;
  for (std::size_t i = 0; i < mine.size(); ++i)
    if (!store.done_ids().count(mine[i].id()))
      pending.push_back(i);
  // The GPU is needed only for points still to measure, so a finished sweep's report can be
  // rebuilt on a machine without one.
  std::unique_ptr<GpuBackend> gpu;
  if (opts.backends.gpu && !pending.empty())
    gpu = make_gpu_backend(opts.gpu);
  store.open();

  RunSummary summary;
  summary.points = static_cast<int64_t>(mine.size());
  summary.skipped = summary.points - static_cast<int64_t>(pending.size());
  if (gpu)
    summary.device = gpu->device();

  SimPlan plan = plan_simulations(mine, pending, configs, opts.backends);
  unsigned jobs = opts.jobs > 0 ? static_cast<unsigned>(opts.jobs)
                                : std::max(1u, std::thread::hardware_concurrency());
  if (gpu && jobs > 1 && !opts.jobs)
    --jobs; // leave the GPU host thread a core
  check_concurrent_memory(plan.slots, jobs);
  SimPool pool(std::move(plan.slots), jobs);
  cli::say_notices(); // accepted, the points start: --jobs above the cores says so before them

  // Shown when asked, on a terminal, and unasked for a long sweep (over 2^30 simulated accesses,
  // as simulate's long_run): off a terminal, a fig5.1b sweep ran 81 s with nothing on stderr.
  cli::ProgressBar bar(static_cast<int64_t>(pending.size()),
                       opts.progress || isatty(2) || cli::long_run(plan.total_work),
                       plan.total_work);
  int64_t count = 0;
  double done_work = 0;
  InterruptGuard interrupt_guard;
  std::vector<std::vector<cli::Cell>> written; // for the JSON when the CSV goes to stdout
  const RowContext row_context{backend, grid_id, grid_points, opts.shard.text()};
  for (std::size_t i : pending) {
    if (g_interrupted) {
      summary.interrupted = true;
      break;
    }
    const Point &p = mine[i];
    const SimSlot *slot =
        plan.slot_of[i] >= 0 ? &pool.result(static_cast<std::size_t>(plan.slot_of[i])) : nullptr;
    const std::vector<cli::Cell> row =
        point_row(p, row_context, slot, gpu.get(), g.metrics, summary.device);
    store.write(row);
    summary.rows.push_back(row);
    if (store.to_stdout() && !opts.json.empty())
      written.push_back(row);
    ++summary.measured;
    done_work += plan.weight[i];
    bar.update(++count,
               axis_text(axis_def("order"), p).value_or(kernels::to_string(p.kernel)) + " b" +
                   std::to_string(p.block_threads) + " " +
                   axis_text(axis_def("size"), p).value_or(""),
               done_work);
  }
  if (!summary.interrupted)
    store.commit(); // else a file that got no row is removed, like after a failure
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  if (!opts.json.empty())
    write_sweep_json(g, opts, store, std::move(written), summary, backend, grid_id);
  return summary;
}

} // namespace cbi::sweep
