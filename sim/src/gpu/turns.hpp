// The parallel replay's turn counter (engine.hpp's run_parallel): threads take turns in a fixed
// order, each waiting until the count reaches its turn. A waiter spins for a few microseconds
// (the turn usually comes that soon on an idle host), then sleeps on a condition variable, so that
// on a loaded host, where the thread it waits for may not be running, it gives its core away
// instead of spinning (the spin-then-yield-then-20-us-sleep loop before made --jobs 2 slower than
// --jobs 1 in six of eight pairs: docs/results/gpu-model-speed.md).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace cbi::sim::gpu {

class Turns {
public:
  // Pauses of a waiter before it sleeps: about 10-40 microseconds on current x86 hosts.
  static constexpr int kSpins = 2000;

  // Waits until the count is `turn`; false if stop() came first.
  bool wait(int64_t turn) {
    for (int spins = 0; spins < kSpins; ++spins) {
      if (m_count.load(std::memory_order_acquire) == turn)
        return true;
      if (m_stop.load(std::memory_order_acquire))
        return false;
      relax();
    }
    std::unique_lock<std::mutex> lock(m_mutex);
    m_sleepers.fetch_add(1, std::memory_order_seq_cst);
    // Checked after announcing the sleep: pass() either sees the sleeper or its count is seen.
    while (m_count.load(std::memory_order_seq_cst) != turn &&
           !m_stop.load(std::memory_order_seq_cst))
      m_wake.wait(lock);
    m_sleepers.fetch_sub(1, std::memory_order_relaxed);
    return m_count.load(std::memory_order_acquire) == turn;
  }

  // The count becomes `turn` (the next thread's turn may come).
  void pass(int64_t turn) {
    m_count.store(turn, std::memory_order_seq_cst);
    if (m_sleepers.load(std::memory_order_seq_cst) > 0)
      wake_all();
  }

  // Every waiter, now and later, returns false (the replay ended or failed).
  void stop() {
    m_stop.store(true, std::memory_order_seq_cst);
    wake_all();
  }

private:
  static void relax() {
#if defined(__SSE2__)
    _mm_pause();
#endif
  }

  void wake_all() {
    { // a sleeper between its check and its wait holds the lock: it is woken once it waits
      std::lock_guard<std::mutex> hold(m_mutex);
    }
    m_wake.notify_all();
  }

  alignas(64) std::atomic<int64_t> m_count{0};
  std::atomic<bool> m_stop{false};
  std::atomic<int> m_sleepers{0};
  alignas(64) std::mutex m_mutex;
  std::condition_variable m_wake;
};

} // namespace cbi::sim::gpu
