// The terminal table: title and meta above, columns aligned (first left, the rest right), notes
// below.
#include "printers.hpp"

#include <iomanip>

namespace cbi::cli::detail {

namespace {

class TablePrinter final : public Printer {
  const char *do_name() const override { return "table"; }

  void do_print(std::ostream &os, const Table &t) const override {
    if (!t.title.empty())
      os << t.title << "\n";
    for (const Fields *fields : {&t.config, &t.meta})
      for (const auto &[k, v] : *fields)
        os << "  " << k << ": " << format_cell_short(v) << "\n";
    std::vector<std::size_t> widths(t.columns.size());
    std::vector<std::vector<std::string>> text;
    for (std::size_t c = 0; c < t.columns.size(); ++c)
      widths[c] = t.columns[c].size();
    for (const auto &row : t.rows) {
      text.emplace_back();
      for (std::size_t c = 0; c < row.size() && c < widths.size(); ++c) {
        text.back().push_back(format_cell_short(row[c]));
        widths[c] = std::max(widths[c], text.back().back().size());
      }
    }
    auto line = [&](const std::vector<std::string> &cells) {
      for (std::size_t c = 0; c < cells.size(); ++c) {
        const bool left = c == 0;
        os << (c ? "  " : "") << (left ? std::left : std::right) << std::setw(int(widths[c]))
           << cells[c];
      }
      os << std::right << "\n";
    };
    line(t.columns);
    std::size_t total = 0;
    for (std::size_t w : widths)
      total += w + 2;
    os << std::string(total > 2 ? total - 2 : 0, '-') << "\n";
    for (const auto &r : text)
      line(r);
    for (const std::string &n : t.notes)
      os << "note: " << n << "\n";
  }
};

} // namespace

const Printer &table_printer() {
  static const TablePrinter p;
  return p;
}

} // namespace cbi::cli::detail
