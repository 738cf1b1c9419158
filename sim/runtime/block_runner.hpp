// Runs one thread block: every thread is a fiber; lanes run natively until a warp-level call, a
// block barrier or their end. The lane that finds its warp quiescent (no lane left to run)
// completes whatever calls can complete, records the steps and switches straight to the next
// lane: no round trip through a scheduler context.
#pragma once

#include <boost/context/fiber.hpp>

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "stack_pool.hpp"
#include "warpsim/device_abi.hpp"
#include "warpsim/launch.hpp"

namespace warpsim::runtime {

enum class LaneState : std::uint8_t { ready, running, at_warp_op, at_barrier, exited };

struct Lane {
  boost::context::fiber context;
  device::LaneEnv env{};
  std::uint32_t thread = 0;  // linear index within the block
  std::uint32_t warp = 0;
  std::uint32_t lane = 0;
  LaneState state = LaneState::exited;
  // The call this lane waits in.
  Op op{};
  ValueType type = ValueType::none;
  LaneMask mask = 0;
  std::uint64_t value = 0;
  std::int32_t arg = 0;
  std::int32_t width = 0;
  SourceLine where{};
  const char* where_file = "";
  // Its result, written by whoever completes the call.
  std::uint64_t result = 0;
  bool pred = false;
};

struct Warp {
  std::uint32_t index = 0;
  LaneMask exited = 0;   // exited lanes, and lanes beyond the block's last thread
  LaneMask ready = 0;    // may run now
  LaneMask at_op = 0;    // waiting in a warp-level call
  LaneMask at_barrier = 0;
  std::uint32_t sequence = 0;
};

struct BlockOutcome {
  LaunchStatus status = LaunchStatus::completed;
  std::string message;
};

LanePosition position_snapshot() noexcept;

class BlockRunner {
 public:
  BlockRunner(const LaunchOptions& options, const std::function<void()>& thread_body, Trace& trace,
              std::uint64_t& steps);
  BlockRunner(const BlockRunner&) = delete;
  BlockRunner& operator=(const BlockRunner&) = delete;
  ~BlockRunner();

  BlockOutcome run(std::uint64_t block_linear, Dim3 block_idx);

  // Called from the running lane (through device_abi).
  std::uint64_t warp_op(Op op, ValueType type, LaneMask mask, std::uint64_t value,
                        std::int32_t arg, std::int32_t width, device::CallSite site, bool* pred);
  int block_barrier(Op op, int predicate, device::CallSite site);
  void lane_printf(std::string text);

  static BlockRunner* current();

 private:
  Lane* pick_next();
  void switch_to(Lane* next);
  void adopt(Lane* from, boost::context::fiber&& context);
  void set_running(Lane* lane);
  void lane_main(Lane& lane);
  void wait_here(Lane& lane);

  bool resolve_warp(Warp& warp);
  bool resolve_barrier();
  bool resolve_stuck();
  void complete_group(Warp& warp, LaneMask group, bool masks_disagree);
  void describe_deadlock();
  void abort_launch(LaunchStatus status, std::string message);
  void count_step(const Warp& warp, const Lane& lane);

  void record_step_diagnostics(const Warp& warp, const TraceStep& step, std::int64_t step_index);
  void diagnose(DiagnosticKind kind, std::string message, const Warp& warp, LaneMask lanes,
                SourceLine where, std::int64_t step);
  std::uint32_t intern_file(const char* file);
  int choose_lane(LaneMask ready);
  bool same_call(const Lane& a, const Lane& b) const;
  std::string site_text(const Lane& lane) const;

  const LaunchOptions& options_;
  const std::function<void()>& thread_body_;
  Trace& trace_;
  std::uint64_t& steps_;
  StackPool& stacks_;

  std::vector<Lane> lanes_;  // warps * 32; lanes beyond the block's threads stay exited
  std::vector<Warp> warps_;
  std::uint32_t threads_ = 0;
  std::uint32_t current_warp_ = 0;
  std::uint64_t block_linear_ = 0;

  boost::context::fiber main_context_;
  Lane* running_ = nullptr;   // nullptr: the launching (main) context
  Lane* switched_from_ = nullptr;
  bool aborted_ = false;
  BlockOutcome outcome_;
  std::mt19937_64 rng_;

  std::unordered_map<const char*, std::uint32_t> file_ids_;
  std::unordered_map<std::uint64_t, std::size_t> diagnostic_index_;  // (kind, file, line) -> index
};

}  // namespace warpsim::runtime
