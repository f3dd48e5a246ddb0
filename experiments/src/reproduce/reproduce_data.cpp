#include "reproduce_data.hpp"

#include "store.hpp"
#include "thesis.hpp"

#include "cbi/cli/options.hpp"
#include "cbi/config/options.hpp"
#include "cbi/order_text.hpp"
#include "cbi/sim/workloads.hpp"
#include "cbi/text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <limits>
#include <optional>
#include <sstream>

namespace cbi::reproduce {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double number(const cli::Cell &c) {
  if (const auto *i = std::get_if<int64_t>(&c))
    return double(*i);
  if (const auto *d = std::get_if<double>(&c))
    return *d;
  return kNaN;
}

// 0 for the naive order, W for column:W, nothing for other orders.
std::optional<int> column_width(const remap::Order &o) {
  const std::string text = remap::to_string(o);
  if (text == "linear")
    return 0;
  const std::string prefix = "column:";
  if (text.rfind(prefix, 0) == 0)
    return std::stoi(text.substr(prefix.size()));
  return std::nullopt;
}

} // namespace

Values load(const std::string &path, const std::string &column) {
  Values v;
  if (!std::filesystem::exists(path))
    return v;
  const cli::Table t = sweep::read_csv(path);
  const std::size_t c = sweep::column_index(column), order = sweep::column_index("order"),
                    block = sweep::column_index("block"), size = sweep::column_index("size"),
                    type = sweep::column_index("type");
  for (const auto &row : t.rows) {
    const double x = number(row[c]);
    const std::string &order_text = std::get<std::string>(row[order]);
    if (!std::isfinite(x) || order_text.empty()) // no order: the kernel is not remapped
      continue;
    const std::optional<int> width = column_width(remap::parse_order(order_text, "--input"));
    if (!width)
      continue;
    v[{*width, std::stoi(std::get<std::string>(row[block])), std::get<std::string>(row[size]),
       std::get<std::string>(row[type])}] = x;
  }
  return v;
}

double at(const Values &v, int width, int block, const std::string &size, const std::string &type) {
  for (const auto &[k, x] : v)
    if (k.width == width && k.block == block && (size.empty() || k.size == size) &&
        (type.empty() || k.type == type))
      return x;
  return kNaN;
}

std::set<int> blocks_of(const Values &v) {
  std::set<int> b;
  for (const auto &[k, x] : v)
    b.insert(k.block);
  return b;
}

std::vector<std::string> sizes_of(const Values &v) {
  std::vector<std::string> s;
  for (const auto &[k, x] : v)
    if (std::find(s.begin(), s.end(), k.size) == s.end())
      s.push_back(k.size);
  std::sort(s.begin(), s.end(), [](const std::string &a, const std::string &b) {
    return std::atoll(a.c_str()) < std::atoll(b.c_str());
  });
  return s;
}

double best_relative(const Values &v, int block, const std::vector<int> &widths, int *best_width,
                     const std::string &size, const std::string &type) {
  const double naive = at(v, 0, block, size, type);
  double best = kNaN;
  for (int w : widths) {
    const double x = at(v, w, block, size, type) / naive;
    if (std::isfinite(x) && !(x >= best)) {
      best = x;
      if (best_width)
        *best_width = w;
    }
  }
  return best;
}

double best_gain(const Values &v, const std::vector<int> &widths) {
  double naive = kNaN, column = kNaN;
  for (const auto &[k, x] : v) {
    if (k.width == 0 && !(x >= naive))
      naive = x;
    if (std::find(widths.begin(), widths.end(), k.width) != widths.end() && !(x >= column))
      column = x;
  }
  return 1.0 - column / naive;
}

Trend trend(const Values &v, const std::vector<int> &widths) {
  Trend t;
  const std::set<int> blocks = blocks_of(v);
  if (blocks.empty())
    return t;
  const int block = *blocks.begin();
  for (const std::string &s : sizes_of(v)) {
    const double b = best_relative(v, block, widths, nullptr, s);
    if (std::isfinite(b))
      t.best.push_back({s, b});
  }
  return t;
}

std::string trend_text(const Trend &t) {
  std::string s;
  for (const auto &[size, b] : t.best)
    s += (s.empty() ? "" : ", ") + size + ": " + fixed(b, 3);
  return s;
}

Values thesis_values(const std::string &figure) {
  const thesis::Numbers &n = thesis::numbers();
  const thesis::TimeTable &t = figure == "fig5.1a"  ? n.fig5_1a
                               : figure == "fig5.2" ? n.fig5_2
                                                    : n.fig5_1b;
  Values v;
  for (std::size_t r = 0; r < t.widths.size(); ++r)
    for (std::size_t c = 0; c < thesis::blocks().size(); ++c)
      v[{t.widths[r], thesis::blocks()[c], "", ""}] = t.ms[r][c];
  return v;
}

std::string device_of(const std::string &csv) {
  if (!std::filesystem::exists(csv))
    return "";
  const cli::Table t = sweep::read_csv(csv);
  const std::size_t c = sweep::column_index("gpu_device");
  for (const auto &row : t.rows)
    if (const auto *s = std::get_if<std::string>(&row[c]); s && !s->empty())
      return *s;
  return "";
}

namespace {

// "a, b, c" of the distinct values in order of first appearance.
std::string distinct(const std::vector<std::string> &values) {
  std::vector<std::string> seen;
  for (const std::string &v : values)
    if (std::find(seen.begin(), seen.end(), v) == seen.end())
      seen.push_back(v);
  return join(seen);
}

std::string with_levels(const std::string &cache) {
  for (const auto &[name, levels] : sweep::cache_presets())
    if (name == cache && name != "table3")
      return cache + " (" + levels + ")";
  return cache;
}

} // namespace

std::string describe_csv(const std::string &csv) {
  if (!std::filesystem::exists(csv))
    return "not run";
  const cli::Table t = sweep::read_csv(csv);
  std::vector<std::string> sizes, blocks, types, caches;
  for (const auto &row : t.rows) {
    sizes.push_back(cli::format_cell(row[sweep::column_index("size")]));
    blocks.push_back(cli::format_cell(row[sweep::column_index("block")]));
    types.push_back(cli::format_cell(row[sweep::column_index("type")]));
    caches.push_back(with_levels(cli::format_cell(row[sweep::column_index("cache")])));
  }
  if (t.rows.empty())
    return "no rows";
  std::string d = std::to_string(t.rows.size()) + " points; N " + distinct(sizes) + "; block " +
                  distinct(blocks) + "; " + distinct(types);
  if (cli::format_cell(t.rows[0][2]).find("sim") != std::string::npos)
    d += "; simulated cache " + distinct(caches);
  return d;
}

std::string describe_grid(const sweep::Grid &g) {
  return "N " + join(g.values("size")) + "; block " + join(g.values("block")) + "; " +
         join(g.values("type"));
}

std::string order_invariance_why(const std::string &csv) {
  if (!std::filesystem::exists(csv))
    return "";
  const cli::Table t = sweep::read_csv(csv);
  if (t.rows.empty() || cli::format_cell(t.rows[0][sweep::column_index("kernel")]) != "matmul")
    return "";
  const auto &row = t.rows[0];
  const int64_t n = std::stoll(cli::format_cell(row[sweep::column_index("size")]));
  const std::string type = cli::format_cell(row[sweep::column_index("type")]);
  const int64_t elem = type == "half" ? 2 : type == "double" ? 8 : 4;
  std::string spec = cli::format_cell(row[sweep::column_index("cache")]);
  for (const auto &[name, levels] : sweep::cache_presets())
    if (name == spec)
      spec = levels;
  spec = spec.substr(0, spec.find('/')); // L1
  sim::Workload w;
  w.kind = sim::kind_of<sim::MatmulWorkload>();
  w.width = w.height = w.depth = n;
  w.elem_bytes = static_cast<int>(elem);
  const sim::CacheConfig l1 = config::parse_level(spec, w);
  if (n * elem < l1.line_bytes || n <= l1.capacity_lines)
    return "";
  return "every order gives the same count here: each thread reads a column of B, N = " +
         std::to_string(n) + " loads " + std::to_string(n * elem) +
         " bytes apart (a line each), and that column alone needs " + std::to_string(n) +
         " of the cache's " + std::to_string(l1.capacity_lines) +
         " lines, so LRU evicts every B line before its next use whatever the order of the "
         "threads; A's row is reused only within its " +
         std::to_string(l1.unit_bytes()) +
         "-byte units. The sequential simulator has no warps "
         "to share a B line between 32 threads at once, which is where column orders gain on a GPU";
}

bool all_equal(const Values &v) {
  if (v.size() < 2)
    return false;
  for (const auto &[k, x] : v)
    if (x != v.begin()->second)
      return false;
  return true;
}

std::string fixed(double v, int decimals) {
  if (!std::isfinite(v))
    return "n/a";
  std::ostringstream os;
  os << std::fixed << std::setprecision(decimals) << v;
  return os.str();
}

std::string pct(double fraction, int decimals) { return fixed(100.0 * fraction, decimals) + "%"; }

} // namespace cbi::reproduce
