// The run's context, as nvbench and Google Benchmark print it: what built the binary (version,
// commit, compiler) and where and how it ran (host CPU, cores, command line, date). Every JSON
// result carries it, and `cbi --version` prints its build half.
#include "cbi/cli/output.hpp"

#include "cbi/cli/version.hpp"

#include "cbi/cli/command.hpp"
#include "cbi/error.hpp"
#include "cbi/parse.hpp"

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <iterator>
#include <mutex>
#include <sstream>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
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

int parse_jobs(const std::string &text) {
  return jobs_within_cores(parse_positive(text, "--jobs", kMaxJobs));
}

namespace {

// The kB value of `key` ("MemAvailable:", "VmSize:") in a /proc file of "Key: N kB" lines, in
// bytes; -1 when absent.
int64_t proc_kib(const std::string &path, const std::string &key) {
  std::ifstream f(path);
  for (std::string k; f >> k;) {
    long long kib = 0;
    f >> kib;
    if (k == key)
      return static_cast<int64_t>(kib) * 1024;
    f.ignore(1 << 10, '\n');
  }
  return -1;
}

// A cgroup file's byte count; -1 for "max", a missing file, or v1's "no limit" (about 2^63).
int64_t cgroup_bytes(const std::string &path) {
  std::ifstream f(path);
  long long v = -1;
  if (!(f >> v) || v < 0 || v >= (1LL << 62))
    return -1;
  return static_cast<int64_t>(v);
}

// The page cache that a cgroup's usage counts and would give back (memory.stat's inactive files).
int64_t stat_bytes(const CgroupFiles &f) {
  std::ifstream in(f.stat);
  std::string key;
  for (long long v = 0; in >> key >> v;)
    if (key == f.reclaimable)
      return static_cast<int64_t>(v);
  return 0;
}

} // namespace

int64_t available_memory_of(int64_t mem_available, const std::vector<MemoryLimit> &limits) {
  int64_t available = mem_available;
  for (const MemoryLimit &l : limits)
    if (l.limit >= 0) {
      const int64_t left = std::max<int64_t>(0, l.limit - l.used);
      available = available < 0 ? left : std::min(available, left);
    }
  return available;
}

std::vector<CgroupFiles> memory_cgroup_files(const std::string &proc_self_cgroup,
                                             const std::string &root) {
  std::vector<CgroupFiles> files;
  std::istringstream in(proc_self_cgroup);
  for (std::string line; std::getline(in, line);) {
    // "ID:CONTROLLERS:PATH": v2's unified tree is "0::PATH", v1's memory controller
    // "N:memory:PATH".
    const std::size_t a = line.find(':'), b = a == std::string::npos ? a : line.find(':', a + 1);
    if (b == std::string::npos)
      continue;
    const std::string controllers = "," + line.substr(a + 1, b - a - 1) + ",";
    const bool v2 = controllers == ",,", v1 = controllers.find(",memory,") != std::string::npos;
    if (!v1 && !v2)
      continue;
    const std::string base = v2 ? root : root + "/memory";
    for (std::string path = line.substr(b + 1);; path = path.substr(0, path.rfind('/'))) {
      while (!path.empty() && path.back() == '/')
        path.pop_back();
      const std::string dir = base + path;
      files.push_back(v2 ? CgroupFiles{dir + "/memory.max", dir + "/memory.current",
                                       dir + "/memory.stat", "inactive_file"}
                         : CgroupFiles{dir + "/memory.limit_in_bytes",
                                       dir + "/memory.usage_in_bytes", dir + "/memory.stat",
                                       "total_inactive_file"});
      if (path.empty())
        break;
    }
  }
  return files;
}

int64_t available_memory_bytes() {
  std::vector<MemoryLimit> limits;
  std::ifstream self("/proc/self/cgroup");
  const std::string cgroups{std::istreambuf_iterator<char>(self), std::istreambuf_iterator<char>()};
  for (const CgroupFiles &f : memory_cgroup_files(cgroups)) {
    const int64_t limit = cgroup_bytes(f.limit);
    if (limit >= 0)
      limits.push_back({limit, std::max<int64_t>(0, cgroup_bytes(f.usage) -
                                                        std::max<int64_t>(0, stat_bytes(f)))});
  }
  rlimit as{};
  if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY)
    limits.push_back({static_cast<int64_t>(std::min<rlim_t>(as.rlim_cur, rlim_t{1} << 62)),
                      std::max<int64_t>(0, proc_kib("/proc/self/status", "VmSize:"))});
  return available_memory_of(proc_kib("/proc/meminfo", "MemAvailable:"), limits);
}

namespace {

std::string gib(double bytes) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(1) << bytes / double(1LL << 30) << " GiB";
  return os.str();
}

} // namespace

void check_memory(double needed_bytes, const std::string &what, const std::string &option,
                  const std::string &allowed) {
  const int64_t available = available_memory_bytes();
  if (available < 0 || needed_bytes <= static_cast<double>(available))
    return;
  throw UsageError(option, what + " needs about " + gib(needed_bytes) + " of memory, and " +
                               gib(static_cast<double>(available)) +
                               " are available; allowed: " + allowed);
}

void check_disk_space(double needed_bytes, const std::string &path, const std::string &what,
                      const std::string &option, const std::string &allowed) {
  struct stat st {};
  if (path == "-" || (::stat(write_target(path).c_str(), &st) == 0 && !S_ISREG(st.st_mode)))
    return;
  const std::string folder = write_folder(path);
  struct statvfs fs {};
  if (::statvfs(folder.c_str(), &fs) != 0)
    return;
  const double free = double(fs.f_bavail) * double(fs.f_frsize);
  if (needed_bytes <= free)
    return;
  throw UsageError(option, what + " takes " + gib(needed_bytes) + " at least, and the disk of '" +
                               folder + "' has " + gib(free) + " free; allowed: " + allowed);
}

} // namespace cbi::cli
