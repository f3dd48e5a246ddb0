// The memory hierarchy of the GPU model: one sectored L1 per simulated SM, one shared sectored L2,
// and DRAM that serves sectors one after another at the device's bandwidth. It answers coalesced
// requests (coalescer.hpp) and counts what Nsight Compute counts (GpuMetrics).
#pragma once

#include "coalescer.hpp"
#include "sector_cache.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

namespace cbi::sim::gpu {

class MemoryHierarchy {
public:
  // The L1 of every SM of `c` and the L2.
  static SectorCacheConfig l1_config(const GpuConfig &c) {
    const Device &d = c.device;
    SectorCacheConfig l1;
    l1.capacity_lines = (c.l1_bytes > 0 ? c.l1_bytes : d.l1_bytes) / d.l1_line_bytes;
    l1.ways = c.l1_ways >= 0 ? c.l1_ways : d.l1_ways;
    l1.sectors_per_line = static_cast<int>(d.l1_line_bytes / d.l1_sector_bytes);
    l1.hash = d.l1_set_hash;
    l1.random_victims = d.l1_random_replacement;
    return l1;
  }
  static SectorCacheConfig l2_config(const GpuConfig &c) {
    const Device &d = c.device;
    SectorCacheConfig l2;
    l2.capacity_lines = d.l2_bytes / d.l2_line_bytes;
    l2.ways = d.l2_ways;
    l2.sectors_per_line = static_cast<int>(d.l2_line_bytes / d.l2_sector_bytes);
    l2.hash = d.l2_set_hash;
    l2.writes = true;
    l2.open_times = d.l2_coalesce_cycles > 0;
    return l2;
  }

  // The host memory of `sms` L1s and the L2.
  static double state_bytes(const GpuConfig &c, int sms) {
    return sms * SectorCache::state_bytes(l1_config(c)) + SectorCache::state_bytes(l2_config(c));
  }

  // `sms`: the simulated SMs (one L1 each); `group`: device SMs one simulated SM stands for (its
  // share of DRAM bandwidth is 1/group; the L2 keeps its capacity, since the sampled SMs read the
  // same shared data as all SMs together); `coalesce`: whether the L2 request coalescer merges
  // the workload's reads (not the smem stencil's cp.async copies: StencilSmemWorkload).
  MemoryHierarchy(const GpuConfig &c, int sms, int64_t group, bool coalesce = true)
      : m_d(c.device), m_coalesce_cycles(coalesce ? c.device.l2_coalesce_cycles : 0) {
    const SectorCacheConfig l1 = l1_config(c), l2 = l2_config(c);
    m_l2 = std::make_unique<SectorCache>(l2);
    m_l1.reserve(static_cast<std::size_t>(sms));
    for (int s = 0; s < sms; ++s)
      m_l1.emplace_back(l1);
    m_l1_counts.resize(static_cast<std::size_t>(sms));
    m_sector_shift = __builtin_ctzll(static_cast<uint64_t>(m_d.l1_sector_bytes));
    m_line_shift = __builtin_ctzll(static_cast<uint64_t>(m_d.l1_line_bytes));
    m_l2_sector_shift = __builtin_ctzll(static_cast<uint64_t>(m_d.l2_sector_bytes));
    m_l2_line_shift = __builtin_ctzll(static_cast<uint64_t>(m_d.l2_line_bytes));
    m_l2_full = m_d.l2_sector_bytes >= 32 ? ~uint32_t{0} : (uint32_t{1} << m_d.l2_sector_bytes) - 1;
    m_dram_bytes_per_cycle = m_d.dram_gbs * 1e9 / (m_d.sm_clock_mhz * 1e6) / double(group);
  }

  // One warp load of SM `sm` at `now`: its `n` lines (wavefronts) looked up in the SM's L1, the
  // missing sectors fetched from L2. on_line(line, mask, l1 result, l2_miss) per line (the
  // observer; l2_miss: the L1 sectors of which some part missed in L2). Returns when the last
  // sector is there.
  template <class OnLine>
  int64_t load(int sm, const LineRequest *lines, int n, int sectors, int64_t now,
               OnLine &&on_line) {
    int64_t ready = now + m_d.l1_hit_cycles;
    if (n > 1) // the lines of a wide request mostly miss together (a tiled kernel's tiles)
      prefetch_l2(n, [&](int k) { return lines[k].line; });
    l1_lookups(sm, lines, n, sectors, now, [&](int k, const SectorCache::Result &r) {
      if (r.pending)
        ready = std::max<int64_t>(ready, r.pending_ready);
      uint32_t l2_miss = 0;
      if (r.miss) {
        const int64_t arrives = fetch(lines[k].line, r.miss, now, l2_miss);
        for (uint32_t m = r.miss; m; m &= m - 1)
          SectorCache::set_fill(r, __builtin_ctz(m), static_cast<uint32_t>(arrives));
        ready = std::max(ready, arrives);
      }
      on_line(lines[k].line, lines[k].sectors, r, l2_miss);
    });
    return ready;
  }

  // The L1 half of a load: the lookups of SM `sm`'s L1 and its counts, on_result(k, result) per
  // line k. What a missing sector needs from L2 is the caller's (fetch): the parallel replay
  // (engine.hpp) defers it to the window's end. Touches only SM `sm`'s L1 and counts.
  template <class OnResult>
  void l1_lookups(int sm, const LineRequest *lines, int n, int sectors, int64_t now,
                  OnResult &&on_result) {
    GpuMetrics &c = m_l1_counts[static_cast<std::size_t>(sm)].m;
    ++c.l1_requests;
    c.l1_sectors += sectors;
    c.l1_wavefronts += n;
    SectorCache &l1 = m_l1[static_cast<std::size_t>(sm)];
    for (int k = 1; k < n; ++k)
      l1.prefetch(lines[k].line);
    // A sector on its way (another warp's miss) is found allocated by the tag stage: Nsight
    // counts a hit, as the H100's column:32 matmul shows (89% measured, the warps of a CTA
    // sharing each B line in lockstep); the warp waits for the fill. A lookup splits its sectors
    // into hits, pending hits and misses, so the hits are the request's sectors less its misses.
    int64_t missed = 0;
    for (int k = 0; k < n; ++k) {
      const SectorCache::Result r =
          l1.lookup(lines[k].line, lines[k].sectors, static_cast<uint32_t>(now));
      if (r.miss | r.pending) {
        missed += popcount8(r.miss);
        c.l1_pending_hits += popcount8(r.pending);
      }
      on_result(k, r);
    }
    c.l1_sector_hits += sectors - missed;
    c.l1_sector_misses += missed;
  }

  // Fetches SM `sm`'s L1 summaries into the host's caches, ahead of its turn.
  void prefetch_l1(int sm) const { m_l1[static_cast<std::size_t>(sm)].prefetch_summaries(); }

  // Fetches into the host's caches the L2 state that fetches of the L1 lines `lines` (n of them)
  // will read, in two passes (the sets' summaries, then the ways they name), so that the host
  // cache misses of one batch of L2 lookups overlap. A hint: it changes nothing.
  template <class LineOf> void prefetch_l2(int n, LineOf &&line_of) const {
    if (m_line_shift != m_l2_line_shift)
      return;
    for (int k = 0; k < n; ++k)
      m_l2->prefetch_summary(line_of(k));
    for (int k = 0; k < n; ++k)
      m_l2->prefetch(line_of(k));
  }

  // The missing sectors `mask` of L1 line `line`, as L2 lines and sectors, read from L2 at
  // `now`; returns when they reach the L1. `l2_miss` gets the L1 sectors of which some part
  // missed in L2.
  int64_t fetch(uint64_t l1_line, uint32_t mask, int64_t now, uint32_t &l2_miss) {
    l2_miss = 0;
    if (m_line_shift == m_l2_line_shift && m_sector_shift == m_l2_sector_shift)
      return l2_read(l1_line, mask, now, l2_miss);
    int64_t arrives = now;
    for (uint32_t m = mask; m; m &= m - 1) {
      const uint64_t addr =
          ((l1_line << (m_line_shift - m_sector_shift)) + uint64_t(__builtin_ctz(m)))
          << m_sector_shift;
      for (uint64_t b = addr; b < addr + (uint64_t{1} << m_sector_shift);
           b += uint64_t{1} << m_l2_sector_shift) {
        const uint64_t l2_line = b >> m_l2_line_shift;
        const uint32_t bit =
            1u << ((b >> m_l2_sector_shift) & ((1u << (m_l2_line_shift - m_l2_sector_shift)) - 1));
        uint32_t missed = 0;
        arrives = std::max(arrives, l2_read(l2_line, bit, now, missed));
        if (missed)
          l2_miss |= m & -m;
      }
    }
    return arrives;
  }

  // The output store of a warp at `now`: through to L2, not into L1. A sector the warp writes
  // whole needs nothing from DRAM; one it writes in part is allocated with only those bytes
  // (issue 21 §1: a later read of the sector's other bytes, such as the tail of the input that
  // shares the output's first sector, misses and reads the sector from DRAM).
  void store(const SectorWrite *writes, int n, int64_t now) {
    const int spl_shift = m_l2_line_shift - m_l2_sector_shift;
    // The store's L1 sectors (l1tex__t_sectors_pipe_lsu_mem_global_op_st): the writes come in
    // ascending L2 sectors, several to an L1 sector where L1 sectors are larger.
    const int l1_of = m_sector_shift > m_l2_sector_shift ? m_sector_shift - m_l2_sector_shift : 0;
    for (int k = 0; k < n; ++k)
      m_m.l1_store_sectors +=
          k == 0 || (writes[k].sector >> l1_of) != (writes[k - 1].sector >> l1_of);
    for (int k = 0; k < n; ++k) {
      const uint64_t line = writes[k].sector >> spl_shift;
      const int sec = static_cast<int>(writes[k].sector & ((uint64_t{1} << spl_shift) - 1));
      ++m_m.l2_lookups;
      ++m_m.l2_write_sectors;
      // Where the profiler counts every store as a hit (Device::l2_store_counts_as_hit), the
      // store still allocates its sector as below.
      if (m_l2->write(line, sec, writes[k].bytes, m_l2_full, static_cast<uint32_t>(now)) ||
          m_d.l2_store_counts_as_hit)
        ++m_m.l2_hits;
    }
  }

  // The counts: the L2's and DRAM's, and every SM's L1 counts summed.
  GpuMetrics metrics() const {
    GpuMetrics m = m_m;
    for (const L1Counts &l1 : m_l1_counts) {
      const GpuMetrics &c = l1.m;
      m.l1_requests += c.l1_requests;
      m.l1_sectors += c.l1_sectors;
      m.l1_wavefronts += c.l1_wavefronts;
      m.l1_sector_hits += c.l1_sector_hits;
      m.l1_pending_hits += c.l1_pending_hits;
      m.l1_sector_misses += c.l1_sector_misses;
    }
    return m;
  }

private:
  // L2 reads of the sectors `mask` of L2 line `line` at `now`; returns when they reach the L1.
  // With the device's L2 request coalescer, a read of a sector that reached the L2 less than
  // l2_coalesce_cycles before is merged with that read: it reaches neither the L2's tags nor its
  // counters (lts__t_sectors_srcunit_tex_op_read), and its data comes with the earlier read's.
  // A later read reaches the L2, also while the sector is still on its way from DRAM (a hit on a
  // miss). The H100 merges 1-62% of the L1's misses (docs/results/tight/heldout-scores.md §3.2):
  // many SMs asking for one sector at once (matmul's B under column orders), hardly any in a
  // stream from DRAM (a linear stencil), so the window is short (docs/results/tight/model-fix.md).
  int64_t l2_read(uint64_t line, uint32_t mask, int64_t now, uint32_t &l2_miss) {
    const SectorCache::Result r = m_l2->lookup(line, mask, static_cast<uint32_t>(now));
    l2_miss = r.miss;
    const int n = popcount8(mask);
    m_m.l2_requested_sectors += n;
    uint32_t reach = mask;
    if (m_coalesce_cycles > 0) {
      const uint32_t t = static_cast<uint32_t>(now);
      for (uint32_t m = mask; m; m &= m - 1) {
        const int sec = __builtin_ctz(m);
        if (t < r.open[sec])
          reach &= ~(1u << sec);
        else
          r.open[sec] = t + static_cast<uint32_t>(m_coalesce_cycles);
      }
    }
    const int reached = popcount8(reach);
    m_m.l2_lookups += reached;
    m_m.l2_read_sectors += reached;
    m_m.l2_hits += popcount8((r.hit | r.pending) & reach);
    int64_t arrives = now + m_d.l2_hit_cycles;
    if (r.pending)
      arrives = std::max<int64_t>(arrives, r.pending_ready);
    for (uint32_t m = r.miss; m; m &= m - 1) {
      // DRAM serves sectors one after another at its bandwidth.
      m_m.dram_read_bytes += m_d.l2_sector_bytes;
      m_dram_free =
          std::max(m_dram_free, double(now)) + double(m_d.l2_sector_bytes) / m_dram_bytes_per_cycle;
      const int64_t fill = static_cast<int64_t>(m_dram_free) + m_d.dram_cycles;
      SectorCache::set_fill(r, __builtin_ctz(m), static_cast<uint32_t>(fill));
      arrives = std::max(arrives, fill);
    }
    return arrives;
  }

  const Device &m_d;
  int m_coalesce_cycles = 0; // the L2 request coalescer's window for this workload's reads
  std::unique_ptr<SectorCache> m_l2;
  std::vector<SectorCache> m_l1;
  int m_sector_shift = 5, m_line_shift = 7, m_l2_sector_shift = 5, m_l2_line_shift = 7;
  uint32_t m_l2_full = ~uint32_t{0}; // every byte of an L2 sector (at most 32)
  double m_dram_bytes_per_cycle = 1, m_dram_free = 0;
  GpuMetrics m_m; // L2 and DRAM counts
  struct alignas(64) L1Counts {
    GpuMetrics m;
  };
  std::vector<L1Counts> m_l1_counts; // per SM: its L1's counts (SMs may run on several threads)
};

} // namespace cbi::sim::gpu
