#include "bench_report.hpp"

#include "cbi/order_text.hpp"

#include <nlohmann/json.hpp>

#include <cmath>

namespace cbi::cli {

namespace {

// NaN and infinities become null.
nlohmann::ordered_json json_number(double v) {
  return std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr);
}

} // namespace

Fields device_meta(const kernels::DeviceInfo &d) {
  return {
      {"device",
       d.name + " (cc " + std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor) + ")"},
      {"sms", int64_t{d.sms}},
      {"sm_clock_mhz", double(d.sm_clock_mhz)},
      {"memory_clock_mhz", double(d.memory_clock_mhz)},
      {"l2_bytes", int64_t{d.l2_bytes}},
      {"memory_gbs_theoretical", double(d.memory_gbs_theoretical)},
      {"copy_gbs_measured", double(d.copy_gbs)},
      {"fp32_gflops_peak", double(d.fp32_gflops_peak)},
      {"fp64_gflops_peak", double(d.fp64_gflops_peak)},
      {"driver_version", int64_t{d.driver_version}},
      {"runtime_version", int64_t{d.runtime_version}},
  };
}

void print_bench_json(std::ostream &os, const kernels::DeviceInfo &d,
                      const std::vector<kernels::BenchResult> &results, const std::string &command,
                      const std::vector<std::string> &notes) {
  nlohmann::ordered_json j;
  j["command"] = command;
  j["date"] = utc_timestamp();
  j["context"] = nlohmann::ordered_json::object();
  for (const auto &[k, v] : run_context())
    j["context"][k] = std::visit([](const auto &x) { return nlohmann::ordered_json(x); }, v);
  j["device"] = nlohmann::ordered_json::object();
  for (const auto &[k, v] : device_meta(d))
    j["device"][k] = std::visit([](const auto &x) { return nlohmann::ordered_json(x); }, v);
  j["results"] = nlohmann::ordered_json::array();
  for (const kernels::BenchResult &r : results) {
    const kernels::BenchConfig &c = r.config;
    nlohmann::ordered_json e;
    e["config"] = c.describe();
    e["kernel"] = kernels::to_string(c.kernel);
    e["order"] = remap::to_string(c.order);
    e["remap_math"] = remap::to_string(c.remap_math);
    e["block_order"] = remap::to_string(c.block_order);
    e["type"] = kernels::to_string(c.type);
    e["width"] = c.width;
    e["height"] = c.height;
    e["stencil_w"] = c.stencil_w;
    e["stencil_h"] = c.stencil_h;
    e["depth"] = c.effective_depth();
    e["block_threads"] = c.block_threads;
    e["cold"] = c.cold;
    e["check"] = {{"ran", r.check.ran},
                  {"passed", r.check.passed},
                  {"rel_error", json_number(r.check.rel_error)},
                  {"bound", json_number(r.check.bound)},
                  {"checked", r.check.checked},
                  {"unwritten", r.check.unwritten},
                  {"note", r.check.note}};
    e["resources"] = {{"name", r.resources.name},
                      {"registers", r.resources.registers},
                      {"static_shared_bytes", r.resources.static_shared_bytes},
                      {"dynamic_shared_bytes", r.resources.dynamic_shared_bytes},
                      {"local_bytes", r.resources.local_bytes},
                      {"grid_blocks", r.resources.grid_blocks},
                      {"block_threads", r.resources.block_threads}};
    e["median_ms"] = json_number(r.median_ms);
    e["mean_ms"] = json_number(r.mean_ms);
    e["noise"] = json_number(r.noise);
    e["noise_target_met"] = r.noise_target_met;
    e["bytes"] = json_number(r.bytes);
    e["flops"] = json_number(r.flops);
    e["gbs"] = json_number(r.gbs);
    e["gflops"] = json_number(r.gflops);
    e["roofline_gflops"] = json_number(r.roofline_gflops);
    e["roofline_fraction"] = json_number(r.roofline_fraction);
    e["bound"] = r.bound;
    nlohmann::ordered_json m = {{"available", r.metrics.available}};
    if (r.metrics.available) {
      const double values[] = {
          r.metrics.l1_hit_pct, r.metrics.l1_global_load_hits, r.metrics.l1_global_load_misses,
          r.metrics.l2_hit_pct, r.metrics.l2_to_l1_sectors,    r.metrics.dram_read_bytes};
      for (size_t k = 0; k < kernels::metric_names().size(); ++k)
        m[kernels::metric_names()[k]] = json_number(values[k]);
      m["passes"] = r.metrics.passes;
    } else if (!r.metrics.why.empty()) {
      m["why"] = r.metrics.why;
    }
    e["metrics"] = std::move(m);
    e["samples_ms"] = nlohmann::ordered_json::array();
    for (double s : r.samples_ms)
      e["samples_ms"].push_back(json_number(s));
    j["results"].push_back(std::move(e));
  }
  if (!notes.empty())
    j["notes"] = notes;
  os << j.dump(2) << "\n";
}

Table bench_table(const kernels::DeviceInfo &d, const std::vector<kernels::BenchResult> &results,
                  bool metrics) {
  Table t;
  t.title = "cbi bench on " + d.name;
  t.columns = {"kernel",        "order", "remap_math", "block_order", "type",
               "size",          "shape", "block",      "check",       "rel_error",
               "median_ms",     "noise", "samples",    "gbs",         "gflops",
               "roofline_frac", "bound", "regs",       "smem_bytes",  "local_bytes"};
  if (metrics)
    t.columns.insert(t.columns.end(), {"l1_hit_pct", "l1_ld_hit_sectors", "l1_ld_miss_sectors",
                                       "l2_hit_pct", "l2_to_l1_sectors", "dram_read_bytes"});
  for (const kernels::BenchResult &r : results) {
    const kernels::BenchConfig &c = r.config;
    const std::string shape = kernels::is_stencil(c.kernel)
                                  ? std::to_string(c.stencil_w) + "x" + std::to_string(c.stencil_h)
                                  : "D=" + std::to_string(c.effective_depth());
    const std::string block =
        c.kernel == kernels::KernelKind::cublas ? "-"
        : c.kernel == kernels::KernelKind::stencil_2d
            ? std::to_string(c.block_x) + "x" + std::to_string(c.block_threads / c.block_x)
            : std::to_string(r.resources.block_threads);
    std::vector<Cell> row{
        std::string(kernels::to_string(c.kernel)),
        remap::to_string(c.order),
        std::string(kernels::is_remapped(c.kernel) ? remap::to_string(c.remap_math) : "-"),
        kernels::is_block_ordered(c.kernel) ? remap::to_string(c.block_order) : std::string("-"),
        std::string(kernels::to_string(c.type)),
        std::to_string(c.width) + "x" + std::to_string(c.height),
        shape,
        block,
        std::string(!r.check.ran     ? "off"
                    : r.check.passed ? "pass"
                                     : "FAIL"),
        r.check.rel_error,
        r.median_ms,
        r.noise,
        int64_t(r.samples_ms.size()),
        r.gbs,
        r.gflops,
        r.roofline_fraction,
        r.bound,
        int64_t(r.resources.registers),
        r.resources.static_shared_bytes + r.resources.dynamic_shared_bytes,
        r.resources.local_bytes};
    if (metrics) {
      if (r.metrics.available)
        row.insert(row.end(), {r.metrics.l1_hit_pct, r.metrics.l1_global_load_hits,
                               r.metrics.l1_global_load_misses, r.metrics.l2_hit_pct,
                               r.metrics.l2_to_l1_sectors, r.metrics.dram_read_bytes});
      else
        row.insert(row.end(), 6, Cell(std::string("n/a")));
    }
    t.add_row(row);
  }
  t.meta = device_meta(d);
  return t;
}

} // namespace cbi::cli
