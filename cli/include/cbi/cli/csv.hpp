// The one CSV reader and writer (RFC 4180: commas, double quotes with "" inside, LF or CRLF):
// sweep's --resume and merge, reproduce's report, and plots read through it.
#pragma once

#include <string>
#include <vector>

namespace cbi::cli {

// "a,b" stays, `a"b` -> `"a""b"`: quotes a cell that holds a comma, a quote or a line break.
std::string csv_escape(const std::string &cell);
// One record with its line break.
std::string csv_line(const std::vector<std::string> &cells);

// Every record of `text`; blank lines are skipped, ragged records kept as they are.
std::vector<std::vector<std::string>> parse_csv_records(const std::string &text);

struct CsvTable {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows; // every row has columns.size() cells
  int index(const std::string &column) const; // -1 if absent
};

// The header and rows of `text`. Throws UsageError(option) when it is empty or a row is ragged.
CsvTable parse_csv(const std::string &text, const std::string &option = "--input");

// The text of the input file at `path`. Throws UsageError(option) naming the path when it does not
// exist, is a folder or cannot be read; `allowed` says what the option takes.
std::string read_input_file(const std::string &path, const std::string &option,
                            const std::string &allowed);

// The records of the file at `path` up to its last line break (an interrupted write leaves a last
// line without one); `complete_bytes` gets their byte length. A missing file has none.
std::vector<std::vector<std::string>> read_complete_records(const std::string &path,
                                                            std::size_t *complete_bytes = nullptr);

} // namespace cbi::cli
