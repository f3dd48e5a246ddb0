#include "cbi/cli/command.hpp"

#include "cbi/cli/output.hpp"
#include "cbi/error.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <new>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace cbi::cli {

namespace {

// A function-local registry, so that registrations from any translation unit's static
// initialisers find it constructed.
std::vector<Command> &registry() {
  static std::vector<Command> r;
  return r;
}

} // namespace

Registration::Registration(const Command &c) { registry().push_back(c); }

std::vector<Command> commands() {
  std::vector<Command> sorted = registry();
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const Command &a, const Command &b) { return a.rank < b.rank; });
  return sorted;
}

const Command *find_command(const std::string &name) {
  for (const Command &c : registry())
    if (name == c.name)
      return &c;
  return nullptr;
}

void print_commands(std::ostream &os, std::size_t name_width) {
  for (const Command &c : commands()) {
    const std::string name = c.name;
    os << "  " << name << std::string(name_width > name.size() ? name_width - name.size() : 1, ' ')
       << c.summary << "\n";
  }
}

int finish_stdout(const std::string &who, int code) {
  errno = 0;
  std::cout.flush(); // stdio's buffer: the first failing flush sets errno
  const bool flushed = std::fflush(stdout) == 0;
  const int err = errno;
  if (code != kExitOk || (flushed && !std::ferror(stdout) && std::cout.good()))
    return code; // a failed command has said why already
  std::cerr << who << ": error: writing to stdout failed"
            << (err ? std::string(": ") + std::strerror(err) : std::string()) << "\n";
  return code == kExitOk ? kExitFailure : code;
}

namespace {

// run_command without the stdout check: the command's exceptions as exit codes.
int run_guarded(const Command &c, int argc, char **argv, OptionNamer option_for_field) {
  // A command run from another (cbi sweep merge, from cbi sweep) gets argv[0] "cbi sweep", which
  // its caller wrote: the command line was set by the caller already, as typed (the JSON's
  // context.command read "'cbi sweep' merge ...").
  if (std::string(argv[0]).rfind("cbi ", 0) != 0)
    set_invocation(argc, argv);
  std::string name = std::string("cbi ") + c.name;
  argv[1] = name.data();
  // A failed command prints its one line alone: the notices held for an accepted one go with it.
  struct DropNotices {
    ~DropNotices() { drop_notices(); }
  } const drop;
  try {
    const int code = c.run(argc - 1, argv + 1);
    if (code == kExitOk)
      say_notices();
    return code;
  } catch (const UsageError &e) {
    std::cerr << "cbi " << c.name << ": "
              << (option_for_field ? option_for_field(e.option()) : e.option()) << ": " << e.what()
              << "\n";
    return kExitUsage;
  } catch (const NoDeviceError &e) {
    std::cerr << "cbi " << c.name << ": " << e.what() << "\n";
    return kExitNoDevice;
  } catch (const std::bad_alloc &) {
    std::cerr << "cbi " << c.name << ": out of memory: this configuration needs more memory than "
              << "the machine can give (" << available_memory_bytes() / (1LL << 20)
              << " MiB available); allowed: a smaller --size (or fewer --jobs)\n";
    return kExitFailure;
  } catch (const std::exception &e) {
    std::cerr << "cbi " << c.name << ": error: " << e.what() << "\n";
    return kExitFailure;
  }
}

} // namespace

int run_command(const Command &c, int argc, char **argv, OptionNamer option_for_field) {
  const std::string who = std::string("cbi ") + c.name;
  return finish_stdout(who, run_guarded(c, argc, argv, option_for_field));
}

int run_program(const std::vector<std::string> &argv, std::string *err) {
  int pipe_fds[2];
  if (argv.empty() || pipe(pipe_fds) != 0)
    return -1;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 2);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[1]);
  std::vector<char *> args;
  for (const std::string &a : argv)
    args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  std::string text;
  char buf[4096];
  for (ssize_t n; spawned == 0 && (n = read(pipe_fds[0], buf, sizeof buf)) != 0;) {
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      break;
    text.append(buf, static_cast<std::size_t>(n));
  }
  close(pipe_fds[0]);
  if (err)
    *err = spawned == 0 ? text : std::strerror(spawned);
  if (spawned != 0)
    return -1;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string self_dir() {
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0)
    return ".";
  self[n] = 0;
  const std::string path(self);
  return path.substr(0, path.rfind('/'));
}

} // namespace cbi::cli
