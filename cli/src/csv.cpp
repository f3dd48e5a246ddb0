#include "cbi/cli/csv.hpp"

#include "cbi/error.hpp"
#include "cbi/file_kind.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string_view>

namespace cbi::cli {

std::string csv_escape(const std::string &s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos)
    return s;
  std::string out = "\"";
  for (char ch : s)
    out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return out + "\"";
}

std::string csv_line(const std::vector<std::string> &cells) {
  std::string s;
  for (std::size_t c = 0; c < cells.size(); ++c)
    s += (c ? "," : "") + csv_escape(cells[c]);
  return s + "\n";
}

std::vector<std::vector<std::string>> parse_csv_records(const std::string &text) {
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> record;
  std::string cell;
  bool quoted = false, any = false;
  auto end_record = [&] {
    record.push_back(cell);
    cell.clear();
    if (!(record.size() == 1 && record[0].empty()))
      records.push_back(record);
    record.clear();
    any = false;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (quoted) {
      if (ch == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        cell += '"';
        ++i;
      } else if (ch == '"') {
        quoted = false;
      } else {
        cell += ch;
      }
      continue;
    }
    any = true;
    if (ch == '"')
      quoted = true;
    else if (ch == ',') {
      record.push_back(cell);
      cell.clear();
    } else if (ch == '\n')
      end_record();
    else if (ch != '\r')
      cell += ch;
  }
  if (any || !cell.empty() || !record.empty())
    end_record();
  return records;
}

int CsvTable::index(const std::string &column) const {
  const auto it = std::find(columns.begin(), columns.end(), column);
  return it == columns.end() ? -1 : static_cast<int>(it - columns.begin());
}

CsvTable parse_csv(const std::string &text, const std::string &option) {
  // A PNG, a JSON result or a compressed file given for the CSV is named as such: it read as
  // "row 6 has 2 cells, the header 1" (cbi plot --input heat.png, the plot's own output).
  const std::string_view head = std::string_view(text).substr(0, 4096);
  const std::string foreign = foreign_file(head);
  if (const Compression *c = compression_of(head))
    throw UsageError(option, "this file is " + foreign +
                                 ", not a CSV; allowed: a CSV (decompress " +
                                 "it first: " + c->tool + " FILE)");
  if (!foreign.empty())
    throw UsageError(option, "this file is " + foreign +
                                 ", not a CSV; allowed: a CSV, such as cbi sweep --output F.csv "
                                 "or a command's --format csv writes");
  std::vector<std::vector<std::string>> records = parse_csv_records(text);
  if (records.empty())
    throw UsageError(option, "the CSV is empty; allowed: a CSV with a header row");
  CsvTable t;
  t.columns = records.front();
  for (std::size_t r = 1; r < records.size(); ++r) {
    if (records[r].size() != t.columns.size())
      throw UsageError(option, "row " + std::to_string(r + 1) + " has " +
                                   std::to_string(records[r].size()) + " cells, the header " +
                                   std::to_string(t.columns.size()) +
                                   "; allowed: a rectangular CSV (cbi sweep's output)");
    t.rows.push_back(std::move(records[r]));
  }
  return t;
}

std::string read_input_file(const std::string &path, const std::string &option,
                            const std::string &allowed) {
  std::error_code ec;
  const std::filesystem::file_status st = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(st))
    throw UsageError(option, "'" + path + "' does not exist; allowed: " + allowed);
  if (std::filesystem::is_directory(st))
    throw UsageError(option, "'" + path + "' is a folder; allowed: " + allowed);
  std::ifstream f(path, std::ios::binary);
  if (!f)
    throw UsageError(option, "cannot read '" + path + "': " + std::strerror(errno) +
                                 "; allowed: " + allowed);
  std::string text{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
  if (f.bad())
    throw UsageError(option, "cannot read '" + path + "'; allowed: " + allowed);
  return text;
}

std::vector<std::vector<std::string>> read_complete_records(const std::string &path,
                                                            std::size_t *complete_bytes) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  std::string text = ss.str();
  const std::size_t last = text.rfind('\n');
  text.resize(last == std::string::npos ? 0 : last + 1);
  if (complete_bytes)
    *complete_bytes = text.size();
  return parse_csv_records(text);
}

} // namespace cbi::cli
