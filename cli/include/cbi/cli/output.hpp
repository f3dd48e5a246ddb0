// The one results model and its printers (after nvbench's printer_base): a result is a Table of
// named columns (names carry units: bytes_fetched, gpu_time_ms, hit_pct) and typed cells, with
// key/value facts (meta) and caveats (notes). Printers write it as the terminal table, Markdown,
// CSV or JSON; every command prints through them. Files are written atomically (temp file +
// rename) so that a failed run never leaves a half-written result behind.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace cbi::cli {

using Cell = std::variant<std::string, int64_t, double, bool>;

struct Table {
  std::string title; // printed above the terminal table; JSON "title"
  std::vector<std::string> columns;
  std::vector<std::vector<Cell>> rows;
  std::vector<std::pair<std::string, std::string>> meta; // key/value facts (device, command, ...)
  std::vector<std::string> notes; // caveats printed under the terminal table and as JSON "notes"

  void add_row(std::vector<Cell> row) { rows.push_back(std::move(row)); }
};

// Text form of a cell: doubles with up to 6 significant digits, "nan" when not finite.
std::string format_cell(const Cell &c);

// A way to write a Table. A new output format is one subclass in cli/src/printers/ plus one line in
// printers() (output.cpp).
class Printer {
public:
  virtual ~Printer() = default;
  const char *name() const { return do_name(); }
  void print(std::ostream &os, const Table &t) const { do_print(os, t); }

private:
  virtual const char *do_name() const = 0;
  virtual void do_print(std::ostream &os, const Table &t) const = 0;
};

// Every printer: table, json, csv, markdown.
const std::vector<const Printer *> &printers();
// The printer called `name`; UsageError naming `option` with the allowed names otherwise.
const Printer &find_printer(const std::string &name, const std::string &option = "--format");
std::string printer_names(); // "table, json, csv, markdown"

// The printers by name, for code that always writes one format.
void print_table(std::ostream &os, const Table &t); // aligned columns, meta above, notes below
void print_csv(std::ostream &os, const Table &t);   // header and rows
void print_json(std::ostream &os,
                const Table &t); // {"title", "meta", "rows": [{col: val}], "notes"}
void print_markdown(std::ostream &os, const Table &t); // | col | ... | rows, meta and notes around

// Writes `text` to `path` atomically. "-" or "" means stdout.
void write_file_atomic(const std::string &path, const std::string &text);

// The command line as typed, for provenance in results.
std::string command_line(int argc, const char *const *argv);
std::string utc_timestamp(); // 2026-11-23T06:30:00Z

} // namespace cbi::cli
