// A launch's blocks on several OS threads. Blocks are independent until they meet in global
// memory (where a GPU runs them concurrently too, so atomics are real atomics: atomics.hpp), so
// worker threads take blocks in increasing order, each running its blocks with a BlockRunner of
// its own (its own fibers, stacks, `__shared__` variables and dynamic shared buffer). What the
// blocks report is kept per block and merged in block order afterwards: the diagnostics (replayed
// through one DiagnosticRecorder), the device printf lines, the step count and the first block
// that stops the launch are those of a run on one thread, block after block.
//
// Not spread (launch() runs the blocks one after the other): a launch whose trace records steps,
// an interleaved policy or an order seed (each a sequence over all blocks), memory checks (one
// shadow for the launch), a single block, or jobs = 1.
#pragma once

#include <functional>

#include "warpsim/launch.hpp"

namespace warpsim::runtime {

// Whether `options` let the blocks of a launch run on several threads with the results of a
// run on one.
bool can_spread_blocks(const LaunchOptions& options);

// Runs every block of the launch over options.jobs threads (the calling one among them) and
// fills `result` as launch() would running them in order on one thread. One difference: the
// trace's file table lists only the files its diagnostics name (a one-thread run lists every
// file that made a warp-level call); the trace records no steps here, so nothing else reads it.
void run_blocks_spread(const LaunchOptions& options, const std::function<void()>& thread_body,
                       LaunchResult& result);

}  // namespace warpsim::runtime
