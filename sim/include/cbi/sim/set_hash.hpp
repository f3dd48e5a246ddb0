// The set-index function of a cache, as GPGPU-Sim names it in its cache configuration
// (set_index_function): which of a cache's sets a line goes to. GPUs hash their L1 and L2 set
// indices so that power-of-two strides do not pile onto a few sets.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

namespace cbi::sim {

enum class SetHash {
  none,      // line mod sets (sim::Cache's mapping; the tiny device, for exact comparisons)
  fibonacci, // multiplicative (Fibonacci) hashing, then mod sets: every line bit reaches the set
  xor_fold,  // the line's higher bits folded onto the index bits by XOR, then mod sets
  ipoly,     // IPOLY (Rau 1991): the line as a GF(2) polynomial mod an irreducible one
};

const char *to_string(SetHash h); // "none", "fibonacci", "xor", "ipoly"

// SetHash::fibonacci's hashed line.
inline uint64_t fibonacci_hash(uint64_t line) {
  uint64_t h = line * 0x9E3779B97F4A7C15ull;
  h ^= h >> 29;
  return h;
}

// The hashed line of `line` before the reduction mod `sets` (set_index below; SetIndex reduces
// it without a division).
inline uint64_t set_hash_value(SetHash hash, uint64_t line, uint64_t sets) {
  switch (hash) {
  case SetHash::none:
    break;
  case SetHash::fibonacci:
    return fibonacci_hash(line);
  case SetHash::xor_fold: {
    const int bits = 64 - __builtin_clzll(sets - 1);
    uint64_t h = 0;
    for (uint64_t v = line; v; v >>= bits)
      h ^= v & ((uint64_t{1} << bits) - 1);
    return h;
  }
  case SetHash::ipoly: {
    // Irreducible polynomials over GF(2) of degree 1..24 (bit i: the coefficient of x^i).
    static constexpr uint32_t kPoly[] = {
        0x3,     0x7,     0xb,     0x13,     0x25,     0x43,     0x83,     0x11d,
        0x211,   0x409,   0x805,   0x1053,   0x201b,   0x4443,   0x8003,   0x1002d,
        0x20009, 0x40027, 0x80027, 0x100009, 0x200005, 0x400003, 0x800021, 0x100001b};
    const int k = std::min(24, 64 - __builtin_clzll(sets - 1));
    const uint64_t poly = kPoly[k - 1];
    uint64_t r = line;
    for (int bit = 63; bit >= k; --bit)
      if (r >> bit & 1)
        r ^= poly << (bit - k);
    return r;
  }
  }
  return line;
}

// The set of line `line` among `sets` sets. xor_fold and ipoly with 2^k sets map each aligned run
// of 2^k lines onto every set once (tests/sim/test_gpu_model.cpp); other set counts take the
// value mod sets. Example: set_index(none, 37, 16) = 5.
inline uint64_t set_index(SetHash hash, uint64_t line, uint64_t sets) {
  if (sets <= 1)
    return 0;
  return set_hash_value(hash, line, sets) % sets;
}

// set_index for one cache, the `% sets` replaced by multiplications (Lemire, Kaser and Kurz 2019,
// "Faster remainder by direct computation": with M = ceil(2^128 / sets), a mod sets is the high
// 64 bits of (M * a mod 2^128) * sets, exact for every 64-bit a). A 64-bit division costs tens of
// cycles, and the GPU model takes two set indices per request line.
class SetIndex {
  // __extension__: a consumer compiling with -Wpedantic gets no "ISO C++ does not support
  // '__int128'" from this public header.
  __extension__ typedef unsigned __int128 u128;

public:
  SetIndex(SetHash hash, uint64_t sets)
      : m_hash(hash), m_sets(sets), m_m(sets > 1 ? ~static_cast<u128>(0) / sets + 1 : 0) {}

  // Inlined in the GPU model's lookups (every device row hashes with fibonacci).
  [[gnu::always_inline]] uint64_t operator()(uint64_t line) const {
    if (m_sets <= 1)
      return 0;
    const uint64_t a =
        m_hash == SetHash::fibonacci ? fibonacci_hash(line) : set_hash_value(m_hash, line, m_sets);
    const u128 low = m_m * a; // mod 2^128
    const u128 hi = static_cast<u128>(static_cast<uint64_t>(low >> 64)) * m_sets,
               lo = static_cast<u128>(static_cast<uint64_t>(low)) * m_sets;
    return static_cast<uint64_t>((hi + (lo >> 64)) >> 64);
  }

  uint64_t sets() const { return m_sets; }

private:
  SetHash m_hash;
  uint64_t m_sets;
  u128 m_m;
};

} // namespace cbi::sim
