// The cache's replacement engines, one instantiation per (tag width, policy family, sectored), and
// the typed L1 access that replay loops use so the engine is chosen once per run, not per access.
// Private to sim/: included by cache.cpp and the replay loops (simulate.cpp, bench/).
#pragma once

#include "cbi/sim/cache.hpp"
#include "cbi/sim/hierarchy.hpp"

#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace cbi::sim::detail {

enum class Family { lru, fifo, random }; // random also covers volta (a runtime flag)

// Bit k set where tags[k] == key, for k < n (n a multiple of 4 for 32-bit tags). No early exit: a
// thrashing cache (most lookups miss) compares every way anyway, and a fixed-width compare has no
// branch to mispredict.
inline uint64_t match_mask(const uint32_t *tags, uint32_t n, uint32_t key) {
  uint64_t mask = 0;
#if defined(__SSE2__)
  const __m128i k = _mm_set1_epi32(static_cast<int>(key));
  for (uint32_t c = 0; c < n; c += 4) {
    const __m128i t = _mm_loadu_si128(reinterpret_cast<const __m128i *>(tags + c));
    const int m = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(t, k)));
    mask |= static_cast<uint64_t>(m) << c;
  }
#else
  for (uint32_t c = 0; c < n; ++c)
    mask |= static_cast<uint64_t>(tags[c] == key) << c;
#endif
  return mask;
}

// match_mask for 16 ways (the GPU model's L1s and L2), without a loop.
inline uint32_t match_mask16(const uint32_t *tags, uint32_t key) {
#if defined(__SSE2__)
  const __m128i k = _mm_set1_epi32(static_cast<int>(key));
  const auto eq = [&](int c) {
    return _mm_cmpeq_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i *>(tags + c)), k);
  };
  // Four 32-bit masks packed to sixteen bytes (saturating packs keep 0 and -1), one bit each.
  const __m128i lo = _mm_packs_epi32(eq(0), eq(4)), hi = _mm_packs_epi32(eq(8), eq(12));
  return static_cast<uint32_t>(_mm_movemask_epi8(_mm_packs_epi16(lo, hi)));
#else
  return static_cast<uint32_t>(match_mask(tags, 16, key));
#endif
}

inline uint64_t match_mask(const uint64_t *tags, uint32_t n, uint64_t key) {
  uint64_t mask = 0;
  for (uint32_t c = 0; c < n; ++c)
    mask |= static_cast<uint64_t>(tags[c] == key) << c;
  return mask;
}

// tags[way] = tag. For 32-bit tags the store is the whole aligned 16-byte group holding the way:
// the next lookup's 16-byte loads then forward from it, where a 4-byte store would stall them
// (a failed store-to-load forward costs more than the rest of a miss).
inline void store_tag(uint32_t *tags, uint32_t way, uint32_t tag) {
#if defined(__SSE2__)
  alignas(16) static constexpr int32_t kLane[4][4] = {
      {-1, 0, 0, 0}, {0, -1, 0, 0}, {0, 0, -1, 0}, {0, 0, 0, -1}};
  __m128i *group = reinterpret_cast<__m128i *>(tags + (way & ~3u));
  const __m128i lane = _mm_load_si128(reinterpret_cast<const __m128i *>(kLane[way & 3]));
  const __m128i v = _mm_loadu_si128(group);
  _mm_storeu_si128(group, _mm_or_si128(_mm_andnot_si128(lane, v),
                                       _mm_and_si128(lane, _mm_set1_epi32(static_cast<int>(tag)))));
#else
  tags[way] = tag;
#endif
}
inline void store_tag(uint64_t *tags, uint32_t way, uint64_t tag) { tags[way] = tag; }

inline int lowest_bit(uint64_t mask) { return __builtin_ctzll(mask); }

struct Engines {
  template <class Tag> static Tag *tags_of(Cache &c) {
    if constexpr (std::is_same_v<Tag, uint32_t>)
      return c.m_tags32.data();
    else
      return c.m_tags64.data();
  }
  template <class Tag> static constexpr Tag invalid() {
    return std::is_same_v<Tag, uint32_t> ? Tag(Cache::kInvalid32) : Tag(Cache::kInvalid64);
  }

  // One lookup (the unit is not the most recent one; Cache::access checked that). Forced inline
  // (as are access and the typed access below): the replay loop's speed depends on it, and GCC's
  // heuristics drop it as soon as the loop grows a little (the 4-way cache ran 30% slower).
  template <class Tag, Family F, bool Sectored>
  __attribute__((always_inline)) static bool lookup(Cache &c, uint64_t unit) {
    uint64_t line = unit;
    uint8_t bit = 1;
    if constexpr (Sectored) {
      const uint64_t spl = static_cast<uint64_t>(c.m_sectors_per_line);
      line = c.m_sector_shift >= 0 ? unit >> c.m_sector_shift : unit / spl;
      bit = static_cast<uint8_t>(1u << (unit - line * spl));
    }
    if constexpr (std::is_same_v<Tag, uint32_t>) {
      if (__builtin_expect(line >= c.m_narrow_limit, 0)) { // does not fit 32 bits: go wide, retry
        if (c.m_layout == Cache::Layout::narrow)
          c.go_wide();
        return c.lookup(unit);
      }
    }
    const uint64_t set = c.m_sets_pow2 ? line & c.m_set_mask : line % c.m_sets;
    const uint32_t ways = c.m_ways;
    const std::size_t base = static_cast<std::size_t>(set * c.m_stride);
    Tag *tags = tags_of<Tag>(c) + base;
    uint8_t *valid = Sectored ? c.m_valid.data() + base : nullptr;
    const Tag tag = static_cast<Tag>(line);

    if constexpr (F == Family::lru || F == Family::fifo) {
      uint32_t head = c.m_head[set];
      uint32_t way;
      if (tags[head] == tag) { // most recent (or newest) in its set: nothing moves
        way = head;
      } else {
        const uint64_t mask = match_mask(tags, c.m_stride, tag);
        if (mask == 0) {
          // Miss: the least recent (oldest) way sits just before the head; it becomes the head.
          head = head == 0 ? ways - 1 : head - 1;
          c.m_head[set] = static_cast<uint8_t>(head);
          c.m_evictions += tags[head] != invalid<Tag>();
          store_tag(tags, head, tag);
          if constexpr (Sectored)
            valid[head] = bit;
          ++c.m_misses;
          return false;
        }
        way = static_cast<uint32_t>(lowest_bit(mask));
      }
      bool hit = true;
      if constexpr (Sectored) {
        if (!(valid[way] & bit)) { // the line is here but not this sector: fetch the sector
          valid[way] |= bit;
          ++c.m_misses;
          hit = false;
        }
      }
      if constexpr (F == Family::lru) { // move to the front: logical ways 0..k-1 shift back by one
        if (way != head) {
          const uint8_t v = Sectored ? valid[way] : 1;
          for (uint32_t cur = way; cur != head;) {
            const uint32_t prev = cur == 0 ? ways - 1 : cur - 1;
            tags[cur] = tags[prev];
            if constexpr (Sectored)
              valid[cur] = valid[prev];
            cur = prev;
          }
          tags[head] = tag;
          if constexpr (Sectored)
            valid[head] = v;
        }
      }
      return hit;
    } else {
      // random and volta: ways stay in place.
      const uint64_t mask = match_mask(tags, c.m_stride, tag);
      if (mask != 0) {
        if constexpr (Sectored) {
          const int way = lowest_bit(mask);
          if (!(valid[way] & bit)) {
            valid[way] |= bit;
            ++c.m_misses;
            return false;
          }
        }
        return true;
      }
      const uint64_t ways_mask = ways == 64 ? ~uint64_t{0} : (uint64_t{1} << ways) - 1;
      const uint64_t free = match_mask(tags, c.m_stride, invalid<Tag>()) & ways_mask;
      uint32_t way;
      if (free != 0) {
        way = static_cast<uint32_t>(lowest_bit(free));
      } else {
        way = static_cast<uint32_t>(c.next_random() % ways);
        // volta (approximation of thesis §2.1.2, after Jia et al.): when full, evict 4
        // consecutive lines chosen at random; random: evict one.
        const uint32_t evict = c.m_config.policy == Policy::volta ? std::min<uint32_t>(4, ways) : 1;
        for (uint32_t e = 0; e < evict; ++e) {
          const uint32_t k = (way + e) % ways;
          if (tags[k] != invalid<Tag>()) {
            ++c.m_evictions;
            tags[k] = invalid<Tag>();
            if constexpr (Sectored)
              valid[k] = 0;
          }
        }
      }
      tags[way] = tag;
      if constexpr (Sectored)
        valid[way] = bit;
      ++c.m_misses;
      return false;
    }
  }

  // Any set-associative lookup with the given tag width: one switch on the policy.
  template <class Tag> static bool lookup_any(Cache &c, uint64_t unit) {
    const bool sectored = c.m_sectors_per_line > 1;
    switch (c.m_config.policy) {
    case Policy::lru:
      return sectored ? lookup<Tag, Family::lru, true>(c, unit)
                      : lookup<Tag, Family::lru, false>(c, unit);
    case Policy::fifo:
      return sectored ? lookup<Tag, Family::fifo, true>(c, unit)
                      : lookup<Tag, Family::fifo, false>(c, unit);
    default:
      return sectored ? lookup<Tag, Family::random, true>(c, unit)
                      : lookup<Tag, Family::random, false>(c, unit);
    }
  }

  // Engine types for the typed access: a narrow set-associative engine fixed at compile time, or
  // the generic one (wide tags, hash index) that dispatches per lookup.
  template <Family F, bool Sectored> struct Narrow {
    __attribute__((always_inline)) static bool lookup(Cache &c, uint64_t unit) {
      return Engines::lookup<uint32_t, F, Sectored>(c, unit);
    }
  };
  struct Generic {
    static bool lookup(Cache &c, uint64_t unit) { return c.lookup(unit); }
  };

  template <class E>
  __attribute__((always_inline)) static bool access(Cache &c, uint64_t unit, int64_t count) {
    c.m_accesses += count;
    if (unit == c.m_last_unit)
      return true;
    c.m_last_unit = unit;
    return E::lookup(c, unit);
  }

  // Calls f(engine) with the engine type that fits cache c right now.
  template <class Fn> static void visit(const Cache &c, Fn &&f) {
    if (c.m_layout == Cache::Layout::narrow) {
      const bool sectored = c.m_sectors_per_line > 1;
      switch (c.m_config.policy) {
      case Policy::lru:
        return sectored ? f(Narrow<Family::lru, true>{}) : f(Narrow<Family::lru, false>{});
      case Policy::fifo:
        return sectored ? f(Narrow<Family::fifo, true>{}) : f(Narrow<Family::fifo, false>{});
      default:
        return sectored ? f(Narrow<Family::random, true>{}) : f(Narrow<Family::random, false>{});
      }
    }
    f(Generic{});
  }

  // Hierarchy::access(unit, count, true) with L1's engine E.
  template <class E>
  __attribute__((noinline)) static int store(Hierarchy &h, uint64_t unit, int64_t count) {
    h.m_store_accesses[0] += count;
    if (access<E>(h.m_levels[0], unit, count))
      return 0;
    if (h.m_levels.size() > 1)
      return h.store_miss_below<false>(unit);
    ++h.m_store_misses[0];
    return 1;
  }

  // Calls f(access) once, where access(unit, count, is_store) behaves exactly as
  // Hierarchy::access(unit, count, is_store) but with L1's engine fixed at compile time for loads.
  // is_store is a constant at every call site of the replay, so a load compiles to what it was
  // before stores were counted apart; classifying hierarchies take Hierarchy's classified path.
  template <class Fn> static void with_typed_access(Hierarchy &h, Fn &&f) {
    if (h.m_classify)
      return f([&h](uint64_t unit, int64_t count, bool is_store) -> int {
        return h.access_classified(unit, count, is_store);
      });
    Cache &l1 = h.m_levels[0];
    const bool below = h.m_levels.size() > 1;
    visit(l1, [&](auto engine) {
      using E = decltype(engine);
      f([&l1, &h,
         below ](uint64_t unit, int64_t count, bool is_store) __attribute__((always_inline))->int {
        if (is_store) // out of line (one store per thread at most): the load path stays small
          return store<E>(h, unit, count);
        if (access<E>(l1, unit, count))
          return 0;
        return below ? h.miss_below<false>(unit) : 1;
      });
    });
  }
};

} // namespace cbi::sim::detail
