// Typed axes, after nvbench's int64_axis / string_axis: an axis is a definition (name, how a value
// is parsed, spelled and applied to a Point) plus its typed values. A grid is one axis per
// definition, in axis_defs() order; a point is the tuple of one value per axis, applied in turn.
// Adding an axis: a field in Point, one AxisDef in axis.cpp.
#pragma once

#include "cbi/config/point.hpp"

#include <string>
#include <variant>
#include <vector>

namespace cbi::config {

using AxisValue = std::variant<int64_t, Extent, Cache, remap::Order, kernels::KernelKind,
                               kernels::ElemType, remap::RemapMath>;

struct AxisDef {
  const char *name; // the CSV column; the option is --name with '_' as '-' (axis_option)
  // Parses one value; throws UsageError naming `option`.
  AxisValue (*parse)(const std::string &text, const std::string &option);
  std::string (*format)(const AxisValue &v); // canonical spelling
  // Writes `v` into `p` where it applies to p.kernel (the kernel axis comes first).
  void (*apply)(const AxisValue &v, Point &p);
  // The value `p` holds, or nothing where the axis does not apply.
  std::optional<AxisValue> (*get)(const Point &p);
  // Whether the value changes the simulation (block sizes and GPU-only settings do not; the
  // block order of the tiled kernels does: sweeps shared one simulation across block orders).
  bool simulated = true;
  // For an axis added after sweeps were recorded: the spelling that CSVs without its column imply.
  // Keys leave the axis out at this value, so those CSVs keep their point ids and stay readable.
  const char *implied = nullptr;
};

// Every axis in canonical order (point keys, CSV columns): kernel, size, stencil, depth, type,
// block, order, cache, remap_math, block_order.
const std::vector<AxisDef> &axis_defs();
const AxisDef &axis_def(const std::string &name); // UsageError naming --axis when unknown
std::vector<std::string> axis_names();
std::string axis_option(const AxisDef &d); // "--remap-math" for remap_math

struct Axis {
  const AxisDef *def = nullptr;
  std::vector<AxisValue> values;

  std::string name() const { return def->name; }
  std::vector<std::string> texts() const; // canonical spellings
};

// The axis's value of `p` in its canonical spelling, nothing where it does not apply (an empty CSV
// cell, JSON null).
std::optional<std::string> axis_text(const AxisDef &d, const Point &p);

// The spelling that sweep CSVs before November 2026 wrote for an axis that does not apply; readers
// take it as an empty cell.
constexpr const char *kOldAbsentCell = "-";

} // namespace cbi::config
