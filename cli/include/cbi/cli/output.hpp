// Result output shared by every subcommand: a tidy table (named columns, typed cells) printed as an
// aligned text table, CSV or JSON, and files written atomically (temp file + rename) so that a failed
// run never leaves a half-written result behind.
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <variant>
#include <vector>

namespace cbi::cli {

enum class Format { table, json, csv };
Format parse_format(const std::string &text, const std::string &option = "--format");

using Cell = std::variant<std::string, int64_t, double, bool>;

struct Table {
  std::string title;                         // printed above the text table; JSON "title"
  std::vector<std::string> columns;
  std::vector<std::vector<Cell>> rows;
  std::vector<std::pair<std::string, std::string>> meta; // key/value facts (device, command, ...)
  std::vector<std::string> notes; // caveats printed under the text table and as JSON "notes"

  void add_row(std::vector<Cell> row) { rows.push_back(std::move(row)); }
};

std::string format_cell(const Cell &c); // text form; doubles with up to 6 significant digits
std::string json_escape(const std::string &s);

void print_table(std::ostream &os, const Table &t);
void print_csv(std::ostream &os, const Table &t, bool header = true);
void print_json(std::ostream &os, const Table &t); // {"title":..,"meta":{..},"rows":[{col:val}]}
void print(std::ostream &os, const Table &t, Format f);

// Writes `text` to `path` atomically. "-" or "" means stdout.
void write_file_atomic(const std::string &path, const std::string &text);

// The command line as typed, for provenance in results.
std::string command_line(int argc, const char *const *argv);
std::string utc_timestamp(); // 2026-11-23T06:30:00Z

} // namespace cbi::cli
