#include "grid.hpp"

#include "cbi/error.hpp"
#include "cbi/parse.hpp"

#include <set>

namespace cbi::sweep {

void Grid::set(const std::string &axis_name, const std::vector<std::string> &texts) {
  const AxisDef &d = axis_def(axis_name);
  const std::string option = axis_option(d);
  if (texts.empty())
    throw UsageError(option, "needs at least one value");
  std::vector<AxisValue> values;
  std::vector<std::string> canonical; // 0256 is 256, tile:4x4 is tile:4
  for (const std::string &t : texts) {
    values.push_back(d.parse(t, option));
    canonical.push_back(d.format(values.back()));
  }
  refuse_repeats(texts, canonical, option, "each value once, a point each"); // was merged
  for (Axis &a : axes)
    if (a.def == &d)
      a.values = std::move(values);
}

const Axis &Grid::axis(const std::string &name) const {
  const AxisDef &d = axis_def(name);
  for (const Axis &a : axes)
    if (a.def == &d)
      return a;
  throw std::logic_error("grid '" + this->name + "' lacks the axis " + name);
}

std::vector<std::string> Grid::values(const std::string &name) const { return axis(name).texts(); }

Grid default_grid() {
  Grid g;
  for (const AxisDef &d : axis_defs())
    g.axes.push_back({&d, {}});
  g.set("kernel", {"stencil"});
  g.set("size", {"1024"});
  g.set("stencil", {"9x9"});
  g.set("depth", {"0"});
  g.set("type", {"float"});
  g.set("block", {"256"});
  g.set("order", {"linear"});
  g.set("cache", {"l1-64k"});
  g.set("remap_math", {"fast"});
  g.set("block_order", {"linear"});
  return g;
}

std::vector<Point> expand(const Grid &g) {
  const std::size_t n = axis_defs().size();
  if (g.axes.size() != n)
    throw std::logic_error("grid '" + g.name + "' lacks axes");
  for (const Axis &a : g.axes)
    if (a.values.empty())
      throw UsageError(axis_option(*a.def), "needs at least one value");
  std::vector<Point> points;
  std::set<std::string> seen;
  std::vector<std::size_t> at(n, 0);
  for (;;) {
    Point p;
    for (std::size_t a = 0; a < n; ++a) // kernel first: the others apply where it takes them
      g.axes[a].def->apply(g.axes[a].values[at[a]], p);
    p.device = g.device;
    if (seen.insert(p.key()).second) {
      p.index = static_cast<int64_t>(points.size());
      points.push_back(std::move(p));
    }
    std::size_t a = n;
    while (a > 0 && ++at[a - 1] == g.axes[a - 1].values.size())
      at[--a] = 0;
    if (a == 0)
      break;
  }
  return points;
}

std::string fingerprint(const Grid &g) {
  std::string all = g.metrics ? "metrics\n" : "\n";
  for (const Point &p : expand(g))
    all += p.key() + "\n";
  return hash_hex(all);
}

Shard parse_shard(const std::string &text, const std::string &option) {
  const auto slash = text.find('/');
  const std::string allowed = "allowed: k/n with 0 <= k < n, e.g. 0/4 ... 3/4";
  if (slash == std::string::npos)
    throw UsageError(option, "'" + text + "' is not k/n; " + allowed);
  Shard s;
  const std::string k = text.substr(0, slash);
  try {
    s.count = parse_positive(text.substr(slash + 1), option, 1 << 20);
    s.index = parse_count(k, option, 1 << 20, "the first shard");
  } catch (const UsageError &) {
    throw UsageError(option, "'" + text + "' is not k/n; " + allowed);
  }
  if (s.index >= s.count)
    throw UsageError(option, "shard " + text + " does not exist; " + allowed);
  return s;
}

} // namespace cbi::sweep
