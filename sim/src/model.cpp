#include "cbi/sim/model.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace cbi::sim {
namespace {

std::string num(double v) { return model_num(v); }

// Largest number of lines landing in one set among `rows` element addresses base + k*pitch.
int64_t max_per_set(int64_t first_elem, int64_t pitch_elems, int64_t rows, int64_t elem_bytes,
                    const CacheConfig &cc) {
  const int64_t sets = cc.sets();
  std::map<int64_t, int64_t> per_set;
  std::map<int64_t, bool> seen_line;
  int64_t worst = 0;
  for (int64_t k = 0; k < rows; ++k) {
    const int64_t line = (first_elem + k * pitch_elems) * elem_bytes / cc.line_bytes;
    if (seen_line[line])
      continue;
    seen_line[line] = true;
    worst = std::max(worst, ++per_set[line % sets]);
  }
  return worst;
}

} // namespace

int64_t max_lines_per_set(const SimConfig &c, int level) {
  const CacheConfig &cc = c.levels[static_cast<std::size_t>(level)];
  const Workload &w = c.workload;
  if (cc.sets() == 1)
    return 0;
  // Check several x positions so that a window straddling a set boundary is not missed.
  int64_t worst = 0;
  const int64_t elems_per_line = cc.line_bytes / w.elem_bytes;
  for (int64_t x = 0; x < std::min<int64_t>(w.width, 4 * elems_per_line);
       x += std::max<int64_t>(1, elems_per_line / 2)) {
    const WindowColumn col =
        visit_workload(w.kind, [&](auto tag) { return decltype(tag)::type::window_column(w, x); });
    worst =
        std::max(worst, max_per_set(col.first_elem, col.pitch_elems, col.rows, w.elem_bytes, cc));
  }
  return worst;
}

static LevelModel model_level(const SimConfig &c, int level, int64_t active_threads,
                              int64_t &suggested_c) {
  const Workload &w = c.workload;
  const CacheConfig &cc = c.levels[static_cast<std::size_t>(level)];
  LevelModel m;
  m.level = level;
  const remap::Order &o = c.order;
  const remap::ModelShape shape = remap::model_shape(o); // the order's own (order_traits.hpp)
  const ModelContext ctx{w,
                         cc,
                         level,
                         active_threads,
                         static_cast<int64_t>(shape.column_w),
                         static_cast<int64_t>(shape.tile_w),
                         static_cast<int64_t>(shape.tile_h),
                         c.granularity,
                         m,
                         suggested_c};
  visit_workload(w.kind, [&](auto tag) { decltype(tag)::type::model(ctx); });

  if (cc.ways != 0 && cc.sets() > 1) {
    const std::string conflicts = set_conflict_warning(c, level);
    if (!conflicts.empty())
      m.notes.push_back(conflicts +
                        "; the model ignores associativity (§3.1) and cannot see these misses");
    else
      m.notes.push_back("set-associative (" + num(double(cc.ways_effective())) +
                        " ways): the model ignores associativity (§3.1); no set holds more than " +
                        num(double(max_lines_per_set(c, level))) + " lines of one window here");
  }
  if (cc.policy != Policy::lru)
    m.notes.push_back(std::string("policy ") + to_string(cc.policy) +
                      ": the model assumes LRU (§3.1)");
  if (cc.sector_bytes)
    m.notes.push_back("sectored lines: the simulation counts " + num(double(cc.sector_bytes)) +
                      "-byte sectors, the model whole lines");
  if (level > 0)
    m.notes.push_back("level " + std::to_string(level + 1) +
                      " is modelled as if it stood alone; it "
                      "actually sees only the misses of the level above");
  return m;
}

std::string set_conflict_warning(const SimConfig &c, int level) {
  const CacheConfig &cc = c.levels[static_cast<std::size_t>(level)];
  if (cc.ways == 0 || cc.sets() <= 1)
    return "";
  const int64_t crowd = max_lines_per_set(c, level);
  if (crowd <= cc.ways_effective())
    return "";
  const Workload &w = c.workload;
  return "set conflicts: the " + num(double(w.width * w.elem_bytes)) + "-byte row pitch maps " +
         num(double(crowd)) + " lines of one " +
         visit_workload(w.kind, [](auto tag) { return decltype(tag)::type::window_name; }) +
         " to a single set of " + num(double(cc.ways_effective())) + " ways";
}

ModelReport analyze_model(const SimConfig &c, int64_t active_threads) {
  validate(c);
  ModelReport r;
  for (int k = 0; k < static_cast<int>(c.levels.size()); ++k)
    r.levels.push_back(model_level(c, k, active_threads, r.suggested_column_width));
  return r;
}

} // namespace cbi::sim
