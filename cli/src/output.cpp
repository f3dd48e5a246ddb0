#include "cbi/cli/output.hpp"

#include "cbi/cli/csv.hpp"

#include "cbi/error.hpp"

#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <unistd.h>

namespace cbi::cli {

Format parse_format(const std::string &text, const std::string &option) {
  if (text == "table")
    return Format::table;
  if (text == "json")
    return Format::json;
  if (text == "csv")
    return Format::csv;
  throw UsageError(option, "unknown format '" + text + "'; allowed: table, json, csv");
}

std::string format_cell(const Cell &c) {
  if (const auto *s = std::get_if<std::string>(&c))
    return *s;
  if (const auto *i = std::get_if<int64_t>(&c))
    return std::to_string(*i);
  if (const auto *b = std::get_if<bool>(&c))
    return *b ? "true" : "false";
  const double d = std::get<double>(c);
  if (!std::isfinite(d))
    return "nan";
  std::ostringstream os;
  os << std::setprecision(6) << d;
  return os.str();
}

std::string json_escape(const std::string &s) {
  std::string out = "\"";
  for (char ch : s) {
    switch (ch) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      if (static_cast<unsigned char>(ch) < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", ch);
        out += buf;
      } else {
        out += ch;
      }
    }
  }
  return out + "\"";
}

static std::string json_cell(const Cell &c) {
  if (const auto *s = std::get_if<std::string>(&c))
    return json_escape(*s);
  if (const auto *d = std::get_if<double>(&c)) {
    if (!std::isfinite(*d))
      return "null";
    std::ostringstream os;
    os << std::setprecision(10) << *d;
    return os.str();
  }
  return format_cell(c);
}

void print_table(std::ostream &os, const Table &t) {
  if (!t.title.empty())
    os << t.title << "\n";
  for (const auto &[k, v] : t.meta)
    os << "  " << k << ": " << v << "\n";
  std::vector<std::size_t> widths(t.columns.size());
  std::vector<std::vector<std::string>> text;
  for (std::size_t c = 0; c < t.columns.size(); ++c)
    widths[c] = t.columns[c].size();
  for (const auto &row : t.rows) {
    text.emplace_back();
    for (std::size_t c = 0; c < row.size() && c < widths.size(); ++c) {
      text.back().push_back(format_cell(row[c]));
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

void print_csv(std::ostream &os, const Table &t, bool header) {
  if (header) {
    for (std::size_t c = 0; c < t.columns.size(); ++c)
      os << (c ? "," : "") << csv_escape(t.columns[c]);
    os << "\n";
  }
  for (const auto &row : t.rows) {
    for (std::size_t c = 0; c < row.size(); ++c)
      os << (c ? "," : "") << csv_escape(format_cell(row[c]));
    os << "\n";
  }
}

void print_json(std::ostream &os, const Table &t) {
  os << "{\n  \"title\": " << json_escape(t.title) << ",\n  \"meta\": {";
  for (std::size_t i = 0; i < t.meta.size(); ++i)
    os << (i ? ", " : "") << json_escape(t.meta[i].first) << ": " << json_escape(t.meta[i].second);
  os << "},\n  \"rows\": [";
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    os << (r ? ",\n    {" : "\n    {");
    for (std::size_t c = 0; c < t.rows[r].size() && c < t.columns.size(); ++c)
      os << (c ? ", " : "") << json_escape(t.columns[c]) << ": " << json_cell(t.rows[r][c]);
    os << "}";
  }
  os << (t.rows.empty() ? "]" : "\n  ]");
  if (!t.notes.empty()) {
    os << ",\n  \"notes\": [";
    for (std::size_t i = 0; i < t.notes.size(); ++i)
      os << (i ? ", " : "") << json_escape(t.notes[i]);
    os << "]";
  }
  os << "\n}\n";
}

void print(std::ostream &os, const Table &t, Format f) {
  switch (f) {
  case Format::json:
    print_json(os, t);
    break;
  case Format::csv:
    print_csv(os, t);
    break;
  default:
    print_table(os, t);
  }
}

void write_file_atomic(const std::string &path, const std::string &text) {
  if (path.empty() || path == "-") {
    std::cout << text << std::flush;
    return;
  }
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream f(tmp, std::ios::binary);
    if (!f)
      throw UsageError("--output",
                       "cannot write '" + path + "'; allowed: a path in a writable folder");
    f << text;
    f.flush();
    if (!f) {
      std::remove(tmp.c_str());
      throw UsageError("--output", "writing '" + path + "' failed (disk full?)");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw UsageError("--output", "cannot move the result into '" + path + "'");
  }
}

std::string command_line(int argc, const char *const *argv) {
  std::string s;
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    if (a.find_first_of(" \t'\"") != std::string::npos)
      a = "'" + a + "'";
    s += (i ? " " : "") + a;
  }
  return s;
}

std::string utc_timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

} // namespace cbi::cli
