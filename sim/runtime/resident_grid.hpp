// A cooperative launch's grid with every block resident at once, as a GPU keeps it, so that
// cooperative_groups' grid_group::sync() can hold all of them at one barrier.
//
// Each block runs on an OS thread of its own (block_pool.cpp's workers) with a BlockRunner of its
// own, whose fiber stacks come from one slab mapping (stack_pool.hpp). grid.sync() is what CUDA
// builds it from: a __syncthreads, then the block's first lane to get there waits at the grid
// barrier (GridBarrier::arrive_and_wait, which blocks its OS thread until every block of the grid
// has arrived), then a __syncthreads. Blocks between two grid barriers run concurrently, as on a
// GPU, so a block may also wait for another in global memory.
//
// What the launch reports is what a run of its blocks in order would report where one block
// stopped it: the first block to stop (an error, a deadlock, the step budget) gives the status and
// message; the others, released from the grid barrier by that stop, add nothing. A block that
// finished while the others wait at a grid barrier it never reached is a deadlock: on a GPU the
// grid hangs. A block that spins waiting for another block (a flag in global memory) is a
// livelock only once no block of the grid has progressed for the spin limit. Findings and printf
// lines are merged in block order.
//
// Not resident (launch.cpp runs the blocks one by one, and a grid.sync() across blocks stops the
// launch saying why): a launch that records steps, has memory checks, an interleaved policy or an
// order seed, each of which needs one sequence over all blocks.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>

#include "warpsim/launch.hpp"

namespace warpsim::runtime {

class GridBarrier {
 public:
  explicit GridBarrier(std::uint64_t blocks) : blocks_(blocks) {}

  enum class Wait : std::uint8_t {
    released,  // every block arrived
    stopped,   // another block stopped the launch
    deadlock,  // a block finished without arriving: exited_block() names it
  };
  // The calling block arrived; returns once the barrier completed or cannot.
  Wait arrive_and_wait();
  // The block ran to its end (`stopped`: it stopped the launch).
  void finish_block(std::uint64_t block, bool stopped);
  // The first block to stop the launch (~0: none), and the lowest block that finished normally.
  std::uint64_t first_stopper() const;
  std::uint64_t exited_block() const;
  // Progress anywhere in the grid (a block's step, barrier or exit, a block's end, a grid barrier
  // completed), counted for the livelock check: a block that spins waits for another block only
  // as long as some block still progresses (forward_progress.cpp).
  void note_progress() { progress_.fetch_add(1, std::memory_order_relaxed); }
  std::uint64_t progress() const { return progress_.load(std::memory_order_relaxed); }
  // Whether a block has stopped the launch (the others stop at their next spin or grid barrier).
  bool launch_stopped() const { return stopped_.load(std::memory_order_relaxed); }

 private:
  std::atomic<std::uint64_t> progress_{0};
  std::atomic<bool> stopped_{false};
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  const std::uint64_t blocks_;
  std::uint64_t arrived_ = 0, generation_ = 0, finished_ = 0;
  std::uint64_t first_stopper_ = ~std::uint64_t{0}, exited_ = ~std::uint64_t{0};
};

// Whether `options` ask for resident blocks and allow them (see the top of this file).
bool runs_resident(const LaunchOptions& options);
// Why a grid barrier across blocks cannot be simulated in this launch (empty: it can).
std::string grid_barrier_refusal(const LaunchOptions& options);

// Runs every block of the launch at once, one OS thread each, and fills `result` (see above).
void run_blocks_resident(const LaunchOptions& options, const std::function<void()>& thread_body,
                         LaunchResult& result);

}  // namespace warpsim::runtime
