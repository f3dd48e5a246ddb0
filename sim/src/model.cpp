#include "cbi/sim/model.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace cbi::sim {
namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, v == std::floor(v) && std::fabs(v) < 1e15 ? "%.0f" : "%.3g", v);
  return buf;
}

// Largest number of lines landing in one set among `rows` element addresses base + k*pitch.
int64_t max_per_set(int64_t first_elem, int64_t pitch_elems, int64_t rows, int64_t elem_bytes,
                    const CacheConfig &cc) {
  const int64_t sets = cc.sets();
  std::map<int64_t, int64_t> per_set;
  std::map<int64_t, bool> seen_line;
  int64_t worst = 0;
  for (int64_t k = 0; k < rows; ++k) {
    const int64_t line = (first_elem + k * pitch_elems) * elem_bytes / cc.line_bytes;
    if (seen_line[line])
      continue;
    seen_line[line] = true;
    worst = std::max(worst, ++per_set[line % sets]);
  }
  return worst;
}

} // namespace

int64_t max_lines_per_set(const SimConfig &c, int level) {
  const CacheConfig &cc = c.levels[static_cast<std::size_t>(level)];
  const Workload &w = c.workload;
  if (cc.sets() == 1)
    return 0;
  // Check several x positions so that a window straddling a set boundary is not missed.
  int64_t worst = 0;
  const int64_t elems_per_line = cc.line_bytes / w.elem_bytes;
  for (int64_t x = 0; x < std::min<int64_t>(w.width, 4 * elems_per_line); x += std::max<int64_t>(1, elems_per_line / 2)) {
    if (w.kind == WorkloadKind::stencil)
      worst = std::max(worst, max_per_set(x, w.width, std::min(w.stencil_h, w.height), w.elem_bytes, cc));
    else
      worst = std::max(worst, max_per_set(w.height * w.depth + x, w.width, w.depth, w.elem_bytes, cc));
  }
  return worst;
}

static LevelModel model_level(const SimConfig &c, int level, int64_t active_threads,
                              int64_t &suggested_c) {
  const Workload &w = c.workload;
  const CacheConfig &cc = c.levels[static_cast<std::size_t>(level)];
  LevelModel m;
  m.level = level;
  const int64_t L = std::max<int64_t>(1, cc.line_bytes / w.elem_bytes); // elements per line
  const int64_t M_l = cc.capacity_lines;
  const int64_t u = w.elem_bytes;
  const double M_size = double(cc.capacity_bytes());
  const remap::Order &o = c.order;
  const bool column = o.kind == remap::OrderKind::column || o.kind == remap::OrderKind::zigzag;
  const bool tile = o.kind == remap::OrderKind::tile;
  auto q = [&m](std::string sym, std::string eq, std::string meaning, double v) {
    m.quantities.push_back({std::move(sym), std::move(eq), std::move(meaning), v});
  };
  auto set_fetch = [&m](FetchKind k, double v, std::string reference, std::string formula) {
    m.fetch_kind = k;
    m.fetches = v;
    m.fetch_reference = std::move(reference);
    m.fetch_equation = std::move(formula);
  };

  if (w.kind == WorkloadKind::stencil) {
    const int64_t Iw = w.width, Ih = w.height, Sw = w.stencil_w, Sh = w.stencil_h;
    const int64_t row_lines = ceil_div(Iw + Sw, L);
    const int64_t need_naive = row_lines * Sh; // eq. 3.2
    q("M_l", "eq. 3.2", "lines for S_h full rows; naive order keeps its rows in cache at or above this",
      double(need_naive));
    if (!tile && !column) {
      if (M_l >= need_naive)
        set_fetch(FetchKind::estimate, double(row_lines * Ih), "§3.3.1", "F = ceil((I_w+S_w)/L) I_h (eq. 3.2 holds)");
      else
        set_fetch(FetchKind::upper_bound, double(row_lines * Ih * Sh),
                  "§3.3.1", "F <= ceil((I_w+S_w)/L) I_h S_h (eq. 3.2 fails)");
    }
    // Tiling (§3.3.2): eq. 3.3-3.5; with rectangular tiles TW x TH the rows use TW, the rows of
    // tiles TH.
    const double t_max = double(L) * double(M_l) / double(Sh) - double(Sw); // eq. 3.4
    q("t_max", "eq. 3.4", "largest tile width whose S_h window rows fit in M_l", t_max);
    if (tile) {
      const int64_t tw = o.param_w, th = o.param_h;
      const int64_t need = ceil_div(tw + Sw, L) * Sh; // eq. 3.3
      q("M_l", "eq. 3.3", "lines for one tile row's S_h window rows", double(need));
      const double F = double(ceil_div(Iw, tw) * ceil_div(tw + Sw, L) * ceil_div(Ih, th) * (th + Sh));
      set_fetch(FetchKind::upper_bound, F, "eq. 3.5", "F <= ceil(I_w/t) ceil((t+S_w)/L) ceil(I_h/t) (t+S_h) (eq. 3.5)");
      if (M_l < need)
        m.notes.push_back("eq. 3.3 fails (" + num(double(M_l)) + " < " + num(double(need)) +
                          " lines): window rows are evicted inside a tile, so eq. 3.5 no longer bounds F");
    }
    // Column-based iteration (§4.3).
    const double t = double(active_threads);
    const double c_suggest = (M_size - double(u) * (double(Sh * Sw) + t)) / (double(Sh) * double(u));
    q("c", "§4.3", "suggested column width c = (M_size - u(S_h S_w + t)) / (S_h u), t = " +
                       num(t) + " active threads", c_suggest);
    if (level == 0)
      suggested_c = std::max<int64_t>(0, static_cast<int64_t>(std::floor(c_suggest)));
    if (column) {
      const int64_t cw = std::min<int64_t>(o.param_w, Iw);
      const int64_t need = ceil_div(cw + Sw, L) * Sh;
      q("M_l", "eq. 3.3 with t = c", "lines for one column row's S_h window rows", double(need));
      q("M_size", "§4.3", "bytes needed: u (c + S_w)(S_h + ceil(t/c))",
        double(u) * double(cw + Sw) * (double(Sh) + std::ceil(t / double(cw))));
      set_fetch(FetchKind::upper_bound, double(ceil_div(Iw, cw) * ceil_div(cw + Sw, L) * (Ih + Sh)),
                "eq. 4.8", "F <= ceil(I_w/c) ceil((c+S_w)/L) (I_h+S_h) (eq. 4.8)");
      if (M_l < need)
        m.notes.push_back("the column's window rows (" + num(double(need)) + " lines) exceed the " +
                          num(double(M_l)) + "-line cache: rows are re-fetched, and eq. 4.8 assumes they are not");
      // A column window of c + S_w - 1 elements that starts mid-line touches more lines than the
      // ceil((c+S_w)/L) the model counts.
      int64_t worst_lines = 0;
      for (int64_t off = 0; off < Iw; off += cw) {
        const int64_t lo = std::max<int64_t>(0, off - Sw / 2), hi = std::min(Iw - 1, off + cw - 1 + Sw / 2);
        worst_lines = std::max(worst_lines, (hi / L) - (lo / L) + 1);
      }
      q("F'", "eq. 4.8, straddle-corrected",
        "eq. 4.8 with the lines a column's window row really touches (" + num(double(worst_lines)) +
            ") in place of ceil((c+S_w)/L)",
        double(ceil_div(Iw, cw) * worst_lines * (Ih + Sh)));
      if (worst_lines > ceil_div(cw + Sw, L))
        m.notes.push_back("a column's window row straddles " + num(double(worst_lines)) +
                          " lines, more than the ceil((c+S_w)/L) = " + num(double(ceil_div(cw + Sw, L))) +
                          " the model counts (column edges are not line-aligned)");
    }
  } else {
    const int64_t Iw = w.width, Ih = w.height, D = w.depth;
    const int64_t a_row = ceil_div(D, L);
    const int64_t need_b = a_row + D;                  // eq. 3.6
    const int64_t need_ab = a_row + ceil_div(Iw * D, L); // eq. 3.9
    q("M_l", "eq. 3.6", "lines to keep one row of A and one column of B (reuse of the A row)", double(need_b));
    q("M_l", "eq. 3.9", "lines to keep all of B resident between rows (reuse of A and B)", double(need_ab));
    if (!column && !tile) {
      if (M_l > need_ab)
        set_fetch(FetchKind::estimate, double(a_row * Ih + ceil_div(Iw, L) * D),
                  "eq. 3.10", "F ~ ceil(D/L) I_h + ceil(I_w/L) D (eq. 3.10; eq. 3.9 holds)");
      else if (M_l > need_b)
        set_fetch(FetchKind::estimate, double(a_row * Ih + D * Iw * Ih),
                  "eq. 3.7", "F ~ ceil(D/L) I_h + D I_w I_h (eq. 3.7; eq. 3.6 holds)");
      else
        set_fetch(FetchKind::estimate, double((a_row + D) * Iw * Ih),
                  "eq. 3.8", "F ~ (ceil(D/L) + D) I_w I_h (eq. 3.8; eq. 3.6 fails)");
    }
    // §4.4: the thesis writes M_l = ceil(I_w/L) + I_h ceil(c/L) and c = M_size/(u I_h) for square
    // matrices; in general the A row has D elements and the B column block D rows.
    const double c_suggest = M_size / (double(u) * double(D));
    q("c", "§4.4", "suggested column width c = M_size / (u D)", c_suggest);
    if (level == 0)
      suggested_c = std::max<int64_t>(0, static_cast<int64_t>(std::floor(c_suggest)));
    if (column) {
      const int64_t cw = std::min<int64_t>(o.param_w, Iw);
      const int64_t need = a_row + D * ceil_div(cw, L);
      q("M_l", "§4.4", "lines for one A row plus the column's D x c block of B", double(need));
      if (M_l >= need)
        set_fetch(FetchKind::estimate, double(ceil_div(Iw, cw) * (D * ceil_div(cw, L) + Ih * a_row)),
                  "§4.4", "F ~ ceil(I_w/c) (D ceil(c/L) + I_h ceil(D/L)) (§4.4; B block once per column, "
                  "A rows once per column; not a thesis equation)");
      else
        m.notes.push_back("§4.4's M_l is not met (" + num(double(M_l)) + " < " + num(double(need)) +
                          " lines): the column's B block does not stay resident");
    }
  }

  if (cc.ways != 0 && cc.sets() > 1) {
    const int64_t crowd = max_lines_per_set(c, level);
    const int64_t pitch = w.width * w.elem_bytes;
    if (crowd > cc.ways_effective())
      m.notes.push_back("set conflicts: the " + num(double(pitch)) + "-byte row pitch maps " +
                        num(double(crowd)) + " lines of one " +
                        (w.kind == WorkloadKind::stencil ? "window column" : "B column") +
                        " to a single set of " + num(double(cc.ways_effective())) +
                        " ways; the model ignores associativity (§3.1) and cannot see these misses");
    else
      m.notes.push_back("set-associative (" + num(double(cc.ways_effective())) +
                        " ways): the model ignores associativity (§3.1); no set holds more than " +
                        num(double(crowd)) + " lines of one window here");
  }
  if (cc.policy != Policy::lru)
    m.notes.push_back(std::string("policy ") + to_string(cc.policy) +
                      ": the model assumes LRU (§3.1)");
  if (cc.sector_bytes)
    m.notes.push_back("sectored lines: the simulation counts " + num(double(cc.sector_bytes)) +
                      "-byte sectors, the model whole lines");
  if (level > 0)
    m.notes.push_back("level " + std::to_string(level + 1) + " is modelled as if it stood alone; it "
                      "actually sees only the misses of the level above");
  if (c.granularity == Granularity::exact && w.kind == WorkloadKind::matmul)
    m.notes.push_back("exact granularity interleaves A and B accesses; the model counts per thread");
  return m;
}

ModelReport analyze_model(const SimConfig &c, int64_t active_threads) {
  validate(c);
  ModelReport r;
  for (int k = 0; k < static_cast<int>(c.levels.size()); ++k)
    r.levels.push_back(model_level(c, k, active_threads, r.suggested_column_width));
  return r;
}

} // namespace cbi::sim
