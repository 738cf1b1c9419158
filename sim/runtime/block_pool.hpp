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

#include <cstdint>
#include <functional>
#include <vector>

#include "block_runner.hpp"
#include "diagnostic_recorder.hpp"
#include "warpsim/launch.hpp"

namespace warpsim::runtime {

// The index of the block numbered `linear` in a grid of shape `grid` (x fastest).
Dim3 block_index(std::uint64_t linear, Dim3 grid);

// Runs job(0) on the calling thread and job(1) .. job(n - 1) on the process's worker threads
// (kept for its life; each has an alternate signal stack and a dynamic shared buffer of its own);
// returns when every one has returned. Launches from several threads take turns.
void run_on_workers(unsigned n, const std::function<void(unsigned)>& job);

// What one block left to merge: its findings and printf lines (ranges of its worker's logs).
struct BlockOutput {
  std::uint64_t block = 0;
  unsigned worker = 0;
  std::size_t found_begin = 0, found_end = 0;
  std::size_t printf_begin = 0, printf_end = 0;
};

// One OS thread's share of a launch run on several.
struct BlockWorker {
  Trace trace;  // its file table and printf lines
  std::vector<FoundDiagnostic> found;
  std::vector<BlockOutput> outputs;  // blocks that found something or printed
  std::uint64_t stopped_block = ~std::uint64_t{0};
  BlockOutcome stopped;
};

// The findings and printf lines of the workers' blocks up to `stop`, in block order, into
// result.trace (findings replayed through one DiagnosticRecorder, file indexes renumbered).
void merge_block_outputs(std::vector<BlockWorker>& workers, std::uint64_t stop,
                         LaunchResult& result);

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
