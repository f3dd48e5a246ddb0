#include "cbi/cli/progress.hpp"

#include "cbi/cli/command.hpp"
#include "cbi/cli/output.hpp"

#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>
#include <unistd.h>
#include <utility>

namespace cbi::cli {

namespace {

// 490000000000 as "490,000,000,000".
std::string with_commas(int64_t n) {
  std::string digits = std::to_string(n);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3)
    digits.insert(static_cast<std::size_t>(i), ",");
  return digits;
}

} // namespace

ProgressBar::ProgressBar(int64_t total, bool enabled, double total_work, std::string unit,
                         int64_t done_at_start)
    : m_total(total), m_done_at_start(done_at_start), m_total_work(total_work),
      m_enabled(enabled && total > 0), m_tty(isatty(2)), m_start(std::chrono::steady_clock::now()),
      m_unit(std::move(unit)) {}

void ProgressBar::update(int64_t done, const std::string &label, double done_work) {
  if (!m_enabled)
    return;
  const auto now = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(now - m_start).count();
  // Remaining time at the rate so far: per unit of work where the items differ in cost. Before
  // any item is done since the start there is no rate: the ETA is "?", not 0s.
  const bool by_work = m_total_work > 0 && done_work > 0;
  const int64_t counted = done - m_done_at_start;
  const std::string eta =
      by_work           ? format_duration(elapsed / done_work * (m_total_work - done_work))
      : done >= m_total ? format_duration(0)
      : counted > 0     ? format_duration(elapsed / double(counted) * double(m_total - done))
                        : "?";
  const int tenth = static_cast<int>(10 * done / m_total);
  const bool first_eta = !m_eta_said && eta != "?" && now - m_start >= first_eta_after;
  if (!m_tty && tenth == m_last_tenth && done != m_total && now - m_last_line < quiet_max &&
      !first_eta)
    return;
  m_eta_said = m_eta_said || eta != "?";
  m_last_tenth = tenth;
  m_last_line = now;
  say_notices(); // a run that shows progress has been accepted: its notices come first
  constexpr int kWidth = 30;
  // A count past the total (one that grew without set_total) fills the bar, no more.
  const int filled = static_cast<int>(std::clamp<int64_t>(kWidth * done / m_total, 0, kWidth));
  std::ostringstream os;
  os << "  [" << std::string(filled, '#') << std::string(kWidth - filled, '.') << "] " << done
     << "/" << m_total << " " << m_unit << ", " << format_duration(elapsed) << " elapsed, ETA "
     << eta << "  " << label;
  std::string line = os.str();
  if (m_tty) {
    if (line.size() < m_last_len)
      line += std::string(m_last_len - line.size(), ' ');
    m_last_len = os.str().size();
    std::cerr << "\r" << line << (done == m_total ? "\n" : "") << std::flush;
  } else {
    std::cerr << line << "\n" << std::flush;
  }
}

std::string format_duration(double s) {
  const int64_t t = static_cast<int64_t>(s + 0.5);
  std::ostringstream os;
  if (t >= 3600)
    os << t / 3600 << "h" << std::setw(2) << std::setfill('0') << (t / 60) % 60 << "m";
  else if (t >= 60)
    os << t / 60 << "m" << std::setw(2) << std::setfill('0') << t % 60 << "s";
  else
    os << t << "s";
  return os.str();
}

std::function<void(int64_t, int64_t)> thread_counter(const std::string &unit) {
  auto bar = std::make_shared<std::unique_ptr<ProgressBar>>(); // made at the first report
  return [bar, unit](int64_t done, int64_t total) {
    if (!*bar)
      *bar = std::make_unique<ProgressBar>(total, true, 0, unit, done);
    (*bar)->update(done, "");
  };
}

bool long_run(double accesses) { return accesses > double(int64_t{1} << 30); }

// A rough duration for an estimate: "16m20s", "2h43m", "46 days", "63 years".
std::string rough_duration(double seconds) {
  const double day = 86400;
  if (seconds < 2 * day)
    return format_duration(seconds);
  if (seconds < 730 * day)
    return std::to_string(static_cast<int64_t>(seconds / day + 0.5)) + " days";
  return std::to_string(static_cast<int64_t>(seconds / (365 * day) + 0.5)) + " years";
}

void announce_long_run(const std::string &who, double accesses, const std::string &shorter,
                       double slow_rate, double fast_rate) {
  if (!long_run(accesses))
    return;
  std::ostringstream rates;
  rates << fast_rate / 1e6 << " to " << slow_rate / 1e6;
  const std::string text = with_commas(static_cast<int64_t>(accesses)) +
                           " accesses to replay: about " + rough_duration(accesses / fast_rate) +
                           " to " + rough_duration(accesses / slow_rate) + " at " + rates.str() +
                           " million a second, as the machine and its load allow; the "
                           "progress line below gives an ETA within seconds; " +
                           shorter + " runs shorter";
  hold_notice(wrap_text(who + ": ", text, 2));
  say_notices(); // the command has been accepted: said now, before a first report that may be late
}
} // namespace cbi::cli
