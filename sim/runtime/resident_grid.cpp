#include "resident_grid.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "block_pool.hpp"
#include "block_runner.hpp"

namespace warpsim::runtime {

GridBarrier::Wait GridBarrier::arrive_and_wait() {
  std::unique_lock lock(mutex_);
  if (first_stopper_ != ~std::uint64_t{0}) return Wait::stopped;
  if (finished_ != 0) return Wait::deadlock;
  const std::uint64_t generation = generation_;
  if (++arrived_ == blocks_) {
    arrived_ = 0;
    ++generation_;
    note_progress();
    changed_.notify_all();
    return Wait::released;
  }
  changed_.wait(lock, [&] {
    return generation_ != generation || first_stopper_ != ~std::uint64_t{0} || finished_ != 0;
  });
  if (generation_ != generation) return Wait::released;
  return first_stopper_ != ~std::uint64_t{0} ? Wait::stopped : Wait::deadlock;
}

void GridBarrier::finish_block(std::uint64_t block, bool stopped) {
  const std::lock_guard lock(mutex_);
  if (stopped) {
    if (first_stopper_ == ~std::uint64_t{0}) first_stopper_ = block;
    stopped_.store(true, std::memory_order_relaxed);
  } else {
    ++finished_;
    exited_ = std::min(exited_, block);
  }
  note_progress();
  changed_.notify_all();
}

std::uint64_t GridBarrier::first_stopper() const {
  const std::lock_guard lock(mutex_);
  return first_stopper_;
}

std::uint64_t GridBarrier::exited_block() const {
  const std::lock_guard lock(mutex_);
  return exited_;
}

bool runs_resident(const LaunchOptions& o) {
  return o.cooperative && o.grid.count() > 1 && grid_barrier_refusal(o).empty();
}

std::string grid_barrier_refusal(const LaunchOptions& o) {
  if (!o.cooperative) {
    return "outside a cooperative launch (cudaLaunchCooperativeKernel, or cudaLaunchKernelEx with "
           "cudaLaunchAttributeCooperative): CUDA leaves it undefined there, and "
           "this_grid().is_valid() is false";
  }
  if (o.record_steps) {
    return "in a launch that records its steps (a trace, or warpsim exec --trace-dir): the blocks "
           "of a cooperative launch run at once only when no steps are recorded";
  }
  if (o.checks.any()) {
    return "under the memory checks (--check), which run the blocks one at a time; run "
           "without --check";
  }
  if (o.policy != ConvergencePolicy::maximal || o.order_seed != 0) {
    return "with the interleaved policy or an order seed, which run the blocks one at a time";
  }
  return {};
}

void BlockRunner::grid_barrier(device::CallSite site) {
  Lane& l = *running_;
  if (site.file != l.where_file) note_site(l, site);
  l.where.line = site.line;
  const auto where = [&] {
    return site_text(l.where) + ": cooperative_groups: grid_group::sync()";
  };
  if (grid_ == nullptr) {
    stop_launch(LaunchStatus::kernel_exception,
         where() + " across " + std::to_string(options_.grid.count()) +
             " blocks is not simulated " + grid_barrier_refusal(options_));
    return;
  }
  if (++l.grid_syncs <= grid_syncs_) return;  // the block is past this barrier
  grid_syncs_ = l.grid_syncs;
  switch (grid_->arrive_and_wait()) {
    case GridBarrier::Wait::released:
      return;
    case GridBarrier::Wait::stopped:  // another block stopped the launch: it says why
      stop_launch(LaunchStatus::kernel_exception, "stopped with the launch");
      return;
    case GridBarrier::Wait::deadlock:
      stop_launch(LaunchStatus::deadlock,
           deadlock_stop_message(block_linear_,
                                 where() + " waits for every block of the grid, but block " +
                                     std::to_string(grid_->exited_block()) +
                                     " ended without reaching it (its threads returned): on a "
                                     "GPU the grid hangs"));
      return;
  }
}

void run_blocks_resident(const LaunchOptions& options, const std::function<void()>& thread_body,
                         LaunchResult& result) {
  const Dim3 g = options.grid;
  const std::uint64_t count = g.count();
  std::vector<std::uint64_t> block_steps(count, 0);
  std::vector<BlockWorker> workers(count);
  GridBarrier grid(count);
  const auto threads = static_cast<std::size_t>(options.block.count());

  run_on_workers(static_cast<unsigned>(count), [&](unsigned index) {
    const std::uint64_t block = index;
    BlockWorker& w = workers[index];
    w.trace.grid = g;
    w.trace.block = options.block;
    StackPool& stacks = StackPool::slab_for_this_thread(threads, options.stack_bytes);
    BlockOutcome outcome;
    {
      BlockRunner runner(options, thread_body, w.trace, block_steps[block], &stacks);
      runner.log_findings(&w.found);
      runner.set_grid_barrier(&grid);
      BlockOutput output{block, index, 0, 0, 0, 0};
      outcome = runner.run(block, block_index(block, g));
      if (!runner.stacks_intact()) {
        outcome = {LaunchStatus::kernel_exception,
                   "block " + std::to_string(block) + ": a lane overflowed its stack of " +
                       std::to_string(options.stack_bytes / 1024) +
                       " KiB (the stacks of a cooperative launch's resident blocks have no guard "
                       "pages between them); its results cannot be trusted",
                   std::nullopt};
      }
      output.found_end = w.found.size();
      output.printf_end = w.trace.printf_records.size();
      if (output.found_end != 0 || output.printf_end != 0) w.outputs.push_back(output);
    }
    stacks.offer_slab_pages();
    const bool stopped = outcome.status != LaunchStatus::completed;
    grid.finish_block(block, stopped);
    if (stopped) {
      w.stopped_block = block;
      w.stopped = std::move(outcome);
    }
  });

  // The first block to stop gives the launch's outcome; blocks it released stopped with it.
  const std::uint64_t stop = grid.first_stopper();
  std::uint64_t total = 0;
  for (const std::uint64_t steps : block_steps) total += steps;
  result.steps = total;
  if (stop != ~std::uint64_t{0}) {
    result.status = workers[stop].stopped.status;
    result.message = workers[stop].stopped.message;
  }
  merge_block_outputs(workers, ~std::uint64_t{0}, result);  // every block ran
}

}  // namespace warpsim::runtime
