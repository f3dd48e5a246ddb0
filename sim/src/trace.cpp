// Traces as workloads (cbi/sim/trace.hpp, docs/traces.md): a line reader over a file, the two
// formats' parsers (cbi's own and Accel-Sim's kernel traces) into one decoded form of a thread
// block (per warp its modelled instructions, each a few lane runs), the checking pass, and the
// workload that decodes blocks on demand through a small cache.
#include "cbi/sim/trace.hpp"

#include "cbi/error.hpp"
#include "cbi/file_kind.hpp"
#include "cbi/sim/simulate.hpp"
#include "cbi/sim/workloads.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <list>
#include <mutex>
#include <ostream>
#include <string_view>
#include <sys/stat.h>
#include <unordered_map>

namespace cbi::sim {

namespace {

constexpr int kWarp = 32;

// Lanes first..first+count-1 read or write base, base + stride, ...
struct Run {
  uint64_t base = 0;
  int64_t stride = 0;
  uint8_t first = 0, count = 0;
};
struct Instr {
  bool store = false;
  int32_t bytes = 4;
  uint32_t run_begin = 0;
  uint32_t runs = 0;
};
// One thread block: warp w's modelled instructions are instrs[warp_begin[w] .. warp_begin[w+1]).
struct Block {
  std::vector<uint32_t> warp_begin;
  std::vector<Instr> instrs;
  std::vector<Run> runs;
  std::size_t bytes() const {
    return warp_begin.size() * 4 + instrs.size() * sizeof(Instr) + runs.size() * sizeof(Run);
  }
};

// Buffered lines of a file with their line numbers and byte offsets; seek() returns to a line.
class LineReader {
public:
  explicit LineReader(const std::string &path) : m_path(path) {
    // --trace '' said "--trace: : cannot open: No such file or directory".
    if (path.empty())
      throw UsageError("--trace", "empty path; allowed: a trace file (cbi trace -o FILE writes "
                                  "one; Accel-Sim's are kernel-N.traceg)");
    // A folder opens, and its first read failed: "/tmp:1: expected a readable file".
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
      throw UsageError("--trace", path + ": is a folder; allowed: a trace file (cbi trace -o "
                                         "FILE writes one; Accel-Sim's are kernel-N.traceg)");
    m_file = std::fopen(path.c_str(), "rb");
    if (!m_file)
      throw UsageError("--trace", path + ": cannot open: " + std::strerror(errno) +
                                      "; allowed: a readable trace file");
    m_buf.resize(1 << 20);
  }
  ~LineReader() { std::fclose(m_file); }
  LineReader(const LineReader &) = delete;
  LineReader &operator=(const LineReader &) = delete;

  // The next line without its newline; false at the end of the file.
  bool next(std::string_view &line) {
    for (;;) {
      const char *begin = m_buf.data() + m_pos;
      const char *nl = static_cast<const char *>(std::memchr(begin, '\n', m_end - m_pos));
      if (nl) {
        line = std::string_view(begin, static_cast<std::size_t>(nl - begin));
        start_line(line.size() + 1);
        return true;
      }
      if (m_eof) {
        if (m_pos == m_end)
          return false;
        line = std::string_view(begin, m_end - m_pos); // a last line without a newline
        start_line(line.size());
        return true;
      }
      refill();
    }
  }
  int64_t line_no() const { return m_line; }
  int64_t line_offset() const { return m_line_offset; }
  void seek(int64_t offset, int64_t line_no) {
    if (fseeko(m_file, static_cast<off_t>(offset), SEEK_SET) != 0)
      fail_at(line_no, "a readable file (seek failed)");
    m_pos = m_end = 0;
    m_eof = false;
    m_next_offset = offset;
    m_line = line_no - 1;
  }
  [[noreturn]] void fail(const std::string &expected) const { fail_at(m_line, expected); }
  [[noreturn]] void fail_at(int64_t line, const std::string &expected) const {
    throw UsageError("--trace", m_path + ":" + std::to_string(line) + ": expected " + expected);
  }
  const std::string &path() const { return m_path; }

private:
  void start_line(std::size_t consumed) {
    m_line_offset = m_next_offset;
    m_next_offset += static_cast<int64_t>(consumed);
    m_pos += consumed;
    ++m_line;
  }
  void refill() {
    std::memmove(m_buf.data(), m_buf.data() + m_pos, m_end - m_pos);
    m_end -= m_pos;
    m_pos = 0;
    if (m_end == m_buf.size()) {
      if (m_buf.size() >= (std::size_t{1} << 26))
        fail_at(m_line + 1, "lines shorter than 64 MiB");
      m_buf.resize(m_buf.size() * 2);
    }
    const std::size_t got = std::fread(m_buf.data() + m_end, 1, m_buf.size() - m_end, m_file);
    if (got == 0) {
      if (std::ferror(m_file))
        fail_at(m_line + 1, std::string("a readable file: ") + std::strerror(errno));
      m_eof = true;
    }
    m_end += got;
  }

  std::string m_path;
  std::FILE *m_file = nullptr;
  std::vector<char> m_buf;
  std::size_t m_pos = 0, m_end = 0;
  bool m_eof = false;
  int64_t m_line = 0, m_line_offset = 0, m_next_offset = 0;
};

// Whitespace-separated tokens of one line.
class Tokens {
public:
  explicit Tokens(std::string_view s) : m_s(s) {}
  bool next(std::string_view &t) {
    while (m_i < m_s.size() && (m_s[m_i] == ' ' || m_s[m_i] == '\t' || m_s[m_i] == '\r'))
      ++m_i;
    if (m_i >= m_s.size())
      return false;
    const std::size_t b = m_i;
    while (m_i < m_s.size() && m_s[m_i] != ' ' && m_s[m_i] != '\t' && m_s[m_i] != '\r')
      ++m_i;
    t = m_s.substr(b, m_i - b);
    return true;
  }
  std::string_view need(const LineReader &r, const char *what) {
    std::string_view t;
    if (!next(t))
      r.fail(what);
    return t;
  }
  bool at_end() {
    std::string_view t;
    const std::size_t keep = m_i;
    const bool more = next(t);
    m_i = keep;
    return !more;
  }

private:
  std::string_view m_s;
  std::size_t m_i = 0;
};

bool parse_u64(std::string_view t, int base, uint64_t &v) {
  if (base == 16 && t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X'))
    t.remove_prefix(2);
  if (t.empty() || t.size() > (base == 16 ? 16u : 20u))
    return false;
  uint64_t x = 0;
  for (char c : t) {
    int d;
    if (c >= '0' && c <= '9')
      d = c - '0';
    else if (base == 16 && c >= 'a' && c <= 'f')
      d = c - 'a' + 10;
    else if (base == 16 && c >= 'A' && c <= 'F')
      d = c - 'A' + 10;
    else
      return false;
    if (base == 10 && x > (UINT64_MAX - static_cast<uint64_t>(d)) / 10)
      return false;
    x = x * static_cast<uint64_t>(base) + static_cast<uint64_t>(d);
  }
  v = x;
  return true;
}
bool parse_i64(std::string_view t, int64_t &v) {
  bool neg = false;
  if (!t.empty() && (t[0] == '-' || t[0] == '+')) {
    neg = t[0] == '-';
    t.remove_prefix(1);
  }
  uint64_t u = 0;
  if (!parse_u64(t, 10, u) || u > (uint64_t{1} << 62))
    return false;
  v = neg ? -static_cast<int64_t>(u) : static_cast<int64_t>(u);
  return true;
}
uint64_t need_u64(const LineReader &r, std::string_view t, int base, const char *what) {
  uint64_t v = 0;
  if (!parse_u64(t, base, v))
    r.fail(std::string(what) + ", found '" + std::string(t.substr(0, 40)) + "'");
  return v;
}
int64_t need_i64(const LineReader &r, std::string_view t, const char *what) {
  int64_t v = 0;
  if (!parse_i64(t, v))
    r.fail(std::string(what) + ", found '" + std::string(t.substr(0, 40)) + "'");
  return v;
}

// The address base + offset of an active lane; refused unless it lies in [0, 2^64 - 129], so that
// the lane's bytes (at most 128) neither wrap past 2^64 nor reach kNoAccess (an inactive lane).
uint64_t lane_address(const LineReader &r, uint64_t base, __int128 offset) {
  const __int128 a = static_cast<__int128>(base) + offset;
  if (a < 0 || a > static_cast<__int128>(kNoAccess - 128))
    r.fail("lane addresses from 0 to 2^64 - 129; a base, stride or delta here leaves that range");
  return static_cast<uint64_t>(a);
}

std::string hex_of(uint64_t v) {
  char buf[20];
  std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(v));
  return buf;
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}
// "x,y,z" or "(x,y,z)" into v[3], each from min to 2^31; refused naming what was found.
void parse_dim3(const LineReader &r, std::string_view s, int64_t *v, int64_t min,
                const char *expected) {
  s = trim(s);
  const std::string what = std::string(expected) + ", found '" + std::string(s.substr(0, 40)) + "'";
  if (!s.empty() && s.front() == '(' && s.back() == ')')
    s = s.substr(1, s.size() - 2);
  for (int k = 0; k < 3; ++k) {
    const std::size_t comma = k < 2 ? s.find(',') : s.size();
    if (comma == std::string_view::npos)
      r.fail(what);
    uint64_t x = 0;
    if (!parse_u64(trim(s.substr(0, comma)), 10, x) || x > (uint64_t{1} << 31) ||
        static_cast<int64_t>(x) < min)
      r.fail(what);
    v[k] = static_cast<int64_t>(x);
    s = k < 2 ? s.substr(comma + 1) : std::string_view();
  }
}

// Widens info's byte range by the active lanes of one instruction of `bytes` per lane.
void widen(TraceInfo &info, const uint64_t *addr, int lanes, int64_t bytes) {
  for (int l = 0; l < lanes; ++l)
    if (addr[l] != kNoAccess) {
      info.lowest_byte = std::min(info.lowest_byte, addr[l]);
      info.highest_byte = std::max(info.highest_byte, addr[l] + static_cast<uint64_t>(bytes) - 1);
      info.widest_bytes = std::max(info.widest_bytes, static_cast<int32_t>(bytes));
    }
}

// Lane addresses (kNoAccess: inactive) of one warp instruction as runs appended to b.runs.
void add_runs(Block &b, Instr &in, const uint64_t *addr, int lanes) {
  in.run_begin = static_cast<uint32_t>(b.runs.size());
  for (int l = 0; l < lanes;) {
    if (addr[l] == kNoAccess) {
      ++l;
      continue;
    }
    Run r;
    r.base = addr[l];
    r.first = static_cast<uint8_t>(l);
    int k = l + 1;
    if (k < lanes && addr[k] != kNoAccess) {
      r.stride = static_cast<int64_t>(addr[k] - addr[l]);
      while (k < lanes && addr[k] != kNoAccess &&
             static_cast<int64_t>(addr[k] - addr[k - 1]) == r.stride)
        ++k;
    }
    r.count = static_cast<uint8_t>(k - l);
    b.runs.push_back(r);
    l = k;
  }
  in.runs = static_cast<uint32_t>(b.runs.size()) - in.run_begin;
}

// The parts of one format: its header (read once) and one thread block from its first line.
class Format {
public:
  virtual ~Format() = default;
  // Reads the header from the reader's start, filling `info` (launch, format, kernel).
  virtual void header(LineReader &r, TraceInfo &info) = 0;
  // Reads the next thread block into b (if given) and its linear id; false at a proper end.
  // Counts what it finds in `info` when counting.
  virtual bool block(LineReader &r, const TraceInfo &launch, Block *b, int64_t &id,
                     TraceInfo *counting) = 0;
  // Forgets a line read ahead: the reader was moved to a block's first line.
  void reset() { m_pending = false; }
  // Where the block that block() returned starts: its first line's offset and number.
  int64_t start_offset = 0, start_line = 0;

protected:
  // The next line: the one read ahead, if any, else the reader's; its place becomes the start.
  bool first_line(LineReader &r, std::string_view &line) {
    if (m_pending) {
      m_pending = false;
      line = m_line;
      start_offset = m_line_offset;
      start_line = m_line_no;
      return true;
    }
    if (!r.next(line))
      return false;
    start_offset = r.line_offset();
    start_line = r.line_no();
    return true;
  }
  // Keeps `line` (just read) for the next block().
  void read_ahead(const LineReader &r, std::string_view line) {
    m_line = std::string(line);
    m_line_offset = r.line_offset();
    m_line_no = r.line_no();
    m_pending = true;
  }
  bool pending() const { return m_pending; }

private:
  std::string m_line;
  int64_t m_line_offset = 0, m_line_no = 0;
  bool m_pending = false;
};

// cbi-trace 1 (docs/traces.md).
class CbiFormat : public Format {
public:
  void header(LineReader &r, TraceInfo &info) override {
    std::string_view line;
    info.format = "cbi-trace 1";
    bool grid = false, block = false, elem = false;
    while (r.next(line)) {
      line = trim(line);
      if (line.empty() || line.front() == '#')
        continue;
      if (line == "launched") // end of the header
        break;
      Tokens t(line);
      std::string_view key;
      t.next(key);
      const std::string_view rest = trim(line.substr(key.size()));
      if (key == "kernel")
        info.kernel = std::string(rest);
      else if (key == "grid") {
        parse_dim3(r, rest, info.grid, 1, "grid X,Y,Z with extents from 1 to 2^31");
        grid = true;
      } else if (key == "block") {
        parse_dim3(r, rest, info.block, 1, "block X,Y,Z with extents from 1 to 2^31");
        block = true;
      } else if (key == "elem_bytes") {
        const uint64_t e = need_u64(r, rest, 10, "elem_bytes 2, 4 or 8");
        if (e != 2 && e != 4 && e != 8)
          r.fail("elem_bytes 2, 4 or 8");
        info.elem_bytes = static_cast<int>(e);
        elem = true;
      } else
        r.fail("a header line (kernel, grid, block, elem_bytes) or 'launched', found '" +
               std::string(key.substr(0, 40)) + "'");
    }
    if (!grid || !block || !elem)
      r.fail("grid, block and elem_bytes lines before 'launched'");
  }

  bool block(LineReader &r, const TraceInfo &launch, Block *b, int64_t &id,
             TraceInfo *counting) override {
    std::string_view line;
    do {
      if (!first_line(r, line))
        r.fail("a block line ('B x,y,z') or the last line 'end BLOCKS WARP_INSTRUCTIONS'; the "
               "file is truncated");
      line = trim(line);
    } while (line.empty());
    const std::string head(line);
    Tokens t(head);
    std::string_view key;
    t.next(key);
    if (key == "end") {
      const uint64_t blocks = need_u64(r, t.need(r, "end BLOCKS WARP_INSTRUCTIONS"), 10,
                                       "end BLOCKS WARP_INSTRUCTIONS");
      const uint64_t instrs = need_u64(r, t.need(r, "end BLOCKS WARP_INSTRUCTIONS"), 10,
                                       "end BLOCKS WARP_INSTRUCTIONS");
      if (counting && (static_cast<int64_t>(blocks) != counting->blocks ||
                       static_cast<int64_t>(instrs) != counting->instructions))
        r.fail("'end " + std::to_string(counting->blocks) + " " +
               std::to_string(counting->instructions) +
               "' (the blocks and warp instructions "
               "read); the file lost lines");
      if (r.next(line))
        r.fail("nothing after the 'end' line");
      return false;
    }
    if (key != "B")
      r.fail("a block line 'B x,y,z', found '" + std::string(key.substr(0, 40)) + "'");
    int64_t xyz[3];
    parse_dim3(r, std::string_view(head).substr(1), xyz, 0, "B x,y,z inside the grid");
    for (int k = 0; k < 3; ++k)
      if (xyz[k] >= launch.grid[k])
        r.fail("B x,y,z inside the grid");
    id = xyz[0] + launch.grid[0] * (xyz[1] + launch.grid[1] * xyz[2]);
    if (b) {
      b->warp_begin.clear();
      b->instrs.clear();
      b->runs.clear();
    }
    const int64_t threads = launch.block_threads();
    const int64_t warps = (threads + kWarp - 1) / kWarp;
    int64_t warp = -1;
    uint64_t addr[kWarp];
    m_warp_instrs.assign(static_cast<std::size_t>(warps), 0);
    while (r.next(line)) {
      line = trim(line);
      if (line.empty())
        continue;
      if (line[0] == 'B' || starts_with(line, "end")) {
        read_ahead(r, line);
        break;
      }
      if (line[0] == 'W') {
        const int64_t w = need_i64(r, trim(line.substr(1)), "W WARP");
        if (w != warp + 1 || w >= warps)
          r.fail("W " + std::to_string(warp + 1) + " (warps in order, fewer than " +
                 std::to_string(warps) + ")");
        warp = w;
        if (counting)
          ++counting->warps;
        if (b)
          b->warp_begin.push_back(static_cast<uint32_t>(b->instrs.size()));
        continue;
      }
      if (warp < 0)
        r.fail("'W 0' before the block's first instruction");
      // J L|S BYTES RUN...; a run is COUNT@HEX+STRIDE, COUNT@HEX-STRIDE or COUNT@- (inactive).
      Tokens tk(line);
      need_u64(r, tk.need(r, "an instruction: J L|S BYTES RUNS"), 10, "an instruction index");
      const std::string_view op = tk.need(r, "L or S");
      if (op != "L" && op != "S")
        r.fail("L or S, found '" + std::string(op.substr(0, 40)) + "'");
      const uint64_t bytes = need_u64(r, tk.need(r, "BYTES per lane"), 10, "BYTES per lane");
      if (bytes < 1 || bytes > 128)
        r.fail("BYTES per lane in 1..128");
      const int lanes = static_cast<int>(std::min<int64_t>(kWarp, threads - warp * kWarp));
      int lane = 0;
      std::string_view run;
      int active = 0;
      while (tk.next(run)) {
        const std::size_t at = run.find('@');
        if (at == std::string_view::npos)
          r.fail("a run COUNT@HEX+STRIDE or COUNT@-, found '" + std::string(run.substr(0, 40)) +
                 "'");
        const uint64_t count = need_u64(r, run.substr(0, at), 10, "a run's lane count");
        if (count < 1 || lane + static_cast<int64_t>(count) > lanes)
          r.fail("runs covering the warp's " + std::to_string(lanes) + " lanes");
        const std::string_view rest = run.substr(at + 1);
        if (rest == "-") {
          for (uint64_t k = 0; k < count; ++k)
            addr[lane++] = kNoAccess;
          continue;
        }
        const std::size_t sign = rest.find_first_of("+-");
        if (sign == std::string_view::npos)
          r.fail("a run COUNT@HEX+STRIDE, found '" + std::string(run.substr(0, 40)) + "'");
        const uint64_t base = need_u64(r, rest.substr(0, sign), 16, "a run's hex base address");
        const int64_t stride = need_i64(r, rest.substr(sign), "a run's stride");
        for (uint64_t k = 0; k < count; ++k)
          addr[lane++] = lane_address(r, base, static_cast<__int128>(stride) * k);
        active += static_cast<int>(count);
      }
      if (lane != lanes)
        r.fail("runs covering the warp's " + std::to_string(lanes) + " lanes (found " +
               std::to_string(lane) + ")");
      if (counting) {
        ++counting->instructions;
        ++(op == "S" ? counting->global_stores : counting->global_loads);
        counting->lane_accesses += active;
        ++m_warp_instrs[static_cast<std::size_t>(warp)];
        widen(*counting, addr, lanes, static_cast<int64_t>(bytes));
      }
      if (b) {
        Instr in;
        in.store = op == "S";
        in.bytes = static_cast<int32_t>(bytes);
        add_runs(*b, in, addr, lanes);
        b->instrs.push_back(in);
      }
    }
    if (!pending())
      r.fail("the last line 'end BLOCKS WARP_INSTRUCTIONS'; the file is truncated");
    if (b)
      b->warp_begin.push_back(static_cast<uint32_t>(b->instrs.size()));
    if (counting) {
      ++counting->blocks;
      for (int64_t n : m_warp_instrs)
        counting->program = std::max(counting->program, n);
    }
    return true;
  }

private:
  std::vector<int64_t> m_warp_instrs; // per warp of the block being counted
};

// Accel-Sim's kernel traces (kernel-N.traceg from util/tracer_nvbit's post-processing), tracer
// versions 3 to 5: the header's "-key = value" lines, then per thread block "#BEGIN_TB",
// "thread block = x,y,z", per warp "warp = W", "insts = N" and N instruction lines, "#END_TB".
class AccelSimFormat : public Format {
public:
  void header(LineReader &r, TraceInfo &info) override {
    std::string_view line;
    bool grid = false, block = false, version = false;
    while (r.next(line)) {
      line = trim(line);
      if (line.empty())
        continue;
      if (line[0] == '#') {
        if (starts_with(line, "#BEGIN_TB")) {
          read_ahead(r, line);
          break;
        }
        continue; // "#traces format = ..."
      }
      if (line[0] != '-')
        r.fail("a header line '-key = value' or '#BEGIN_TB', found '" +
               std::string(line.substr(0, 40)) + "'");
      const std::size_t eq = line.find('=');
      if (eq == std::string_view::npos)
        r.fail("a header line '-key = value'");
      const std::string_view key = trim(line.substr(1, eq - 1)), value = trim(line.substr(eq + 1));
      if (key == "kernel name")
        info.kernel = std::string(value);
      else if (key == "grid dim") {
        parse_dim3(r, value, info.grid, 1, "-grid dim = (x,y,z) with extents from 1 to 2^31");
        grid = true;
      } else if (key == "block dim") {
        parse_dim3(r, value, info.block, 1, "-block dim = (x,y,z) with extents from 1 to 2^31");
        block = true;
      } else if (key == "accelsim tracer version") {
        const uint64_t v = need_u64(r, value, 10, "-accelsim tracer version = 3, 4 or 5");
        if (v < 3 || v > 5)
          r.fail("-accelsim tracer version = 3, 4 or 5 (the versions cbi reads), found " +
                 std::to_string(v));
        m_version = static_cast<int>(v);
        version = true;
      } else if (key == "enable lineinfo") {
        m_lineinfo = need_u64(r, value, 10, "-enable lineinfo = 0 or 1") != 0;
      }
    }
    if (!grid || !block)
      r.fail("'-grid dim = (x,y,z)' and '-block dim = (x,y,z)' in the header");
    if (!version)
      r.fail("'-accelsim tracer version = N' in the header (cbi reads versions 3 to 5)");
    if (info.block_threads() > 1024)
      r.fail("a block of at most 1024 threads");
    info.format = "accel-sim " + std::to_string(m_version);
    info.elem_bytes = 4;
  }

  bool block(LineReader &r, const TraceInfo &launch, Block *b, int64_t &id,
             TraceInfo *counting) override {
    std::string_view line;
    for (;;) {
      if (!first_line(r, line))
        return false; // the end of the file between blocks
      line = trim(line);
      if (line.empty())
        continue;
      if (starts_with(line, "#BEGIN_TB"))
        break;
      r.fail("'#BEGIN_TB', found '" + std::string(line.substr(0, 40)) + "'");
    }
    if (b) {
      b->warp_begin.clear();
      b->instrs.clear();
      b->runs.clear();
    }
    const int64_t threads = launch.block_threads();
    const int64_t warps = (threads + kWarp - 1) / kWarp;
    id = -1;
    int64_t warp = -1, insts_left = 0;
    std::vector<std::vector<Instr>> warp_instrs; // by warp id (warps may come in any order)
    std::vector<std::vector<Run>> warp_runs;
    if (b) {
      warp_instrs.resize(static_cast<std::size_t>(warps));
      warp_runs.resize(static_cast<std::size_t>(warps));
    }
    std::vector<int64_t> modelled(static_cast<std::size_t>(warps), 0);
    bool ended = false;
    while (r.next(line)) {
      line = trim(line);
      if (line.empty())
        continue;
      if (insts_left > 0) {
        instruction(r, line, launch, warp,
                    b ? &warp_instrs[static_cast<std::size_t>(warp)] : nullptr,
                    b ? &warp_runs[static_cast<std::size_t>(warp)] : nullptr, counting,
                    modelled[static_cast<std::size_t>(warp)]);
        --insts_left;
        continue;
      }
      if (starts_with(line, "#END_TB")) {
        ended = true;
        break;
      }
      const std::size_t eq = line.find('=');
      if (eq == std::string_view::npos)
        r.fail("'warp = W', 'insts = N' or '#END_TB', found '" + std::string(line.substr(0, 40)) +
               "'");
      const std::string_view key = trim(line.substr(0, eq)), value = trim(line.substr(eq + 1));
      if (key == "thread block") {
        int64_t xyz[3];
        parse_dim3(r, value, xyz, 0, "thread block = x,y,z inside the grid");
        for (int k = 0; k < 3; ++k)
          if (xyz[k] >= launch.grid[k])
            r.fail("thread block = x,y,z inside the grid");
        id = xyz[0] + launch.grid[0] * (xyz[1] + launch.grid[1] * xyz[2]);
      } else if (key == "warp") {
        if (id < 0)
          r.fail("'thread block = x,y,z' before the first warp");
        warp = need_i64(r, value, "warp = W");
        if (warp < 0 || warp >= warps)
          r.fail("warp = W with W < " + std::to_string(warps) + " (the block's warps)");
        if (counting)
          ++counting->warps;
      } else if (key == "insts") {
        if (warp < 0)
          r.fail("'warp = W' before 'insts = N'");
        insts_left = need_i64(r, value, "insts = N");
        if (insts_left < 0)
          r.fail("insts = N with N >= 0");
      } else if (key == "cluster id" || key == "cluster cta" || key == "cluster rank") {
        continue; // Hopper's thread block clusters: not modelled, and they change no address
      } else
        r.fail("'warp = W', 'insts = N' or '#END_TB', found '" + std::string(line.substr(0, 40)) +
               "'");
    }
    if (!ended)
      r.fail(insts_left > 0 ? std::to_string(insts_left) + " more instruction lines of warp " +
                                  std::to_string(warp) + "; the file is truncated"
                            : std::string("'#END_TB'; the file is truncated"));
    if (id < 0)
      r.fail("'thread block = x,y,z' inside the block");
    if (counting) {
      ++counting->blocks;
      for (int64_t n : modelled)
        counting->program = std::max(counting->program, n);
    }
    if (b) {
      for (std::size_t w = 0; w < warp_instrs.size(); ++w) {
        b->warp_begin.push_back(static_cast<uint32_t>(b->instrs.size()));
        const uint32_t shift = static_cast<uint32_t>(b->runs.size());
        for (Instr in : warp_instrs[w]) {
          in.run_begin += shift;
          b->instrs.push_back(in);
        }
        b->runs.insert(b->runs.end(), warp_runs[w].begin(), warp_runs[w].end());
      }
      b->warp_begin.push_back(static_cast<uint32_t>(b->instrs.size()));
    }
    return true;
  }

private:
  enum class Space { none, global_load, global_store, local, shared, atomic, other };
  static Space space_of(std::string_view opcode) {
    const std::string_view base = opcode.substr(0, opcode.find('.'));
    if (base == "LDG")
      return Space::global_load;
    if (base == "STG")
      return Space::global_store;
    if (base == "LDL" || base == "STL")
      return Space::local;
    if (base == "LDS" || base == "STS" || base == "LDSM")
      return Space::shared;
    if (base == "ATOM" || base == "ATOMG" || base == "ATOMS" || base == "RED" || base == "REDG")
      return Space::atomic;
    return Space::other; // generic LD/ST, LDGSTS, texture, constant and surface accesses
  }
  // Bytes per lane from the opcode, as the tracer and Accel-Sim's parser read it: the first
  // modifier that is a number of bits (LDG.E.128: 16) or U<bits> (LDG.E.U8: 1); else 4.
  static int32_t width_of(std::string_view opcode) {
    std::size_t i = 0;
    while (i < opcode.size()) {
      const std::size_t dot = opcode.find('.', i);
      std::string_view t =
          opcode.substr(i, dot == std::string_view::npos ? opcode.size() - i : dot - i);
      i = dot == std::string_view::npos ? opcode.size() : dot + 1;
      if (!t.empty() && t[0] == 'U')
        t.remove_prefix(1);
      uint64_t bits = 0;
      if (!t.empty() && parse_u64(t, 10, bits) && bits >= 8 && bits <= 1024)
        return static_cast<int32_t>(bits / 8);
    }
    return 4;
  }

  // One instruction line: [line] PC MASK DST_NUM DSTS OPCODE SRC_NUM SRCS MEM_WIDTH
  // [MODE ADDRESSES] [IMMEDIATE].
  void instruction(LineReader &r, std::string_view line, const TraceInfo &launch, int64_t warp,
                   std::vector<Instr> *instrs, std::vector<Run> *runs, TraceInfo *counting,
                   int64_t &modelled) {
    Tokens t(line);
    if (m_lineinfo)
      need_u64(r, t.need(r, "a line number"), 10, "a line number");
    need_u64(r, t.need(r, "an instruction line: PC MASK ..."), 16, "a hex PC");
    const uint64_t mask = need_u64(r, t.need(r, "a hex active mask"), 16, "a hex active mask");
    const int lanes =
        static_cast<int>(std::min<int64_t>(kWarp, launch.block_threads() - warp * kWarp));
    if (mask >> lanes)
      r.fail("an active mask within the warp's " + std::to_string(lanes) + " lanes");
    const uint64_t dsts =
        need_u64(r, t.need(r, "the destination count"), 10, "the destination count");
    for (uint64_t k = 0; k < dsts; ++k)
      t.need(r, "a destination register");
    const std::string_view opcode = t.need(r, "an opcode");
    const uint64_t srcs = need_u64(r, t.need(r, "the source count"), 10, "the source count");
    for (uint64_t k = 0; k < srcs; ++k)
      t.need(r, "a source register");
    const uint64_t mem_width = need_u64(r, t.need(r, "the memory width (0 for no memory access)"),
                                        10, "the memory width (0 for no memory access)");
    if (counting)
      ++counting->instructions;
    uint64_t addr[kWarp];
    for (uint64_t &a : addr)
      a = kNoAccess;
    const int active = __builtin_popcountll(mask);
    if (mem_width > 0) {
      const uint64_t mode = need_u64(r, t.need(r, "an address mode 0, 1 or 2"), 10,
                                     "an address mode 0 (list), 1 (base+stride) or 2 (base+delta)");
      if (mode == 0) { // list: one hex address per active lane
        for (int l = 0; l < lanes; ++l)
          if (mask >> l & 1)
            addr[l] = lane_address(r,
                                   need_u64(r, t.need(r, "an address per active lane"), 16,
                                            "a hex address per active lane"),
                                   0);
      } else if (mode == 1) { // base+stride over contiguous active lanes
        const uint64_t base =
            need_u64(r, t.need(r, "a hex base address"), 16, "a hex base address");
        const int64_t stride = need_i64(r, t.need(r, "a stride"), "a decimal stride");
        if (active > 0) {
          const int first = __builtin_ctzll(mask);
          if ((mask >> first) & ((mask >> first) + 1))
            r.fail("contiguous active lanes for base+stride addresses");
          for (int l = first, k = 0; l < lanes && (mask >> l & 1); ++l, ++k)
            addr[l] = lane_address(r, base, static_cast<__int128>(stride) * k);
        }
      } else if (mode == 2) { // base+delta: the first active lane's address, then deltas
        uint64_t a = need_u64(r, t.need(r, "a hex base address"), 16, "a hex base address");
        bool first = true;
        for (int l = 0; l < lanes; ++l) {
          if (!(mask >> l & 1))
            continue;
          if (!first)
            a = lane_address(r, a,
                             need_i64(r, t.need(r, "a delta per active lane after the first"),
                                      "a decimal delta per active lane after the first"));
          addr[l] = lane_address(r, a, 0);
          first = false;
        }
      } else
        r.fail("an address mode 0 (list), 1 (base+stride) or 2 (base+delta)");
    }
    std::string_view extra;
    if (t.next(extra)) { // version 5's immediate; nothing after it
      int64_t imm = 0;
      if (!parse_i64(extra, imm) || !t.at_end())
        r.fail("the end of the instruction line (at most an immediate), found '" +
               std::string(extra.substr(0, 40)) + "'");
    }
    if (mem_width == 0) {
      if (counting)
        ++counting->skipped;
      return;
    }
    const Space space = space_of(opcode);
    if (space != Space::global_load && space != Space::global_store) {
      if (counting)
        ++(space == Space::local    ? counting->local
           : space == Space::shared ? counting->shared
           : space == Space::atomic ? counting->atomic
                                    : counting->other);
      return;
    }
    ++modelled;
    if (counting) {
      ++(space == Space::global_store ? counting->global_stores : counting->global_loads);
      counting->lane_accesses += active;
      widen(*counting, addr, lanes, width_of(opcode));
    }
    if (instrs) {
      Block tmp;
      Instr in;
      in.store = space == Space::global_store;
      in.bytes = width_of(opcode);
      add_runs(tmp, in, addr, lanes);
      in.run_begin = static_cast<uint32_t>(runs->size());
      runs->insert(runs->end(), tmp.runs.begin(), tmp.runs.end());
      instrs->push_back(in);
    }
  }

  int m_version = 0;
  bool m_lineinfo = false;
};

std::unique_ptr<Format> detect(LineReader &r) {
  std::string_view line;
  bool any = false;
  while (r.next(line)) {
    line = trim(line);
    if (line.empty())
      continue;
    any = true;
    if (std::memchr(line.data(), '\0', line.size()))
      break;
    if (line == "cbi-trace 1")
      return std::make_unique<CbiFormat>();
    if (starts_with(line, "cbi-trace"))
      r.fail("'cbi-trace 1' (the version this cbi reads), found '" +
             std::string(line.substr(0, 40)) + "'");
    if (line[0] == '-') {
      // Accel-Sim's header starts here: read it from this line again.
      r.seek(r.line_offset(), r.line_no());
      return std::make_unique<AccelSimFormat>();
    }
    break;
  }
  const std::string expected =
      "a trace: 'cbi-trace 1' or an Accel-Sim kernel trace ('-kernel name = ...'); ";
  // A compressed trace (Accel-Sim's are large, and often kept compressed) is named as such, with
  // the command that makes it readable.
  if (const Compression *c = any ? compression_of(line) : nullptr)
    r.fail(expected + "this file is " + c->kind + "-compressed; decompress it first (" + c->tool +
           " " + r.path() + ")");
  if (!any) // an empty file has no line 0 to point at
    r.fail_at(std::max<int64_t>(r.line_no(), 1), expected + "this file is empty");
  r.fail(expected + "this file is neither");
}

// A thread block's place in the file.
struct BlockPlace {
  int64_t id, offset, line;
};

class TraceWorkload : public UserWorkload {
public:
  TraceWorkload(const std::string &path, const std::function<void(int64_t, int64_t)> &progress)
      : m_reader(path) {
    m_format = detect(m_reader);
    m_info.path = path;
    m_format->header(m_reader, m_info);
    // The checking pass: every line, counted; each block's place kept.
    const int64_t grid = m_info.grid_blocks();
    if (grid > (int64_t{1} << 40))
      m_reader.fail("a grid of fewer than 2^40 blocks");
    for (;;) {
      int64_t id = -1;
      if (!m_format->block(m_reader, m_info, nullptr, id, &m_info))
        break;
      m_places.push_back({id, m_format->start_offset, m_format->start_line});
      if (progress && m_places.size() % 16 == 0)
        progress(static_cast<int64_t>(m_places.size()), grid);
    }
    // Checked whole (the file may leave out blocks: Accel-Sim's empty ones), said once.
    if (progress && (static_cast<int64_t>(m_places.size()) != grid || m_places.size() % 16 != 0))
      progress(grid, grid);
    std::sort(m_places.begin(), m_places.end(),
              [](const BlockPlace &a, const BlockPlace &b) { return a.id < b.id; });
    for (std::size_t k = 1; k < m_places.size(); ++k)
      if (m_places[k].id == m_places[k - 1].id)
        m_reader.fail_at(m_places[k].line, "each thread block once (block " +
                                               std::to_string(m_places[k].id) + " repeats)");
    if (m_info.program == 0)
      m_reader.fail_at(m_reader.line_no(),
                       "at least one global load or store (LDG, STG) to replay; found none");
    m_info.base = m_info.lowest_byte & ~((uint64_t{1} << 20) - 1);
    if (m_info.highest_byte - m_info.base >= (uint64_t{1} << 62))
      m_reader.fail_at(m_reader.line_no(), "addresses within 2^62 bytes of each other; found 0x" +
                                               hex_of(m_info.lowest_byte) + " to 0x" +
                                               hex_of(m_info.highest_byte));
    m_describe = "trace " + path + " (" + m_info.format + (m_info.kernel.empty() ? "" : ": ") +
                 m_info.kernel + ")";
  }

  std::string describe() const override { return m_describe; }
  std::vector<int64_t> task_dims() const override {
    return {m_info.block_threads(), m_info.grid_blocks()};
  }
  int64_t instructions() const override { return m_info.program; }
  int64_t block_threads() const override { return m_info.block_threads(); }
  int32_t widest_access_bytes() const override { return m_info.widest_bytes; }
  int64_t footprint_bytes() const override {
    return static_cast<int64_t>(m_info.highest_byte - m_info.base) + 1;
  }
  std::vector<std::string> notes() const override {
    const TraceInfo &i = m_info;
    std::vector<std::string> n = {
        "trace " + i.path + ": " + i.format + ", grid " + dims(i.grid) + ", block " +
        dims(i.block) + ", " + std::to_string(i.blocks) + " thread blocks, " +
        std::to_string(i.warps) + " warps, " + std::to_string(i.instructions) +
        " warp instructions; replayed: " + std::to_string(i.global_loads) + " global loads, " +
        std::to_string(i.global_stores) + " global stores (" + std::to_string(i.lane_accesses) +
        " lane accesses)"};
    if (i.skipped > 0)
      n.push_back("skipped (no memory access): " + std::to_string(i.skipped) +
                  " warp instructions");
    if (i.local + i.shared + i.atomic + i.other > 0)
      n.push_back("not modelled: local " + std::to_string(i.local) + ", shared " +
                  std::to_string(i.shared) + ", atomic " + std::to_string(i.atomic) + ", other " +
                  std::to_string(i.other) +
                  " warp instructions (other: generic LD/ST, LDGSTS, texture, constant, surface)");
    return n;
  }
  const TraceInfo &info() const { return m_info; }

  InstructionKind addresses(const remap::Task<int64_t> *tasks, int lanes, int64_t j,
                            uint64_t *byte_addr) const override {
    std::lock_guard<std::mutex> lock(m_mutex);
    InstructionKind kind{false, 4};
    bool have_kind = false;
    for (int l = 0; l < lanes; ++l) {
      byte_addr[l] = kNoAccess;
      const Block *b = block(tasks[l].y);
      if (!b)
        continue;
      const int64_t warp = tasks[l].x / kWarp;
      const int lane = static_cast<int>(tasks[l].x % kWarp);
      if (warp + 1 >= static_cast<int64_t>(b->warp_begin.size()))
        continue;
      const uint32_t begin = b->warp_begin[static_cast<std::size_t>(warp)],
                     end = b->warp_begin[static_cast<std::size_t>(warp) + 1];
      if (j >= end - begin)
        continue;
      const Instr &in = b->instrs[begin + static_cast<std::size_t>(j)];
      if (!have_kind) {
        kind = {in.store, in.bytes};
        have_kind = true;
      }
      for (uint32_t k = 0; k < in.runs; ++k) {
        const Run &r = b->runs[in.run_begin + k];
        if (lane >= r.first && lane < r.first + r.count) {
          byte_addr[l] = r.base + static_cast<uint64_t>(r.stride * (lane - r.first)) - m_info.base;
          break;
        }
      }
    }
    return kind;
  }

private:
  static std::string dims(const int64_t *d) {
    return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
  }

  // The decoded block `id`, or nullptr when the file has none; a cache of recent blocks (the
  // GPU model's resident ones) bounded by count and bytes.
  const Block *block(int64_t id) const {
    if (id == m_last_id)
      return m_last;
    m_last_id = id;
    auto hit = m_cache.find(id);
    if (hit != m_cache.end()) {
      m_lru.splice(m_lru.begin(), m_lru, hit->second);
      return m_last = &hit->second->second;
    }
    const auto place = std::lower_bound(m_places.begin(), m_places.end(), id,
                                        [](const BlockPlace &p, int64_t v) { return p.id < v; });
    if (place == m_places.end() || place->id != id)
      return m_last = nullptr;
    while (!m_lru.empty() && (m_cache.size() >= kCacheBlocks || m_cache_bytes > kCacheBytes)) {
      m_cache_bytes -= m_lru.back().second.bytes();
      m_cache.erase(m_lru.back().first);
      m_lru.pop_back();
    }
    m_lru.emplace_front(id, Block{});
    m_cache[id] = m_lru.begin();
    Block &b = m_lru.front().second;
    m_reader.seek(place->offset, place->line);
    m_format->reset();
    int64_t read_id = -1;
    if (!m_format->block(m_reader, m_info, &b, read_id, nullptr) || read_id != id)
      m_reader.fail_at(place->line, "thread block " + std::to_string(id) +
                                        " where the checking pass found it; the file changed");
    m_cache_bytes += b.bytes();
    return m_last = &b;
  }

  static constexpr std::size_t kCacheBlocks = 8192;
  static constexpr std::size_t kCacheBytes = std::size_t{256} << 20;
  mutable LineReader m_reader;
  std::unique_ptr<Format> m_format;
  TraceInfo m_info;
  std::string m_describe;
  std::vector<BlockPlace> m_places;
  mutable std::mutex m_mutex;
  mutable std::list<std::pair<int64_t, Block>> m_lru;
  mutable std::unordered_map<int64_t, std::list<std::pair<int64_t, Block>>::iterator> m_cache;
  mutable std::size_t m_cache_bytes = 0;
  mutable int64_t m_last_id = -1;
  mutable const Block *m_last = nullptr;
};

} // namespace

std::shared_ptr<const UserWorkload>
open_trace(const std::string &path, const std::function<void(int64_t, int64_t)> &progress) {
  return std::make_shared<const TraceWorkload>(path, progress);
}

const TraceInfo *trace_info(const UserWorkload &w) {
  const auto *t = dynamic_cast<const TraceWorkload *>(&w);
  return t ? &t->info() : nullptr;
}

namespace {

// Appends to a buffer that goes to `out` a megabyte at a time.
class Writer {
public:
  explicit Writer(std::ostream &out) : m_out(out) { m_buf.reserve(kFlush + 4096); }
  ~Writer() { flush(); }
  Writer &operator<<(std::string_view s) {
    m_buf.append(s);
    return *this;
  }
  Writer &operator<<(char c) {
    m_buf.push_back(c);
    return *this;
  }
  Writer &num(int64_t v) {
    char tmp[24];
    m_buf.append(tmp, std::to_chars(tmp, tmp + sizeof tmp, v).ptr);
    return *this;
  }
  Writer &hex(uint64_t v) {
    char tmp[24];
    m_buf.append(tmp, std::to_chars(tmp, tmp + sizeof tmp, v, 16).ptr);
    return *this;
  }
  void end_line() {
    m_buf.push_back('\n');
    if (m_buf.size() >= kFlush)
      flush();
  }
  void flush() {
    m_out.write(m_buf.data(), static_cast<std::streamsize>(m_buf.size()));
    m_buf.clear();
  }

private:
  static constexpr std::size_t kFlush = std::size_t{1} << 20;
  std::ostream &m_out;
  std::string m_buf;
};

// One instruction line: J L|S BYTES and the lanes as runs (docs/traces.md).
void write_instruction(Writer &out, int64_t j, InstructionKind kind, const uint64_t *addr,
                       int lanes) {
  out.num(j) << (kind.is_store ? " S " : " L ");
  out.num(kind.bytes);
  for (int l = 0; l < lanes;) {
    int k = l + 1;
    out << ' ';
    if (addr[l] == kNoAccess) {
      while (k < lanes && addr[k] == kNoAccess)
        ++k;
      out.num(k - l) << "@-";
      l = k;
      continue;
    }
    int64_t stride = 0;
    if (k < lanes && addr[k] != kNoAccess) {
      stride = static_cast<int64_t>(addr[k] - addr[l]);
      while (k < lanes && addr[k] != kNoAccess &&
             static_cast<int64_t>(addr[k] - addr[k - 1]) == stride)
        ++k;
    }
    out.num(k - l) << '@';
    out.hex(addr[l]) << (stride < 0 ? '-' : '+');
    out.num(stride < 0 ? -stride : stride);
    l = k;
  }
  out.end_line();
}

} // namespace

void write_trace(std::ostream &os, const Workload &w, const remap::Order &order,
                 int64_t block_threads, const std::function<void(int64_t, int64_t)> &progress) {
  validate(w);
  validate(order);
  if (block_threads < 1 || block_threads > 1024)
    throw UsageError("gpu.block_threads",
                     std::to_string(block_threads) + " threads per block; allowed: 1..1024");
  visit_workload(w.kind, [&](auto tag) {
    using W = typename decltype(tag)::type;
    const W program(w);
    const remap::Shape<int64_t> shape = W::task_shape(w);
    const int64_t threads = shape.width * shape.height;
    const int64_t ctas = (threads + block_threads - 1) / block_threads;
    const int64_t instrs = program.loads();
    const uint64_t output_base = static_cast<uint64_t>(w.output_base_bytes());
    Writer out(os);
    out << "cbi-trace 1\nkernel " << w.describe() << ", order " << remap::to_string(order);
    out << "\ngrid ";
    out.num(ctas) << ",1,1\nblock ";
    out.num(block_threads) << ",1,1\nelem_bytes ";
    out.num(w.elem_bytes) << "\nlaunched\n";
    int64_t lines = 0;
    remap::visit(order, [&](auto o) {
      remap::Task<int64_t> tasks[kWarp];
      uint64_t addr[kWarp];
      for (int64_t cta = 0; cta < ctas; ++cta) {
        if (progress && cta % 4096 == 0)
          progress(cta * block_threads, threads);
        out << "B ";
        out.num(cta) << ",0,0";
        out.end_line();
        for (int64_t first = cta * block_threads;
             first < std::min(threads, (cta + 1) * block_threads); first += kWarp) {
          const int64_t warp = (first - cta * block_threads) / kWarp;
          const int lanes =
              static_cast<int>(std::min<int64_t>(kWarp, (cta + 1) * block_threads - first));
          const int real = static_cast<int>(std::min<int64_t>(lanes, threads - first));
          out << "W ";
          out.num(warp).end_line();
          for (int l = 0; l < real; ++l)
            tasks[l] = o.map(first + l, shape);
          for (int l = real; l < lanes; ++l)
            addr[l] = kNoAccess;
          for (int64_t j = 0; j < instrs; ++j) {
            InstructionKind kind{false, w.elem_bytes};
            if constexpr (std::is_same_v<W, UserWorkloadAdapter>) {
              kind = w.user->addresses(tasks, real, j, addr);
            } else {
              for (int l = 0; l < real; ++l)
                addr[l] = program.load(tasks[l], j).byte_addr;
            }
            write_instruction(out, j, kind, addr, lanes);
            ++lines;
          }
          if (w.writes) { // the output store, as the replay's (RunGenerator)
            for (int l = 0; l < real; ++l)
              addr[l] = output_base + static_cast<uint64_t>(
                                          (tasks[l].y * shape.width + tasks[l].x) * w.elem_bytes);
            write_instruction(out, instrs, {true, w.elem_bytes}, addr, lanes);
            ++lines;
          }
        }
      }
      return 0;
    });
    if (progress)
      progress(threads, threads);
    out << "end ";
    out.num(ctas) << ' ';
    out.num(lines).end_line();
  });
}

} // namespace cbi::sim
