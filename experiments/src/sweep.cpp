// Grid expansion, shards, the tidy CSV stream with --resume, merge, and the run loop that feeds the
// simulator (worker threads, one per core) and the GPU backend (the calling thread) point by point.
#include "sweep.hpp"

#include "cbi/parse.hpp"
#include "cbi/remap/order.hpp"
#include "cbi/sim/simulate.hpp"
#include "cbi/cli/options.hpp"
#include "cbi/cli/progress.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace cbi::sweep {

namespace {

constexpr const char *kNotApplicable = "-";

const std::vector<std::string> kKernels = {"stencil",      "matmul",      "stencil-2d",
                                           "stencil-smem", "sgemm-tiled", "cublas"};

bool is_stencil_kernel(const std::string &k) { return k.rfind("stencil", 0) == 0; }
bool is_remapped_kernel(const std::string &k) { return k == "stencil" || k == "matmul"; }

std::string join(const std::vector<std::string> &parts, const std::string &sep) {
  std::string s;
  for (std::size_t i = 0; i < parts.size(); ++i)
    s += (i ? sep : "") + parts[i];
  return s;
}

std::string option_of(const std::string &axis) { return "--" + axis; }

// The canonical spelling of one axis value; throws UsageError naming the axis's option.
std::string canonical(const std::string &axis, const std::string &v) {
  const std::string opt = option_of(axis);
  if (axis == "kernel") {
    if (std::find(kKernels.begin(), kKernels.end(), v) == kKernels.end())
      throw UsageError(opt, "unknown kernel '" + v + "'; allowed: " + join(kKernels, ", "));
    return v;
  }
  if (axis == "size") {
    const auto [w, h] = parse_extent(v, opt, true, 1LL << 20);
    return w == h ? std::to_string(w) : std::to_string(w) + "x" + std::to_string(h);
  }
  if (axis == "stencil") {
    const auto [w, h] = parse_extent(v, opt, true, 1 << 10);
    if (w % 2 == 0 || h % 2 == 0)
      throw UsageError(opt, "'" + v + "' has an even side; allowed: odd sizes such as 3x3, 9x9");
    return std::to_string(w) + "x" + std::to_string(h);
  }
  if (axis == "depth")
    return v == "0" ? v : std::to_string(parse_positive(v, opt, 1LL << 20));
  if (axis == "type") {
    if (v != "half" && v != "float" && v != "double")
      throw UsageError(opt, "unknown type '" + v + "'; allowed: half, float, double");
    return v;
  }
  if (axis == "block") {
    const long long b = parse_positive(v, opt, 1024);
    if (b < 32)
      throw UsageError(opt, "block " + v + " is too small; allowed: 32 to 1024 threads");
    return std::to_string(b);
  }
  if (axis == "order")
    return remap::to_string(remap::parse_order(v, opt));
  if (axis == "cache") {
    if (v.empty())
      throw UsageError(opt, "empty cache spec; allowed: a preset (l1-64k, ...) or level specs "
                            "joined by '/'");
    return v;
  }
  throw UsageError("--axis", "unknown axis '" + axis + "'; allowed: " + join(axis_names(), ", "));
}

std::size_t axis_pos(const std::string &axis) {
  const auto &names = axis_names();
  const auto it = std::find(names.begin(), names.end(), axis);
  if (it == names.end())
    throw UsageError("--axis", "unknown axis '" + axis + "'; allowed: " + join(names, ", "));
  return static_cast<std::size_t>(it - names.begin());
}

uint64_t fnv1a(const std::string &s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

int elem_bytes_of(const std::string &type) { return type == "half" ? 2 : type == "double" ? 8 : 4; }

// The simulator configuration of a point, or nothing for kernels the simulator does not model.
std::optional<sim::SimConfig> sim_config(const Point &p) {
  const std::string &kernel = p.get("kernel");
  if (kernel != "stencil" && kernel != "matmul")
    return std::nullopt;
  sim::SimConfig c;
  sim::Workload &w = c.workload;
  w.kind = kernel == "matmul" ? sim::WorkloadKind::matmul : sim::WorkloadKind::stencil;
  const auto [width, height] = parse_extent(p.get("size"), "--size", true);
  w.width = width;
  w.height = height;
  if (w.kind == sim::WorkloadKind::stencil) {
    const auto [sw, sh] = parse_extent(p.get("stencil"), "--stencil", true);
    w.stencil_w = sw;
    w.stencil_h = sh;
  } else {
    const std::string &d = p.get("depth");
    w.depth = d == "0" ? w.width : parse_positive(d, "--depth", 1LL << 20);
  }
  w.elem_bytes = elem_bytes_of(p.get("type"));
  sim::validate(w);
  c.order = remap::parse_order(p.get("order"), "--order");
  std::string spec = p.get("cache");
  if (spec == "table3") // Table 3.1 (stencil, 24 lines) / Table 3.2 (matmul, 32 lines), L = 4 elements
    spec = w.kind == sim::WorkloadKind::matmul ? "lines=32" : "lines=24";
  for (const auto &[name, levels] : cache_presets())
    if (spec == name && name != "table3")
      spec = levels;
  c.levels.clear();
  try {
    for (const std::string &level : split_list(spec, '/'))
      c.levels.push_back(cli::parse_level(level, w));
    sim::validate(c);
  } catch (const UsageError &e) {
    throw UsageError("--cache", std::string(e.what()) + " (in cache '" + p.get("cache") + "')");
  }
  return c;
}

std::string sim_key(const Point &p) {
  Point q = p;
  q.values[axis_pos("block")] = kNotApplicable; // the simulator replays one ordered stream
  return q.key();
}

std::string backend_name(const Backends &b) {
  return b.sim && b.gpu ? "sim+gpu" : b.gpu ? "gpu" : "sim";
}

std::string csv_line(const std::vector<cli::Cell> &row) {
  std::string s;
  for (std::size_t c = 0; c < row.size(); ++c)
    s += (c ? "," : "") + cli::csv_escape(cli::format_cell(row[c]));
  return s + "\n";
}

std::vector<std::string> parse_csv_line(const std::string &line) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    if (quoted) {
      if (ch == '"' && i + 1 < line.size() && line[i + 1] == '"')
        cells.back() += '"', ++i;
      else if (ch == '"')
        quoted = false;
      else
        cells.back() += ch;
    } else if (ch == '"') {
      quoted = true;
    } else if (ch == ',') {
      cells.emplace_back();
    } else {
      cells.back() += ch;
    }
  }
  return cells;
}

cli::Cell typed_cell(const std::string &s) {
  if (s.empty())
    return s;
  char *end = nullptr;
  if (s.find_first_not_of("-0123456789") == std::string::npos && s != "-") {
    const long long v = std::strtoll(s.c_str(), &end, 10);
    if (*end == 0)
      return static_cast<int64_t>(v);
  }
  if (s == "true" || s == "false")
    return s == "true";
  const double d = std::strtod(s.c_str(), &end);
  if (*end == 0 && s.find_first_of("0123456789") != std::string::npos)
    return d;
  return s;
}

// The complete lines of a CSV file (an interrupted write leaves a last line without '\n') and the
// byte length they span.
std::vector<std::string> complete_lines(const std::string &path, std::size_t *bytes = nullptr) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string text = ss.str();
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1)
    lines.push_back(text.substr(start, nl - start));
  if (bytes)
    *bytes = start;
  return lines;
}

struct SimSlot {
  std::optional<sim::SimConfig> config;
  std::optional<sim::SimResult> result;
  std::exception_ptr error;
  bool done = false;
};

} // namespace

const std::vector<std::string> &axis_names() {
  static const std::vector<std::string> names = {"kernel", "size",  "stencil", "depth",
                                                 "type",   "block", "order",   "cache"};
  return names;
}

void Grid::set(const std::string &axis, std::vector<std::string> vals) {
  if (vals.empty())
    throw UsageError(option_of(axis), "needs at least one value");
  axes[axis_pos(axis)].values = std::move(vals);
}

const std::vector<std::string> &Grid::values(const std::string &axis) const {
  return axes[axis_pos(axis)].values;
}

Grid default_grid() {
  Grid g;
  g.axes = {{"kernel", {"stencil"}}, {"size", {"1024"}},  {"stencil", {"9x9"}},
            {"depth", {"0"}},        {"type", {"float"}}, {"block", {"256"}},
            {"order", {"linear"}},   {"cache", {"l1-64k"}}};
  return g;
}

const std::string &Point::get(const std::string &axis) const { return values[axis_pos(axis)]; }

std::string Point::key() const {
  std::string k;
  for (std::size_t a = 0; a < values.size(); ++a)
    k += (a ? " " : "") + axis_names()[a] + "=" + values[a];
  return k;
}

std::string Point::id() const {
  std::ostringstream os;
  os << std::hex << std::setw(16) << std::setfill('0') << fnv1a(key());
  return os.str();
}

std::vector<Point> expand(const Grid &g) {
  const auto &names = axis_names();
  if (g.axes.size() != names.size())
    throw std::logic_error("grid '" + g.name + "' lacks axes");
  std::vector<std::vector<std::string>> vals(names.size());
  for (std::size_t a = 0; a < names.size(); ++a) {
    if (g.axes[a].values.empty())
      throw UsageError(option_of(names[a]), "needs at least one value");
    for (const std::string &v : g.axes[a].values)
      vals[a].push_back(canonical(names[a], v));
  }
  std::vector<Point> points;
  std::set<std::string> seen;
  std::vector<std::size_t> at(names.size(), 0);
  const std::size_t k_stencil = axis_pos("stencil"), k_depth = axis_pos("depth"),
                    k_order = axis_pos("order");
  for (;;) {
    Point p;
    for (std::size_t a = 0; a < names.size(); ++a)
      p.values.push_back(vals[a][at[a]]);
    const std::string &kernel = p.values[0];
    if (is_stencil_kernel(kernel))
      p.values[k_depth] = kNotApplicable;
    else
      p.values[k_stencil] = kNotApplicable;
    if (!is_remapped_kernel(kernel))
      p.values[k_order] = kNotApplicable;
    if (seen.insert(p.key()).second) {
      p.index = static_cast<int64_t>(points.size());
      points.push_back(std::move(p));
    }
    std::size_t a = names.size();
    while (a > 0 && ++at[a - 1] == vals[a - 1].size())
      at[--a] = 0;
    if (a == 0)
      break;
  }
  return points;
}

Shard parse_shard(const std::string &text, const std::string &option) {
  const auto slash = text.find('/');
  const std::string allowed = "allowed: k/n with 0 <= k < n, e.g. 0/4 ... 3/4";
  if (slash == std::string::npos)
    throw UsageError(option, "'" + text + "' is not k/n; " + allowed);
  Shard s;
  const std::string k = text.substr(0, slash);
  s.count = parse_positive(text.substr(slash + 1), option, 1 << 20);
  s.index = k == "0" ? 0 : parse_positive(k, option, 1 << 20);
  if (s.index >= s.count)
    throw UsageError(option, "shard " + text + " does not exist; " + allowed);
  return s;
}

std::vector<std::pair<std::string, std::string>> cache_presets() {
  // L1s fully associative LRU, the thesis's model: GPUs hash addresses onto sets, while a modulo-indexed
  // 4-way model maps the 9 rows of a 4096-wide stencil window (16 KiB apart) onto one set and
  // thrashes for every order alike.
  return {{"table3", "Table 3.1/3.2: 24 (stencil) or 32 (matmul) lines of 4 elements, fully "
                     "associative LRU"},
          {"l1-64k", "size=64KiB,line=128,sector=32"},
          {"l1-256k", "size=256KiB,line=128,sector=32"},
          // L2s 16-way: a fully associative 4 MiB LRU costs 3x the simulation time.
          {"turing", "size=64KiB,line=128,sector=32/size=4MiB,line=128,ways=16,sector=32"},
          {"h100", "size=256KiB,line=128,sector=32/size=50MiB,line=128,ways=16,sector=32"}};
}

const std::vector<std::string> &columns() {
  static const std::vector<std::string> cols = [] {
    std::vector<std::string> c = {"point", "point_id", "backend"};
    for (const std::string &a : axis_names())
      c.push_back(a);
    for (const char *s : {"sim_l1_accesses", "sim_l1_misses", "sim_l1_hit_pct",
                          "sim_l1_fetched_bytes", "sim_l2_hit_pct", "sim_mem_fetched_bytes",
                          "sim_seconds", "gpu_device", "gpu_time_ms", "gpu_noise", "gpu_samples",
                          "gpu_gbs", "gpu_check", "gpu_rel_error", "gpu_l1_hit_pct",
                          "gpu_l2_hit_pct", "gpu_l2_to_l1_bytes", "gpu_dram_read_bytes"})
      c.push_back(s);
    return c;
  }();
  return cols;
}

Backends parse_backends(const std::string &text, const std::string &option) {
  Backends b{false, false};
  for (const std::string &part : split_list(text)) {
    if (part == "sim")
      b.sim = true;
    else if (part == "gpu")
      b.gpu = true;
    else
      throw UsageError(option, "unknown backend '" + part + "'; allowed: sim, gpu, sim,gpu");
  }
  if (!b.sim && !b.gpu)
    throw UsageError(option, "no backend given; allowed: sim, gpu, sim,gpu");
  return b;
}

cli::Table read_csv(const std::string &path) {
  if (!std::filesystem::exists(path))
    throw UsageError("--input", "'" + path + "' does not exist; allowed: a CSV written by cbi sweep");
  const std::vector<std::string> lines = complete_lines(path);
  if (lines.empty() || parse_csv_line(lines[0]) != columns())
    throw UsageError("--input", "'" + path + "' is not a cbi sweep CSV (its header differs); "
                                "allowed: a CSV written by cbi sweep");
  cli::Table t;
  t.columns = columns();
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::vector<std::string> cells = parse_csv_line(lines[i]);
    if (cells.size() != t.columns.size())
      continue; // a damaged line: it is measured again on --resume
    std::vector<cli::Cell> row;
    for (std::size_t c = 0; c < cells.size(); ++c)
      row.push_back(c < 3 + axis_names().size() ? cli::Cell(cells[c]) : typed_cell(cells[c]));
    row[0] = typed_cell(cells[0]);
    t.add_row(std::move(row));
  }
  return t;
}

cli::Table merge(const std::vector<std::string> &paths) {
  if (paths.empty())
    throw UsageError("--input", "no CSV files to merge; allowed: one or more shard CSVs");
  cli::Table out;
  out.columns = columns();
  std::set<std::string> ids;
  int64_t duplicates = 0;
  for (const std::string &p : paths) {
    cli::Table t = read_csv(p);
    for (auto &row : t.rows) {
      if (ids.insert(std::get<std::string>(row[1])).second)
        out.rows.push_back(std::move(row));
      else
        ++duplicates;
    }
  }
  auto index = [](const std::vector<cli::Cell> &r) {
    const auto *i = std::get_if<int64_t>(&r[0]);
    return i ? *i : int64_t{0};
  };
  std::stable_sort(out.rows.begin(), out.rows.end(),
                   [&](const auto &a, const auto &b) { return index(a) < index(b); });
  out.meta = {{"merged_files", std::to_string(paths.size())},
              {"duplicate_rows_dropped", std::to_string(duplicates)}};
  return out;
}

RunSummary run(const Grid &g, const RunOptions &opts) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<Point> mine;
  for (Point &p : expand(g))
    if (opts.shard.contains(p))
      mine.push_back(std::move(p));
  const std::string backend = backend_name(opts.backends);

  // Everything that can be wrong with the request is found before a byte is written.
  std::vector<std::optional<sim::SimConfig>> configs(mine.size());
  if (opts.backends.sim)
    for (std::size_t i = 0; i < mine.size(); ++i)
      configs[i] = sim_config(mine[i]);
  if (opts.resume && (opts.output.empty() || opts.output == "-"))
    throw UsageError("--resume", "needs --output FILE.csv to continue; allowed: with --output");

  // What a previous run's file already holds (--resume).
  std::set<std::string> done_ids;
  const bool to_stdout = opts.output.empty() || opts.output == "-";
  const bool continuing = !to_stdout && opts.resume && std::filesystem::exists(opts.output) &&
                          std::filesystem::file_size(opts.output) > 0;
  std::size_t complete_bytes = 0;
  if (continuing) {
    const std::vector<std::string> lines = complete_lines(opts.output, &complete_bytes);
    if (lines.empty() || parse_csv_line(lines[0]) != columns())
      throw UsageError("--resume", "'" + opts.output + "' is not a cbi sweep CSV of this version "
                                   "(its header differs); allowed: a CSV this command wrote");
    for (std::size_t i = 1; i < lines.size(); ++i) {
      const std::vector<std::string> cells = parse_csv_line(lines[i]);
      if (cells.size() != columns().size())
        continue;
      if (cells[2] != backend)
        throw UsageError("--resume", "'" + opts.output + "' holds " + cells[2] +
                                         " rows, this run is " + backend +
                                         "; allowed: the same --backend as the first run");
      done_ids.insert(cells[1]);
    }
  }
  std::vector<std::size_t> pending;
  for (std::size_t i = 0; i < mine.size(); ++i)
    if (!done_ids.count(mine[i].id()))
      pending.push_back(i);
  // The GPU is needed only for points still to measure, so a finished sweep's report can be
  // rebuilt on a machine without one.
  std::unique_ptr<GpuBackend> gpu;
  if (opts.backends.gpu && !pending.empty())
    gpu = make_gpu_backend(opts.gpu);

  // Open the stream: continue the previous file, or start a new one with the header.
  std::ofstream file;
  if (!to_stdout) {
    if (continuing) {
      std::filesystem::resize_file(opts.output, complete_bytes); // drop an interrupted last line
      file.open(opts.output, std::ios::app | std::ios::binary);
    } else {
      file.open(opts.output, std::ios::trunc | std::ios::binary);
      file << csv_line(std::vector<cli::Cell>(columns().begin(), columns().end()));
    }
    if (!file)
      throw UsageError("--output", "cannot write '" + opts.output + "'; allowed: a writable path");
  } else {
    std::cout << csv_line(std::vector<cli::Cell>(columns().begin(), columns().end()));
  }
  std::ostream &out = to_stdout ? std::cout : static_cast<std::ostream &>(file);

  RunSummary summary;
  summary.points = static_cast<int64_t>(mine.size());
  summary.skipped = summary.points - static_cast<int64_t>(pending.size());
  if (gpu)
    summary.device = gpu->device();

  // Simulator work: one job per distinct simulated configuration (the block size does not change
  // the simulation), run by worker threads in point order so results arrive roughly when needed.
  std::vector<SimSlot> slots;
  std::vector<int> slot_of(mine.size(), -1);
  {
    std::map<std::string, int> by_key;
    for (std::size_t i : pending) {
      if (!configs[i])
        continue;
      const auto [it, fresh] = by_key.emplace(sim_key(mine[i]), static_cast<int>(slots.size()));
      if (fresh) {
        slots.emplace_back();
        slots.back().config = configs[i];
      }
      slot_of[i] = it->second;
    }
  }
  std::mutex mu;
  std::condition_variable cv;
  std::atomic<std::size_t> next_slot{0};
  std::atomic<bool> cancel{false};
  unsigned jobs = opts.jobs > 0 ? static_cast<unsigned>(opts.jobs)
                                : std::max(1u, std::thread::hardware_concurrency());
  if (gpu && jobs > 1 && !opts.jobs)
    --jobs; // leave the GPU host thread a core
  jobs = std::min<unsigned>(jobs, static_cast<unsigned>(slots.size()));
  std::vector<std::thread> workers;
  for (unsigned t = 0; t < jobs; ++t)
    workers.emplace_back([&] {
      for (std::size_t s; !cancel && (s = next_slot++) < slots.size();) {
        std::optional<sim::SimResult> r;
        std::exception_ptr err;
        try {
          r = sim::simulate(*slots[s].config);
        } catch (...) {
          err = std::current_exception();
        }
        std::lock_guard<std::mutex> lock(mu);
        slots[s].result = std::move(r);
        slots[s].error = err;
        slots[s].done = true;
        cv.notify_all();
      }
    });
  struct Joiner {
    std::vector<std::thread> &threads;
    std::atomic<bool> &cancel;
    ~Joiner() {
      cancel = true;
      for (std::thread &t : threads)
        t.join();
    }
  } joiner{workers, cancel};

  cli::ProgressBar bar(static_cast<int64_t>(pending.size()), opts.progress || isatty(2));
  int64_t count = 0;
  std::vector<std::vector<cli::Cell>> written; // for the JSON when the CSV goes to stdout
  for (std::size_t i : pending) {
    const Point &p = mine[i];
    std::vector<cli::Cell> row = {p.index, p.id(), backend};
    for (const std::string &v : p.values)
      row.push_back(v);
    const cli::Cell blank = std::string();
    if (slot_of[i] >= 0) {
      std::unique_lock<std::mutex> lock(mu);
      SimSlot &s = slots[static_cast<std::size_t>(slot_of[i])];
      cv.wait(lock, [&] { return s.done; });
      if (s.error)
        std::rethrow_exception(s.error);
      const sim::SimResult &r = *s.result;
      const sim::CacheStats &l1 = r.levels[0];
      row.insert(row.end(), {l1.accesses, l1.misses, 100.0 * l1.hit_rate(), l1.bytes_fetched,
                             r.levels.size() > 1 ? cli::Cell(100.0 * r.levels[1].hit_rate()) : blank,
                             r.levels.back().bytes_fetched, r.seconds});
    } else {
      row.insert(row.end(), 7, blank);
    }
    if (gpu) {
      const GpuMeasurement m = gpu->measure(p, g.metrics);
      auto metric = [&](double v) { return m.metrics ? cli::Cell(v) : blank; };
      row.insert(row.end(),
                 {summary.device, m.time_ms, m.noise, m.samples, m.gbs,
                  m.check_ran ? cli::Cell(std::string(m.check_passed ? "pass" : "FAIL")) : blank,
                  m.check_ran ? cli::Cell(m.rel_error) : blank, metric(m.l1_hit_pct),
                  metric(m.l2_hit_pct), metric(m.l2_to_l1_bytes), metric(m.dram_read_bytes)});
    } else {
      row.insert(row.end(), 11, blank);
    }
    out << csv_line(row) << std::flush;
    if (to_stdout && !opts.json.empty())
      written.push_back(row);
    if (!out)
      throw std::runtime_error("writing '" + opts.output + "' failed (disk full?)");
    ++summary.measured;
    bar.update(++count, p.get("order") + " b" + p.get("block") + " " + p.get("size"));
  }
  file.close();
  summary.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  if (!opts.json.empty()) {
    cli::Table t;
    if (to_stdout)
      t.rows = std::move(written);
    else
      t = read_csv(opts.output);
    t.columns = columns();
    t.title = "cbi sweep: grid " + g.name;
    t.meta = opts.meta;
    t.meta.insert(t.meta.begin(), {{"grid", g.name},
                                   {"grid_description", g.description},
                                   {"backend", backend},
                                   {"device", summary.device.empty() ? "none (simulator)"
                                                                     : summary.device},
                                   {"shard", std::to_string(opts.shard.index) + "/" +
                                                 std::to_string(opts.shard.count)}});
    std::ostringstream os;
    cli::print_json(os, t);
    cli::write_file_atomic(opts.json, os.str());
  }
  return summary;
}

} // namespace cbi::sweep
