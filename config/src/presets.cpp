#include "cbi/config/presets.hpp"

#include "cbi/config/options.hpp"
#include "cbi/text.hpp"

#include <algorithm>
#include <set>

namespace cbi::config {

using cli::Cell;
using cli::Fields;
using cli::parse_args;
using cli::Table;

namespace {

std::string option_name(const std::string &token) {
  if (token.rfind("--", 0) != 0)
    return "";
  return token.substr(2, token.find('=') - 2);
}

std::string orders_text(const std::vector<remap::Order> &orders) {
  return join(orders, ",", [](const remap::Order &o) { return remap::to_string(o); });
}

std::string window_text(const sim::Workload &w) { // "7x7"
  return std::to_string(w.stencil_w) + "x" + std::to_string(w.stencil_h);
}

const char *granularity_name(sim::Granularity g) {
  return g == sim::Granularity::thread ? "thread" : "exact";
}

// Options that describe the single cache level; --level replaces them all.
const std::set<std::string> kSingleLevel = {"line-bytes", "lines",        "cache-bytes", "ways",
                                            "policy",     "sector-bytes", "seed"};

} // namespace

std::vector<std::string> preset_args(const sim::Preset &p) {
  const sim::SimConfig &c = p.config;
  const sim::Workload &w = c.workload;
  const sim::WorkloadTraits traits = sim::workload_traits(w.kind);
  std::vector<std::string> a = {"--workload", sim::to_string(w.kind), "--size",
                                std::to_string(w.width) + "x" + std::to_string(w.height)};
  if (traits.size_dims == 3) // a volume: its planes are the third extent
    a.back() += "x" + std::to_string(w.depth);
  if (traits.has_window)
    a.insert(a.end(), {"--stencil", window_text(w)});
  if (traits.has_boundary)
    a.insert(a.end(), {"--boundary", w.boundary == sim::Boundary::none ? "none" : "clamp"});
  if (traits.has_depth && traits.size_dims == 2)
    a.insert(a.end(), {"--depth", std::to_string(w.depth)});
  a.insert(a.end(), {"--type", sim::elem_type_name(w.elem_bytes), "--granularity",
                     granularity_name(c.granularity)});
  if (c.levels.size() == 1) {
    const sim::CacheConfig &l = c.levels.front();
    a.insert(a.end(), {"--line-bytes", std::to_string(l.line_bytes), "--lines",
                       std::to_string(l.capacity_lines), "--ways", std::to_string(l.ways),
                       "--policy", sim::to_string(l.policy)});
    if (l.sector_bytes)
      a.insert(a.end(), {"--sector-bytes", std::to_string(l.sector_bytes)});
    if (l.policy == sim::Policy::random || l.policy == sim::Policy::volta)
      a.insert(a.end(), {"--seed", std::to_string(l.seed)});
  } else {
    for (const sim::CacheConfig &l : c.levels)
      a.insert(a.end(), {"--level", level_spec(l)});
  }
  a.insert(a.end(), {"--order", orders_text(p.orders)});
  return a;
}

std::vector<std::string> expand_preset(const std::vector<std::string> &argv, bool first_order_only,
                                       const po::options_description *known) {
  std::string name;
  bool named = false;
  std::set<std::string> given;
  for (std::size_t i = 1; i < argv.size(); ++i) {
    const std::string opt = option_name(argv[i]);
    given.insert(opt);
    if (opt == "preset") {
      named = true;
      name = argv[i].find('=') != std::string::npos ? argv[i].substr(argv[i].find('=') + 1)
             : i + 1 < argv.size()                  ? argv[i + 1]
                                                    : "";
    }
  }
  if (!named)
    return argv;
  const sim::Preset &p = sim::find_preset(name, "--preset");
  auto overridden = [&](const std::string &opt) {
    if (given.count(opt))
      return true;
    if (opt == "lines" && given.count("cache-bytes"))
      return true;
    if (opt == "type" && given.count("elem-bytes")) // its alias
      return true;
    if (given.count("level") && kSingleLevel.count(opt))
      return true;
    if (opt == "level")
      for (const std::string &single : kSingleLevel)
        if (given.count(single))
          return true;
    return false;
  };
  std::vector<std::string> args = preset_args(p);
  if (first_order_only)
    args.back() = remap::to_string(p.orders.front());
  std::vector<std::string> out{argv.front()};
  for (std::size_t i = 0; i + 1 < args.size(); i += 2)
    if (!overridden(option_name(args[i])) &&
        (!known || known->find_nothrow(option_name(args[i]), false))) {
      out.push_back(args[i]);
      out.push_back(args[i + 1]);
    }
  out.insert(out.end(), argv.begin() + 1, argv.end());
  return out;
}

bool parse_preset_args(int argc, char **argv, po::options_description &desc, po::variables_map &vm,
                       const std::string &usage, const std::string &examples) {
  static const std::string help =
      "a named configuration (cbi presets lists each in full); options given after it override "
      "it; runs its first order unless --order: " +
      sim::preset_names();
  desc.add_options()("preset", po::value<std::string>(), help.c_str());
  std::vector<std::string> args =
      expand_preset(std::vector<std::string>(argv, argv + argc), true, &desc);
  std::vector<char *> ptrs;
  for (std::string &a : args)
    ptrs.push_back(a.data());
  return parse_args(static_cast<int>(ptrs.size()), ptrs.data(), desc, vm, usage, examples);
}

std::string hit_rate_label(sim::Granularity g) {
  return g == sim::Granularity::thread ? "hit rate per thread-line" : "hit rate per access";
}
std::string hit_pct_column(sim::Granularity g) {
  return g == sim::Granularity::thread ? "thread_line_hit_pct" : "hit_pct";
}
std::string accesses_column(sim::Granularity g) {
  return g == sim::Granularity::thread ? "thread_lines" : "accesses";
}

std::string describe_config(const sim::SimConfig &c) {
  std::string s = c.workload.describe();
  for (std::size_t k = 0; k < c.levels.size(); ++k)
    s += "; L" + std::to_string(k + 1) + " " + c.levels[k].describe() + " (" +
         std::to_string(c.levels[k].capacity_lines) + " lines)";
  s += c.granularity == sim::Granularity::thread
           ? "; thread granularity (each thread's distinct lines once: hit rates per thread-line)"
           : "; exact granularity (every access: hit rates per access, as ncu)";
  return s;
}

Table presets_table() {
  Table t;
  t.title = "cbi presets: named configurations (simulate/diagram/view --preset, sweep --grid)";
  t.columns = {"name",   "workload",      "width",    "height",      "stencil",
               "depth",  "elem_bytes",    "boundary", "granularity", "levels",
               "orders", "configuration", "source"};
  for (const sim::Preset &p : sim::presets()) {
    const sim::Workload &w = p.config.workload;
    const std::string levels =
        join(p.config.levels, "/", [](const sim::CacheConfig &l) { return level_spec(l); });
    const sim::WorkloadTraits traits = sim::workload_traits(w.kind);
    t.add_row({p.name, std::string(sim::to_string(w.kind)), w.width, w.height,
               traits.has_window ? Cell(window_text(w)) : Cell(),
               traits.has_depth ? Cell(w.depth) : Cell(), int64_t{w.elem_bytes},
               traits.has_boundary
                   ? Cell(std::string(w.boundary == sim::Boundary::none ? "none" : "clamp"))
                   : Cell(),
               std::string(granularity_name(p.config.granularity)), levels, orders_text(p.orders),
               describe_config(p.config), p.source});
  }
  t.notes = {"thread granularity counts each thread's distinct lines once (thread-lines); its hit "
             "rate is per thread-line, not per access as ncu reports (exact granularity)",
             "a preset's options come first and any option given after it wins, e.g. cbi "
             "simulate --preset table3.1 --order column:8"};
  return t;
}

Table preset_table(const std::string &name, const std::string &option) {
  const sim::Preset &p = sim::find_preset(name, option);
  Table t = presets_table();
  t.title = "cbi presets: " + p.name;
  t.rows.erase(std::remove_if(t.rows.begin(), t.rows.end(),
                              [&](const std::vector<Cell> &row) {
                                return cli::format_cell(row.front()) != p.name;
                              }),
               t.rows.end());
  t.notes.insert(t.notes.begin(),
                 "--preset " + p.name + " stands for " + join(preset_args(p), " "));
  return t;
}

} // namespace cbi::config
