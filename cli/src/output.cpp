#include "cbi/cli/output.hpp"

#include "printers/printers.hpp"

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

const std::vector<const Printer *> &printers() {
  static const std::vector<const Printer *> all = {&detail::table_printer(), &detail::json_printer(),
                                                   &detail::csv_printer(),
                                                   &detail::markdown_printer()};
  return all;
}

std::string printer_names() {
  std::string names;
  for (const Printer *p : printers())
    names += (names.empty() ? "" : ", ") + std::string(p->name());
  return names;
}

const Printer &find_printer(const std::string &name, const std::string &option) {
  for (const Printer *p : printers())
    if (name == p->name())
      return *p;
  throw UsageError(option, "unknown format '" + name + "'; allowed: " + printer_names());
}

void print_table(std::ostream &os, const Table &t) { detail::table_printer().print(os, t); }
void print_csv(std::ostream &os, const Table &t) { detail::csv_printer().print(os, t); }
void print_json(std::ostream &os, const Table &t) { detail::json_printer().print(os, t); }
void print_markdown(std::ostream &os, const Table &t) { detail::markdown_printer().print(os, t); }

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
