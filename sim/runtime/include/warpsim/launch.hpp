// Launching a kernel in the simulator: every CUDA thread of the grid runs as a fiber.
//
//   std::vector<float> out(32);
//   auto result = warpsim::launch({.grid = {1}, .block = {32}}, [&] { warp_sum(in, out.data()); });
//   // result.status, result.trace.steps, result.trace.diagnostics
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "warpsim/memory_checks.hpp"
#include "warpsim/trace.hpp"

namespace warpsim {

enum class ConvergencePolicy : std::uint8_t {
  maximal,      // lanes regroup at every collective, run in lane order (as compiled code usually does)
  interleaved,  // diverged lanes run in a seeded random order; __activemask() names only the caller
};

struct LaunchOptions {
  Dim3 grid{};
  Dim3 block{};
  std::size_t dynamic_shared_bytes = 0;  // `extern __shared__` bytes, at most kDynamicSharedCapacity
  ConvergencePolicy policy = ConvergencePolicy::maximal;
  std::uint64_t seed = 1;                // order of the interleaved policy
  // 0: blocks run in index order, and a warp runs on until it waits. Any other value: blocks run
  // in an order this seeds, and each time a warp completes a warp-level call, waits or a lane
  // exits, the warp that runs next is a seeded choice among those that can run. Kernels without
  // races give the same results in every order; those that rely on one order do not.
  std::uint64_t order_seed = 0;
  std::uint64_t max_steps = 100'000'000; // warp-level steps before the run counts as runaway
  bool record_steps = true;              // false: count steps, keep only diagnostics
  // Forward progress: lanes that spin (loop iterations and atomics, counted as ticks) yield to
  // the rest of the block every device::kSpinSliceTicks. When the block runs this many ticks per
  // thread it has (times the block's thread count) with no warp-level step, block barrier or lane
  // exit anywhere in it, the run ends as a livelock (status deadlock, message naming the spinning
  // lanes and lines).
  std::uint64_t spin_limit = std::uint64_t{1} << 26;
  std::size_t stack_bytes = 256 * 1024;  // per-lane fiber stack
  SemanticsOptions semantics{};
  // The byte the kernel's compiler fills never-set locals with (-ftrivial-auto-var-init=pattern:
  // GCC's 0xfe), or 0: values that hold it where a collective passes them to another lane are
  // named (uninitialised_value). 0: not filled, nothing checked.
  std::uint8_t never_set_fill = 0;
  // Race and uninitialised-shared-memory checks (memory_checks.hpp); off: no cost at all.
  MemoryChecks checks{};
  // OS threads that run the launch's blocks: 1 runs them one after the other on the calling
  // thread. More spread them over that many threads (the calling one among them) where nothing
  // needs one order over all blocks (maximal policy, no order seed, no memory checks, no steps
  // recorded: block_pool.hpp); the results, diagnostics and printf output are those of one thread.
  std::uint32_t jobs = 1;
  // A cooperative launch (cudaLaunchCooperativeKernel): with more than one block and no steps
  // recorded, no memory checks, the maximal policy and no order seed, every block is resident at
  // once on an OS thread of its own, whatever `jobs` says, so that grid_group::sync() can hold
  // them all (sim/runtime/resident_grid.hpp). Otherwise grid.sync() across blocks stops the
  // launch, saying why.
  bool cooperative = false;
  // When the run must end (warpsim exec's --time-limit): a block that is running then stops the
  // launch with status time_limit, keeping every finding so far; no block starts after it.
  // time_point::max(): none.
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
};

enum class LaunchStatus : std::uint8_t {
  completed,             // every lane returned (diagnostics may be present)
  deadlock,              // lanes wait on each other forever; message names lanes and lines
  step_budget_exceeded,  // runaway kernel
  kernel_exception,      // kernel code threw a C++ exception (host-only failure, e.g. bad_alloc)
  out_of_bounds,         // memory checks: a lane was about to touch memory just outside a checked
                         // buffer; stopped before the access, every finding so far kept
  time_limit,            // LaunchOptions::deadline passed; stopped there, every finding so far kept
};
std::string_view to_string(LaunchStatus status);

struct LaunchResult {
  LaunchStatus status = LaunchStatus::completed;
  std::string message;     // empty when completed
  std::uint64_t steps = 0; // warp-level operations simulated (block barriers not counted)
  Trace trace;
  // time_limit, blocks run one at a time: the stop as a diagnostic (the looping lanes and their
  // line, in `trace`'s files), for a view that lists it with the findings (`warpsim run`'s);
  // not among trace.diagnostics, whose last word the status and message already are.
  std::optional<Diagnostic> stop;
};

// Where the simulator is right now; for crash reports from a signal handler (async-signal-safe).
struct LanePosition {
  bool running = false;       // false outside launch()
  std::uint64_t block = 0;    // linear block index
  Dim3 block_idx{};
  std::uint32_t thread = 0;   // linear thread index within the block
  std::uint32_t warp = 0;
  std::uint32_t lane = 0;
  const char* last_file = ""; // the lane's last warp-level call or barrier (may be empty)
  std::uint32_t last_line = 0;
  std::uint64_t steps = 0;    // warp-level steps the launch has simulated so far
  // Lanes of one warp that spin in one loop (yielded, forward_progress.cpp): the running lane's,
  // else the first such group of the block; spin_lanes 0 when no lane spins.
  std::uint32_t spin_warp = 0;
  LaneMask spin_lanes = 0;
  const char* spin_file = "";
  std::uint32_t spin_line = 0;
};
LanePosition current_lane_position() noexcept;

// Whether CUDA can launch this shape: 1 to 1024 threads per block (z at most 64), every extent
// at least 1, grid x below 2^31, grid y and z at most 65535. The error says which limit.
Expected<void> check_launch_shape(Dim3 grid, Dim3 block);

// Runs `thread_body` once per CUDA thread, each on its own fiber, blocks one at a time.
// The shape must pass check_launch_shape (std::invalid_argument otherwise).
// `thread_body` is typically a lambda that calls the __global__ function with its arguments.
// Launches on different OS threads run independently, with one exception: a kernel's
// `__shared__` variables are function-local statics (one per process), so a kernel that has
// them must not run on two threads at once.
LaunchResult launch(const LaunchOptions& options, const std::function<void()>& thread_body);

}  // namespace warpsim
