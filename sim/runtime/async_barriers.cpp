// Asynchronous barriers (device_abi.hpp: cuda::barrier<thread_scope_block>, cuda::pipeline's
// stages, multi-warp tiles' sync). Arrivals only count; a lane that waits for a phase that has not
// completed parks: it is neither ready nor in a call, so every other lane of the block runs first.
// When nothing else can run, parked lanes whose phase completed become ready again (wake_parked,
// from pick_next_slow); when none did and nothing else can complete, the block is deadlocked and
// the stop message names the barrier call, its counts and the line (describe_async_deadlock).
// A barrier in __shared__ memory belongs to one block, and a block runs on one OS thread: no
// arrival races with another.
#include <bit>
#include <string>

#include "block_runner.hpp"
#include "memory_checker.hpp"

namespace warpsim::device {

void async_barrier_init(AsyncBarrier& barrier, std::int64_t expected, const char* what,
                        CallSite site) {
  runtime::runner_or_abort(what).async_barrier_init(barrier, expected, what, site);
}

std::uint32_t async_barrier_arrive(AsyncBarrier& barrier, std::int64_t update, bool drop,
                                   const char* what, CallSite site) {
  return runtime::runner_or_abort(what).async_barrier_arrive(barrier, update, drop, what, site);
}

void async_barrier_wait(const AsyncBarrier& barrier, std::uint32_t phase, bool parity,
                        const char* what, CallSite site) {
  runtime::runner_or_abort(what).async_barrier_wait(barrier, phase, parity, what, site);
}

void group_sync(std::uint32_t first_thread, std::uint32_t count, const char* what, CallSite site) {
  runtime::runner_or_abort(what).group_sync(first_thread, count, what, site);
}

}  // namespace warpsim::device

namespace warpsim::runtime {

namespace {

// The most arrivals a phase may expect: CUDA's barrier<thread_scope_block>::max().
constexpr std::int64_t kMaxExpected = (std::int64_t{1} << 20) - 1;

}  // namespace

void BlockRunner::stop_async_misuse(const char* what, device::CallSite site,
                                    const std::string& why) {
  Lane& l = *running_;
  if (site.file != l.where_file) note_site(l, site);
  l.where.line = site.line;
  stop_running_lane(LaunchStatus::kernel_exception,
                    site_text(l.where) + ": " + what + ": " + why);
}

void BlockRunner::async_barrier_init(device::AsyncBarrier& barrier, std::int64_t expected,
                                     const char* what, device::CallSite site) {
  if (expected < 0 || expected > kMaxExpected) {
    stop_async_misuse(what, site,
                      "the expected count " + std::to_string(expected) +
                          " is not in 0 .. " + std::to_string(kMaxExpected) +
                          " (the GPU's behaviour is undefined)");
  }
  barrier = {device::kAsyncBarrierReady, static_cast<std::uint32_t>(expected),
             static_cast<std::uint32_t>(expected), 0, 0};
  checked_arrivals_.erase(&barrier);
}

std::uint32_t BlockRunner::async_barrier_arrive(device::AsyncBarrier& barrier, std::int64_t update,
                                                bool drop, const char* what,
                                                device::CallSite site) {
  if (barrier.ready != device::kAsyncBarrierReady) {
    stop_async_misuse(what, site,
                      "the barrier was not initialised (init(&bar, count) by one thread, then a "
                      "__syncthreads, before any thread arrives)");
  }
  if (update <= 0 || update > static_cast<std::int64_t>(barrier.pending)) {
    stop_async_misuse(what, site,
                      std::to_string(update) + (update == 1 ? " arrival" : " arrivals") +
                          " where the current phase awaits " + std::to_string(barrier.pending) +
                          " of " + std::to_string(barrier.expected) +
                          " (more threads arrive than the barrier expects; the GPU's behaviour "
                          "is undefined)");
  }
  const std::uint32_t phase = barrier.phase;
  if (checker_ != nullptr) [[unlikely]] {
    checked_arrivals_[&barrier].emplace_back(running_->thread,
                                             checker_->barrier_arrival(running_->thread));
  }
  if (drop) ++barrier.dropped;
  barrier.pending -= static_cast<std::uint32_t>(update);
  if (barrier.pending == 0) {
    if (checker_ != nullptr) [[unlikely]] {
      // The checks' clocks order a whole block at once: a phase that some live thread of the
      // block did not arrive in would order accesses it does not order.
      std::vector<std::pair<std::uint32_t, std::uint32_t>>& arrived = checked_arrivals_[&barrier];
      std::uint64_t live = 0;
      for (const Warp& w : warps_) {
        live += static_cast<std::uint64_t>(std::popcount(w.threads & ~w.exited));
      }
      if (arrived.size() < live) {
        stop_async_misuse(what, site,
                          "a phase completed with " + std::to_string(arrived.size()) +
                              " of the block's " + std::to_string(live) +
                              " live threads arriving; the memory checks (--check) simulate "
                              "asynchronous barriers only when every thread of the block takes "
                              "part; run without --check");
      }
      checker_->barrier_phase(arrived);
      arrived.clear();
    }
    barrier.expected -= barrier.dropped;
    barrier.dropped = 0;
    barrier.pending = barrier.expected;
    ++barrier.phase;
  }
  return phase;
}

void BlockRunner::async_barrier_wait(const device::AsyncBarrier& barrier, std::uint32_t phase,
                                     bool parity, const char* what, device::CallSite site) {
  if (barrier.ready != device::kAsyncBarrierReady) {
    stop_async_misuse(what, site, "the barrier was not initialised");
  }
  if (device::async_barrier_passed(barrier, phase, parity)) return;
  Lane& l = *running_;
  if (site.file != l.where_file) note_site(l, site);
  l.where.line = site.line;
  Warp& w = *l.warp_state;
  const int i = static_cast<int>(l.lane);
  w.awaits[static_cast<std::size_t>(i)] = {&barrier, phase, parity, what, l.where};
  w.parked |= lane_bit(i);
  switch_to(pick_next());  // back once wake_parked found the phase complete
}

void BlockRunner::group_sync(std::uint32_t first_thread, std::uint32_t count, const char* what,
                             device::CallSite site) {
  const std::uint64_t key = std::uint64_t{first_thread} << 32 | count;
  auto [it, fresh] = group_barriers_.try_emplace(key);
  if (fresh) async_barrier_init(it->second, count, what, site);
  const std::uint32_t phase = async_barrier_arrive(it->second, 1, false, what, site);
  async_barrier_wait(it->second, phase, false, what, site);
}

bool BlockRunner::wake_parked() {
  bool any = false;
  for (Warp& w : warps_) {
    for (LaneMask m = w.parked; m != 0; m &= m - 1) {
      const int i = std::countr_zero(m);
      const Warp::Await& a = w.awaits[static_cast<std::size_t>(i)];
      if (!device::async_barrier_passed(*a.barrier, a.phase, a.parity)) continue;
      w.parked &= ~lane_bit(i);
      w.ready |= lane_bit(i);
      if (!any) current_warp_ = w.index;
      any = true;
    }
  }
  return any;
}

bool BlockRunner::describe_async_deadlock() {
  const Warp* first = nullptr;
  for (const Warp& w : warps_) {
    if (w.parked != 0) {
      first = &w;
      break;
    }
  }
  if (first == nullptr) return false;
  const Warp::Await& a = first->awaits[static_cast<std::size_t>(std::countr_zero(first->parked))];
  // Every lane that waits for the same barrier at the same line, over all warps.
  std::uint64_t waiting = 0, elsewhere = 0, exited = 0;
  std::string lanes;
  for (const Warp& w : warps_) {
    LaneMask same = 0;
    for (LaneMask m = w.parked; m != 0; m &= m - 1) {
      const int i = std::countr_zero(m);
      const Warp::Await& b = w.awaits[static_cast<std::size_t>(i)];
      if (b.barrier == a.barrier && b.where == a.where) same |= lane_bit(i);
    }
    waiting += static_cast<std::uint64_t>(std::popcount(same));
    elsewhere += static_cast<std::uint64_t>(std::popcount(w.threads & ~w.exited & ~same));
    exited += static_cast<std::uint64_t>(std::popcount(w.threads & w.exited));
    if (same != 0) {
      if (!lanes.empty()) lanes += ", ";
      lanes += lanes_text(same) + " of warp " + std::to_string(w.index);
    }
  }
  const device::AsyncBarrier& b = *a.barrier;
  std::string text = lanes + " wait in " + a.what + " at " + site_text(a.where) +
                     " for a phase of the barrier that cannot complete: it awaits " +
                     std::to_string(b.pending) + " more of its " + std::to_string(b.expected) +
                     " arrivals (" + std::to_string(b.phase) + " phases completed so far), and " +
                     std::to_string(waiting) + (waiting == 1 ? " thread waits" : " threads wait") +
                     " here, " + std::to_string(elsewhere) + " elsewhere, " +
                     std::to_string(exited) + (exited == 1 ? " has" : " have") +
                     " exited; no thread can arrive any more";
  abort_launch(LaunchStatus::deadlock, deadlock_stop_message(block_linear_, text));
  return true;
}

}  // namespace warpsim::runtime
