// A simulator cache as a point holds it: typed levels, never text. Two fields of a level may follow
// the point's workload (the line, 4 elements by default; the capacity, Table 3.1/3.2's lines when
// none is given), so a level keeps what was given and is resolved against a workload
// (resolve) when the simulator's configuration is made. Text appears only at the edges: a --level
// or --cache spec is parsed into levels here, and spell() writes the canonical spec back for CSV
// cells and point keys.
#pragma once

#include "cbi/sim/cache.hpp"
#include "cbi/sim/workload.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cbi::config {

// One level: "size=32KiB,line=128,ways=8,policy=lru,sector=32,seed=1" or lines=N for the size.
struct LevelSpec {
  std::optional<int64_t> capacity_bytes; // size=BYTES
  std::optional<int64_t> capacity_lines; // lines=N; neither: the workload's table_lines
  std::optional<int64_t> line_bytes;     // line=B; absent: 4 elements of the workload
  std::optional<int64_t> ways;           // absent: fully associative
  std::optional<sim::Policy> policy;     // absent: lru
  std::optional<int64_t> sector_bytes;   // absent: unsectored
  std::optional<uint64_t> seed;          // absent: 1
  bool operator==(const LevelSpec &o) const;
};

struct Cache {
  std::string preset;            // the preset's name ("l1-64k", "table3"); empty: levels as given
  std::vector<LevelSpec> levels; // L1 first
  bool operator==(const Cache &o) const { return preset == o.preset && levels == o.levels; }
};

// Parses one level spec; UsageError naming `option` for an unknown or repeated key, a bad value,
// or both size and lines.
LevelSpec parse_level_spec(const std::string &spec, const std::string &option);
// A preset of cache_presets() (point.hpp) by name, or level specs joined by '/'.
Cache parse_cache(const std::string &text, const std::string &option);

// The canonical spec, the keys that were given in the order size|lines, line, ways, policy,
// sector, seed (sizes in the largest binary unit that divides them: 64KiB, 50MiB).
std::string spell(const LevelSpec &l);
// The preset's name, else the levels' specs joined by '/'.
std::string spell(const Cache &c);

// Every field of `c` given, so that resolve() gives `c` back and spell() writes
// "lines=24,line=16,ways=0,policy=lru" (plus sector and seed where set).
LevelSpec spec_of(const sim::CacheConfig &c);

// The level for workload `w`: the line 4 elements where absent, the capacity the workload's table
// lines where absent, a size in whole lines; validated. UsageError naming `option`.
sim::CacheConfig resolve(const LevelSpec &l, const sim::Workload &w, const std::string &option);

} // namespace cbi::config
