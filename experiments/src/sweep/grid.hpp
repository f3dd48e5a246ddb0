// A sweep grid: one typed axis per axis definition (axis.hpp), expanded to points with stable ids
// and sliced into shards.
#pragma once

#include "cbi/config/axis.hpp"

#include <optional>
#include <string>
#include <vector>

namespace cbi::sweep {

// The sweep speaks config's vocabulary: the point, its axes, the engines' configurations
// (cbi/config/point.hpp, axis.hpp).
using namespace cbi::config;

struct Grid {
  std::string name = "custom";
  std::string description;
  std::vector<Axis> axes; // one per axis_defs() entry, in that order
  bool metrics = false;   // gpu: read hardware counters (CUPTI) for every point
  // The GPU model's device row for every point (cbi sweep --device; Point::device); absent: h100.
  std::optional<std::string> device;

  // Replaces an axis's values, parsed from their spellings (the command-line override). Throws
  // UsageError naming the axis's option for a bad value, --axis for an unknown axis.
  void set(const std::string &axis, const std::vector<std::string> &values);
  const Axis &axis(const std::string &name) const;
  std::vector<std::string> values(const std::string &axis) const; // canonical spellings
};

// A grid with every axis at its default: stencil 9x9 on 1024x1024 float, block 256, linear order,
// cache preset "l1-64k".
Grid default_grid();

// Cartesian product of the axes, last axis fastest; points equal after dropping the axes that do
// not apply to their kernel are kept once.
std::vector<Point> expand(const Grid &g);

// The grid's fingerprint (16 hex digits): a hash of every point's key in expansion order and of
// whether counters are read. Two grids with the same fingerprint write the same rows, so a CSV
// resumes or merges only into a run of its own grid.
std::string fingerprint(const Grid &g);

struct Shard {
  int64_t index = 0, count = 1; // shard `index` of `count`, 0-based
  bool contains(const Point &p) const { return p.index % count == index; }
  std::string text() const { return std::to_string(index) + "/" + std::to_string(count); }
};
// "k/n" with 0 <= k < n; round-robin over the point index so every shard gets large and small
// sizes.
Shard parse_shard(const std::string &text, const std::string &option = "--shard");

} // namespace cbi::sweep
