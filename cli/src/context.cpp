// The run's context, as nvbench and Google Benchmark print it: what built the binary (version,
// commit, compiler) and where and how it ran (host CPU, cores, command line, date). Every JSON
// result carries it, and `cbi --version` prints its build half.
#include "cbi/cli/output.hpp"

#include "cbi/cli/version.hpp"

#include "cbi/cli/command.hpp"
#include "cbi/error.hpp"

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>

namespace cbi::cli {

namespace {

std::string &invocation() {
  static std::string command;
  return command;
}

std::string compiler() {
#if defined(__clang__)
  return std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
  return std::string("gcc ") + __VERSION__;
#else
  return "unknown";
#endif
}

// "model name" of /proc/cpuinfo, or "unknown".
std::string host_cpu() {
  std::ifstream f("/proc/cpuinfo");
  for (std::string line; std::getline(f, line);)
    if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos) {
      std::string name = line.substr(line.find(':') + 1);
      name.erase(0, name.find_first_not_of(" \t"));
      return name;
    }
  return "unknown";
}

} // namespace

void set_invocation(int argc, const char *const *argv) { invocation() = command_line(argc, argv); }

std::string version_line(const std::string &program) {
  return program + " " + CBI_VERSION + " (commit " + CBI_GIT_COMMIT + ", " + compiler() + ", " +
         CBI_BUILD_TYPE + ")";
}

std::vector<std::pair<std::string, Cell>> run_context() {
  return {{"cbi_version", std::string(CBI_VERSION)},
          {"git_commit", std::string(CBI_GIT_COMMIT)},
          {"command", invocation()},
          {"date", utc_timestamp()},
          {"host_cpu", host_cpu()},
          {"host_cores", static_cast<int64_t>(std::thread::hardware_concurrency())},
          {"compiler", compiler()},
          {"build_type", std::string(CBI_BUILD_TYPE)}};
}

} // namespace cbi::cli

namespace cbi::cli {

int idle_cores_of(unsigned cores, const std::string &loadavg) {
  const int all = static_cast<int>(std::max(1u, cores));
  std::istringstream in(loadavg);
  std::string one, five, fifteen, tasks;
  if (!(in >> one >> five >> fifteen >> tasks) || tasks.find('/') == std::string::npos)
    return all;
  try {
    const int runnable = std::stoi(tasks.substr(0, tasks.find('/')));
    return std::clamp(all - std::max(0, runnable - 1), 1, all);
  } catch (const std::exception &) {
    return all;
  }
}

int idle_cores() {
  std::ifstream f("/proc/loadavg");
  std::string line;
  std::getline(f, line);
  return idle_cores_of(std::thread::hardware_concurrency(), line);
}

int jobs_within_cores_of(long long asked_jobs, unsigned cores, std::ostream &err) {
  if (cores == 0 || asked_jobs <= static_cast<long long>(cores))
    return static_cast<int>(asked_jobs);
  err << "cbi: --jobs " << asked_jobs << " is more than the " << cores << " cores here; using "
      << cores << "\n";
  return static_cast<int>(cores);
}

namespace {
std::mutex &notices_mutex() {
  static std::mutex m;
  return m;
}
std::string &notices() {
  static std::string held;
  return held;
}
} // namespace

void hold_notice(const std::string &line) {
  const std::lock_guard<std::mutex> lock(notices_mutex());
  notices() += line;
}

std::string take_notices() {
  std::string held;
  const std::lock_guard<std::mutex> lock(notices_mutex());
  held.swap(notices());
  return held;
}

void say_notices() {
  const std::string held = take_notices();
  if (!held.empty())
    std::cerr << held << std::flush;
}

void drop_notices() { take_notices(); }

int jobs_within_cores(long long asked_jobs) {
  std::ostringstream line;
  const int jobs = jobs_within_cores_of(asked_jobs, std::thread::hardware_concurrency(), line);
  hold_notice(line.str());
  return jobs;
}

int64_t available_memory_bytes() {
  std::ifstream f("/proc/meminfo");
  for (std::string key; f >> key;) {
    long long kib = 0;
    f >> kib;
    if (key == "MemAvailable:")
      return static_cast<int64_t>(kib) * 1024;
    f.ignore(1 << 10, '\n');
  }
  return -1;
}

void check_memory(double needed_bytes, const std::string &what, const std::string &option,
                  const std::string &allowed) {
  const int64_t available = available_memory_bytes();
  if (available < 0 || needed_bytes <= static_cast<double>(available))
    return;
  auto gib = [](double bytes) {
    std::ostringstream os;
    os << std::fixed << std::setprecision(1) << bytes / double(1LL << 30) << " GiB";
    return os.str();
  };
  throw UsageError(option, what + " needs about " + gib(needed_bytes) + " of memory, and " +
                               gib(static_cast<double>(available)) +
                               " are available; allowed: " + allowed);
}

} // namespace cbi::cli
