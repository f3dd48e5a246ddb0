// The GPU execution model's engine: a discrete-event replay over SMs (sim/include/cbi/sim/
// gpu_model.hpp). Each SM issues one warp memory instruction per turn; the SM whose next turn comes
// first goes next, so L2 sees the SMs' traffic interleaved in time.
#include "cbi/sim/gpu_model.hpp"

#include "cbi/error.hpp"

#include <algorithm>
#include <chrono>
#include <type_traits>
#include <utility>

namespace cbi::sim {
namespace {

constexpr int64_t kNever = INT64_MAX;

// Sectors per line are at most 8 (a line of at most 8 sectors): popcount of a sector mask.
inline int popcount8(uint32_t m) {
  static constexpr uint8_t kBits[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
  return kBits[m & 15] + kBits[(m >> 4) & 15];
}

// A sectored, set-associative LRU cache that also remembers when each sector's data arrives, so a
// lookup can tell a hit from a sector still on its way. Lines are looked up whole, with a mask of
// the sectors wanted. With `hashed`, the set index is a hash of the line index (GPUs hash L1 and L2
// set indices), otherwise line mod sets, as sim::Cache does (the tiny-device test relies on that).
// Flat arrays, 32-bit tags, stamps and fill times: the 132 L1s and the L2 of an H100 take about
// 16 MB of host memory, so that lookups mostly stay in the host's caches (docs/results/
// gpu-model-speed.md). Limits, checked by the engine: line indices below 2^32 - 1 (byte addresses
// below 512 GiB), times below 2^32 cycles.
class SectorCache {
public:
  // `writes`: the cache also takes stores (the L2), and keeps per sector the bytes that stores
  // wrote, so that a sector only partly written is not taken for one read from DRAM.
  SectorCache(int64_t capacity_lines, int64_t ways, int sectors_per_line, bool hashed,
              bool writes = false)
      : m_ways(static_cast<uint32_t>(ways == 0 ? capacity_lines : ways)),
        m_sets(static_cast<uint64_t>(capacity_lines / (ways == 0 ? capacity_lines : ways))),
        m_sectors(sectors_per_line), m_hashed(hashed) {
    const std::size_t slots = static_cast<std::size_t>(m_sets * m_ways);
    m_tag.assign(slots, kEmpty);
    m_stamp.assign(slots, 0);
    m_valid.assign(slots, 0);
    m_partial.assign(slots, 0);
    m_clock.assign(static_cast<std::size_t>(m_sets), 0);
    m_fill.assign(slots * static_cast<std::size_t>(m_sectors), 0);
    if (writes)
      m_written.assign(slots * static_cast<std::size_t>(m_sectors), 0);
  }

  struct Result {
    uint32_t hit = 0;     // sectors present and filled by `now`
    uint32_t pending = 0; // sectors allocated, their data still on its way
    uint32_t miss = 0;    // sectors allocated now: the caller fetches them and sets their fill
    uint32_t pending_ready = 0;
    std::size_t slot = 0;
  };

  Result lookup(uint64_t line64, uint32_t sectors, uint32_t now) {
    Result r;
    const uint32_t line = static_cast<uint32_t>(line64);
    const uint64_t set = set_of(line64);
    const std::size_t base = static_cast<std::size_t>(set * m_ways);
    const uint32_t stamp = ++m_clock[static_cast<std::size_t>(set)];
    const uint32_t *tags = &m_tag[base];
    uint32_t *stamps = &m_stamp[base];
    uint32_t w = 0;
    while (w < m_ways && tags[w] != line)
      ++w;
    if (w < m_ways) {
      stamps[w] = stamp;
      r.slot = base + w;
      uint8_t &valid = m_valid[r.slot];
      // A sector that stores wrote only in part holds no data to read: it misses, and the fetch
      // from below makes it whole.
      const uint32_t readable = uint32_t{valid} & ~uint32_t{m_partial[r.slot]};
      const uint32_t *fill = &m_fill[r.slot * static_cast<std::size_t>(m_sectors)];
      for (uint32_t m = sectors & readable; m; m &= m - 1) {
        const int sec = __builtin_ctz(m);
        if (fill[sec] <= now) {
          r.hit |= 1u << sec;
        } else {
          r.pending |= 1u << sec;
          r.pending_ready = std::max(r.pending_ready, fill[sec]);
        }
      }
      r.miss = sectors & ~readable;
      valid = static_cast<uint8_t>(valid | sectors);
      m_partial[r.slot] = static_cast<uint8_t>(m_partial[r.slot] & ~sectors);
      return r;
    }
    r.slot = allocate(base, line, stamp);
    m_valid[r.slot] = static_cast<uint8_t>(sectors);
    r.miss = sectors;
    return r;
  }

  // A store of the bytes `bytes` (bit b: byte b of the sector) to sector `sector` of line `line`:
  // allocates the sector if absent (fetching nothing: its fill is `now`); a sector stays partial,
  // unreadable, until stores have written all its bytes or a read has fetched it. Returns whether
  // the sector was present (an L2 write hit).
  bool write(uint64_t line64, int sector, uint32_t bytes, uint32_t full, uint32_t now) {
    const uint32_t line = static_cast<uint32_t>(line64);
    const uint64_t set = set_of(line64);
    const std::size_t base = static_cast<std::size_t>(set * m_ways);
    const uint32_t stamp = ++m_clock[static_cast<std::size_t>(set)];
    const uint32_t bit = 1u << sector;
    uint32_t w = 0;
    while (w < m_ways && m_tag[base + w] != line)
      ++w;
    std::size_t slot = base + w;
    bool hit = false;
    if (w < m_ways) {
      m_stamp[slot] = stamp;
      hit = m_valid[slot] & bit;
    } else {
      slot = allocate(base, line, stamp);
      m_valid[slot] = 0;
    }
    const std::size_t sec = slot * static_cast<std::size_t>(m_sectors) + std::size_t(sector);
    if (!hit) {
      m_valid[slot] = static_cast<uint8_t>(m_valid[slot] | bit);
      m_fill[sec] = now;
      m_written[sec] = 0;
      if (bytes != full)
        m_partial[slot] = static_cast<uint8_t>(m_partial[slot] | bit);
    }
    if (m_partial[slot] & bit) {
      m_written[sec] |= bytes;
      if (m_written[sec] == full)
        m_partial[slot] = static_cast<uint8_t>(m_partial[slot] & ~bit);
    }
    return hit;
  }

  void set_fill(std::size_t slot, int sector, uint32_t when) {
    m_fill[slot * static_cast<std::size_t>(m_sectors) + static_cast<std::size_t>(sector)] = when;
  }

private:
  static constexpr uint32_t kEmpty = ~uint32_t{0};

  // The least recently used way of the set at `base` takes `line`; returns its slot.
  std::size_t allocate(std::size_t base, uint32_t line, uint32_t stamp) {
    const uint32_t *stamps = &m_stamp[base];
    uint32_t victim = 0;
    for (uint32_t v = 1; v < m_ways; ++v)
      if (stamps[v] < stamps[victim])
        victim = v;
    const std::size_t slot = base + victim;
    m_tag[slot] = line;
    m_stamp[slot] = stamp;
    m_partial[slot] = 0;
    return slot;
  }

  uint64_t set_of(uint64_t line) const {
    if (m_sets == 1)
      return 0;
    if (!m_hashed)
      return line % m_sets;
    uint64_t h = line * 0x9E3779B97F4A7C15ull; // Fibonacci hashing: every line bit reaches the set
    h ^= h >> 29;
    return h % m_sets;
  }

  uint32_t m_ways;
  uint64_t m_sets;
  int m_sectors;
  bool m_hashed;
  std::vector<uint32_t> m_tag;     // per slot (set * ways + way)
  std::vector<uint32_t> m_stamp;   // per slot: the set's clock at its last use (LRU); 0 = never
  std::vector<uint8_t> m_valid;    // per slot: sector mask
  std::vector<uint8_t> m_partial;  // per slot: sectors that stores wrote in part (not readable)
  std::vector<uint32_t> m_written; // per sector, caches that take stores: bytes stores wrote
  std::vector<uint32_t> m_clock;   // per set: lookups so far
  std::vector<uint32_t> m_fill;    // per sector: the time its data is (or will be) there
};

// Integer divisions a thread spends on its remap (each is about 20 instructions without a
// hardware divider): linear i mod I_w and i div I_w; columns and tiles a few more (eq. 4.1-4.7).
int remap_divisions(const remap::Order &o) {
  switch (o.kind) {
  case remap::OrderKind::linear:
    return 2;
  case remap::OrderKind::tile:
    return 6;
  default:
    return 5;
  }
}

// Address instructions per load, counted from the kernels' source: each workload's
// address_ops_per_load (sim/include/cbi/sim/workloads/).
double int_ops_per_load(WorkloadKind kind) {
  return visit_workload(kind, [](auto tag) { return decltype(tag)::type::address_ops_per_load; });
}

// Workloads may compute a warp's addresses for one instruction at once (lane_loads).
template <class W, class = void> struct HasLaneLoads : std::false_type {};
template <class W>
struct HasLaneLoads<W, std::void_t<decltype(std::declval<const W &>().lane_loads(
                           nullptr, 0, int64_t{0}, static_cast<uint64_t *>(nullptr)))>>
    : std::true_type {};

constexpr int kWheel = 4096;    // cycles a warp can be scheduled ahead; longer waits are clamped
constexpr int64_t kWindow = 32; // cycles an SM runs before the next SM's turn

struct Warp {
  int64_t next = 0;      // next instruction
  int64_t group_end = 0; // when the loads issued since the last wait have all arrived
  int64_t cta = 0;       // index in the launch
  int cta_slot = 0;
  int lanes = 0;       // active lanes
  int wheel_next = -1; // next warp in the same wheel slot
};

struct Sm {
  std::vector<Warp> warps;
  std::vector<remap::Task<int64_t>> tasks; // warp w's lanes at [w * warp_size, ...)
  std::vector<int> cta_live_warps;         // per CTA slot
  std::vector<int> wheel;                  // kWheel slots: first warp that becomes ready then
  std::vector<int> fifo;                   // ring of ready warps, oldest first
  std::size_t fifo_head = 0, fifo_size = 0;
  uint64_t ready = 0;   // oldest-CTA-first: bit id = warp id is ready
  std::vector<int> age; // oldest-CTA-first: CTA slots, the oldest CTA first
  int scheduled = 0;    // warps on the wheel
  int64_t pipe_free = 0;
  struct Launch {
    int64_t at = 0; // when the CTA starts
    int64_t cta = 0;
    int slot = 0;
  };
  std::vector<Launch> launches; // CTAs given to this SM that have not started yet
  int64_t dispatch_at = kNever; // the earliest of their starts
};

template <class W, class Order> class Engine {
public:
  Engine(const GpuConfig &c, const W &program, Order order, const GpuObserver *observer)
      : m_c(c), m_observer(observer && observer->on_sector ? observer : nullptr), m_d(c.device),
        m_program(program), m_order(order), m_shape(W::task_shape(c.workload)),
        m_threads(m_shape.width * m_shape.height), m_block(c.block_threads),
        m_warp_size(c.device.warp_size),
        m_warps_per_cta(static_cast<int>((c.block_threads + m_warp_size - 1) / m_warp_size)),
        m_loads(program.loads()), m_group(c.sample_sms > 0 ? c.device.sms / c.sample_sms : 1),
        m_l2(c.device.l2_bytes / c.device.l2_line_bytes, c.device.l2_ways,
             static_cast<int>(c.device.l2_line_bytes / c.device.l2_sector_bytes),
             c.device.l2_hashed, true) {
    m_ctas = (m_threads + m_block - 1) / m_block;
    const int64_t by_threads = m_d.max_threads_per_sm / m_block;
    const int64_t by_warps = m_d.max_warps_per_sm / m_warps_per_cta;
    m_ctas_per_sm = std::max<int64_t>(
        1, std::min<int64_t>({by_threads, by_warps, int64_t{m_d.max_ctas_per_sm}}));
    // The oldest-CTA-first pick keeps the ready warps in one 64-bit mask.
    if (m_ctas_per_sm * m_warps_per_cta > 64)
      m_oldest_first = false;
    const int64_t l1_bytes = c.l1_bytes > 0 ? c.l1_bytes : m_d.l1_bytes;
    const int64_t l1_ways = c.l1_ways >= 0 ? c.l1_ways : m_d.l1_ways;
    const int64_t l1_lines = l1_bytes / m_d.l1_line_bytes;
    m_sector_shift = __builtin_ctzll(static_cast<uint64_t>(m_d.l1_sector_bytes));
    m_line_shift = __builtin_ctzll(static_cast<uint64_t>(m_d.l1_line_bytes));
    m_l2_sector_shift = __builtin_ctzll(static_cast<uint64_t>(m_d.l2_sector_bytes));
    m_l2_line_shift = __builtin_ctzll(static_cast<uint64_t>(m_d.l2_line_bytes));
    m_l2_sector_bytes = static_cast<int>(m_d.l2_sector_bytes);
    // A sampled SM stands for m_group SMs: its share of DRAM bandwidth is 1/group. The L2 keeps
    // its capacity: the sampled SMs read the same shared data as all SMs together.
    m_dram_bytes_per_cycle = m_d.dram_gbs * 1e9 / (m_d.sm_clock_mhz * 1e6) / double(m_group);
    m_output_base = static_cast<uint64_t>(c.workload.output_base_bytes());
    // The first wave's round: one CTA for each SM that gets one.
    m_round = std::min<int64_t>(m_d.sms, m_ctas);
    const int sms = static_cast<int>((m_round + m_group - 1) / m_group);
    m_sms.resize(static_cast<std::size_t>(sms));
    for (int s = 0; s < sms; ++s) {
      m_l1.emplace_back(l1_lines, l1_ways,
                        static_cast<int>(m_d.l1_line_bytes / m_d.l1_sector_bytes),
                        m_d.warp_size > 1);
      Sm &sm = m_sms[static_cast<std::size_t>(s)];
      const std::size_t warps = static_cast<std::size_t>(m_ctas_per_sm * m_warps_per_cta);
      sm.warps.resize(warps);
      sm.tasks.resize(warps * static_cast<std::size_t>(m_warp_size));
      sm.cta_live_warps.assign(static_cast<std::size_t>(m_ctas_per_sm), 0);
      sm.wheel.assign(kWheel, -1);
      sm.fifo.assign(warps, 0);
    }
  }

  GpuResult run(const Progress &progress) {
    // CTAs dealt in index order, one per SM per round, until every SM holds its occupancy. Sampled
    // SM s is the device's SM s * group and gets that SM's CTAs.
    for (int64_t slot = 0; slot < m_ctas_per_sm; ++slot)
      for (std::size_t s = 0; s < m_sms.size(); ++s) {
        const int64_t cta = slot * m_round + int64_t(s) * m_group;
        if (cta < m_ctas) {
          // The device's CTA launcher hands out one CTA per cta_dispatch_cycles: the first wave
          // starts over about a microsecond on the H100 (docs/results/gpu-model-h100.md).
          Sm &sm = m_sms[s];
          const int64_t at = cta * m_d.cta_dispatch_cycles;
          if (at == 0)
            start_cta(static_cast<int>(s), static_cast<int>(slot), 0, cta);
          else {
            sm.launches.push_back({at, cta, static_cast<int>(slot)});
            sm.dispatch_at = std::min(sm.dispatch_at, at);
          }
          ++m_live_ctas;
        }
      }
    m_next_cta = std::min(m_ctas, m_ctas_per_sm * m_round);
    // SMs advance together in windows of kWindow cycles: each SM runs its window's cycles (in each
    // it may issue one request), then the next SM. Within a window L2 sees the SMs' requests in
    // SM order rather than cycle order; the window is short against the L2 latency, and it keeps
    // one SM's L1 in the host's caches for a while (docs/results/gpu-model-speed.md).
    int64_t now = 0, reported = 0;
    for (; m_live_ctas > 0; now += kWindow) {
      if (now + kWindow + kWheel + m_d.dram_cycles > int64_t{0xFFFFFFFF} - (int64_t{1} << 24))
        throw UsageError("gpu.block_threads", "the replay passed 2^32 cycles, the model's limit");
      for (std::size_t s = 0; s < m_sms.size(); ++s)
        for (int64_t t = now; t < now + kWindow; ++t)
          cycle(static_cast<int>(s), t);
      if (progress && m_done_ctas - reported >= 4096) {
        reported = m_done_ctas;
        progress(reported * m_block, m_threads);
      }
    }
    GpuResult r;
    r.metrics = m_m;
    r.simulated_ctas = m_done_ctas;
    r.simulated_sms = static_cast<int>(m_sms.size());
    r.ctas = m_ctas;
    r.ctas_per_sm = m_ctas_per_sm;
    r.threads = m_threads;
    r.cycles = std::max(now, m_last_event);
    return r;
  }

private:
  void schedule(Sm &sm, int id, int64_t when, int64_t now) {
    // The wheel holds kWheel cycles; a longer wait is clamped to its horizon.
    const int64_t at = std::min(std::max(when, now + 1), now + kWheel - 1);
    int &head = sm.wheel[static_cast<std::size_t>(at % kWheel)];
    sm.warps[static_cast<std::size_t>(id)].wheel_next = head;
    head = id;
    ++sm.scheduled;
  }

  void start_cta(int s, int slot, int64_t now, int64_t cta) {
    Sm &sm = m_sms[static_cast<std::size_t>(s)];
    int live = 0;
    for (int w = 0; w < m_warps_per_cta; ++w) {
      const int64_t first = cta * m_block + int64_t{w} * m_warp_size;
      const int64_t last = std::min({first + m_warp_size, (cta + 1) * m_block, m_threads});
      if (first >= last)
        break;
      const int id = slot * m_warps_per_cta + w;
      Warp &warp = sm.warps[static_cast<std::size_t>(id)];
      warp = Warp{0, now, cta, slot, static_cast<int>(last - first), -1};
      remap::Task<int64_t> *t = &sm.tasks[static_cast<std::size_t>(id) * m_warp_size];
      for (int64_t i = first; i < last; ++i)
        t[i - first] = m_order.map(i, m_shape);
      make_ready(sm, id); // ready at once
      ++live;
    }
    sm.cta_live_warps[static_cast<std::size_t>(slot)] = live;
    if (m_oldest_first) {
      sm.age.erase(std::remove(sm.age.begin(), sm.age.end(), slot), sm.age.end());
      sm.age.push_back(slot);
    }
  }

  // CTAs to skip after a sampled SM takes one: the SMs it stands for take the others. Drawn from
  // 1..2*group-1 (mean: group), not a fixed group: a fixed stride aliases with the workload's own
  // periods (with group 4, linear matmul 1024 gives an SM CTAs of one quarter of B only, 17 points
  // of L1 hit rate too many: tests/sim/test_gpu_model.cpp).
  int64_t group_step() {
    if (m_group == 1)
      return 1;
    m_rng ^= m_rng << 13;
    m_rng ^= m_rng >> 7;
    m_rng ^= m_rng << 17;
    return 1 + static_cast<int64_t>(m_rng % static_cast<uint64_t>(2 * m_group - 1));
  }

  void make_ready(Sm &sm, int id) {
    if (m_oldest_first)
      sm.ready |= uint64_t{1} << id;
    else
      sm.fifo[(sm.fifo_head + sm.fifo_size++) % sm.fifo.size()] = id;
  }

  // The next warp to issue, or -1: the one ready longest (loose round-robin), or a ready warp of
  // the oldest CTA (oldest-CTA-first, as greedy-then-oldest schedulers prefer old warps).
  int pick(Sm &sm) {
    if (!m_oldest_first) {
      if (sm.fifo_size == 0)
        return -1;
      const int id = sm.fifo[sm.fifo_head];
      sm.fifo_head = (sm.fifo_head + 1) % sm.fifo.size();
      --sm.fifo_size;
      return id;
    }
    if (!sm.ready)
      return -1;
    const uint64_t slot_mask =
        m_warps_per_cta >= 64 ? ~uint64_t{0} : (uint64_t{1} << m_warps_per_cta) - 1;
    for (int slot : sm.age) {
      const uint64_t bits = (sm.ready >> (slot * m_warps_per_cta)) & slot_mask;
      if (bits) {
        const int id = slot * m_warps_per_cta + __builtin_ctzll(bits);
        sm.ready &= ~(uint64_t{1} << id);
        return id;
      }
    }
    return -1;
  }

  // One cycle of SM s: dispatch due CTAs, wake the warps whose wait ends now, issue the oldest
  // ready warp's next memory instruction if the L1 can take a request.
  void cycle(int s, int64_t now) {
    Sm &sm = m_sms[static_cast<std::size_t>(s)];
    if (sm.dispatch_at <= now) {
      sm.dispatch_at = kNever;
      for (std::size_t k = 0; k < sm.launches.size();) {
        const Sm::Launch l = sm.launches[k];
        if (l.at <= now) {
          start_cta(s, l.slot, now, l.cta);
          sm.launches[k] = sm.launches.back();
          sm.launches.pop_back();
        } else {
          sm.dispatch_at = std::min(sm.dispatch_at, l.at);
          ++k;
        }
      }
    }
    int &head = sm.wheel[static_cast<std::size_t>(now % kWheel)];
    for (int id = head; id >= 0;) {
      const int next = sm.warps[static_cast<std::size_t>(id)].wheel_next;
      make_ready(sm, id);
      --sm.scheduled;
      id = next;
    }
    head = -1;
    if (sm.pipe_free > now)
      return;
    const int id = pick(sm);
    if (id < 0)
      return;
    Warp &warp = sm.warps[static_cast<std::size_t>(id)];
    const remap::Task<int64_t> *lanes = &sm.tasks[static_cast<std::size_t>(id) * m_warp_size];
    int wavefronts = 1;
    const int64_t arrives = issue_load(s, id, lanes, warp, now, wavefronts);
    sm.pipe_free = now + static_cast<int64_t>(wavefronts / m_d.l1_wavefronts_per_cycle + 0.999);
    m_last_event = std::max(m_last_event, arrives);
    warp.group_end = std::max(warp.group_end, arrives);
    if (++warp.next < m_loads) {
      // Loads do not block: a warp issues up to loads_in_flight of them, then waits for all.
      const bool wait = warp.next % m_d.loads_in_flight_per_warp == 0;
      schedule(sm, id, wait ? warp.group_end : now + m_d.issue_cycles, now);
      return;
    }
    if (m_c.stores)
      issue_store(lanes, warp.lanes, warp.group_end);
    int &left = sm.cta_live_warps[static_cast<std::size_t>(warp.cta_slot)];
    if (--left == 0) {
      ++m_done_ctas;
      --m_live_ctas;
      if (m_next_cta < m_ctas) {
        // The freed slot gets the next CTA in index order at once, so CTAs are handed out in the
        // order slots free up device-wide (the H100 probe: docs/results/gpu-model-h100.md); it
        // starts cta_launch_cycles later. A sampled SM's group takes `group` CTAs: the SMs it
        // stands for take the rest.
        const int64_t at = std::max(warp.group_end, now) + m_d.cta_launch_cycles;
        sm.launches.push_back({at, m_next_cta, warp.cta_slot});
        ++m_live_ctas;
        sm.dispatch_at = std::min(sm.dispatch_at, at);
        m_next_cta = std::min(m_ctas, m_next_cta + group_step());
      }
    }
  }

  // Coalesces the lanes' sectors (sorted, distinct) into m_sector_buf; returns their count.
  int coalesce(const remap::Task<int64_t> *lanes, int n, int64_t j, bool store) {
    uint64_t addr[64];
    if (store) {
      for (int l = 0; l < n; ++l)
        addr[l] = m_output_base + static_cast<uint64_t>((lanes[l].y * m_shape.width + lanes[l].x) *
                                                        m_c.workload.elem_bytes);
    } else if constexpr (HasLaneLoads<W>::value) {
      m_program.lane_loads(lanes, n, j, addr);
    } else {
      for (int l = 0; l < n; ++l)
        addr[l] = m_program.load(lanes[l], j).byte_addr;
    }
    return coalesce_sectors(addr, n, m_sector_shift, m_sector_buf);
  }

  // L2 reads of the sectors `mask` of L2 line `line` at `now`; returns when they reach the L1.
  int64_t l2_read(uint64_t line, uint32_t mask, int64_t now, uint32_t &l2_miss) {
    const SectorCache::Result r = m_l2.lookup(line, mask, static_cast<uint32_t>(now));
    l2_miss = r.miss;
    const int n = popcount8(mask);
    m_m.l2_lookups += n;
    m_m.l2_read_sectors += n;
    m_m.l2_hits += popcount8(r.hit | r.pending);
    int64_t arrives = now + m_d.l2_hit_cycles;
    if (r.pending)
      arrives = std::max<int64_t>(arrives, r.pending_ready);
    for (uint32_t m = r.miss; m; m &= m - 1) {
      // DRAM serves sectors one after another at its bandwidth.
      m_m.dram_read_bytes += m_d.l2_sector_bytes;
      m_dram_free =
          std::max(m_dram_free, double(now)) + double(m_d.l2_sector_bytes) / m_dram_bytes_per_cycle;
      const int64_t fill = static_cast<int64_t>(m_dram_free) + m_d.dram_cycles;
      m_l2.set_fill(r.slot, __builtin_ctz(m), static_cast<uint32_t>(fill));
      arrives = std::max(arrives, fill);
    }
    return arrives;
  }

  // One warp load: coalesce, look up each line's sectors in the SM's L1, fetch the missing ones
  // from L2. Returns when the last sector is there.
  int64_t issue_load(int s, int id, const remap::Task<int64_t> *lanes, const Warp &warp,
                     int64_t now, int &wavefronts) {
    const int64_t j = warp.next;
    const int sectors = coalesce(lanes, warp.lanes, j, false);
    const bool watched = m_observer && s * m_group == m_observer->sm;
    GpuSectorEvent ev;
    if (watched) {
      ev.cycle = now;
      ev.issue = m_observed_issues++;
      ev.sm = static_cast<int>(s * m_group);
      ev.cta = warp.cta;
      ev.warp = id % m_warps_per_cta;
      ev.instruction = j;
    }
    ++m_m.l1_requests;
    m_m.l1_sectors += sectors;
    SectorCache &l1 = m_l1[static_cast<std::size_t>(s)];
    int64_t ready = now + m_d.l1_hit_cycles;
    const int spl_shift = m_line_shift - m_sector_shift;
    const uint64_t sector_mask = (uint64_t{1} << spl_shift) - 1;
    wavefronts = 0;
    for (int k = 0; k < sectors;) {
      const uint64_t line = m_sector_buf[k] >> spl_shift;
      uint32_t mask = 0;
      for (; k < sectors && (m_sector_buf[k] >> spl_shift) == line; ++k)
        mask |= 1u << (m_sector_buf[k] & sector_mask);
      ++wavefronts;
      const SectorCache::Result r = l1.lookup(line, mask, static_cast<uint32_t>(now));
      // A sector on its way (another warp's miss) is found allocated by the tag stage: Nsight
      // counts a hit, as the H100's column:32 matmul shows (89% measured, the warps of a CTA
      // sharing each B line in lockstep); the warp waits for the fill.
      m_m.l1_sector_hits += popcount8(r.hit | r.pending);
      m_m.l1_pending_hits += popcount8(r.pending);
      m_m.l1_sector_misses += popcount8(r.miss);
      if (r.pending)
        ready = std::max<int64_t>(ready, r.pending_ready);
      uint32_t l2_miss = 0;
      if (r.miss) {
        const int64_t arrives = l2_fetch(line, r.miss, now, l2_miss);
        for (uint32_t m = r.miss; m; m &= m - 1)
          l1.set_fill(r.slot, __builtin_ctz(m), static_cast<uint32_t>(arrives));
        ready = std::max(ready, arrives);
      }
      if (watched)
        observe(ev, line, mask, r, l2_miss);
    }
    m_m.l1_wavefronts += wavefronts;
    return ready;
  }

  // One event per sector of `mask` in L1 line `line`.
  void observe(GpuSectorEvent &ev, uint64_t line, uint32_t mask, const SectorCache::Result &r,
               uint32_t l2_miss) {
    ev.line_byte_addr = line << m_line_shift;
    for (uint32_t m = mask; m; m &= m - 1) {
      const int sec = __builtin_ctz(m);
      const uint32_t bit = 1u << sec;
      ev.sector_byte_addr = ev.line_byte_addr + (uint64_t(sec) << m_sector_shift);
      ev.l1 = (r.miss & bit)      ? L1Outcome::miss
              : (r.pending & bit) ? L1Outcome::pending_hit
                                  : L1Outcome::hit;
      ev.l2_hit = (r.miss & bit) && !(l2_miss & bit);
      m_observer->on_sector(ev);
    }
  }

  // The missing sectors `mask` of L1 line `line`, as L2 lines and sectors; `l2_miss` gets the L1
  // sectors of which some part missed in L2.
  int64_t l2_fetch(uint64_t l1_line, uint32_t mask, int64_t now, uint32_t &l2_miss) {
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

  // The output store: through to L2, not into L1. A sector the warp writes whole needs nothing
  // from DRAM; one it writes in part is allocated with only those bytes (issue 21 §1: a later read
  // of the sector's other bytes, such as the tail of the input that shares the output's first
  // sector, misses and reads the sector from DRAM).
  void issue_store(const remap::Task<int64_t> *lanes, int n, int64_t now) {
    struct Written {
      uint64_t sector;
      uint32_t bytes;
    };
    Written w[2 * 64];
    int count = 0;
    const uint64_t sector_bytes = uint64_t{1} << m_l2_sector_shift;
    const uint64_t elem = static_cast<uint64_t>(m_c.workload.elem_bytes);
    for (int l = 0; l < n; ++l) {
      const uint64_t first =
          m_output_base + static_cast<uint64_t>(lanes[l].y * m_shape.width + lanes[l].x) * elem;
      for (uint64_t b = first; b < first + elem;) {
        const uint64_t sector = b >> m_l2_sector_shift;
        const uint64_t end = std::min(first + elem, (sector + 1) << m_l2_sector_shift);
        const uint64_t off = b & (sector_bytes - 1), len = end - b;
        const uint32_t bytes =
            static_cast<uint32_t>((len >= 32 ? ~uint64_t{0} : ((uint64_t{1} << len) - 1)) << off);
        // Lanes mostly come in ascending order: insertion into the sorted prefix.
        int k = count;
        while (k > 0 && w[k - 1].sector > sector)
          --k;
        if (k > 0 && w[k - 1].sector == sector) {
          w[k - 1].bytes |= bytes;
        } else {
          for (int m = count; m > k; --m)
            w[m] = w[m - 1];
          w[k] = {sector, bytes};
          ++count;
        }
        b = end;
      }
    }
    const uint32_t full =
        m_l2_sector_bytes >= 32 ? ~uint32_t{0} : (uint32_t{1} << m_l2_sector_bytes) - 1;
    const int spl_shift = m_l2_line_shift - m_l2_sector_shift;
    for (int k = 0; k < count; ++k) {
      const uint64_t line = w[k].sector >> spl_shift;
      const int sec = static_cast<int>(w[k].sector & ((uint64_t{1} << spl_shift) - 1));
      ++m_m.l2_lookups;
      ++m_m.l2_write_sectors;
      if (m_l2.write(line, sec, w[k].bytes, full, static_cast<uint32_t>(now)))
        ++m_m.l2_hits;
    }
  }

  const GpuConfig &m_c;
  const GpuObserver *m_observer; // null when off
  int64_t m_observed_issues = 0;
  const Device &m_d;
  bool m_oldest_first = m_d.scheduler == WarpScheduler::oldest_cta_first;
  const W &m_program;
  Order m_order;
  remap::Shape<int64_t> m_shape;
  int64_t m_threads, m_block;
  int m_warp_size, m_warps_per_cta;
  int64_t m_loads;
  int64_t m_group; // device SMs that one simulated SM stands for (1: every SM simulated)
  SectorCache m_l2;
  std::vector<SectorCache> m_l1;
  std::vector<Sm> m_sms;
  int64_t m_round = 0; // CTAs in one round of the first wave
  int64_t m_ctas = 0, m_ctas_per_sm = 0, m_next_cta = 0, m_done_ctas = 0;
  uint64_t m_rng = 0x2545F4914F6CDD1Dull; // xorshift64 for group_step, fixed seed
  int64_t m_live_ctas = 0; // given to an SM (running or about to start), not yet done
  int m_sector_shift = 5, m_line_shift = 7, m_l2_sector_shift = 5, m_l2_line_shift = 7;
  int m_l2_sector_bytes = 32; // at most 32: a store's bytes in a sector are one 32-bit mask
  double m_dram_bytes_per_cycle = 1, m_dram_free = 0;
  int64_t m_last_event = 0;
  uint64_t m_output_base = 0;
  uint64_t m_sector_buf[64];
  GpuMetrics m_m;
};

} // namespace

int coalesce_sectors(const uint64_t *byte_addrs, int lanes, int sector_shift, uint64_t *sectors) {
  int count = 0;
  for (int l = 0; l < lanes; ++l) {
    const uint64_t sector = byte_addrs[l] >> sector_shift;
    if (count > 0 && sectors[count - 1] == sector)
      continue;
    // Insertion into the sorted prefix (lanes mostly arrive in ascending order).
    int k = count;
    while (k > 0 && sectors[k - 1] > sector)
      --k;
    if (k > 0 && sectors[k - 1] == sector)
      continue;
    for (int m = count; m > k; --m)
      sectors[m] = sectors[m - 1];
    sectors[k] = sector;
    ++count;
  }
  return count;
}

WarpRequest warp_request(const GpuConfig &c, int64_t warp, int64_t j) {
  validate(c);
  const Device &d = c.device;
  return visit_workload(c.workload.kind, [&](auto tag) {
    using W = typename decltype(tag)::type;
    const W program(c.workload);
    const remap::Shape<int64_t> shape = W::task_shape(c.workload);
    const int64_t threads = shape.width * shape.height;
    const int64_t warps_per_cta = (c.block_threads + d.warp_size - 1) / d.warp_size;
    const int64_t cta = warp / warps_per_cta;
    const int64_t first = cta * c.block_threads + (warp % warps_per_cta) * d.warp_size;
    const int64_t last = std::min({first + d.warp_size, (cta + 1) * c.block_threads, threads});
    uint64_t addr[64], sectors[64];
    int n = 0;
    remap::visit(c.order, [&](auto order) {
      for (int64_t i = first; i < last; ++i)
        addr[n++] = program.load(order.map(i, shape), j).byte_addr;
      return 0;
    });
    WarpRequest r;
    r.lanes = n;
    r.sectors = coalesce_sectors(addr, n, __builtin_ctzll(static_cast<uint64_t>(d.l1_sector_bytes)),
                                 sectors);
    const int spl_shift =
        __builtin_ctzll(static_cast<uint64_t>(d.l1_line_bytes / d.l1_sector_bytes));
    for (int k = 0; k < r.sectors; ++k)
      r.lines += k == 0 || (sectors[k] >> spl_shift) != (sectors[k - 1] >> spl_shift);
    return r;
  });
}

std::vector<std::pair<std::string, double>> GpuMetrics::named() const {
  return {{"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", double(l1_requests)},
          {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", double(l1_sectors)},
          {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", double(l1_sector_hits)},
          {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum", double(l1_sector_misses)},
          {"l1tex__t_sector_hit_rate.pct", l1_hit_pct()},
          {"lts__t_sectors_srcunit_tex_op_read.sum", double(l2_read_sectors)},
          {"lts__t_sector_hit_rate.pct", l2_hit_pct()},
          {"dram__bytes_read.sum", double(dram_read_bytes)}};
}

void validate(const GpuConfig &c) {
  validate(c.workload);
  const Device &d = c.device;
  // A block larger than the device launches (1024 threads, as bench and sweep cap it) or than an
  // SM holds is refused, in simulate --model gpu, tune and sweep alike.
  const int most = std::min(d.max_threads_per_block, d.max_threads_per_sm);
  if (c.block_threads < 1 || c.block_threads > most)
    throw UsageError("gpu.block_threads",
                     std::to_string(c.block_threads) + " threads per block is not allowed on " +
                         d.name + "; allowed: 1.." + std::to_string(most));
  if (c.l1_bytes < 0 || (c.l1_bytes > 0 && c.l1_bytes % d.l1_line_bytes != 0))
    throw UsageError("gpu.l1_bytes", "the L1 size must be a positive multiple of the " +
                                         std::to_string(d.l1_line_bytes) + "-byte line");
  const int64_t lines = (c.l1_bytes > 0 ? c.l1_bytes : d.l1_bytes) / d.l1_line_bytes;
  const int64_t ways = c.l1_ways >= 0 ? c.l1_ways : d.l1_ways;
  if (ways > 0 && lines % ways != 0)
    throw UsageError("gpu.l1_ways", std::to_string(ways) + " ways do not divide " +
                                        std::to_string(lines) + " lines; allowed: a divisor");
  if (c.sample_sms < 0 || (c.sample_sms > 0 && d.sms % c.sample_sms != 0))
    throw UsageError("gpu.sample_sms", std::to_string(c.sample_sms) + " SMs do not divide the " +
                                           std::to_string(d.sms) + " SMs of " + d.name +
                                           "; allowed: 0 (all) or a divisor");
  if (d.l2_sector_bytes > 32)
    throw UsageError("--device", d.name + " has " + std::to_string(d.l2_sector_bytes) +
                                     "-byte L2 sectors; the model allows at most 32");
  validate(c.order);
}

GpuResult simulate_gpu(const GpuConfig &c, const Progress &progress, const GpuObserver *observer) {
  validate(c);
  if (observer && (observer->sm < 0 || observer->sm >= c.device.sms))
    throw UsageError("gpu.observe_sm", "SM " + std::to_string(observer->sm) + " is not on " +
                                           c.device.name + "; allowed: 0.." +
                                           std::to_string(c.device.sms - 1));
  const auto start = std::chrono::steady_clock::now();
  GpuResult r = visit_workload(c.workload.kind, [&](auto tag) {
    using W = typename decltype(tag)::type;
    const W program(c.workload);
    return remap::visit(c.order, [&](auto order) {
      Engine<W, decltype(order)> engine(c, program, order, observer);
      return engine.run(progress);
    });
  });
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (r.simulated_ctas != r.ctas && r.simulated_ctas > 0) {
    // Sampled: the simulated CTAs stand for all of them.
    const double scale = double(r.ctas) / double(r.simulated_ctas);
    GpuMetrics &m = r.metrics;
    for (int64_t *v : {&m.l1_requests, &m.l1_sectors, &m.l1_sector_hits, &m.l1_sector_misses,
                       &m.l1_wavefronts, &m.l1_pending_hits, &m.l2_read_sectors,
                       &m.l2_write_sectors, &m.l2_hits, &m.l2_lookups, &m.dram_read_bytes})
      *v = static_cast<int64_t>(double(*v) * scale + 0.5);
  }

  // The predicted time: the largest of the replay's own cycle count and four throughput bounds.
  const Device &d = c.device;
  const double hz = d.sm_clock_mhz * 1e6;
  GpuTime &t = r.time;
  const GpuMetrics &m = r.metrics;
  t.simulated_ms = 1e3 * double(r.cycles) / hz;
  t.l1_ms = 1e3 * double(m.l1_wavefronts) / (double(d.sms) * d.l1_wavefronts_per_cycle * hz);
  t.l2_ms = 1e3 * double(m.l2_read_sectors * d.l1_sector_bytes) /
            (double(d.sms) * d.l2_to_l1_bytes_per_cycle * hz);
  t.dram_ms = 1e3 * double(m.dram_read_bytes) / (d.dram_gbs * 1e9);
  // Instruction issue: warp instructions / (SMs x issue_per_cycle). Per task: the workload's FMAs,
  // its loads, about int_ops_per_load address instructions per load, the remap's divisions
  // (about 20 instructions each without a hardware divider) and the output store.
  const double fma = double(visit_workload(
      c.workload.kind, [&](auto tag) { return decltype(tag)::type::fp_ops_per_task(c.workload); }));
  const double loads = double(r.metrics.l1_requests) * d.warp_size / double(r.threads);
  const double instructions = fma + loads * (1.0 + int_ops_per_load(c.workload.kind)) +
                              20.0 * remap_divisions(c.order) + 3.0;
  t.arithmetic_ms = 1e3 * double(r.threads) / d.warp_size * instructions /
                    (double(d.sms) * d.issue_per_cycle * hz);
  const std::pair<double, const char *> terms[] = {{t.simulated_ms, "replay"},
                                                   {t.l1_ms, "L1 wavefronts"},
                                                   {t.l2_ms, "L2->L1 bandwidth"},
                                                   {t.dram_ms, "DRAM bandwidth"},
                                                   {t.arithmetic_ms, "instruction issue"}};
  const auto *top = std::max_element(std::begin(terms), std::end(terms));
  t.predicted_ms = top->first;
  t.bound = top->second;
  return r;
}

} // namespace cbi::sim
