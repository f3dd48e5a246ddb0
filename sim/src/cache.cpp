// Cache level implementation: set-associative arrays for small ways, a hash index plus recency list
// for fully associative caches with many lines.
#include "cbi/sim/cache.hpp"

#include "engine.hpp"

#include "cbi/error.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace cbi::sim {
namespace {

constexpr int64_t kMaxArrayWays = 64; // above this a fully associative cache uses the hash index

std::string bytes_text(int64_t bytes) {
  if (bytes >= (1 << 20) && bytes % (1 << 20) == 0)
    return std::to_string(bytes >> 20) + " MiB";
  if (bytes >= (1 << 10) && bytes % (1 << 10) == 0)
    return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " B";
}

} // namespace

const char *to_string(Policy p) {
  switch (p) {
  case Policy::fifo:
    return "fifo";
  case Policy::random:
    return "random";
  case Policy::volta:
    return "volta";
  default:
    return "lru";
  }
}

Policy parse_policy(const std::string &text, const std::string &field) {
  if (text == "lru")
    return Policy::lru;
  if (text == "fifo")
    return Policy::fifo;
  if (text == "random")
    return Policy::random;
  if (text == "volta")
    return Policy::volta;
  throw UsageError(field, "unknown policy '" + text + "'; allowed: lru, fifo, random, volta");
}

std::string CacheConfig::describe() const {
  std::string s = bytes_text(capacity_bytes()) + " ";
  s += ways == 0 || ways == capacity_lines ? "fully associative" : std::to_string(ways) + "-way";
  s += std::string(" ") + to_string(policy) + ", " + std::to_string(line_bytes) + " B lines";
  if (sector_bytes)
    s += " (" + std::to_string(sector_bytes) + " B sectors)";
  return s;
}

void validate(const CacheConfig &c, const std::string &field) {
  if (c.line_bytes < 1 || c.line_bytes > (1 << 20))
    throw UsageError(field + ".line_bytes", "line size " + std::to_string(c.line_bytes) +
                                                " B is not allowed; allowed: 1 B to 1 MiB");
  if (c.capacity_lines < 1 || c.capacity_lines > (1LL << 31))
    throw UsageError(field + ".capacity", "capacity of " + std::to_string(c.capacity_lines) +
                                              " lines is not allowed; allowed: 1 to 2^31 lines");
  if (c.ways < 0 || c.ways > c.capacity_lines || c.capacity_lines % c.ways_effective() != 0)
    throw UsageError(field + ".ways",
                     "capacity of " + std::to_string(c.capacity_lines) +
                         " lines does not "
                         "divide into whole sets of " +
                         std::to_string(c.ways) +
                         " ways; allowed: ways = 0 (fully associative) or a divisor of the "
                         "line count");
  if (c.ways > kMaxArrayWays && c.sets() > 1)
    throw UsageError(field + ".ways", std::to_string(c.ways) +
                                          " ways is not supported with several sets; "
                                          "allowed: up to 64 ways, or 0 (fully associative)");
  if (c.sector_bytes != 0) {
    if (c.sector_bytes < 1 || c.line_bytes % c.sector_bytes != 0 ||
        c.line_bytes / c.sector_bytes > 8)
      throw UsageError(field + ".sector_bytes",
                       "sector size " + std::to_string(c.sector_bytes) + " B does not split the " +
                           std::to_string(c.line_bytes) +
                           " B line; allowed: a divisor giving 1 to 8 sectors per line");
  }
}

Cache::Cache(const CacheConfig &config)
    : m_config(config), m_ways(static_cast<uint32_t>(config.ways_effective())),
      m_sets(static_cast<uint64_t>(config.sets())),
      m_sectors_per_line(config.sector_bytes ? config.line_bytes / config.sector_bytes : 1),
      m_rng(config.seed * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL) {
  validate(config);
  m_layout = m_sets == 1 && m_ways > kMaxArrayWays ? Layout::hashed : Layout::narrow;
  m_sets_pow2 = (m_sets & (m_sets - 1)) == 0;
  m_set_mask = m_sets_pow2 ? m_sets - 1 : 0;
  const uint64_t spl = static_cast<uint64_t>(m_sectors_per_line);
  m_sector_shift = (spl & (spl - 1)) == 0 ? __builtin_ctzll(spl) : -1;
  m_narrow_limit = kInvalid32 - 1; // leaves kInvalid32 free to mark empty ways
  if (m_layout == Layout::hashed) {
    m_stride = m_ways;
    m_narrow_limit = 0;
    m_tags64.assign(m_ways, kInvalid64);
    m_valid.assign(m_ways, 0);
    m_prev.assign(m_ways, -1);
    m_next.assign(m_ways, -1);
    std::size_t buckets = 16;
    while (buckets < 2 * m_tags64.size())
      buckets <<= 1;
    m_hash_keys.assign(buckets, kInvalid64);
    m_hash_vals.assign(buckets, -1);
    m_hash_mask = buckets - 1;
    return;
  }
  m_stride = (m_ways + 3) / 4 * 4; // whole 16-byte groups of 32-bit tags for the SIMD compare
  const std::size_t slots = static_cast<std::size_t>(m_sets * m_stride);
  m_tags32.assign(slots, kInvalid32);
  if (m_sectors_per_line > 1)
    m_valid.assign(slots, 0);
  if (config.policy == Policy::lru || config.policy == Policy::fifo)
    m_head.assign(static_cast<std::size_t>(m_sets), 0);
}

void Cache::reset() { *this = Cache(m_config); }

double state_bytes(const CacheConfig &c) {
  const double ways = double(c.ways_effective()), sets = double(c.sets());
  const double sectors = c.sector_bytes ? double(c.line_bytes / c.sector_bytes) : 1;
  const double volta_free = c.policy == Policy::volta ? 4.0 * ways * sets : 0; // m_free
  if (sets == 1 && ways > kMaxArrayWays) { // hashed: the constructor's sizes, exactly
    double buckets = 16;
    while (buckets < 2 * ways)
      buckets *= 2;
    // per slot a 64-bit tag, a sector mask and two 32-bit links; per bucket a key and a slot
    return ways * (8 + 1 + 4 + 4) + buckets * (8 + 4) + volta_free;
  }
  const double slots = sets * std::ceil(ways / 4) * 4; // ways rounded up to whole groups of 4
  return slots * (4 + 8 + (sectors > 1 ? 1 : 0)) + sets + volta_free;
}

CacheStats Cache::stats() const {
  CacheStats s;
  s.accesses = m_accesses;
  s.misses = m_misses;
  s.hits = m_accesses - m_misses;
  s.fetches = m_misses;
  s.evictions = m_evictions;
  s.bytes_fetched = m_misses * m_config.unit_bytes();
  s.loads = m_accesses; // a cache alone cannot tell stores; Hierarchy::stats splits them
  s.load_misses = m_misses;
  return s;
}

namespace {
CacheConfig fully_associative_lru(CacheConfig c) {
  c.ways = 0;
  c.policy = Policy::lru;
  return c;
}
} // namespace

MissClassifier::MissClassifier(const CacheConfig &level) : m_shadow(fully_associative_lru(level)) {}

double MissClassifier::state_bytes(const CacheConfig &level, int64_t address_bytes) {
  const double units = double(address_bytes) / double(level.unit_bytes()) + 1;
  const double pages = std::ceil(units / double(uint64_t{1} << kPageShift));
  // a page: its bits, its vector and its entry in m_pages (which may hold twice the entries)
  const double page_bytes = double(uint64_t{1} << kPageShift) / 8 + 24 + 2 * 32;
  return sim::state_bytes(fully_associative_lru(level)) + pages * page_bytes;
}

void MissClassifier::find_page(uint64_t page) {
  auto it = std::lower_bound(m_pages.begin(), m_pages.end(), page,
                             [](const auto &p, uint64_t key) { return p.first < key; });
  if (it == m_pages.end() || it->first != page)
    it = m_pages.insert(it, {page, std::vector<uint64_t>(std::size_t{1} << (kPageShift - 6), 0)});
  m_last_page = page;
  m_last_bits = it->second.data(); // stays valid: moving a vector keeps its buffer
}

uint64_t Cache::next_random() { // xorshift64*: seeded, reproducible
  m_rng ^= m_rng >> 12;
  m_rng ^= m_rng << 25;
  m_rng ^= m_rng >> 27;
  return m_rng * 0x2545F4914F6CDD1DULL;
}

void Cache::go_wide() {
  m_tags64.resize(m_tags32.size());
  for (std::size_t slot = 0; slot < m_tags32.size(); ++slot)
    m_tags64[slot] = widen_tag(m_tags32[slot]);
  m_tags32 = {};
  m_layout = Layout::wide;
  m_narrow_limit = 0;
}

bool Cache::lookup(uint64_t unit) {
  switch (m_layout) {
  case Layout::narrow:
    return detail::Engines::lookup_any<uint32_t>(*this, unit);
  case Layout::wide:
    return detail::Engines::lookup_any<uint64_t>(*this, unit);
  default:
    return lookup_hashed(unit);
  }
}

// ---- hashed fully associative -------------------------------------------------------------

static inline uint64_t hash_of(uint64_t key) { return key * 0x9E3779B97F4A7C15ULL; }

int32_t Cache::hash_find(uint64_t line) const {
  for (uint64_t b = (hash_of(line) >> 20) & m_hash_mask;; b = (b + 1) & m_hash_mask) {
    if (m_hash_keys[b] == line)
      return m_hash_vals[b];
    if (m_hash_keys[b] == kInvalid64)
      return -1;
  }
}

void Cache::hash_insert(uint64_t line, int32_t slot) {
  uint64_t b = (hash_of(line) >> 20) & m_hash_mask;
  while (m_hash_keys[b] != kInvalid64)
    b = (b + 1) & m_hash_mask;
  m_hash_keys[b] = line;
  m_hash_vals[b] = slot;
}

void Cache::hash_erase(uint64_t line) { // backward-shift deletion keeps probe chains intact
  uint64_t b = (hash_of(line) >> 20) & m_hash_mask;
  while (m_hash_keys[b] != line)
    b = (b + 1) & m_hash_mask;
  uint64_t hole = b;
  for (uint64_t j = (hole + 1) & m_hash_mask; m_hash_keys[j] != kInvalid64;
       j = (j + 1) & m_hash_mask) {
    const uint64_t home = (hash_of(m_hash_keys[j]) >> 20) & m_hash_mask;
    // Move j into the hole if its home is not cyclically in (hole, j].
    const bool home_between = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
    if (!home_between) {
      m_hash_keys[hole] = m_hash_keys[j];
      m_hash_vals[hole] = m_hash_vals[j];
      hole = j;
    }
  }
  m_hash_keys[hole] = kInvalid64;
  m_hash_vals[hole] = -1;
}

void Cache::list_unlink(int32_t slot) {
  const int32_t p = m_prev[slot], n = m_next[slot];
  (p >= 0 ? m_next[p] : m_list_head) = n;
  (n >= 0 ? m_prev[n] : m_list_tail) = p;
  m_prev[slot] = m_next[slot] = -1;
}

void Cache::list_push_front(int32_t slot) {
  m_prev[slot] = -1;
  m_next[slot] = m_list_head;
  if (m_list_head >= 0)
    m_prev[m_list_head] = slot;
  m_list_head = slot;
  if (m_list_tail < 0)
    m_list_tail = slot;
}

int32_t Cache::evict_hashed_slot() {
  const int32_t capacity = static_cast<int32_t>(m_tags64.size());
  auto drop = [this](int32_t slot) {
    if (m_tags64[slot] == kInvalid64)
      return;
    ++m_evictions;
    hash_erase(m_tags64[slot]);
    m_tags64[slot] = kInvalid64;
    m_valid[slot] = 0;
  };
  if (!m_free.empty()) {
    const int32_t slot = m_free.back();
    m_free.pop_back();
    return slot;
  }
  if (m_used < capacity)
    return m_used++;
  switch (m_config.policy) {
  case Policy::lru:
  case Policy::fifo: {
    const int32_t slot = m_list_tail;
    list_unlink(slot);
    drop(slot);
    return slot;
  }
  case Policy::random: {
    const int32_t slot = static_cast<int32_t>(next_random() % static_cast<uint64_t>(capacity));
    drop(slot);
    return slot;
  }
  case Policy::volta: {
    const int32_t slot = static_cast<int32_t>(next_random() % static_cast<uint64_t>(capacity));
    for (int32_t e = 0; e < std::min<int32_t>(4, capacity); ++e) {
      const int32_t k = (slot + e) % capacity;
      drop(k);
      if (e > 0)
        m_free.push_back(k);
    }
    return slot;
  }
  }
  return 0;
}

bool Cache::lookup_hashed(uint64_t unit) {
  const uint64_t spl = static_cast<uint64_t>(m_sectors_per_line);
  const uint64_t line = spl == 1 ? unit : unit / spl;
  const uint8_t bit = static_cast<uint8_t>(1u << (spl == 1 ? 0 : unit % spl));
  const int32_t found = hash_find(line);
  if (found >= 0) {
    const bool sector_hit = m_valid[found] & bit;
    if (!sector_hit) {
      m_valid[found] |= bit;
      ++m_misses;
    }
    if (m_config.policy == Policy::lru && m_list_head != found) {
      list_unlink(found);
      list_push_front(found);
    }
    return sector_hit;
  }
  const int32_t slot = evict_hashed_slot();
  m_tags64[slot] = line;
  m_valid[slot] = bit;
  hash_insert(line, slot);
  if (m_config.policy == Policy::lru || m_config.policy == Policy::fifo)
    list_push_front(slot);
  ++m_misses;
  return false;
}

bool Cache::contains(uint64_t unit) const {
  const uint64_t spl = static_cast<uint64_t>(m_sectors_per_line);
  const uint64_t line = unit / spl;
  const uint8_t bit = static_cast<uint8_t>(1u << (unit % spl));
  if (m_layout == Layout::hashed) {
    const int32_t slot = hash_find(line);
    return slot >= 0 && (m_valid[static_cast<std::size_t>(slot)] & bit);
  }
  const uint64_t set = line % m_sets;
  for (uint32_t k = 0; k < m_ways; ++k) {
    const std::size_t slot = static_cast<std::size_t>(set * m_stride + k);
    const uint64_t tag = m_layout == Layout::narrow ? widen_tag(m_tags32[slot]) : m_tags64[slot];
    if (tag == line)
      return valid_of(slot) & bit;
  }
  return false;
}

} // namespace cbi::sim
