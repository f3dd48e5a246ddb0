#include "cbi/config/cache.hpp"

#include "cbi/config/point.hpp"
#include "cbi/error.hpp"
#include "cbi/parse.hpp"
#include "cbi/sim/workloads.hpp"
#include "cbi/text.hpp"

#include <set>
#include <tuple>

namespace cbi::config {

namespace {

std::string bytes_text(int64_t bytes) {
  const std::pair<int64_t, const char *> units[] = {
      {int64_t{1} << 30, "GiB"}, {int64_t{1} << 20, "MiB"}, {int64_t{1} << 10, "KiB"}};
  for (const auto &[unit, name] : units)
    if (bytes % unit == 0)
      return std::to_string(bytes / unit) + name;
  return std::to_string(bytes);
}

// Sets `key` of `l` from `value`, as --level and --cache spell it.
void set_level_key(LevelSpec &l, const std::string &key, const std::string &value,
                   const std::string &spec, const std::string &option) {
  if (key == "size")
    l.capacity_bytes = parse_bytes(value, option);
  else if (key == "lines")
    l.capacity_lines = parse_positive(value, option, 1LL << 31);
  else if (key == "line")
    l.line_bytes = parse_positive(value, option, 1 << 20);
  else if (key == "ways")
    l.ways = parse_count(value, option, 1LL << 31, "ways=0: fully associative");
  else if (key == "policy")
    l.policy = sim::parse_policy(value, option);
  else if (key == "sector")
    l.sector_bytes = parse_positive(value, option, 1 << 20);
  else if (key == "seed")
    l.seed = static_cast<uint64_t>(parse_positive(value, option, 1LL << 62));
  else
    throw UsageError(option, "unknown key '" + key + "' in '" + spec +
                                 "'; allowed: size, lines, line, ways, policy, sector, seed");
}

// The item a number in it failed for, named whole: "--level: 'size=0' is out of range; allowed:
// a size from 1 B ..." (the message said '0', and not which key it was).
[[noreturn]] void rethrow_naming_item(const UsageError &e, const std::string &item,
                                      const std::string &value, const std::string &option) {
  const std::string what = e.what(), quoted = "'" + value + "'", empty = "empty value";
  if (what.rfind(quoted, 0) == 0)
    throw UsageError(option, "'" + item + "'" + what.substr(quoted.size()));
  if (what.rfind(empty, 0) == 0)
    throw UsageError(option, "'" + item + "' has an empty value" + what.substr(empty.size()));
  throw e;
}

} // namespace

bool LevelSpec::operator==(const LevelSpec &o) const {
  return std::tie(capacity_bytes, capacity_lines, line_bytes, ways, policy, sector_bytes, seed) ==
         std::tie(o.capacity_bytes, o.capacity_lines, o.line_bytes, o.ways, o.policy,
                  o.sector_bytes, o.seed);
}

LevelSpec parse_level_spec(const std::string &spec, const std::string &option) {
  LevelSpec l;
  std::set<std::string> seen;
  for (const std::string &item : parse_list(spec, option)) {
    const auto eq = item.find('=');
    if (eq == std::string::npos) // --cache 1KiB: no key to say what 1KiB is
      throw UsageError(option, "'" + item + "' in '" + spec +
                                   "' is not KEY=VALUE; allowed: keys size, lines, line, ways, "
                                   "policy, sector, seed, as in size=32KiB,line=128,ways=8");
    const std::string key = item.substr(0, eq),
                      value = eq == std::string::npos ? "" : item.substr(eq + 1);
    if (!seen.insert(key).second)
      throw UsageError(option, "'" + key + "' given twice in '" + spec +
                                   "'; allowed: each key once per level");
    if ((key == "size" && seen.count("lines")) || (key == "lines" && seen.count("size")))
      throw UsageError(option, "'" + spec +
                                   "' gives both size and lines; allowed: one of "
                                   "size=BYTES or lines=N");
    try {
      set_level_key(l, key, value, spec, option);
    } catch (const UsageError &e) {
      rethrow_naming_item(e, item, value, option);
    }
  }
  const sim::Policy policy = l.policy.value_or(sim::Policy::lru);
  if (l.seed && !sim::policy_uses_seed(policy))
    throw UsageError(option, "'" + spec + "' gives a seed, and policy " + sim::to_string(policy) +
                                 " draws no random numbers; allowed: seed=N with "
                                 "policy=random or policy=volta, or no seed");
  return l;
}

Cache parse_cache(const std::string &text, const std::string &option) {
  if (text.empty())
    throw UsageError(option, "empty cache spec; allowed: a preset (l1-64k, ...) or level specs "
                             "joined by '/'");
  Cache c;
  std::string specs = text;
  for (const auto &[name, levels] : cache_presets())
    if (text == name) {
      c.preset = name;
      specs = name == "table3" ? "" : levels; // table3: one level, all of it the workload's
    }
  if (c.preset == "table3") {
    c.levels = {LevelSpec{}};
    return c;
  }
  if (c.preset.empty() && text.find('=') == std::string::npos) { // a preset's name, misspelled
    const std::string names =
        join(cache_presets(), ", ", [](const auto &preset) { return preset.first; });
    throw UsageError(option, "unknown cache '" + text + "'; allowed: a preset (" + names +
                                 "; cbi sweep --list describes each) or levels joined by '/', "
                                 "each KEY=VALUE items as in size=32KiB,line=128,ways=8");
  }
  for (const std::string &spec : split_list(specs, '/')) {
    c.levels.push_back(parse_level_spec(spec, option));
    if (!c.levels.back().capacity_bytes && !c.levels.back().capacity_lines)
      throw UsageError(option, "'" + spec + "' gives no capacity; allowed: size=BYTES or lines=N");
  }
  return c;
}

std::string spell(const LevelSpec &l) {
  std::string s;
  auto add = [&](const char *key, const std::string &value) {
    s += (s.empty() ? "" : ",") + std::string(key) + "=" + value;
  };
  if (l.capacity_bytes)
    add("size", bytes_text(*l.capacity_bytes));
  if (l.capacity_lines)
    add("lines", std::to_string(*l.capacity_lines));
  if (l.line_bytes)
    add("line", std::to_string(*l.line_bytes));
  if (l.ways)
    add("ways", std::to_string(*l.ways));
  if (l.policy)
    add("policy", sim::to_string(*l.policy));
  if (l.sector_bytes)
    add("sector", std::to_string(*l.sector_bytes));
  if (l.seed)
    add("seed", std::to_string(*l.seed));
  return s;
}

std::string spell(const Cache &c) {
  if (!c.preset.empty())
    return c.preset;
  return join(c.levels, "/", [](const LevelSpec &l) { return spell(l); });
}

LevelSpec spec_of(const sim::CacheConfig &c) {
  LevelSpec l;
  l.capacity_lines = c.capacity_lines;
  l.line_bytes = c.line_bytes;
  l.ways = c.ways;
  l.policy = c.policy;
  if (c.sector_bytes)
    l.sector_bytes = c.sector_bytes;
  if (c.seed != 1 && sim::policy_uses_seed(c.policy)) // lru and fifo draw nothing: no seed
    l.seed = c.seed;
  return l;
}

sim::CacheConfig resolve(const LevelSpec &l, const sim::Workload &w, const std::string &option) {
  sim::CacheConfig c;
  c.line_bytes = l.line_bytes.value_or(4 * w.elem_bytes);
  if (l.capacity_bytes) {
    if (*l.capacity_bytes % c.line_bytes != 0)
      throw UsageError(option, "size " + std::to_string(*l.capacity_bytes) +
                                   " B is not a whole number of " + std::to_string(c.line_bytes) +
                                   " B lines; allowed: a multiple of the line size");
    c.capacity_lines = *l.capacity_bytes / c.line_bytes;
  } else {
    c.capacity_lines = l.capacity_lines.value_or(sim::workload_traits(w.kind).table_lines);
  }
  c.ways = l.ways.value_or(0);
  c.policy = l.policy.value_or(sim::Policy::lru);
  c.sector_bytes = l.sector_bytes.value_or(0);
  c.seed = l.seed.value_or(1);
  try {
    sim::validate(c);
  } catch (const UsageError &e) {
    throw UsageError(option, e.what()); // every field of a level is set by its spec
  }
  return c;
}

} // namespace cbi::config
