// Markdown: the title in bold, meta as a list, the rows as a pipe table ("| a | b |", "|---|---|"),
// notes after it. A table with no title, meta or notes is the bare pipe table (reports embed it).
#include "printers.hpp"

namespace cbi::cli::detail {

namespace {

// A '|' inside a cell would end it.
std::string escape(const std::string &s) {
  std::string out;
  for (char ch : s)
    out += ch == '|' ? std::string("\\|") : std::string(1, ch);
  return out;
}

class MarkdownPrinter final : public Printer {
  const char *do_name() const override { return "markdown"; }

  void do_print(std::ostream &os, const Table &t) const override {
    if (!t.title.empty())
      os << "**" << t.title << "**\n\n";
    for (const Fields *fields : {&t.config, &t.meta})
      for (const auto &[k, v] : *fields)
        os << "- " << k << ": " << format_cell_short(v) << "\n";
    if (!t.meta.empty() || !t.config.empty())
      os << "\n";
    os << "|";
    for (const std::string &c : t.columns)
      os << " " << escape(c) << " |";
    os << "\n|";
    for (std::size_t c = 0; c < t.columns.size(); ++c)
      os << "---|";
    os << "\n";
    for (const auto &row : t.rows) {
      os << "|";
      for (const Cell &c : row)
        os << " " << escape(format_cell_short(c)) << " |";
      os << "\n";
    }
    if (!t.notes.empty())
      os << "\n";
    for (const std::string &n : t.notes)
      os << "_Note: " << n << "_\n";
  }
};

} // namespace

const Printer &markdown_printer() {
  static const MarkdownPrinter p;
  return p;
}

} // namespace cbi::cli::detail
