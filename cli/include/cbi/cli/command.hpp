// Subcommands of cbi and cbi-viz: each command file registers itself with one line
// (`const cli::Registration r{{"simulate", "...", cmd_simulate, 10}};`), and one boundary,
// run_command, turns the errors of cbi/error.hpp into one line on stderr and an exit code.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace cbi::cli {

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;  // a runtime failure (I/O, CUDA error, ...)
constexpr int kExitUsage = 2;    // a bad option value: cbi::UsageError
constexpr int kExitNoDevice = 3; // no CUDA device: cbi::NoDeviceError

struct Command {
  const char *name;
  const char *summary;
  int (*run)(int argc, char **argv); // argv[0] is "cbi <name>"
  int rank = 0;                      // place in the help listing, ascending
};

// Adds `c` to this binary's registry at static-initialisation time.
struct Registration {
  explicit Registration(const Command &c);
};

// Every registered command, ordered by rank.
std::vector<Command> commands();
// The command called `name`, or nullptr.
const Command *find_command(const std::string &name);

// "  name        summary" lines of every registered command, names padded to `name_width`.
void print_commands(std::ostream &os, std::size_t name_width);

// Names the option behind a UsageError's field (config::option_for_field); nullptr: as thrown.
using OptionNamer = std::string (*)(const std::string &field);

// Runs `c` on argv[1..] (argv[1] is the command's name) and turns its exceptions into exit codes:
// UsageError -> "cbi <name>: <option_for_field(option)>: <message>", kExitUsage; NoDeviceError ->
// "cbi <name>: <message>", kExitNoDevice; any other exception -> "cbi <name>: error: <message>",
// kExitFailure; the binary passes config::option_for_field, which knows the engines' fields. Then
// finish_stdout: a result that did not reach stdout is a failure too.
int run_command(const Command &c, int argc, char **argv, OptionNamer option_for_field = nullptr);

// Flushes stdout and checks that everything written to it arrived (`cbi simulate > /dev/full`):
// if `code` is kExitOk and it did not, prints "<who>: error: writing to stdout failed: <reason>"
// to stderr and returns kExitFailure; otherwise returns `code` (a failed command has printed its
// one line already). Every exit of cbi and cbi-viz goes through it.
int finish_stdout(const std::string &who, int code);

// Runs argv[0] with argv (no shell), stdout to /dev/null and stderr through a pipe into `err`.
// Returns the exit status, or -1 when it could not start or did not exit normally.
int run_program(const std::vector<std::string> &argv, std::string *err);

// The memory this process can take now: MemAvailable of /proc/meminfo, at most what the limits on
// it leave: its memory cgroups' (v2 memory.max, v1 memory.limit_in_bytes, less their usage: a
// container's, a Slurm job's) and its address space's (ulimit -v, less what it maps already).
// MemAvailable alone is the host's: a 20 GiB cache passed the check in a job allowed 16 GiB and
// was killed, and under ulimit -v it failed as "out of memory" naming --size. -1 when unknown.
int64_t available_memory_bytes();
// A limit on the memory of this process and what it counts already (bytes; limit < 0: none).
struct MemoryLimit {
  int64_t limit = -1, used = 0;
};
// available_memory_bytes from its parts: `mem_available` (-1: unknown) at most each limit less
// its use (0 where a limit is used up); -1 when neither tells.
int64_t available_memory_of(int64_t mem_available, const std::vector<MemoryLimit> &limits);
// The folders of the memory cgroups that hold a process whose /proc/self/cgroup reads
// `proc_self_cgroup`, its own first and then each above it, under `root` (/sys/fs/cgroup), each
// with its limit and usage files: v1's memory controller (root/memory/PATH: memory.limit_in_bytes,
// memory.usage_in_bytes) and v2's unified tree (root/PATH: memory.max, memory.current); `stat`
// (memory.stat) and its key `reclaimable` count the page cache that the usage holds and would
// give back (inactive files), as MemAvailable does.
struct CgroupFiles {
  std::string limit, usage, stat, reclaimable;
};
std::vector<CgroupFiles> memory_cgroup_files(const std::string &proc_self_cgroup,
                                             const std::string &root = "/sys/fs/cgroup");
// Before a large allocation: a UsageError naming `option` when `needed_bytes` exceed the
// available memory, saying how much `what` needs, how much there is, and `allowed` (which option
// to change), instead of a std::bad_alloc after minutes of work.
void check_memory(double needed_bytes, const std::string &what, const std::string &option,
                  const std::string &allowed);
// The same for a file written to `path` (stdout, a FIFO or a device pass): a UsageError naming
// `option` when `needed_bytes` exceed the space free in its folder's file system, before a write
// that would fill the disk hours in.
void check_disk_space(double needed_bytes, const std::string &path, const std::string &what,
                      const std::string &option, const std::string &allowed);

// The cores a command's threads should take by default: the cores less the other tasks that are
// runnable now (the 4th field of /proc/loadavg, "runnable/total", counts this process too), at
// least 1; all cores when that is unknown. Replays whose threads wait for one another (the GPU
// model's parallel replay) make no progress when they outnumber the cores: 16 replays of 16
// threads each on 16 cores did not finish one in 570 s (docs/results/tight/h100-fresh.md).
int idle_cores();
// --jobs's default where it is idle_cores, as each command's help says it (the count a run took is
// its result's meta "jobs").
constexpr const char *kIdleCoresHelp =
    "default: the cores idle at the start, i.e. this machine's cores less the other runnable "
    "tasks that /proc/loadavg counts, at least 1 (all cores on an idle machine, fewer on a "
    "shared one); the count taken is the result's jobs (JSON: meta.jobs)";
// --jobs N as given, at most this machine's cores (std::thread::hardware_concurrency; N when that
// is unknown), with one stderr line naming --jobs where it lowers N: threads that wait for one
// another make no progress when they outnumber the cores (simulate --model gpu --jobs 1024 on 2
// cores printed nothing for 20 s where --jobs 1 printed progress at once). The line is held as a
// notice (hold_notice) until the command line is accepted.
int jobs_within_cores(long long asked_jobs);
// The most --jobs any command takes: one cap, one message, in every command and the Python module.
constexpr long long kMaxJobs = 1024;
// --jobs's text: an integer from 1 to kMaxJobs (a UsageError naming --jobs), then
// jobs_within_cores.
int parse_jobs(const std::string &text);
// A stderr line held until the command has been accepted: say_notices prints the held lines (at
// the first progress line, and when a command ends well), drop_notices forgets them (a refused
// command prints its one error line alone: `--jobs 99 --bogus-value` printed the --jobs notice
// and then the error).
void hold_notice(const std::string &line);
void say_notices();
void drop_notices();
// The held lines, no longer held (the Python module prints them in its own spelling).
std::string take_notices();
// jobs_within_cores for a machine of `cores` cores (0: unknown), its line written to `err`.
int jobs_within_cores_of(long long asked_jobs, unsigned cores, std::ostream &err);
// The help of every --jobs, after its default.
constexpr const char *kJobsCapHelp =
    "; at most 1024, and a count above this machine's cores takes the cores (said in one line on "
    "stderr)";
// idle_cores for a machine of `cores` cores whose /proc/loadavg reads `loadavg`.
int idle_cores_of(unsigned cores, const std::string &loadavg);

// The folder of the running binary (/proc/self/exe), "." when unknown.
std::string self_dir();

} // namespace cbi::cli
