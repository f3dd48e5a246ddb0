// The coalescer (GPGPU-Sim's memory_coalescing_arch): a warp instruction's lane addresses become
// one request of distinct sectors, grouped by line, before any cache sees them. Loads come from
// the workload's program (its per-warp lane_loads where it has one); the output store from the
// task's output element.
#pragma once

#include "cbi/sim/gpu_model.hpp"

#include <cstdint>
#include <type_traits>
#include <utility>

namespace cbi::sim::gpu {

// Workloads may compute a warp's addresses for one instruction at once (lane_loads).
template <class W, class = void> struct HasLaneLoads : std::false_type {};
template <class W>
struct HasLaneLoads<W, std::void_t<decltype(std::declval<const W &>().lane_loads(
                           nullptr, 0, int64_t{0}, static_cast<uint64_t *>(nullptr)))>>
    : std::true_type {};

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

template <class W> class Coalescer {
public:
  static constexpr int kMaxLanes = 64;

  Coalescer(const W &program, const GpuConfig &c, remap::Shape<int64_t> shape)
      : m_program(program), m_width(shape.width),
        m_elem_bytes(static_cast<uint64_t>(c.workload.elem_bytes)),
        m_output_base(static_cast<uint64_t>(c.workload.output_base_bytes())),
        m_sector_shift(__builtin_ctzll(static_cast<uint64_t>(c.device.l1_sector_bytes))),
        m_line_shift(__builtin_ctzll(static_cast<uint64_t>(c.device.l1_line_bytes))),
        m_store_sector_shift(__builtin_ctzll(static_cast<uint64_t>(c.device.l2_sector_bytes))) {}

  // Instruction j of the warp whose active lanes hold `lanes`: its lines in ascending order, each
  // with its sector mask, into `out` (room for kMaxLanes); returns the line count. `sectors` gets
  // the number of distinct sectors.
  int load(const remap::Task<int64_t> *lanes, int n, int64_t j, LineRequest *out, int &sectors) {
    uint64_t addr[kMaxLanes];
    if constexpr (HasLaneLoads<W>::value) {
      m_program.lane_loads(lanes, n, j, addr);
    } else {
      for (int l = 0; l < n; ++l)
        addr[l] = m_program.load(lanes[l], j).byte_addr;
    }
    sectors = coalesce_sectors(addr, n, m_sector_shift, m_sector_buf);
    const int spl_shift = m_line_shift - m_sector_shift;
    const uint64_t sector_mask = (uint64_t{1} << spl_shift) - 1;
    int lines = 0;
    for (int k = 0; k < sectors;) {
      const uint64_t line = m_sector_buf[k] >> spl_shift;
      uint32_t mask = 0;
      for (; k < sectors && (m_sector_buf[k] >> spl_shift) == line; ++k)
        mask |= 1u << (m_sector_buf[k] & sector_mask);
      out[lines++] = {line, mask};
    }
    return lines;
  }

  // The output store of the warp: per L2 sector touched, ascending, the bytes it writes, into
  // `out` (room for 2 * kMaxLanes); returns the count.
  int store(const remap::Task<int64_t> *lanes, int n, SectorWrite *out) const {
    int count = 0;
    const uint64_t sector_bytes = uint64_t{1} << m_store_sector_shift;
    for (int l = 0; l < n; ++l) {
      const uint64_t first =
          m_output_base + static_cast<uint64_t>(lanes[l].y * m_width + lanes[l].x) * m_elem_bytes;
      for (uint64_t b = first; b < first + m_elem_bytes;) {
        const uint64_t sector = b >> m_store_sector_shift;
        const uint64_t end = std::min(first + m_elem_bytes, (sector + 1) << m_store_sector_shift);
        const uint64_t off = b & (sector_bytes - 1), len = end - b;
        const uint32_t bytes =
            static_cast<uint32_t>((len >= 32 ? ~uint64_t{0} : ((uint64_t{1} << len) - 1)) << off);
        // Lanes mostly come in ascending order: insertion into the sorted prefix.
        int k = count;
        while (k > 0 && out[k - 1].sector > sector)
          --k;
        if (k > 0 && out[k - 1].sector == sector) {
          out[k - 1].bytes |= bytes;
        } else {
          for (int m = count; m > k; --m)
            out[m] = out[m - 1];
          out[k] = {sector, bytes};
          ++count;
        }
        b = end;
      }
    }
    return count;
  }

private:
  const W &m_program;
  int64_t m_width;
  uint64_t m_elem_bytes;
  uint64_t m_output_base;
  int m_sector_shift, m_line_shift, m_store_sector_shift;
  uint64_t m_sector_buf[kMaxLanes];
};

} // namespace cbi::sim::gpu
