// The errors that reach the CLI boundary (cbi::cli::run_command), where each becomes one line and
// one exit code: UsageError -> 2, NoDeviceError -> 3. Host only; sim, kernels and viz throw them,
// the CLI alone catches them.
#pragma once

#include <stdexcept>
#include <string>

namespace cbi {

// A value the user gave is not allowed. `option` names the flag ("--order"), `what()` says what is
// allowed, so the CLI can print "cbi: --order: unknown order 'foo'; allowed: linear, ...".
class UsageError : public std::runtime_error {
public:
  UsageError(std::string option, const std::string &message)
      : std::runtime_error(message), m_option(std::move(option)) {}
  const std::string &option() const { return m_option; }

private:
  std::string m_option;
};

// The work needs a CUDA device and there is none (no driver, no device, or a build without the
// kernels). `what()` is the whole line after "cbi <command>: ".
class NoDeviceError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

} // namespace cbi
