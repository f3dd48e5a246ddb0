// CSV: the header and one record per row, through cli's one CSV writer (csv.hpp).
#include "printers.hpp"

#include "cbi/cli/csv.hpp"

namespace cbi::cli::detail {

namespace {

class CsvPrinter final : public Printer {
  const char *do_name() const override { return "csv"; }

  void do_print(std::ostream &os, const Table &t) const override {
    // The configuration leads every row, so that CSVs of several runs concatenate.
    std::vector<std::string> header;
    for (const auto &[k, v] : t.config)
      header.push_back(k);
    header.insert(header.end(), t.columns.begin(), t.columns.end());
    os << csv_line(header);
    for (const auto &row : t.rows) {
      std::vector<std::string> cells;
      for (const auto &[k, v] : t.config)
        cells.push_back(format_cell(v));
      for (const Cell &c : row)
        cells.push_back(format_cell(c));
      os << csv_line(cells);
    }
  }
};

} // namespace

const Printer &csv_printer() {
  static const CsvPrinter p;
  return p;
}

} // namespace cbi::cli::detail
