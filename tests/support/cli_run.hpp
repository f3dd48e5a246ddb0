// Running the built binaries from end-to-end tests: cbi_run("simulate --size 16") runs
// $CBI_BIN/cbi (or the build's bin/) with those arguments and captures exit code, stdout and
// stderr.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace cbi::test {

struct CliRun {
  int exit_code = -1; // -1 when the process did not exit normally
  std::string out;
  std::string err;
};

// The folder holding cbi and cbi-viz: $CBI_BIN, else the build's bin/ (CBI_BIN_DIR).
inline std::string bin_dir() {
  const char *b = std::getenv("CBI_BIN");
  return b ? b : CBI_BIN_DIR;
}

// The whole file, or "" if it cannot be read.
inline std::string slurp(const std::string &path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Runs `<bin_dir>/<program> <args>` through the shell (args may hold quotes and redirections of
// stdin, not of stdout or stderr).
// `wrapper` goes in front of the binary (e.g. "timeout 20 ").
inline CliRun run_program(const std::string &program, const std::string &args,
                          const std::string &wrapper = "") {
  char err_path[] = "/tmp/cbi_test_err_XXXXXX";
  const int fd = mkstemp(err_path);
  if (fd >= 0)
    close(fd);
  const std::string cmd = wrapper + bin_dir() + "/" + program + " " + args + " 2>" + err_path;
  FILE *p = popen(cmd.c_str(), "r");
  CliRun r;
  if (!p)
    return r;
  std::array<char, 4096> buf{};
  std::size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0)
    r.out.append(buf.data(), n);
  const int status = pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.err = slurp(err_path);
  std::remove(err_path);
  return r;
}

inline CliRun cbi_run(const std::string &args) { return run_program("cbi", args); }

// Lines in a program's output: a one-line error is exactly 1.
inline int count_lines(const std::string &s) {
  int n = 0;
  for (char c : s)
    n += c == '\n';
  return n;
}

// `cbi <args>` exits 2 with one line on stderr that holds `what` (the option it names, the values
// it allows).
inline void expect_usage_error(const std::string &args, const std::string &what) {
  const CliRun r = cbi_run(args);
  EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
  EXPECT_EQ(count_lines(r.err), 1) << args << "\n" << r.err;
  EXPECT_NE(r.err.find(what), std::string::npos) << args << "\n" << r.err;
}

// A fresh, empty folder for one test's files: <tmp>/<prefix>_<name>_<pid>.
inline std::string scratch_dir(const std::string &prefix, const std::string &name) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    (prefix + "_" + name + "_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

} // namespace cbi::test
