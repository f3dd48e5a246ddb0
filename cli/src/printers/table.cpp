// The terminal table: title and facts above, columns aligned (first left, the rest right), notes
// below. Made to be read at a glance in a 100-column terminal (Table::wide turns all of it off):
// - numbers carry thousands separators (12,345,678), never in CSV or JSON;
// - columns whose every cell is zero are left out, and a note names them;
// - a result of one row that is wider than the terminal is printed as "column  value" lines;
//   several rows are printed as blocks of columns that fit, each led by the first column;
// - facts and notes are wrapped at the width.
#include "printers.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <sstream>

namespace cbi::cli::detail {

namespace {

constexpr std::size_t kWidth = 100; // the terminal the default table is made for
constexpr std::size_t kGap = 2;     // spaces between columns

// "1234567" → "1,234,567"; a leading '-' stays in front.
std::string group_thousands(const std::string &digits) {
  const std::size_t first = digits.size() && digits[0] == '-' ? 1 : 0;
  std::string out = digits.substr(0, first);
  const std::size_t n = digits.size() - first;
  for (std::size_t i = 0; i < n; ++i) {
    if (i && (n - i) % 3 == 0)
      out += ',';
    out += digits[first + i];
  }
  return out;
}

// A cell for people: integers (and doubles of 100,000 and more, which 6 significant digits would
// print in exponent form) with separators, other doubles with 6 significant digits; --wide: every
// number as the files have it, at full precision (97.48086734693878, not 97.4809), as its help
// says.
std::string people_text(const Cell &c, bool wide) {
  if (wide)
    return std::holds_alternative<double>(c) ? format_cell(c) : format_cell_short(c);
  if (const auto *i = std::get_if<int64_t>(&c))
    return group_thousands(std::to_string(*i));
  if (const auto *d = std::get_if<double>(&c)) {
    if (std::isfinite(*d) && std::fabs(*d) >= 1e5 && std::fabs(*d) < 9.2e18)
      return group_thousands(std::to_string(static_cast<int64_t>(std::llround(*d))));
  }
  return format_cell_short(c);
}

bool is_zero(const Cell &c) {
  if (const auto *i = std::get_if<int64_t>(&c))
    return *i == 0;
  if (const auto *d = std::get_if<double>(&c))
    return *d == 0.0;
  return false;
}

void write_wrapped(std::ostream &os, const std::string &first_prefix, const std::string &text,
                   std::size_t indent, bool wide) {
  if (wide)
    os << first_prefix << text << "\n";
  else
    os << wrap_text(first_prefix, text, indent, kWidth);
}

void write_rows(std::ostream &os, const std::vector<std::string> &header,
                const std::vector<std::vector<std::string>> &rows, bool left_values = false) {
  std::vector<std::size_t> widths(header.size());
  for (std::size_t c = 0; c < header.size(); ++c)
    widths[c] = header[c].size();
  for (const auto &r : rows)
    for (std::size_t c = 0; c < r.size() && c < widths.size(); ++c)
      widths[c] = std::max(widths[c], r[c].size());
  auto line = [&](const std::vector<std::string> &cells) {
    std::string text;
    for (std::size_t c = 0; c < cells.size() && c < widths.size(); ++c) {
      if (c)
        text += std::string(kGap, ' ');
      const std::string pad(widths[c] - cells[c].size(), ' ');
      text += c == 0 || left_values ? cells[c] + pad : pad + cells[c];
    }
    while (!text.empty() && text.back() == ' ')
      text.pop_back();
    os << text << "\n";
  };
  line(header);
  std::size_t total = 0;
  for (std::size_t w : widths)
    total += w + kGap;
  os << std::string(total > kGap ? total - kGap : 0, '-') << "\n";
  for (const auto &r : rows)
    line(r);
}

std::size_t widths_max(const std::vector<std::string> &cells) {
  std::size_t most = 0;
  for (const std::string &c : cells)
    most = std::max(most, c.size());
  return most;
}

class TablePrinter final : public Printer {
  const char *do_name() const override { return "table"; }

  void do_print(std::ostream &os, const Table &t) const override {
    if (!t.title.empty())
      write_wrapped(os, "", t.title, 2, t.wide);
    for (const Fields *fields : {&t.config, &t.meta})
      for (const auto &[k, v] : *fields)
        if (t.wide ||
            std::find(t.table_omits.begin(), t.table_omits.end(), k) == t.table_omits.end())
          write_wrapped(os, "  " + k + ": ", people_text(v, t.wide), 4 + k.size(), t.wide);

    // The columns shown: all of them when wide, else all but the all-zero ones (the first column,
    // which names the row, always stays).
    std::vector<std::size_t> shown;
    std::vector<std::string> hidden;
    for (std::size_t c = 0; c < t.columns.size(); ++c) {
      bool zero = !t.rows.empty();
      for (const auto &row : t.rows)
        zero = zero && c < row.size() && is_zero(row[c]);
      if (t.wide || c == 0 || !zero)
        shown.push_back(c);
      else
        hidden.push_back(t.columns[c]);
    }
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> text(t.rows.size());
    std::vector<std::size_t> widths;
    for (std::size_t c : shown) {
      header.push_back(t.columns[c]);
      std::size_t w = t.columns[c].size();
      for (std::size_t r = 0; r < t.rows.size(); ++r) {
        text[r].push_back(c < t.rows[r].size() ? people_text(t.rows[r][c], t.wide) : "");
        w = std::max(w, text[r].back().size());
      }
      widths.push_back(w);
    }
    std::size_t total = 0;
    for (std::size_t w : widths)
      total += w + kGap;
    total = total > kGap ? total - kGap : 0;

    std::size_t widest_name = 0, widest_other = 0;
    for (std::size_t i = 0; i < header.size(); ++i) {
      widest_name = std::max(widest_name, header[i].size());
      if (i)
        widest_other = std::max(widest_other, widths[i]);
    }
    if (t.wide || total <= kWidth || header.size() == 1) {
      write_rows(os, header, text);
    } else if (t.rows.size() == 1 && widest_name + kGap + widths_max(text[0]) <= kWidth) {
      // One wide row: a column per line, name then value.
      std::vector<std::vector<std::string>> lines;
      for (std::size_t i = 0; i < header.size(); ++i)
        if (!text[0][i].empty()) // a key that does not apply to this row (a stencil's depth)
          lines.push_back({header[i], text[0][i]});
      write_rows(os, {"column", "value"}, lines, /*left_values=*/true);
    } else if (t.rows.size() == 1 || widths[0] + kGap + widest_other > kWidth) {
      // A column too wide to stand beside the first (long text): one record per row, its name,
      // then "column: value" lines, wrapped.
      for (std::size_t r = 0; r < text.size(); ++r) {
        os << (r ? "\n" : "") << text[r][0] << "\n";
        for (std::size_t i = 1; i < header.size(); ++i)
          if (!text[r][i].empty()) // a key that does not apply to this row (a stencil's depth)
            write_wrapped(os, "  " + header[i] + ": ", text[r][i], 4 + header[i].size(), false);
      }
    } else {
      // Blocks of columns that fit, each led by the first column so that a row stays named.
      std::size_t next = 1;
      while (next < header.size()) {
        std::vector<std::size_t> block = {0};
        std::size_t width = widths[0];
        while (next < header.size() && width + kGap + widths[next] <= kWidth) {
          width += kGap + widths[next];
          block.push_back(next++);
        }
        std::vector<std::string> h;
        std::vector<std::vector<std::string>> rows(text.size());
        for (std::size_t i : block) {
          h.push_back(header[i]);
          for (std::size_t r = 0; r < text.size(); ++r)
            rows[r].push_back(text[r][i]);
        }
        if (block[1] != 1)
          os << "\n"; // a blank line between blocks
        write_rows(os, h, rows);
      }
    }
    if (!hidden.empty()) {
      std::string names;
      for (const std::string &h : hidden)
        names += (names.empty() ? "" : ", ") + h;
      write_wrapped(os, "note: ", "all zero, not shown (--wide shows every column): " + names, 6,
                    t.wide);
    }
    for (const std::string &n : t.notes)
      write_wrapped(os, "note: ", n, 6, t.wide);
  }
};

} // namespace

const Printer &table_printer() {
  static const TablePrinter p;
  return p;
}

} // namespace cbi::cli::detail
