// The one error type that reaches the CLI boundary, where it becomes one line and exit code 2.
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

} // namespace cbi
