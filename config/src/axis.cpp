// The axis definitions: how each axis parses, spells and applies its typed values.
#include "cbi/config/axis.hpp"

#include "cbi/order_text.hpp"

#include "cbi/error.hpp"
#include "cbi/parse.hpp"
#include "cbi/sim/workloads/stencil.hpp"
#include "cbi/text.hpp"

#include <algorithm>

namespace cbi::config {

namespace {

std::string extent_text(const Extent &e, bool square_short) {
  return square_short && e.w == e.h ? std::to_string(e.w)
                                    : std::to_string(e.w) + "x" + std::to_string(e.h);
}

const std::vector<AxisDef> kDefs = {
    {"kernel",
     [](const std::string &v, const std::string &opt) -> AxisValue {
       // kernels' own list and message, as bench says them (sweep listed them in another order)
       return kernels::parse_kernel(v, opt);
     },
     [](const AxisValue &v) -> std::string {
       return kernels::to_string(std::get<kernels::KernelKind>(v));
     },
     [](const AxisValue &v, Point &p) { p.kernel = std::get<kernels::KernelKind>(v); },
     [](const Point &p) -> std::optional<AxisValue> { return p.kernel; }},
    {"size",
     [](const std::string &v, const std::string &opt) -> AxisValue {
       const auto [w, h] = parse_size(v, opt);
       return Extent{w, h};
     },
     [](const AxisValue &v) { return extent_text(std::get<Extent>(v), true); },
     [](const AxisValue &v, Point &p) { p.size = std::get<Extent>(v); },
     [](const Point &p) -> std::optional<AxisValue> { return p.size; }},
    {"stencil",
     [](const std::string &v, const std::string &opt) -> AxisValue {
       const auto [w, h] = parse_extent(v, opt, true, 1 << 10);
       sim::check_stencil_window(w, h, opt);
       return Extent{w, h};
     },
     [](const AxisValue &v) { return extent_text(std::get<Extent>(v), false); },
     [](const AxisValue &v, Point &p) {
       p.stencil = kernels::is_stencil(p.kernel) ? std::optional<Extent>(std::get<Extent>(v))
                                                 : std::nullopt;
     },
     [](const Point &p) -> std::optional<AxisValue> {
       return p.stencil ? std::optional<AxisValue>(*p.stencil) : std::nullopt;
     }},
    {"depth",
     [](const std::string &v, const std::string &opt) -> AxisValue { return parse_depth(v, opt); },
     [](const AxisValue &v) { return std::to_string(std::get<int64_t>(v)); },
     [](const AxisValue &v, Point &p) {
       p.depth = kernels::is_stencil(p.kernel) ? std::nullopt
                                               : std::optional<int64_t>(std::get<int64_t>(v));
     },
     [](const Point &p) -> std::optional<AxisValue> {
       return p.depth ? std::optional<AxisValue>(*p.depth) : std::nullopt;
     }},
    {"type",
     [](const std::string &v, const std::string &opt) -> AxisValue {
       return kernels::parse_type(v, opt);
     },
     [](const AxisValue &v) -> std::string {
       return kernels::to_string(std::get<kernels::ElemType>(v));
     },
     [](const AxisValue &v, Point &p) { p.type = std::get<kernels::ElemType>(v); },
     [](const Point &p) -> std::optional<AxisValue> { return p.type; }},
    {"block",
     [](const std::string &v, const std::string &opt) -> AxisValue {
       // As tune, simulate and bench take it: 1 to 1024 (tiny's one-thread SM needs 1).
       return int64_t{parse_positive(v, opt, kernels::kMaxBlockThreads)};
     },
     [](const AxisValue &v) { return std::to_string(std::get<int64_t>(v)); },
     [](const AxisValue &v, Point &p) { p.block_threads = int(std::get<int64_t>(v)); },
     [](const Point &p) -> std::optional<AxisValue> { return int64_t{p.block_threads}; }, false},
    {"order",
     [](const std::string &v, const std::string &opt) -> AxisValue {
       return remap::parse_order(v, opt);
     },
     [](const AxisValue &v) { return remap::to_string(std::get<remap::Order>(v)); },
     [](const AxisValue &v, Point &p) {
       p.order = kernels::is_remapped(p.kernel)
                     ? std::optional<remap::Order>(std::get<remap::Order>(v))
                     : std::nullopt;
     },
     [](const Point &p) -> std::optional<AxisValue> {
       return p.order ? std::optional<AxisValue>(*p.order) : std::nullopt;
     }},
    {"cache",
     [](const std::string &v, const std::string &opt) -> AxisValue { return parse_cache(v, opt); },
     [](const AxisValue &v) { return spell(std::get<Cache>(v)); },
     [](const AxisValue &v, Point &p) { p.cache = std::get<Cache>(v); },
     [](const Point &p) -> std::optional<AxisValue> { return p.cache; }},
    {"remap_math",
     [](const std::string &v, const std::string &opt) -> AxisValue {
       return remap::parse_remap_math(v, opt);
     },
     [](const AxisValue &v) -> std::string {
       return remap::to_string(std::get<remap::RemapMath>(v));
     },
     [](const AxisValue &v, Point &p) {
       p.remap_math = kernels::is_remapped(p.kernel)
                          ? std::optional<remap::RemapMath>(std::get<remap::RemapMath>(v))
                          : std::nullopt;
     },
     [](const Point &p) -> std::optional<AxisValue> {
       return p.remap_math ? std::optional<AxisValue>(*p.remap_math) : std::nullopt;
     },
     false, "fast"},
    {"block_order",
     [](const std::string &v, const std::string &opt) -> AxisValue {
       return remap::parse_order(v, opt);
     },
     [](const AxisValue &v) { return remap::to_string(std::get<remap::Order>(v)); },
     [](const AxisValue &v, Point &p) {
       p.block_order = kernels::is_block_ordered(p.kernel)
                           ? std::optional<remap::Order>(std::get<remap::Order>(v))
                           : std::nullopt;
     },
     [](const Point &p) -> std::optional<AxisValue> {
       return p.block_order ? std::optional<AxisValue>(*p.block_order) : std::nullopt;
     },
     true, "linear"}, // simulated: the tiled kernels' CTAs replay in this order
};

} // namespace

const std::vector<AxisDef> &axis_defs() { return kDefs; }

const AxisDef &axis_def(const std::string &name) {
  for (const AxisDef &d : kDefs)
    if (name == d.name || "--" + name == axis_option(d))
      return d;
  throw UsageError("--axis", "unknown axis '" + name + "'; allowed: " + join(axis_names()));
}

std::vector<std::string> axis_names() {
  std::vector<std::string> names;
  for (const AxisDef &d : kDefs)
    names.push_back(d.name);
  return names;
}

std::string axis_option(const AxisDef &d) {
  std::string option = std::string("--") + d.name;
  std::replace(option.begin(), option.end(), '_', '-');
  return option;
}

std::vector<std::string> Axis::texts() const {
  std::vector<std::string> t;
  for (const AxisValue &v : values)
    t.push_back(def->format(v));
  return t;
}

std::optional<std::string> axis_text(const AxisDef &d, const Point &p) {
  const std::optional<AxisValue> v = d.get(p);
  return v ? std::optional<std::string>(d.format(*v)) : std::nullopt;
}

} // namespace cbi::config
