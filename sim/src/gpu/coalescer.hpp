// The coalescer (GPGPU-Sim's memory_coalescing_arch): a warp instruction's lane addresses become
// one request of distinct sectors, grouped by line, before any cache sees them. Loads come from
// the workload's program (its per-warp lane_loads where it has one); the output store from the
// task's output element. Its state is per warp slot, so SMs may use it from several threads.
#pragma once

#include "affine.hpp"
#include "cbi/sim/gpu_model.hpp"
#include "host_prefetch.hpp"

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

namespace cbi::sim::gpu {

// Workloads may compute a warp's addresses for one instruction at once (lane_loads).
template <class W, class = void> struct HasLaneLoads : std::false_type {};
template <class W>
struct HasLaneLoads<W, std::void_t<decltype(std::declval<const W &>().lane_loads(
                           nullptr, 0, int64_t{0}, static_cast<uint64_t *>(nullptr)))>>
    : std::true_type {};

// Workloads that say what their kernel stores (the tiled kernels: stores(), lane_stores()), in
// place of one output element per task.
template <class W, class = void> struct HasLaneStores : std::false_type {};
template <class W>
struct HasLaneStores<W, std::void_t<decltype(std::declval<const W &>().lane_stores(
                            nullptr, 0, int64_t{0}, static_cast<uint64_t *>(nullptr),
                            static_cast<uint32_t *>(nullptr)))>> : std::true_type {};

// One line of a request: its index and the mask of the sectors asked for (a wavefront).
struct LineRequest {
  uint64_t line = 0;
  uint32_t sectors = 0;
};

// The bytes a store writes in one sector (bit b: byte b).
struct SectorWrite {
  uint64_t sector = 0;
  uint32_t bytes = 0;
};

// Workloads whose loads are a per-lane base plus a per-instruction offset (affine.hpp).
template <class W> struct HasAffine : std::bool_constant<(Affine<W>::kClasses > 0)> {};

template <class W> class Coalescer {
public:
  static constexpr int kMaxLanes = 64;

  // `warp_slots`: resident warps over all simulated SMs (the per-warp fast path's keys).
  Coalescer(const W &program, const GpuConfig &c, remap::Shape<int64_t> shape, int warp_slots)
      : m_program(program), m_affine_of(c.workload), m_width(shape.width),
        m_elem_bytes(static_cast<uint64_t>(c.workload.elem_bytes)),
        m_output_base(static_cast<uint64_t>(c.workload.output_base_bytes())),
        m_sector_shift(__builtin_ctzll(static_cast<uint64_t>(c.device.l1_sector_bytes))),
        m_line_shift(__builtin_ctzll(static_cast<uint64_t>(c.device.l1_line_bytes))),
        m_store_sector_shift(__builtin_ctzll(static_cast<uint64_t>(c.device.l2_sector_bytes))) {
    if constexpr (HasAffine<W>::value) {
      if (c.device.l1_sector_bytes % c.workload.elem_bytes == 0) {
        m_residues = static_cast<int>(c.device.l1_sector_bytes / c.workload.elem_bytes);
        // The element divides the (power-of-two) sector: a power of two itself.
        m_elem_shift = __builtin_ctzll(m_elem_bytes);
        const std::size_t sets =
            static_cast<std::size_t>(warp_slots) * Affine<W>::kClasses * std::size_t(m_residues);
        m_affine.assign(static_cast<std::size_t>(warp_slots), 0);
        m_sets.assign(sets, SectorSet{});
        m_listed.assign(sets, Listed{});
      }
    }
  }

  // A warp starts in slot `key` with these lanes: forget the sector sets of the slot's last warp.
  void warp_started(int key, const remap::Task<int64_t> *lanes, int n) {
    if constexpr (HasAffine<W>::value) {
      if (m_residues == 0)
        return;
      m_affine[static_cast<std::size_t>(key)] = m_affine_of.applies(lanes, n);
      SectorSet *sets = &m_sets[set_index(key, 0, 0)];
      for (int k = 0; k < Affine<W>::kClasses * m_residues; ++k)
        sets[k].word = kUnknown;
    }
  }

  // Instruction j of the warp in slot `key`, whose active lanes hold `lanes`: its lines in
  // ascending order, each with its sector mask, into `out` (room for kMaxLanes); returns the line
  // count. `sectors` gets the number of distinct sectors, `wavefronts` the L1 data stage's
  // wavefronts (l1_bank_wavefronts: the same for {base_l + r} shifted by whole sectors).
  //
  // Fast path: where every lane's address is base_l + offset_j (affine.hpp), the sectors of the
  // instruction are those of {base_l + r} shifted by q sectors (offset_j = 32q + r, 0 <= r < 32),
  // and {base_l + r} is coalesced once per warp and residue r: a 9x9 stencil warp coalesces at most
  // 8 sets for its 81 loads, a matmul warp 16 for its 2D.
  [[gnu::always_inline]] int load(int key, const remap::Task<int64_t> *lanes, int n, int64_t j,
                                  LineRequest *out, int &sectors, int &wavefronts) {
    if constexpr (HasAffine<W>::value) {
      if (m_residues > 0 && m_affine[static_cast<std::size_t>(key)]) {
        const int cls = Affine<W>::class_of(j);
        const int64_t offset = m_affine_of.offset(j);
        const int64_t r = offset & ((int64_t{1} << m_sector_shift) - 1);
        const std::size_t at = set_index(key, cls, static_cast<int>(r >> m_elem_shift));
        SectorSet &set = m_sets[at];
        if (set.word == kUnknown)
          fill(set, at, lanes, n, cls, r);
        const uint64_t word = set.word;
        const int count = static_cast<int>(word >> kCountShift);
        if (count != 0) { // not too wide
          sectors = count;
          wavefronts = static_cast<int>(static_cast<uint64_t>(set.first) >> kFirstBits);
          const int spl_shift = m_line_shift - m_sector_shift;
          const uint64_t sector_mask = (uint64_t{1} << spl_shift) - 1;
          const uint64_t first = (static_cast<uint64_t>(set.first) & kFirstMask) +
                                 static_cast<uint64_t>(offset >> m_sector_shift);
          const uint64_t narrow = word & kNarrowBits;
          if (narrow) {
            // The sectors as bits from the first one's line start, taken a line at a time.
            uint64_t bits = narrow << (first & sector_mask);
            uint64_t line = first >> spl_shift;
            const uint32_t line_mask = static_cast<uint32_t>((uint64_t{1} << (1 << spl_shift)) - 1);
            int lines = 0;
            while (bits) {
              const int skip = __builtin_ctzll(bits) >> spl_shift; // lines with no sector
              line += static_cast<uint64_t>(skip);
              bits >>= skip << spl_shift;
              out[lines++] = {line, static_cast<uint32_t>(bits) & line_mask};
              bits >>= 1 << spl_shift;
              ++line;
            }
            return lines;
          }
          const uint16_t *rel = m_listed[at].rel;
          int lines = 0;
          uint64_t line = ~uint64_t{0};
          for (int k = 0; k < count; ++k) {
            const uint64_t sector = first + rel[k];
            if ((sector >> spl_shift) != line) {
              line = sector >> spl_shift;
              out[lines++] = {line, 0};
            }
            out[lines - 1].sectors |= 1u << (sector & sector_mask);
          }
          return lines;
        }
      }
    }
    return load_lanes(lanes, n, j, out, sectors, wavefronts);
  }

  // Fetches into the host's caches the sector set that load j of the warp in slot `key` reads on
  // the fast path (the replay calls it a window ahead, so that the set's host cache miss overlaps
  // other SMs' work).
  void prefetch(int key, int64_t j) const {
    if constexpr (HasAffine<W>::value) {
      if (m_residues > 0) {
        const int64_t r = m_affine_of.offset(j) & ((int64_t{1} << m_sector_shift) - 1);
        host_prefetch(
            &m_sets[set_index(key, Affine<W>::class_of(j), static_cast<int>(r >> m_elem_shift))]);
      }
    }
  }

  // load() lane by lane: each lane's address from the workload, then coalesced.
  [[gnu::noinline]] int load_lanes(const remap::Task<int64_t> *lanes, int n, int64_t j,
                                   LineRequest *out, int &sectors, int &wavefronts) {
    uint64_t addr[kMaxLanes];
    if constexpr (HasLaneLoads<W>::value) {
      m_program.lane_loads(lanes, n, j, addr);
    } else {
      for (int l = 0; l < n; ++l)
        addr[l] = m_program.load(lanes[l], j).byte_addr;
    }
    uint64_t buf[kMaxLanes];
    sectors = sectors_and_wavefronts(addr, n, buf, wavefronts);
    return group_lines(buf, sectors, out);
  }

  // Room lines_of needs in `out` for `n` lanes of `bytes` each: every sector each lane touches.
  int max_lines(int n, uint64_t bytes) const {
    return n * static_cast<int>((bytes >> m_sector_shift) + 2);
  }

  // The lines of a load whose `n` lanes read `bytes` each at addr[0..n) (a workload of your own:
  // the addresses its instruction gives), as load() returns them, into `out` (room for
  // max_lines(n, bytes)). A lane asks for every sector its bytes touch: a 16-byte load at byte 24
  // is two sectors. `wavefronts`: as load()'s.
  int lines_of(const uint64_t *addr, int n, uint64_t bytes, LineRequest *out, int &sectors,
               int &wavefronts) {
    wavefronts = l1_bank_wavefronts(addr, n, bytes);
    bool crosses = false;
    for (int l = 0; l < n && !crosses; ++l)
      crosses = (addr[l] >> m_sector_shift) != ((addr[l] + bytes - 1) >> m_sector_shift);
    if (!crosses) // each lane in one sector, named by its first byte
      return first_byte_lines(addr, n, out, sectors);
    m_crossing.clear();
    for (int l = 0; l < n; ++l)
      for (uint64_t s = addr[l] >> m_sector_shift; s <= (addr[l] + bytes - 1) >> m_sector_shift;
           ++s)
        m_crossing.push_back(s);
    std::sort(m_crossing.begin(), m_crossing.end());
    m_crossing.erase(std::unique(m_crossing.begin(), m_crossing.end()), m_crossing.end());
    sectors = static_cast<int>(m_crossing.size());
    return group_lines(m_crossing.data(), sectors, out);
  }

  // The output store of the warp: per L2 sector touched, ascending, the bytes it writes, into
  // `out` (room for 2 * kMaxLanes); returns the count.
  int store(const remap::Task<int64_t> *lanes, int n, SectorWrite *out) const {
    uint64_t addr[kMaxLanes];
    for (int l = 0; l < n; ++l)
      addr[l] =
          m_output_base + static_cast<uint64_t>(lanes[l].y * m_width + lanes[l].x) * m_elem_bytes;
    return store_bytes(addr, n, m_elem_bytes, out);
  }

  // Store j of the workload's own stores (HasLaneStores) by the warp's `n` lanes: as store().
  int workload_store(const remap::Task<int64_t> *lanes, int n, int64_t j, SectorWrite *out) const {
    uint64_t addr[kMaxLanes];
    uint32_t bytes[kMaxLanes];
    const int active = m_program.lane_stores(lanes, n, j, addr, bytes);
    return store_each(
        addr, active, [&](int l) { return uint64_t{bytes[l]}; }, out);
  }

  // A store of `n` lanes writing `bytes` each from addr[0..n): per L2 sector touched, ascending,
  // the bytes written in it, into `out` (room for n * (bytes / L2 sector bytes + 2)); returns the
  // count.
  int store_bytes(const uint64_t *addr, int n, uint64_t bytes, SectorWrite *out) const {
    return store_each(
        addr, n, [bytes](int) { return bytes; }, out);
  }

private:
  // store_bytes with lane l writing bytes_of(l) bytes.
  template <class BytesOf>
  int store_each(const uint64_t *addr, int n, BytesOf &&bytes_of, SectorWrite *out) const {
    int count = 0;
    const uint64_t sector_bytes = uint64_t{1} << m_store_sector_shift;
    for (int l = 0; l < n; ++l) {
      const uint64_t first = addr[l];
      const uint64_t bytes = bytes_of(l);
      for (uint64_t b = first; b < first + bytes;) {
        const uint64_t sector = b >> m_store_sector_shift;
        const uint64_t end = std::min(first + bytes, (sector + 1) << m_store_sector_shift);
        const uint64_t off = b & (sector_bytes - 1), len = end - b;
        const uint32_t mask =
            static_cast<uint32_t>((len >= 32 ? ~uint64_t{0} : ((uint64_t{1} << len) - 1)) << off);
        // Lanes mostly come in ascending order: insertion into the sorted prefix.
        int k = count;
        while (k > 0 && out[k - 1].sector > sector)
          --k;
        if (k > 0 && out[k - 1].sector == sector) {
          out[k - 1].bytes |= mask;
        } else {
          for (int m = count; m > k; --m)
            out[m] = out[m - 1];
          out[k] = {sector, mask};
          ++count;
        }
        b = end;
      }
    }
    return count;
  }

  // The lines of a load whose `n` lanes each touch one sector, named by the first byte at
  // addr[0..n), into `out` (room for kMaxLanes).
  int first_byte_lines(const uint64_t *addr, int n, LineRequest *out, int &sectors) const {
    uint64_t buf[kMaxLanes];
    sectors = coalesce_sectors(addr, n, m_sector_shift, buf);
    return group_lines(buf, sectors, out);
  }

  // coalesce_sectors (into `buf`, room for kMaxLanes; returns the count) and l1_bank_wavefronts of
  // `n` lanes reading an element each at addr[0..n). Where the lanes ascend with no gap over a
  // sector (a warp of consecutive elements: most fills of the stencil's sector sets), the sectors
  // are every one from the first lane's to the last's, at most one a lane, and the words span the
  // first lane's to the last's: the same answers without the sort.
  int sectors_and_wavefronts(const uint64_t *addr, int n, uint64_t *buf, int &wavefronts) const {
    const uint64_t sector_bytes = uint64_t{1} << m_sector_shift;
    bool dense = n > 0;
    for (int l = 1; l < n; ++l)
      dense &= addr[l] >= addr[l - 1] && addr[l] - addr[l - 1] <= sector_bytes;
    if (!dense) {
      wavefronts = l1_bank_wavefronts(addr, n, m_elem_bytes);
      return coalesce_sectors(addr, n, m_sector_shift, buf);
    }
    const uint64_t first = addr[0] >> m_sector_shift;
    const int count = static_cast<int>((addr[n - 1] >> m_sector_shift) - first + 1);
    for (int k = 0; k < count; ++k)
      buf[k] = first + static_cast<uint64_t>(k);
    // l1_bank_wavefronts' own first test: words within 32 consecutive ones are one wavefront.
    const uint64_t span = std::max<uint64_t>(m_elem_bytes, 1);
    wavefronts = ((addr[n - 1] + span - 1) >> 2) - (addr[0] >> 2) < 32
                     ? 1
                     : l1_bank_wavefronts(addr, n, m_elem_bytes);
    return count;
  }

  // Ascending distinct sectors as lines, each with its sector mask; returns the line count.
  int group_lines(const uint64_t *sector, int count, LineRequest *out) const {
    const int spl_shift = m_line_shift - m_sector_shift;
    const uint64_t sector_mask = (uint64_t{1} << spl_shift) - 1;
    int lines = 0;
    for (int k = 0; k < count;) {
      const uint64_t line = sector[k] >> spl_shift;
      uint32_t mask = 0;
      for (; k < count && (sector[k] >> spl_shift) == line; ++k)
        mask |= 1u << (sector[k] & sector_mask);
      out[lines++] = {line, mask};
    }
    return lines;
  }

  // The distinct sectors of {base_l + r} for one warp, class and residue r: `first` and each
  // one's distance from it. Sets of more than kInline sectors, or spanning 2^16 sectors, take the
  // per-lane path: they are rare (a matmul A load under a column order). A set is 16 bytes (four
  // to a host cache line, the sets of an H100's 8448 warp slots about 2 MB): `word` holds its
  // sector count (top 7 bits) and, for a set spanning fewer than 57 sectors (narrow), the sectors
  // as bits from `first` (shifted to the line start, at most 7 sectors further, they still fit 64
  // bits); a wider set lists its sectors' distances in m_listed. Word 0: not coalesced yet; count
  // 0: no fast path. `first`'s top 8 bits hold the set's L1 wavefronts (l1_bank_wavefronts, at
  // most kMaxLanes x 2), its other bits the first sector.
  static constexpr uint64_t kUnknown = 0, kTooWide = 1;
  static constexpr int kInline = 8;
  static constexpr int kCountShift = 57;
  static constexpr uint64_t kNarrowSpan = 57;
  static constexpr uint64_t kNarrowBits = (uint64_t{1} << kCountShift) - 1;
  static constexpr int kFirstBits = 56;
  static constexpr uint64_t kFirstMask = (uint64_t{1} << kFirstBits) - 1;
  struct SectorSet {
    int64_t first = 0;
    uint64_t word = kUnknown;
  };
  struct Listed {
    uint16_t rel[kInline] = {};
  };

  std::size_t set_index(int key, int cls, int residue) const {
    return (static_cast<std::size_t>(key) * Affine<W>::kClasses + std::size_t(cls)) *
               std::size_t(m_residues) +
           std::size_t(residue);
  }

  [[gnu::noinline]] void fill(SectorSet &set, std::size_t at, const remap::Task<int64_t> *lanes,
                              int n, int cls, int64_t r) {
    if constexpr (HasAffine<W>::value) {
      uint64_t addr[kMaxLanes];
      for (int l = 0; l < n; ++l)
        addr[l] = static_cast<uint64_t>(m_affine_of.base(lanes[l], cls) + r);
      uint64_t buf[kMaxLanes];
      int waves = 0;
      const int count = sectors_and_wavefronts(addr, n, buf, waves);
      const auto wavefronts = static_cast<uint64_t>(waves);
      set.first = static_cast<int64_t>((buf[0] & kFirstMask) | (wavefronts << kFirstBits));
      const uint64_t counted = static_cast<uint64_t>(count) << kCountShift;
      if (buf[count - 1] - buf[0] < kNarrowSpan) {
        uint64_t bits = 0;
        for (int k = 0; k < count; ++k)
          bits |= uint64_t{1} << (buf[k] - buf[0]);
        set.word = bits | counted;
        return;
      }
      if (count > kInline || buf[count - 1] - buf[0] > 0xFFFF) {
        set.word = kTooWide;
        return;
      }
      for (int k = 0; k < count; ++k)
        m_listed[at].rel[k] = static_cast<uint16_t>(buf[k] - buf[0]);
      set.word = counted;
    }
  }

  const W &m_program;
  Affine<W> m_affine_of;
  int64_t m_width;
  uint64_t m_elem_bytes;
  uint64_t m_output_base;
  int m_sector_shift, m_line_shift, m_store_sector_shift;
  int m_residues = 0;               // sector bytes / element bytes; 0: no fast path
  int m_elem_shift = 0;             // log2 of the element bytes (fast path)
  std::vector<uint8_t> m_affine;    // per warp slot: its lanes take the fast path
  std::vector<SectorSet> m_sets;    // per warp slot, class and residue
  std::vector<Listed> m_listed;     // per set: a wider set's sectors
  std::vector<uint64_t> m_crossing; // lines_of: the sectors of lanes that cross a sector boundary
};

} // namespace cbi::sim::gpu
