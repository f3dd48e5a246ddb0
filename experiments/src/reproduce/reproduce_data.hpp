// reproduce's view of a sweep CSV: one value column as numbers keyed by (column width, block, size,
// type), read through the sweep store (typed cells, orders parsed as remap::Order), and the helpers
// the judge and the report share.
#pragma once

#include "grid.hpp"

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace cbi::reproduce {

// naive (linear) = width 0.
struct Key {
  int width, block;
  std::string size, type;
  bool operator<(const Key &o) const {
    return std::tie(width, block, size, type) < std::tie(o.width, o.block, o.size, o.type);
  }
};
using Values = std::map<Key, double>;

// The finite values of `column` in the sweep CSV at `path` (none when the file is absent). Rows
// whose order is neither linear nor a column (tile, zigzag) are not part of the thesis's
// comparisons and are left out.
Values load(const std::string &path, const std::string &column);

// The value at (width, block), optionally of one size and type; NaN when absent.
double at(const Values &v, int width, int block, const std::string &size = "",
          const std::string &type = "");
std::set<int> blocks_of(const Values &v);
std::vector<std::string> sizes_of(const Values &v); // ascending by N

// min over `widths` of value/naive at one block; NaN without data.
double best_relative(const Values &v, int block, const std::vector<int> &widths, int *best_width,
                     const std::string &size = "", const std::string &type = "");
// The fastest column run against the fastest naive run, each at its best block: 1 - column/naive.
double best_gain(const Values &v, const std::vector<int> &widths);

// The best relative value per size at the first block (Figs 5.3/5.4).
struct Trend {
  std::vector<std::pair<std::string, double>> best; // size -> best relative value
};
Trend trend(const Values &v, const std::vector<int> &widths);
std::string trend_text(const Trend &t); // "256: 0.912, 512: 0.950"

// The thesis's table as Values (width, block).
Values thesis_values(const std::string &figure); // "fig5.1a", "fig5.1b", "fig5.2"

// The first non-empty gpu_device of a sweep CSV, "" when none.
std::string device_of(const std::string &csv);

// What a sweep CSV holds, from its rows: "17 points; N 4096; block 256; float; simulated cache
// l1-64k (size=64KiB,line=128,sector=32)"; "not run" when absent.
std::string describe_csv(const std::string &csv);
// The same of a grid's axes ("N 4096; block 32, 64, ...; float").
std::string describe_grid(const sweep::Grid &g);

// Why a simulated count of the matmul sweep at `csv` is the same for every order, in one sentence
// from its first row (N, element and cache sizes): each thread's column of B needs more lines than
// the cache holds, so LRU evicts every B line before its next use whatever the order. "" when
// that is not the reason (a stencil, or a cache that holds the column).
std::string order_invariance_why(const std::string &csv);

// True when every value of `v` is the same (and there are two or more).
bool all_equal(const Values &v);

std::string fixed(double v, int decimals = 2); // "n/a" when not finite
std::string pct(double fraction, int decimals = 1);

} // namespace cbi::reproduce
