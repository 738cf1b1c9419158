// The boundary between kernel code (compiled against the CUDA shim) and the simulator runtime.
// Kernel code reaches the simulator only through these few functions; each lane runs on its own
// fiber and `current_env` always points at the running lane's coordinates.
#pragma once

#include <cstdarg>
#include <cstddef>
#include <cstdint>

#include "warpsim/semantics.hpp"
#include "warpsim/vector_types.hpp"

namespace warpsim::device {

struct LaneEnv {
  uint3 thread_idx, block_idx;
  dim3 block_dim, grid_dim;
};

// Bytes behind `extern __shared__` arrays (the symbol warpsim_dynamic_shared): the blocks an OS
// thread runs one after the other share one buffer of this size (block_pool.cpp gives each
// worker thread its own). H100 blocks may use up to 227 KiB.
inline constexpr std::size_t kDynamicSharedCapacity = 256 * 1024;

// initial-exec: kernel objects loaded with dlopen read this without a __tls_get_addr call.
// __thread rather than thread_local: it can have no dynamic initializer, so every read of
// threadIdx is one load, with no call to a TLS wrapper.
extern __thread const LaneEnv* current_env __attribute__((tls_model("initial-exec")));

// The device clock that clock64() and clock() read (device_clock.cpp): per OS thread, it counts
// up by kClockTicksPerRead a read. Deterministic: reads, not time.
inline constexpr std::int64_t kClockTicksPerRead = 4;
extern __thread std::int64_t clock_ticks __attribute__((tls_model("initial-exec")));

// Call site of an intrinsic, captured through a default argument at the kernel's call.
struct CallSite {
  const char* file;
  unsigned int line;
  static constexpr CallSite here(const char* file = __builtin_FILE(),
                                 unsigned int line = __builtin_LINE()) {
    return {file, line};
  }
};

// What a lane passes to a warp-level call besides its value. 16 bytes, so that with the value,
// the call site and `pred` the whole call travels in the six argument registers.
struct WarpCall {
  Op op{};
  ValueType type = ValueType::none;
  LaneMask mask = 0;        // the member mask; 0 for __activemask, which takes none
  std::int32_t arg = 0;    // shuffles: srcLane / delta / laneMask
  std::int32_t width = 0;  // shuffles: width
};

}  // namespace warpsim::device

// One lane's part of a warp-level call (device::warp_op below calls it). Blocks the lane until the
// call completes (or returns at once where the policy allows), then returns the lane's result
// bits. `pred` receives the shuffle in-range predicate or match_all's *pred when not null.
// A small assembly function (sim/runtime/warp_call_return.cpp) that returns to the kernel with an indirect
// jump, which the CPU predicts, where a `ret` would be mispredicted on every lane.
extern "C" std::uint64_t warpsim_warp_op(warpsim::device::WarpCall call, std::uint64_t value,
                                         warpsim::device::CallSite site, bool* pred);

namespace warpsim::device {

inline std::uint64_t warp_op(WarpCall call, std::uint64_t value, CallSite site,
                             bool* pred = nullptr) {
  return warpsim_warp_op(call, value, site, pred);
}

// WarpCall::arg of an __activemask() that cooperative groups' coalesced_threads() makes: the lanes
// it returns *are* the group, so passing them as a mask later is no guess about who will call
// (plain __activemask() results used as masks are diagnosed: activemask_as_mask).
inline constexpr std::int32_t kGroupActivemask = 1;

// __activemask() for coalesced_threads(): the same answer, marked as a group's.
inline unsigned group_activemask(CallSite site) {
  return static_cast<unsigned>(
      warp_op({Op::activemask, ValueType::none, 0, kGroupActivemask}, 0, site));
}

// __syncthreads and its _count/_and/_or forms; returns the reduction (1 for plain syncthreads).
int block_barrier(Op op, int predicate, CallSite site);

// cooperative_groups' grid_group::sync() across blocks, called by every thread between the two
// __syncthreads it is made of: returns once every block of the grid has arrived. Where the
// blocks are not all resident (a launch that is not cooperative, or runs them one at a time:
// sim/runtime/resident_grid.hpp), the launch stops with a message naming the line and why.
void grid_barrier(CallSite site);
// Whether the running launch is cooperative (grid_group::is_valid()).
bool cooperative_launch();

// A named barrier (bar.sync id{, count}): the thread waits until every non-exited lane of its
// warp is at a barrier and `count` threads, counted a whole warp at a time, have arrived at
// barrier `id` (`counted` false: every warp of the block with a live thread). Warps that do not
// take part run on. Misuse (id past 15, a count that is 0 or no multiple of 32, more threads than
// the block's warps hold) stops the launch with a message naming the line.
inline constexpr std::uint32_t kNamedBarriers = 16;
void named_barrier(std::uint32_t id, std::uint32_t count, bool counted, CallSite site);

// Asynchronous barriers: cuda::barrier<thread_scope_block> (and cuda::pipeline's stages, which
// are built on it) keep this state where the kernel keeps the barrier (__shared__ memory); the
// runtime counts arrivals and parks waiting lanes (sim/runtime/async_barriers.cpp). A phase
// completes when `pending` arrivals have been made; then `phase` counts up, arrive_and_drop's
// drops leave `expected`, and `pending` starts again at `expected`. A lane that waits lets every
// other lane run; when no lane can run and the phase it waits for cannot complete, the launch
// stops as a deadlock naming the barrier's call, counts and line.
struct AsyncBarrier {
  std::uint32_t ready;     // kAsyncBarrierReady once init() ran
  std::uint32_t expected;  // arrivals each phase
  std::uint32_t pending;   // arrivals the current phase still awaits
  std::uint32_t dropped;   // arrive_and_drop calls in the current phase
  std::uint32_t phase;     // phases completed
};
inline constexpr std::uint32_t kAsyncBarrierReady = 0x5ba77e75u;
// What a lane waits for: `phase` completed (token wait), or with `parity`, the current phase's
// parity no longer `phase & 1` (wait_parity).
inline bool async_barrier_passed(const AsyncBarrier& b, std::uint32_t phase, bool parity) {
  return parity ? (b.phase & 1u) != (phase & 1u) : b.phase != phase;
}
void async_barrier_init(AsyncBarrier& barrier, std::int64_t expected, const char* what,
                        CallSite site);
// `update` arrivals (arrive(n)); `drop`: arrive_and_drop. Returns the arrival's phase (its token).
std::uint32_t async_barrier_arrive(AsyncBarrier& barrier, std::int64_t update, bool drop,
                                   const char* what, CallSite site);
// Returns once async_barrier_passed(barrier, phase, parity); `what` names the call in reports.
void async_barrier_wait(const AsyncBarrier& barrier, std::uint32_t phase, bool parity,
                        const char* what, CallSite site);
// sync() of a group of threads first_thread .. first_thread + count - 1 of the block that spans
// several warps (thread_block_tile<64..512>): a barrier of those threads, kept by the runtime
// for the block.
void group_sync(std::uint32_t first_thread, std::uint32_t count, const char* what, CallSite site);

int vprintf(const char* format, va_list args);

// The running lane's stack, where every automatic variable of its thread lives: CUDA's local
// memory (__isLocal). {nullptr, 0} outside a launch.
struct LaneStack {
  const unsigned char* low = nullptr;
  std::size_t size = 0;
};
LaneStack lane_stack();

// Forward progress (Volta+ independent thread scheduling). A lane that spins waiting for another
// lane or warp never reaches a warp-level call, so it would keep the core for good. Every loop
// iteration of a kernel file (warpsim run inserts the tick, sim/runner/source_loops.cpp) and every
// atomic counts one tick against the running lane's slice; when the slice is spent, the lane
// yields to the other lanes and warps of its block (spin_preempt). Deterministic: ticks, not time.
// initial-exec, as current_env: one decrement and a predicted branch per tick.
inline constexpr std::int32_t kSpinSliceTicks = 4096;
extern __thread std::int32_t spin_budget __attribute__((tls_model("initial-exec")));
// The slice is spent: the running lane yields (outside a launch it only refills the slice).
// `site.line` 0: no site of its own (an atomic), the loop's tick names it.
void spin_preempt(CallSite site);
constexpr void spin_tick(CallSite site = CallSite::here()) {
  if (__builtin_is_constant_evaluated()) return;  // loops in constexpr functions
  if (__builtin_expect(--spin_budget <= 0, 0)) spin_preempt(site);
}

}  // namespace warpsim::device
