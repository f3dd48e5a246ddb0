// The memory hierarchy of the GPU model: one sectored L1 per simulated SM, a sectored L2 of one
// or more partitions, and DRAM that serves sectors one after another at the device's bandwidth.
// It answers coalesced requests (coalescer.hpp) and counts what Nsight Compute counts (GpuMetrics).
//
// The L2's partitions (Device::l2_partitions; two on the H100 and H200): each SM is near one of
// them, and each line has a home partition (a hash of its address). A read looks the line up in
// the SM's near partition; a sector missing there whose home is the other partition is looked up
// again there over the fabric (lts__t_sectors_srcunit_ltcfabric, which lts__t_sector_hit_rate.pct
// counts), and read from DRAM into the home if that misses too; either way the near partition
// keeps a copy. So a line that SMs of both sides read takes room in both, and the capacity a kernel
// sees is below the L2's size. kernels/probes/l2_parts on the H200 (docs/results/tight/
// l2-partitions.md): SMs of the other side take 183 cycles longer on half the lines (those homed
// on the first reader's side) the first time and none the second; one side's SMs reading a
// footprint twice hit in full up to 24 MiB (half the H200's 60 MiB), every SM reading it (each
// chunk by one SM) up to 32-40 MiB (1.5 copies a line), as the copies predict.
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
    l2.capacity_lines = d.l2_bytes / d.l2_line_bytes / partitions(d);
    l2.ways = d.l2_ways;
    l2.sectors_per_line = static_cast<int>(d.l2_line_bytes / d.l2_sector_bytes);
    l2.hash = d.l2_set_hash;
    l2.writes = true;
    return l2;
  }

  // The L2 partitions the model keeps: the device's, or one where it has a single L2.
  static int partitions(const Device &d) { return std::max(1, d.l2_partitions); }

  // The host memory of `sms` L1s and the L2.
  static double state_bytes(const GpuConfig &c, int sms) {
    return sms * SectorCache::state_bytes(l1_config(c)) +
           partitions(c.device) * SectorCache::state_bytes(l2_config(c)) +
           double(gpcs(c.device)) * double(sizeof(LrcEntry) << kLrcBits);
  }

  // `sms`: the simulated SMs (one L1 each); `group`: device SMs one simulated SM stands for (its
  // share of DRAM bandwidth is 1/group; the L2 keeps its capacity, since the sampled SMs read the
  // same shared data as all SMs together); `coalesce`: whether the L2 request coalescer merges
  // the workload's reads (not the smem stencil's cp.async copies: StencilSmemWorkload).
  MemoryHierarchy(const GpuConfig &c, int sms, int64_t group, bool coalesce = true)
      : m_d(c.device), m_coalesce_cycles(coalesce ? c.device.l2_coalesce_cycles : 0),
        m_coalesce_max_reads(c.device.l2_coalesce_max_reads > 0
                                 ? static_cast<uint32_t>(c.device.l2_coalesce_max_reads)
                                 : ~uint32_t{0}),
        m_parts(partitions(c.device)) {
    const SectorCacheConfig l1 = l1_config(c), l2 = l2_config(c);
    m_l2.reserve(static_cast<std::size_t>(m_parts));
    for (int p = 0; p < m_parts; ++p)
      m_l2.emplace_back(l2);
    // Simulated SM s is the device's SM s * group (dispatch.hpp), whose GPC and partition the
    // device row gives.
    m_sm_part.resize(static_cast<std::size_t>(sms));
    m_sm_gpc.resize(static_cast<std::size_t>(sms));
    for (int s = 0; s < sms; ++s) {
      const int64_t ds = std::min<int64_t>(int64_t{s} * group, m_d.sms - 1);
      m_sm_gpc[static_cast<std::size_t>(s)] = static_cast<uint8_t>(gpc_of(m_d, ds));
      m_sm_part[static_cast<std::size_t>(s)] = static_cast<uint8_t>(near_partition(m_d, ds));
    }
    if (m_coalesce_cycles > 0)
      m_lrc.assign(static_cast<std::size_t>(gpcs(m_d)) << kLrcBits, LrcEntry{});
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

  // One warp load of SM `sm` at `now`: its `n` lines looked up in the SM's L1 (in `wavefronts`
  // wavefronts of its data stage: l1_bank_wavefronts), the
  // missing sectors fetched from L2. on_line(line, mask, l1 result, l2_miss) per line (the
  // observer; l2_miss: the L1 sectors of which some part missed in L2). Returns when the last
  // sector is there.
  template <class OnLine>
  int64_t load(int sm, const LineRequest *lines, int n, int sectors, int &wavefronts, int64_t now,
               OnLine &&on_line) {
    int64_t ready = now + m_d.l1_hit_cycles;
    // The lines of a wide request mostly miss together (a tiled kernel's tiles): their L2 state is
    // fetched ahead. A request of two lines is mostly a narrow one that straddles a line boundary
    // (a stencil's shifted rows, whose sectors hit in L1 97% of the time): the prefetch's read of
    // the summary it just asked for waited on the host's memory for nothing (stencil 9x9 on 1024^2
    // column:256: 13% of the instructions; docs/results/gpu-model-speed.md, 2026-11-28 tail2).
    if (n > 2)
      prefetch_l2(sm, n, [&](int k) { return lines[k].line; });
    l1_lookups(sm, lines, n, sectors, wavefronts, now, [&](int k, const SectorCache::Result &r) {
      if (r.pending)
        ready = std::max<int64_t>(ready, r.pending_ready);
      uint32_t l2_miss = 0;
      if (r.miss) {
        const int64_t arrives = fetch(sm, lines[k].line, r.miss, now, l2_miss);
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
  // `wavefronts` grows by l1_mixed_request_wavefronts where the request's sectors are of more than
  // one of: ready (hits), on their way (another request's misses), its own misses (the data stage
  // serves each part when its data is there: kernels/probes/l1_fill, tight/miss-cost.md).
  template <class OnResult>
  void l1_lookups(int sm, const LineRequest *lines, int n, int sectors, int &wavefronts,
                  int64_t now, OnResult &&on_result) {
    GpuMetrics &c = m_l1_counts[static_cast<std::size_t>(sm)].m;
    ++c.l1_requests;
    c.l1_sectors += sectors;
    SectorCache &l1 = m_l1[static_cast<std::size_t>(sm)];
    for (int k = 1; k < n; ++k)
      l1.prefetch(lines[k].line);
    // A sector on its way (another warp's miss) is found allocated by the tag stage: Nsight
    // counts a hit, as the H100's column:32 matmul shows (89% measured, the warps of a CTA
    // sharing each B line in lockstep); the warp waits for the fill. A lookup splits its sectors
    // into hits, pending hits and misses, so the hits are the request's sectors less its misses.
    int64_t missed = 0;
    int waiting_lines = 0; // lines with sectors missing or on their way
    uint32_t ready = 0, on_way = 0, own = 0;
    for (int k = 0; k < n; ++k) {
      const SectorCache::Result r =
          l1.lookup(lines[k].line, lines[k].sectors, static_cast<uint32_t>(now));
      if (r.miss | r.pending) {
        missed += popcount8(r.miss);
        c.l1_pending_hits += popcount8(r.pending);
      }
      waiting_lines += (r.miss | r.pending) != 0;
      ready |= r.hit;
      on_way |= r.pending;
      own |= r.miss;
      on_result(k, r);
    }
    if ((ready != 0) + (on_way != 0) + (own != 0) > 1)
      wavefronts += m_d.l1_mixed_request_wavefronts;
    // The tag stage looks up l1_lines_per_cycle lines a cycle: a request of many lines on
    // distinct banks (a column:4 warp's 8 rows) takes longer than its one wavefront.
    if (m_d.l1_lines_per_cycle > 0 && n > m_d.l1_lines_per_cycle)
      wavefronts = std::max(wavefronts, (n + m_d.l1_lines_per_cycle - 1) / m_d.l1_lines_per_cycle);
    // The miss stage takes l1_miss_lines_per_cycle lines with sectors missing or on their way a
    // cycle (kernels/probes/l1_miss_lines: 8 lines missing every request, 1.05 cycles a line).
    if (m_d.l1_miss_lines_per_cycle > 0 && waiting_lines > m_d.l1_miss_lines_per_cycle)
      wavefronts = std::max(wavefronts, (waiting_lines + m_d.l1_miss_lines_per_cycle - 1) /
                                            m_d.l1_miss_lines_per_cycle);
    c.l1_wavefronts += wavefronts;
    c.l1_sector_hits += sectors - missed;
    c.l1_sector_misses += missed;
  }

  // Fetches SM `sm`'s L1 summaries into the host's caches, ahead of its turn.
  void prefetch_l1(int sm) const { m_l1[static_cast<std::size_t>(sm)].prefetch_summaries(); }

  // Fetches into the host's caches the L2 state that SM `sm`'s fetches of the L1 lines `lines` (n
  // of them) will read first (its near partition's), in two passes (the sets' summaries, then the
  // ways they name), so that the host cache misses of one batch of L2 lookups overlap. A hint: it
  // changes nothing.
  template <class LineOf> void prefetch_l2(int sm, int n, LineOf &&line_of) const {
    if (m_line_shift != m_l2_line_shift)
      return;
    const SectorCache &l2 = m_l2[m_sm_part[static_cast<std::size_t>(sm)]];
    for (int k = 0; k < n; ++k)
      l2.prefetch_summary(line_of(k));
    for (int k = 0; k < n; ++k)
      l2.prefetch(line_of(k));
  }

  // SM `sm`'s missing sectors `mask` of L1 line `line`, as L2 lines and sectors, read from L2 at
  // `now`; returns when they reach the L1. `l2_miss` gets the L1 sectors of which some part
  // missed in L2 (in the near partition and, for a line homed in the other, there too).
  int64_t fetch(int sm, uint64_t l1_line, uint32_t mask, int64_t now, uint32_t &l2_miss) {
    l2_miss = 0;
    if (m_line_shift == m_l2_line_shift && m_sector_shift == m_l2_sector_shift)
      return l2_read(sm, l1_line, mask, now, l2_miss);
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
        arrives = std::max(arrives, l2_read(sm, l2_line, bit, now, missed));
        if (missed)
          l2_miss |= m & -m;
      }
    }
    return arrives;
  }

  // The output store of a warp of SM `sm` at `now`: through to L2, not into L1. A sector the warp
  // writes whole needs nothing from DRAM; one it writes in part is allocated with only those bytes
  // (issue 21 §1: a later read of the sector's other bytes, such as the tail of the input that
  // shares the output's first sector, misses and reads the sector from DRAM). The near partition
  // takes it, and a sector homed in the other goes on over the fabric to its home, a lookup
  // there too (the H200 counts half the stored sectors of the tiled kernels as fabric writes, every
  // one a hit: docs/results/tight/l2-partitions.md).
  void store(int sm, const SectorWrite *writes, int n, int64_t now) {
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
      ++m_m.l2_write_sectors;
      dram_demand(now, 1); // written back sooner or later: DRAM's load as much as a read
      const int near = m_sm_part[static_cast<std::size_t>(sm)], home = home_partition(line);
      store_in(near, line, sec, writes[k].bytes, now);
      if (home != near) {
        ++m_m.l2_fabric_sectors;
        store_in(home, line, sec, writes[k].bytes, now);
      }
    }
  }

  // The GPCs of device `d` (one where its row does not say).
  static int gpcs(const Device &d) {
    int n = 0;
    for (int g : d.sm_gpc)
      n = std::max(n, g + 1);
    return std::max(1, n);
  }
  // The GPC of device SM `ds` (in the first wave's dealing order: dispatch.hpp), and the L2
  // partition it is near: the device row's, or where the row does not say, one GPC and the SMs
  // split evenly in order among the partitions.
  static int gpc_of(const Device &d, int64_t ds) {
    return d.sm_gpc.empty() ? 0 : d.sm_gpc[static_cast<std::size_t>(ds) % d.sm_gpc.size()];
  }
  static int near_partition(const Device &d, int64_t ds) {
    const int g = gpc_of(d, ds);
    if (!d.gpc_l2_partition.empty())
      return d.gpc_l2_partition[static_cast<std::size_t>(g)] % partitions(d);
    return static_cast<int>(ds * partitions(d) / std::max(1, d.sms));
  }
  // The partition L2 line `line` is homed in: a hash of the line, as the probe finds no line
  // address bits that decide it (docs/results/tight/l2-partitions.md), with both halves even.
  int home_partition(uint64_t line) const {
    if (m_parts == 1)
      return 0;
    uint64_t x = line * 0x9E3779B97F4A7C15ull;
    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 32;
    return static_cast<int>(x % static_cast<uint64_t>(m_parts));
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
  // A store's lookup of one sector in partition `p`: it allocates the sector there. Where the
  // profiler counts every store as a hit (Device::l2_store_counts_as_hit), it is one.
  void store_in(int p, uint64_t line, int sec, uint32_t bytes, int64_t now) {
    ++m_m.l2_lookups;
    if (m_l2[static_cast<std::size_t>(p)].write(line, sec, bytes, m_l2_full,
                                                static_cast<uint32_t>(now)) ||
        m_d.l2_store_counts_as_hit)
      ++m_m.l2_hits;
  }

  // The L2 request coalescer of GPC `gpc`: of the sectors `mask` of L2 line `line` read at
  // `now`, those that reach the L2 (returned); the others are merged with a read of the same GPC
  // that reached the L2 less than l2_coalesce_cycles before. kernels/probes/l2_parts on the H200
  // (docs/results/tight/l2-partitions.md): two SMs reading the same lines together merge half of
  // the reads where they share a GPC (the same TPC or not) and none where they do not, also two SMs
  // of the same side. One L2 read serves at most l2_coalesce_max_reads reads (kernels/probes/
  // lrc_cap on the H100: N SMs of one GPC reading together send ceil(N / 4) L2 reads a sector).
  // A table per GPC of the last read of each sector (by a hash; a sector whose entry another took
  // is not merged).
  uint32_t lrc_reach(int gpc, uint64_t line, uint32_t mask, int64_t now) {
    uint32_t reach = mask;
    const uint32_t t = static_cast<uint32_t>(now);
    for (uint32_t m = mask; m; m &= m - 1) {
      const uint64_t sector = (line << 3) | uint64_t(__builtin_ctz(m));
      const uint64_t h = (sector * 0x9E3779B97F4A7C15ull) >> (64 - kLrcBits);
      LrcEntry &e = m_lrc[(static_cast<std::size_t>(gpc) << kLrcBits) | h];
      if (e.sector == sector + 1 && t < e.until && e.reads < m_coalesce_max_reads) {
        reach &= ~(m & -m);
        ++e.reads;
      } else {
        e.sector = sector + 1;
        e.until = t + static_cast<uint32_t>(m_coalesce_cycles);
        e.reads = 1;
      }
    }
    return reach;
  }

  // SM `sm`'s L2 reads of the sectors `mask` of L2 line `line` at `now`; returns when they reach
  // the L1. With the device's L2 request coalescer, a read that another of the SM's GPC sent less
  // than l2_coalesce_cycles before is merged with it (lrc_reach): it reaches neither the L2's tags
  // nor its counters (lts__t_sectors_srcunit_tex_op_read), and its data comes with the earlier
  // read's. A later read reaches the L2, also while the sector is still on its way from DRAM (a
  // hit on a miss). The H100 merges 1-62% of the L1's misses (docs/results/tight/heldout-scores.md
  // §3.2). The read looks the line up in the SM's near partition; what misses there and is homed
  // in the other partition is looked up there over the fabric (counted in lts__t_sectors and the
  // hit rate, as Nsight counts lts__t_sectors_srcunit_ltcfabric), then read from DRAM if it
  // misses there too; the near partition keeps the sectors.
  int64_t l2_read(int sm, uint64_t line, uint32_t mask, int64_t now, uint32_t &l2_miss) {
    const int near = m_sm_part[static_cast<std::size_t>(sm)];
    const SectorCache::Result r =
        m_l2[static_cast<std::size_t>(near)].lookup(line, mask, static_cast<uint32_t>(now));
    m_m.l2_requested_sectors += popcount8(mask);
    const uint32_t reach = m_coalesce_cycles > 0
                               ? lrc_reach(m_sm_gpc[static_cast<std::size_t>(sm)], line, mask, now)
                               : mask;
    const int reached = popcount8(reach);
    m_m.l2_lookups += reached;
    m_m.l2_read_sectors += reached;
    m_m.l2_read_requests += reached > 0;
    m_m.l2_hits += popcount8((r.hit | r.pending) & reach);
    int64_t arrives = now + m_d.l2_hit_cycles;
    if (r.pending)
      arrives = std::max<int64_t>(arrives, r.pending_ready);
    l2_miss = r.miss;
    if (!r.miss)
      return arrives;
    const int home = home_partition(line);
    if (home == near) {
      for (uint32_t m = r.miss; m; m &= m - 1) {
        const int64_t fill = dram_read(now);
        SectorCache::set_fill(r, __builtin_ctz(m), static_cast<uint32_t>(fill));
        arrives = std::max(arrives, fill);
      }
      return arrives;
    }
    // Over the fabric to the home partition: its hits come after its own hit latency, its misses
    // from DRAM, each l2_fabric_cycles later at the near partition, which keeps them.
    const SectorCache::Result f =
        m_l2[static_cast<std::size_t>(home)].lookup(line, r.miss, static_cast<uint32_t>(now));
    const int looked = popcount8(r.miss);
    m_m.l2_fabric_sectors += looked;
    m_m.l2_lookups += looked;
    m_m.l2_hits += popcount8(f.hit | f.pending);
    l2_miss = f.miss;
    const int64_t far_hit = now + m_d.l2_hit_cycles + m_d.l2_fabric_cycles;
    for (uint32_t m = r.miss; m; m &= m - 1) {
      const int sec = __builtin_ctz(m);
      int64_t there = now + m_d.l2_hit_cycles;
      if (f.miss & (1u << sec)) {
        there = dram_read(now);
        SectorCache::set_fill(f, sec, static_cast<uint32_t>(there));
      } else if (f.pending & (1u << sec)) {
        there = std::max<int64_t>(there, f.fill[sec]);
      }
      const int64_t here = std::max(far_hit, there + m_d.l2_fabric_cycles);
      SectorCache::set_fill(r, sec, static_cast<uint32_t>(here));
      arrives = std::max(arrives, here);
    }
    return arrives;
  }

  // One sector read from DRAM, asked for at `now`: DRAM serves sectors one after another at its
  // bandwidth, with a latency that grows with its load (dram_loaded_cycles at the load of the
  // last whole period of kDramPeriodShift cycles). Returns when its data is in the L2.
  int64_t dram_read(int64_t now) {
    m_m.dram_read_bytes += m_d.l2_sector_bytes;
    dram_demand(now, 1);
    m_dram_free =
        std::max(m_dram_free, double(now)) + double(m_d.l2_sector_bytes) / m_dram_bytes_per_cycle;
    return static_cast<int64_t>(m_dram_free) + m_d.dram_cycles + m_dram_extra_cycles;
  }

  // `sectors` of DRAM traffic asked for at `now` (reads, or stores that the L2 writes back later):
  // counted in their period. A request of a later period closes the current one; the load of a
  // period that has just closed sets the extra latency of the next (0 after an idle period).
  // Requests come in the L2's fixed order, whatever the number of threads; one a little late (the
  // SMs of a 32-cycle window take turns) counts in the current period.
  void dram_demand(int64_t now, int64_t sectors) {
    if (m_d.dram_loaded_cycles <= 0)
      return;
    const int64_t period = now >> kDramPeriodShift;
    if (period > m_dram_period) {
      const double load =
          period == m_dram_period + 1
              ? double(m_dram_period_sectors * m_d.l2_sector_bytes) /
                    (m_dram_bytes_per_cycle * double(int64_t{1} << kDramPeriodShift))
              : 0.0;
      m_dram_extra_cycles =
          static_cast<int64_t>(double(m_d.dram_loaded_cycles) * std::min(1.0, load) + 0.5);
      m_dram_period = period;
      m_dram_period_sectors = 0;
    }
    m_dram_period_sectors += sectors;
  }

  struct LrcEntry {
    uint64_t sector = 0; // the sector's index + 1 (0: empty)
    uint32_t until = 0;
    uint32_t reads = 0; // the L1 reads this entry's L2 read serves so far
  };
  static constexpr int kLrcBits = 14; // entries per GPC: 2^14

  const Device &m_d;
  int m_coalesce_cycles = 0; // the L2 request coalescer's window for this workload's reads
  uint32_t m_coalesce_max_reads = ~uint32_t{0}; // reads one L2 read serves at most
  int m_parts = 1;
  std::vector<SectorCache> m_l2;  // per partition
  std::vector<uint8_t> m_sm_part; // per simulated SM: its near partition
  std::vector<uint8_t> m_sm_gpc;  // per simulated SM: its GPC (the coalescer's)
  std::vector<LrcEntry> m_lrc;    // per GPC, 2^kLrcBits entries
  std::vector<SectorCache> m_l1;
  int m_sector_shift = 5, m_line_shift = 7, m_l2_sector_shift = 5, m_l2_line_shift = 7;
  uint32_t m_l2_full = ~uint32_t{0}; // every byte of an L2 sector (at most 32)
  double m_dram_bytes_per_cycle = 1, m_dram_free = 0;
  static constexpr int kDramPeriodShift = 10; // the load is measured over 1024-cycle periods
  int64_t m_dram_period = 0, m_dram_period_sectors = 0, m_dram_extra_cycles = 0;
  GpuMetrics m_m; // L2 and DRAM counts
  struct alignas(64) L1Counts {
    GpuMetrics m;
  };
  std::vector<L1Counts> m_l1_counts; // per SM: its L1's counts (SMs may run on several threads)
};

} // namespace cbi::sim::gpu
