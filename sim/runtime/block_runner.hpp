// Runs one thread block: every thread is a fiber; lanes run natively until a warp-level call, a
// block barrier or their end. The lane that finds its warp quiescent (no lane left to run)
// completes whatever calls can complete, records the steps and switches straight to the next
// lane: no round trip through a scheduler context. Operands go straight into per-warp arrays
// (StepInputs), so completing a step gathers nothing.
//
// block_runner.cpp holds the per-lane path, scheduling and the completion of calls and barriers
// (whose arithmetic is warpsim/sync.hpp); block_diagnostics.cpp finds misuse in completed steps
// and records it (worded by warpsim/diagnostic_text.hpp).
#pragma once

#include <bit>
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "call_context.hpp"
#include "diagnostic_recorder.hpp"
#include "fiber.hpp"
#include "stack_pool.hpp"
#include "warpsim/device_abi.hpp"
#include "warpsim/diagnostic_text.hpp"
#include "warpsim/launch.hpp"
#include "warpsim/sync.hpp"

namespace warpsim::runtime {

struct Warp;
class MemoryChecker;
class BlockRunner;
class GridBarrier;

// The block runner running on this thread (initial-exec: read without a __tls_get_addr call,
// as the memory checks' callbacks do on every access).
extern __thread BlockRunner* tl_runner __attribute__((tls_model("initial-exec")));

struct Lane {
  fiber::Context context = nullptr;  // where the lane resumes
  Warp* warp_state = nullptr;
  device::LaneEnv env{};
  std::uint32_t thread = 0;      // linear index within the block
  std::uint32_t warp = 0;
  std::uint32_t lane = 0;
  bool started = false;          // has a stack frame to unwind if the launch is torn down
  SourceLine where{};            // the lane's latest call site
  const char* where_file = "";   // ... as the kernel spelled it (cache key for `where.file`)
  fiber::Stack stack{};  // none until the lane first needs a fiber of its own (prepare_lane)
  // How far below its top the stack's fibers start (prepare_lane): a property of the stack, so
  // it moves with the stack when a lane hands it on (lane_entry).
  std::size_t stack_colour = 0;
  std::uint32_t grid_syncs = 0;  // grid barriers this lane has passed in its block
};

// A lane's state is the mask it sits in: ready, at_op, at_barrier, exited, or none (running).
struct Warp {
  std::uint32_t index = 0;
  LaneMask exited = 0;   // exited lanes, and lanes beyond the block's last thread
  LaneMask ready = 0;    // may run now
  LaneMask at_op = 0;    // waiting in a warp-level call
  LaneMask at_barrier = 0;
  LaneMask threads = 0;  // lanes that are threads of the block (all 32 but in a partial warp)
  LaneMask yielded = 0;  // spun for a whole slice and gave way (forward_progress.cpp)
  LaneMask parked = 0;   // waits for an asynchronous barrier's phase (async_barriers.cpp)
  std::uint32_t sequence = 0;
  // When the warp arrived at a barrier (every live lane waiting in one): the order in which a
  // counted named barrier takes warps. 0: not arrived.
  std::uint64_t barrier_arrival = 0;
  // The warp's state when its spinning lanes last ran: if a lane of the warp has settled since
  // (arrived at a call or barrier, exited, completed a step), they rejoin the warp at once.
  struct Settled {
    LaneMask at_op = 0, at_barrier = 0, exited = 0;
    std::uint32_t sequence = 0;
    bool operator==(const Settled&) const = default;
  } settled_when_spun{};
  std::array<SourceLine, kWarpSize> spin_where{};  // the loop each lane last spun in (line 0: none)
  std::array<const char*, kWarpSize> spin_file{};  // ... its file as the kernel spelled it
  // What each parked lane waits for.
  struct Await {
    const device::AsyncBarrier* barrier = nullptr;
    std::uint32_t phase = 0;
    bool parity = false;
    const char* what = "";
    SourceLine where{};
  };
  std::array<Await, kWarpSize> awaits{};

  // The call each waiting lane is in. An exited lane keeps its last call's op and site (line 0:
  // it made none in this block).
  StepInputs pending{};
  std::array<Op, kWarpSize> op{};
  std::array<ValueType, kWarpSize> type{};
  std::array<SourceLine, kWarpSize> where{};
  // Results, read by each lane when it resumes.
  std::array<std::uint64_t, kWarpSize> result{};
  LaneMask pred = 0;
  Lane* lanes = nullptr;  // this warp's 32 lanes

  // What each lane's last plain __activemask() returned, and where; `activemask_fresh`: lanes
  // whose last warp-level call it was (block_diagnostics.cpp, activemask_as_mask).
  LaneMask activemask_fresh = 0;
  std::array<LaneMask, kWarpSize> activemask_value{};
  std::array<SourceLine, kWarpSize> activemask_where{};
};

struct BlockOutcome {
  LaunchStatus status = LaunchStatus::completed;
  std::string message;
  // time_limit: the stop as a diagnostic of the block (the looping lanes and their line where
  // any loop, else the block alone), in the runner's trace's files.
  std::optional<Diagnostic> stop;
};

LanePosition position_snapshot() noexcept;

// The running launch's block runner; aborts with a message naming `what` outside a launch.
BlockRunner& runner_or_abort(const char* what);

class BlockRunner {
 public:
  // `stacks`: where the lanes' stacks come from (nullptr: this OS thread's pool).
  BlockRunner(const LaunchOptions& options, const std::function<void()>& thread_body, Trace& trace,
              std::uint64_t& steps, StackPool* stacks = nullptr);
  BlockRunner(const BlockRunner&) = delete;
  BlockRunner& operator=(const BlockRunner&) = delete;
  ~BlockRunner();

  BlockOutcome run(std::uint64_t block_linear, Dim3 block_idx);

  // Called from the running lane (through device_abi).
  // The lane's side of a warp-level call (device::warp_op): static, reading the thread's
  // runner itself, so that its uncommon cases leave by a tail call to warp_op_slow.
  static std::uint64_t warp_op(device::WarpCall call, std::uint64_t value, device::CallSite site,
                               bool* pred);
  int block_barrier(Op op, int predicate, device::CallSite site);
  void named_barrier(std::uint32_t id, std::uint32_t count, bool counted, device::CallSite site);
  void lane_printf(std::string text);
  // cooperative_groups' grid barrier, between its two __syncthreads: the block's first lane to
  // call it waits until every block of the grid has (resident_grid.hpp); the others pass.
  void grid_barrier(device::CallSite site);
  // Asynchronous barriers (async_barriers.cpp; device_abi.hpp states them).
  void async_barrier_init(device::AsyncBarrier& barrier, std::int64_t expected, const char* what,
                          device::CallSite site);
  std::uint32_t async_barrier_arrive(device::AsyncBarrier& barrier, std::int64_t update, bool drop,
                                     const char* what, device::CallSite site);
  void async_barrier_wait(const device::AsyncBarrier& barrier, std::uint32_t phase, bool parity,
                          const char* what, device::CallSite site);
  void group_sync(std::uint32_t first_thread, std::uint32_t count, const char* what,
                  device::CallSite site);
  // The running lane has spent its slice of ticks (device::spin_tick): it yields.
  void spin_preempt(device::CallSite site);

  static BlockRunner* current() { return tl_runner; }
  const LaunchOptions& options() const { return options_; }
  const Lane* running_lane() const { return running_; }
  // Called from the running lane: the launch stops with `status` and this lane never runs again
  // (its stack is dropped, not unwound: it stands before an access that must not happen).
  [[noreturn]] void stop_running_lane(LaunchStatus status, std::string message);
  // Called from the running lane: the launch stops with `status` and the lane switches away; the
  // launch then unwinds it (LaneUnwind), so that what its frames hold is destroyed.
  void stop_launch(LaunchStatus status, std::string message);
  // For crash and time-limit reports (async-signal-safe): steps so far and the spinning lanes.
  void spin_snapshot(LanePosition& position) const noexcept;
  // The ticks the block may spin with no progress before it counts as a livelock.
  std::uint64_t spin_limit_of_block() const noexcept;
  // The launch's memory checks, told of every __syncthreads and __syncwarp (nullptr: none).
  void set_checker(MemoryChecker* checker) { checker_ = checker; }
  // Findings go to `found` as they are made instead of into the trace (nullptr: the trace), for
  // a launch whose blocks run on several threads (block_pool.cpp).
  void log_findings(std::vector<FoundDiagnostic>* found) { found_ = found; }
  // The grid barrier of a launch whose blocks are all resident (nullptr: grid barriers across
  // blocks stop the launch).
  void set_grid_barrier(GridBarrier* grid) { grid_ = grid; }
  // Whether every lane's stack is as it was given (slab stacks have no guard page to fault).
  bool stacks_intact() const;

 private:
  static void lane_entry(void* lane);
  void lane_main(Lane& lane);
  // The lane to run next: the current warp's next ready lane (inline: after every lane's end),
  // else whatever pick_next_slow finds (another warp, a completed call or barrier, spinners).
  Lane* pick_next() {
    Warp& w = warps_[current_warp_];
    if (w.ready != 0 && !aborted_) [[likely]] {
      const int lane = choose_lane(w.ready);
      w.ready &= ~lane_bit(lane);
      return &lane_of(w, lane);
    }
    return pick_next_slow();
  }
  [[gnu::noinline]] Lane* pick_next_slow();
  void switch_to(Lane* next);           // any context to any other, the launching one included
  void hand_over(Lane& self, Lane& next);  // the per-lane path: one lane to the next
  static std::uint64_t call_result(bool* pred);  // the lane's result once it runs again
  [[gnu::noinline]] static std::uint64_t warp_op_slow(device::WarpCall call, std::uint64_t value,
                                                      device::CallSite site, bool* pred);
  std::uint64_t warp_op_general(device::WarpCall call, std::uint64_t value, device::CallSite site,
                                bool* pred);
  static void file_operands(Lane& lane, Warp& warp, device::WarpCall call, std::uint64_t value,
                     std::uint32_t line);
  [[noreturn]] void leave_for_good(Lane& self, Lane* next);
  void prepare_lane(Lane& lane);  // its fiber, on its stack (taken now if it has none), to start at lane_entry
  void set_running(Lane* lane);
  void note_site(Lane& lane, device::CallSite site);
  bool recall_file(Lane& lane, const char* file);  // from recent_files_, when there
  void unwind_suspended_lanes();

  bool choose_warp();  // with an order seed: the next warp to run
  // Forward progress (forward_progress.cpp): spinning lanes run again, within their warp once a
  // lane of it settled, or all of them once nothing else can run.
  bool rejoin_spinners(Warp& warp);
  bool rejoin_all_spinners();
  void stop_livelock();
  // Parked lanes whose barrier phase completed become ready (async_barriers.cpp).
  bool wake_parked();
  // Lanes are parked and nothing can run: the launch stops naming the barrier they wait at.
  bool describe_async_deadlock();
  [[noreturn]] void stop_async_misuse(const char* what, device::CallSite site, const std::string& why);
  bool resolve_warp(Warp& warp);
  bool resolve_barrier();
  // resolve_barrier's parts: whether `w` has arrived (stamping it if so); the lanes a block-wide
  // barrier 0 (__syncthreads and its forms) sees; releasing warps of a named barrier.
  bool warp_arrived(Warp& w);
  bool barriers_agree();
  bool resolve_block_barrier();
  bool resolve_named_barriers();
  void release_named(Warp& w);
  // A warp leaves the barrier it waits at: its step of `op` (per_lane(i, step) gives lane i's
  // result and adds what else the step holds), recorded when steps are, and counted.
  template <class PerLane>
  void leave_barrier(Warp& w, Op op, SourceLine where, PerLane per_lane);
  BarrierWait barrier_wait(const Warp& w, LaneMask lanes) const;  // for barrier messages
  bool resolve_stuck();
  void complete_group(Warp& warp, LaneMask group, bool masks_disagree);
  void abort_launch(LaunchStatus status, std::string message);
  void count_step(const Warp& warp, SourceLine where) {
    if (++steps_ > step_check_at_) [[unlikely]] check_step_limits(warp, where);
  }
  // Every kStepsBetweenClockReads steps, and at the step budget: the budget and the deadline.
  [[gnu::noinline]] void check_step_limits(const Warp& warp, SourceLine where);
  static constexpr std::uint64_t kStepsBetweenClockReads = 1u << 16;
  bool past_deadline() const {
    return options_.deadline != std::chrono::steady_clock::time_point::max() &&
           std::chrono::steady_clock::now() >= options_.deadline;
  }
  void stop_at_time_limit();  // forward_progress.cpp
  // The lanes that spun since the block last progressed, by warp and loop.
  std::vector<LivelockSpinner> spinners() const;

  // Misuse (block_diagnostics.cpp).
  void record_step_diagnostics(Warp& warp, const StepLog::Source& step, std::int64_t step_index,
                               bool masks_disagree);
  void check_exited_later(const Warp& warp, const StepLog::Source& step, std::int64_t step_index,
                          LaneMask absent);
  void note_activemask(Warp& warp, LaneMask group);
  void check_activemask_masks(Warp& warp, const StepLog::Source& step, std::int64_t step_index);
  // Lanes of `group` whose operand of `op` holds options_.never_set_fill's pattern (none when
  // that is 0 or `op` takes no value).
  LaneMask never_set_lanes(Op op, ValueType type, const std::uint64_t* values, LaneMask group) const;
  void check_never_set(const StepLog::Source& step, LaneMask never_set, const Warp& warp,
                       std::int64_t step_index);
  void record_barrier_diagnostics(const Warp& first_warp, int first_lane,
                                  const sync::BarrierTally& tally, std::int64_t step_index);
  // Where every lane of the block waits, into the trace (Trace::waits).
  void record_waits();
  void describe_deadlock();
  // Records `facts` at `where`; the same kind at the same line again widens the first record.
  void diagnose(const DiagnosticFacts& facts, SourceLine where, const Warp& warp,
                std::int64_t step);
  CallContext call_context_at(SourceLine where, Op op);

  std::uint32_t intern_file(const char* file);
  int choose_lane(LaneMask ready) {
    return maximal_ ? std::countr_zero(ready) : choose_lane_at_random(ready);
  }
  int choose_lane_at_random(LaneMask ready);
  LaneMask same_call_lanes(const Warp& warp, int lane) const;
  [[gnu::noinline]] void wait_in_call(Warp& warp, Op op, LaneMask me);
  std::string site_text(SourceLine where) const;
  Lane& lane_of(const Warp& warp, int lane) {
    return lanes_[std::size_t{warp.index} * kWarpSize + static_cast<std::size_t>(lane)];
  }

  const LaunchOptions& options_;
  const std::function<void()>& thread_body_;
  Trace& trace_;
  std::uint64_t& steps_;
  StackPool& stacks_;
  const bool maximal_;  // options_.policy == maximal, read on the per-lane path

  std::vector<Lane> lanes_;  // warps * 32; lanes beyond the block's threads stay exited
  std::vector<Warp> warps_;
  std::uint32_t threads_ = 0;
  std::uint32_t current_warp_ = 0;
  std::uint64_t block_linear_ = 0;

  fiber::Context main_context_ = nullptr;
  Lane* running_ = nullptr;  // nullptr: the launching (main) context
  bool aborted_ = false;
  // Ticks spun since the block last made progress (a step, a barrier, a lane's exit), and the
  // step and exit counts that progress is measured against.
  std::uint64_t spun_ticks_ = 0;
  std::uint64_t spun_since_steps_ = 0;
  std::uint64_t step_check_at_ = 0;  // count_step looks at the limits past this many steps
  std::uint64_t exits_ = 0;
  bool spun_in_block_ = false;  // a lane spun a whole slice in this block (spin_preempt)
  std::uint64_t barrier_arrivals_ = 0;  // warps stamped with Warp::barrier_arrival so far
  std::array<std::uint32_t, device::kNamedBarriers> barrier_completions_{};  // per barrier id
  std::uint64_t spun_since_exits_ = 0;
  bool unwinding_ = false;
  BlockOutcome outcome_;
  std::mt19937_64 rng_;
  const bool order_seeded_;          // options_.order_seed != 0
  std::mt19937_64 order_rng_;        // which warp runs next, when order_seeded_
  std::vector<std::uint32_t> runnable_;  // choose_warp's candidates (kept to reuse its memory)
  StepOutputs out_{};
  TraceStep unrecorded_step_{};  // leave_barrier's scratch when no steps are recorded
  MemoryChecker* checker_ = nullptr;
  GridBarrier* grid_ = nullptr;
  std::uint32_t grid_syncs_ = 0;  // grid barriers the block has passed
  std::uint64_t grid_progress_seen_ = 0;  // GridBarrier::progress() at the last spin limit
  // Barriers of multi-warp groups (group_sync), by first thread and count; new each block.
  std::unordered_map<std::uint64_t, device::AsyncBarrier> group_barriers_;
  // With memory checks: each barrier's arrivals in its current phase, as (thread, its clock).
  std::unordered_map<const device::AsyncBarrier*, std::vector<std::pair<std::uint32_t, std::uint32_t>>>
      checked_arrivals_;

  DiagnosticRecorder diagnostics_;  // into trace_
  std::vector<FoundDiagnostic>* found_ = nullptr;  // instead, when set (log_findings)
  std::vector<sync::WarpAtBarrier> barrier_view_;  // resolve_barrier's view of the warps
  std::vector<Warp*> named_arrivals_;  // resolve_named_barriers' warps at one barrier (reused)
  CallContexts call_contexts_;                     // source text around calls, by file
  std::unordered_map<std::uint64_t, CallContext> call_context_at_;  // (op, file, line) -> context
  std::unordered_map<const char*, std::uint32_t> file_ids_;  // call sites' file names -> Trace::files
  struct RecentFile {
    const char* name = nullptr;
    std::uint32_t id = 0;
  };
  std::array<RecentFile, 4> recent_files_{};  // the last names interned, for the per-lane path
};

}  // namespace warpsim::runtime
