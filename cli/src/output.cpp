#include "cbi/cli/output.hpp"
#include "cbi/cli/output_stream.hpp"

#include "printers/printers.hpp"

#include "cbi/error.hpp"
#include "cbi/text.hpp"

#include <cerrno>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <iterator>
#include <signal.h>
#include <sstream>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

namespace cbi::cli {

std::string format_cell(const Cell &c) {
  if (const auto *s = std::get_if<std::string>(&c))
    return *s;
  if (const auto *i = std::get_if<int64_t>(&c))
    return std::to_string(*i);
  if (const auto *b = std::get_if<bool>(&c))
    return *b ? "true" : "false";
  if (const auto *names = std::get_if<Names>(&c))
    return join(*names, ",");
  const double d = std::get<double>(c);
  if (!std::isfinite(d))
    return "nan";
  if (d == std::floor(d) && std::fabs(d) < 9007199254740992.0) // 2^53: every integer exact
    return std::to_string(static_cast<int64_t>(d));
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d); // shortest round-trip
  return ec == std::errc() ? std::string(buf, end) : std::to_string(d);
}

std::string format_cell_short(const Cell &c) {
  if (const auto *names = std::get_if<Names>(&c))
    return join(*names, ", ");
  const auto *d = std::get_if<double>(&c);
  if (!d || !std::isfinite(*d))
    return format_cell(c);
  // 6 significant digits, never in exponent form for a number of a million or more (a count of
  // 3137540 printed "3.13754e+06" in cbi sweep's best line and in markdown tables).
  if (std::fabs(*d) >= 999999.5 && std::fabs(*d) < 9.2e18) // 6 digits of 999999.5: 1e+06
    return std::to_string(std::llround(*d));
  std::ostringstream os;
  os << std::setprecision(6) << *d;
  return os.str();
}

std::string wrap_text(const std::string &prefix, const std::string &text, std::size_t indent,
                      std::size_t width) {
  if (prefix.size() + text.size() <= width)
    return prefix + text + "\n";
  std::istringstream words(text);
  std::string word, out, line = prefix;
  bool line_has_word = false;
  while (words >> word) {
    if (line_has_word && line.size() + 1 + word.size() > width) {
      out += line + "\n";
      line = std::string(indent, ' ');
      line_has_word = false;
    }
    line += (line_has_word ? " " : "") + word;
    line_has_word = true;
  }
  return out + line + "\n";
}

const std::vector<const Printer *> &printers() {
  static const std::vector<const Printer *> all = {&detail::table_printer(),
                                                   &detail::json_printer(), &detail::csv_printer(),
                                                   &detail::markdown_printer()};
  return all;
}

std::string printer_names() {
  return join(printers(), ", ", [](const Printer *p) { return p->name(); });
}

const Printer &find_printer(const std::string &name, const std::string &option) {
  // md, as the ending .md names markdown for --output: --format md was "unknown format".
  const std::string wanted = name == "md" ? "markdown" : name;
  for (const Printer *p : printers())
    if (wanted == p->name())
      return *p;
  throw UsageError(option,
                   "unknown format '" + name + "'; allowed: " + printer_names() + " (or md)");
}

void print_table(std::ostream &os, const Table &t) { detail::table_printer().print(os, t); }
void print_csv(std::ostream &os, const Table &t) { detail::csv_printer().print(os, t); }
void print_json(std::ostream &os, const Table &t) { detail::json_printer().print(os, t); }
void print_markdown(std::ostream &os, const Table &t) { detail::markdown_printer().print(os, t); }

namespace {

std::string parent_folder(const std::string &path) {
  const std::size_t slash = path.rfind('/');
  if (slash == std::string::npos)
    return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// The file a write to `path` lands in: a symlink's final target, followed link by link even when
// it does not exist yet (a dangling link is written through too, creating its target), so that
// every command writes through every symlink and the link itself stays.
std::string resolved(const std::string &path) {
  std::string at = path;
  for (int hops = 0; hops < 40; ++hops) { // 40: the kernel's own limit on a chain of links
    struct stat st {};
    if (::lstat(at.c_str(), &st) != 0 || !S_ISLNK(st.st_mode))
      return at;
    std::string target(static_cast<std::size_t>(st.st_size > 0 ? st.st_size : 4096), '\0');
    const ssize_t n = ::readlink(at.c_str(), target.data(), target.size());
    if (n < 0)
      return at;
    target.resize(static_cast<std::size_t>(n));
    const std::string folder = parent_folder(at);
    at = target.front() == '/' ? target : folder + "/" + target;
  }
  return at;
}

// The temporary file a write fills, removed when SIGINT, SIGTERM or SIGHUP ends the command part
// way: Ctrl-C on a long `cbi trace -o t.trace` left gigabytes of t.trace.tmp.PID behind. The path
// is kept in a fixed buffer, as a signal handler may only unlink() it; the signal then ends the
// process as it would have (its default action, raised again).
char g_temp_path[4096];
constexpr int kEndingSignals[] = {SIGINT, SIGTERM, SIGHUP};

extern "C" void remove_temp_and_end(int sig) {
  ::unlink(g_temp_path);
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

class TempFileGuard {
public:
  explicit TempFileGuard(const std::string &path) {
    if (path.size() >= sizeof g_temp_path)
      return;
    std::memcpy(g_temp_path, path.c_str(), path.size() + 1);
    struct sigaction sa {};
    sa.sa_handler = remove_temp_and_end;
    sigemptyset(&sa.sa_mask);
    for (std::size_t k = 0; k < std::size(kEndingSignals); ++k) {
      sigaction(kEndingSignals[k], nullptr, &m_old[k]);
      // A signal the caller ignores (nohup's SIGHUP) stays ignored; a handler of its own stays.
      m_mine[k] = m_old[k].sa_handler == SIG_DFL;
      if (m_mine[k])
        sigaction(kEndingSignals[k], &sa, nullptr);
    }
  }
  ~TempFileGuard() {
    for (std::size_t k = 0; k < std::size(kEndingSignals); ++k)
      if (m_mine[k])
        sigaction(kEndingSignals[k], &m_old[k], nullptr);
  }
  TempFileGuard(const TempFileGuard &) = delete;
  TempFileGuard &operator=(const TempFileGuard &) = delete;

private:
  struct sigaction m_old[std::size(kEndingSignals)]{};
  bool m_mine[std::size(kEndingSignals)] = {};
};

// "writing 'F' failed: reason" as the runtime failure it is (exit 1), naming the option.
[[noreturn]] void write_failed(const std::string &option, const std::string &path, int err) {
  const std::string reason = err ? std::string(": ") + std::strerror(err) : "";
  if (path == "-") // stdout: what the shell redirected, not an option the user gave
    throw std::runtime_error("writing to stdout failed" + reason);
  throw std::runtime_error(option + ": writing '" + path + "' failed" + reason);
}

} // namespace

void check_output(const std::string &path, const std::string &option, bool stdout_ok) {
  const std::string allowed = std::string("allowed: a file path in an existing, writable folder") +
                              (stdout_ok ? " or - for stdout" : "");
  if (path.empty())
    throw UsageError(option, "empty path; " + allowed);
  if (path == "-") {
    if (!stdout_ok)
      throw UsageError(option, "'-' is not a file; " + allowed);
    return;
  }
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode))
      throw UsageError(option, "'" + path + "' is a folder; " + allowed);
    if (::access(path.c_str(), W_OK) != 0)
      throw UsageError(option,
                       "cannot write '" + path + "': " + std::strerror(errno) + "; " + allowed);
    if (!S_ISREG(st.st_mode))
      return; // a FIFO or a device: written through
  }
  // A symlink, even a dangling one, is written through: its target's folder must take the file.
  // A loop of links has no target (the write replaced the link itself).
  struct stat link {};
  const std::string target = resolved(path);
  if (::lstat(target.c_str(), &link) == 0 && S_ISLNK(link.st_mode))
    throw UsageError(option, "'" + path + "' is a symlink that leads back to itself; " + allowed);
  const std::string folder = parent_folder(target);
  struct stat dir {};
  if (::stat(folder.c_str(), &dir) != 0 || !S_ISDIR(dir.st_mode))
    throw UsageError(option, "cannot write '" + path + "': folder '" + folder +
                                 "' does not exist; " + allowed);
  if (::access(folder.c_str(), W_OK | X_OK) != 0)
    throw UsageError(option, "cannot write '" + path + "': folder '" + folder +
                                 "' is not writable; " + allowed);
  // access() says yes to root everywhere, /proc included: a probe file says what the write will
  // (it was "cannot write '/proc/x': No such file or directory" after the work).
  std::string probe = folder + (folder == "/" ? "" : "/") + ".cbi-probe-XXXXXX";
  const int fd = ::mkstemp(probe.data());
  if (fd < 0)
    throw UsageError(option, "cannot write '" + path + "': folder '" + folder +
                                 "' takes no new files (" + std::strerror(errno) + "); " + allowed);
  ::close(fd);
  ::unlink(probe.c_str());
}

void check_output_folder(const std::string &path, const std::string &option) {
  const std::string allowed = "allowed: a writable folder, or a new one inside a writable folder";
  if (path.empty())
    throw UsageError(option, "empty path; " + allowed);
  std::string at = path;
  while (at.size() > 1 && at.back() == '/')
    at.pop_back();
  const std::string given = at;
  struct stat st {};
  while (::stat(at.c_str(), &st) != 0) {
    if (errno != ENOENT)
      throw UsageError(option,
                       "cannot use '" + path + "': " + std::strerror(errno) + "; " + allowed);
    const std::string up = parent_folder(at);
    if (up == at)
      break;
    at = up;
  }
  // The folder the user gave leads the line; the one above it that stops it, with why, follows
  // (-o /proc/x/R named '/proc' alone, a folder the user never typed).
  const std::string cannot = "cannot use '" + path + "': ";
  const std::string where = at == given ? "it" : "'" + at + "'";
  if (!S_ISDIR(st.st_mode))
    throw UsageError(option, cannot + where + " is not a folder; " + allowed);
  if (::access(at.c_str(), W_OK | X_OK) != 0)
    throw UsageError(option, cannot + "cannot write into " + where + " (" + std::strerror(errno) +
                                 "); " + allowed);
  // access() says yes to root everywhere, /proc included: a probe folder says what mkdir will.
  std::string probe = at + (at == "/" ? "" : "/") + ".cbi-probe-XXXXXX";
  if (!::mkdtemp(probe.data()))
    throw UsageError(option, cannot + "no folder can be created in " + where + " (" +
                                 std::strerror(errno) + "); " + allowed);
  ::rmdir(probe.c_str());
}

std::string write_target(const std::string &path) { return resolved(path); }
std::string write_folder(const std::string &path) { return parent_folder(resolved(path)); }

void write_file_atomic(const std::string &path, const std::string &text,
                       const std::string &option) {
  write_stream_atomic(
      path, [&](std::ostream &os) { os << text; }, option);
}

void write_stream_atomic(const std::string &path, const std::function<void(std::ostream &)> &write,
                         const std::string &option) {
  if (path.empty())
    throw UsageError(option, "empty path; allowed: a file path or - for stdout");
  if (path == "-") {
    errno = 0;
    write(std::cout);
    std::cout << std::flush;
    if (!std::cout)
      write_failed(option, path, errno);
    return;
  }
  const std::string target = resolved(path);
  struct stat st {};
  if (::stat(target.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode))
      throw UsageError(option, "'" + path + "' is a folder; allowed: a file path");
    // A FIFO, a device or a socket: write into it; replacing it would break whoever reads it.
    std::ofstream f(target, std::ios::binary);
    errno = 0;
    if (f) {
      write(f);
      f << std::flush;
    }
    if (!f)
      write_failed(option, path, errno);
    return;
  }
  const std::string tmp = target + ".tmp." + std::to_string(::getpid());
  const TempFileGuard guard(tmp);
  {
    std::ofstream f(tmp, std::ios::binary);
    if (!f)
      throw UsageError(option, "cannot write '" + path + "': " + std::strerror(errno) +
                                   "; allowed: a path in a writable folder");
    errno = 0;
    try {
      write(f);
    } catch (...) { // the writer's own error: no half file left
      f.close();
      std::remove(tmp.c_str());
      throw;
    }
    f.flush();
    const int err = errno;
    f.close();
    if (!f) {
      std::remove(tmp.c_str());
      write_failed(option, path, err);
    }
  }
  if (std::rename(tmp.c_str(), target.c_str()) != 0) {
    const int err = errno;
    std::remove(tmp.c_str());
    write_failed(option, path, err);
  }
}

namespace {

// A word as POSIX sh reads it back: kept as is when it holds only characters the shell takes
// literally, else in single quotes, a quote inside written '\'' (it's -> 'it'\''s').
std::string shell_word(const std::string &a) {
  static const char *plain = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                             "_-+=/.,:@%";
  if (!a.empty() && a.find_first_not_of(plain) == std::string::npos)
    return a;
  std::string q = "'";
  for (const char c : a)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

} // namespace

std::string command_line(int argc, const char *const *argv) {
  std::string s;
  for (int i = 0; i < argc; ++i)
    s += (i ? " " : "") + shell_word(argv[i]);
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
