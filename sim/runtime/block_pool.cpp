#include "block_pool.hpp"

#include <pthread.h>
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "block_runner.hpp"
#include "diagnostic_recorder.hpp"
#include "warpsim/device_abi.hpp"

extern "C" __thread unsigned char* warpsim_dynamic_shared_base;

namespace warpsim::runtime {
namespace {

// Threads that run jobs for launches, kept for the process's life: a program that launches
// thousands of small kernels must not pay a thread start for each. Never destroyed (a kernel may
// call exit() while blocks run; joining then would wait on lanes that never finish), and left
// behind by fork (the child starts a pool of its own).
class WorkerPool {
 public:
  static WorkerPool& instance() {
    static WorkerPool* pool = [] {
      pthread_atfork(nullptr, nullptr, [] { instance_after_fork(); });
      return new WorkerPool;
    }();
    if (forked_) {  // the threads stayed in the parent: start afresh, leaking the parent's
      forked_ = false;
      pool = new WorkerPool;
    }
    return *pool;
  }

  // Runs job(0) on the calling thread and job(1) .. job(n - 1) on pool threads; returns when
  // every one has returned. One launch at a time: launches from several threads take turns.
  void run(unsigned n, const std::function<void(unsigned)>& job) {
    const std::lock_guard turn(run_mutex_);
    {
      std::unique_lock lock(mutex_);
      while (threads_.size() + 1 < n) {
        const unsigned index = static_cast<unsigned>(threads_.size()) + 1;
        threads_.emplace_back([this, index] { serve(index); });
      }
      job_ = &job;
      jobs_ = n;
      pending_ = n - 1;
      ++generation_;
    }
    work_.notify_all();
    job(0);
    std::unique_lock lock(mutex_);
    done_.wait(lock, [&] { return pending_ == 0; });
    job_ = nullptr;
  }

 private:
  static void instance_after_fork() { forked_ = true; }

  void serve(unsigned index) {
    // Lanes run on fibers; a crash handler (warpsim exec's) runs on an alternate stack, which is
    // per thread.
    static constexpr std::size_t kSignalStack = 64 * 1024;
    std::unique_ptr<char[]> signal_stack(new char[kSignalStack]);
    stack_t stack{};
    stack.ss_sp = signal_stack.get();
    stack.ss_size = kSignalStack;
    sigaltstack(&stack, nullptr);
    // The dynamic shared memory of the blocks this thread runs (device_abi.cpp).
    // operator new gives 16-byte alignment on x86-64, as the buffer's users need.
    std::unique_ptr<unsigned char[]> dynamic_shared(
        new unsigned char[device::kDynamicSharedCapacity]);
    warpsim_dynamic_shared_base = dynamic_shared.get();

    std::uint64_t seen = 0;
    std::unique_lock lock(mutex_);
    while (true) {
      work_.wait(lock, [&] { return generation_ != seen; });
      seen = generation_;
      if (index >= jobs_) continue;
      const std::function<void(unsigned)>* job = job_;
      lock.unlock();
      (*job)(index);
      lock.lock();
      if (--pending_ == 0) done_.notify_all();
    }
  }

  inline static bool forked_ = false;
  std::mutex run_mutex_;
  std::mutex mutex_;
  std::condition_variable work_, done_;
  std::vector<std::thread> threads_;
  const std::function<void(unsigned)>* job_ = nullptr;
  unsigned jobs_ = 0;
  unsigned pending_ = 0;
  std::uint64_t generation_ = 0;
};

}  // namespace

Dim3 block_index(std::uint64_t linear, Dim3 g) {
  return {static_cast<std::uint32_t>(linear % g.x), static_cast<std::uint32_t>(linear / g.x % g.y),
          static_cast<std::uint32_t>(linear / (std::uint64_t{g.x} * g.y))};
}

void run_on_workers(unsigned n, const std::function<void(unsigned)>& job) {
  WorkerPool::instance().run(n, job);
}

bool can_spread_blocks(const LaunchOptions& o) {
  // A grid past 2^24 blocks would need more memory for the per-block step counts than it saves.
  return o.jobs > 1 && o.grid.count() > 1 && o.grid.count() <= (std::uint64_t{1} << 24) &&
         !o.record_steps && o.policy == ConvergencePolicy::maximal && o.order_seed == 0 &&
         !o.checks.any();
}

void run_blocks_spread(const LaunchOptions& options, const std::function<void()>& thread_body,
                       LaunchResult& result) {
  const Dim3 g = options.grid;
  const std::uint64_t count = g.count();
  const unsigned jobs = static_cast<unsigned>(std::min<std::uint64_t>(options.jobs, count));
  std::vector<std::uint64_t> block_steps(count, 0);
  std::vector<BlockWorker> workers(jobs);
  // Blocks are handed out in chunks, in increasing order; a block past the first one that
  // stopped the launch is not started (a run on one thread would not have reached it).
  const std::uint64_t chunk = std::clamp<std::uint64_t>(count / (std::uint64_t{jobs} * 16), 1, 64);
  std::atomic<std::uint64_t> next{0};
  std::atomic<std::uint64_t> first_stop{~std::uint64_t{0}};

  run_on_workers(jobs, [&](unsigned index) {
    BlockWorker& w = workers[index];
    w.trace.grid = g;
    w.trace.block = options.block;
    std::uint64_t steps = 0;  // the running block's: each block has the whole budget
    BlockRunner runner(options, thread_body, w.trace, steps);
    runner.log_findings(&w.found);
    while (true) {
      const std::uint64_t first = next.fetch_add(chunk, std::memory_order_relaxed);
      if (first >= count) return;
      const std::uint64_t end = std::min(count, first + chunk);
      for (std::uint64_t block = first; block < end; ++block) {
        if (block > first_stop.load(std::memory_order_relaxed)) return;
        steps = 0;
        BlockOutput output{block, index, w.found.size(), 0, w.trace.printf_records.size(), 0};
        BlockOutcome outcome = runner.run(block, block_index(block, g));
        block_steps[block] = steps;
        output.found_end = w.found.size();
        output.printf_end = w.trace.printf_records.size();
        if (output.found_end != output.found_begin || output.printf_end != output.printf_begin) {
          w.outputs.push_back(output);
        }
        if (outcome.status != LaunchStatus::completed) {
          w.stopped_block = block;
          w.stopped = std::move(outcome);
          std::uint64_t seen = first_stop.load(std::memory_order_relaxed);
          while (block < seen && !first_stop.compare_exchange_weak(seen, block)) {
          }
          return;
        }
      }
    }
  });

  // Where a run on one thread would have stopped: the first block that stopped, or the block in
  // which the launch's steps passed the budget, whichever comes first.
  std::uint64_t stop = first_stop.load();
  const BlockWorker* stopper = nullptr;
  for (const BlockWorker& w : workers) {
    if (w.stopped_block == stop) stopper = &w;
  }
  std::uint64_t total = 0;
  bool over_budget = false;
  for (std::uint64_t block = 0; block < count && block <= stop; ++block) {
    if (total + block_steps[block] > options.max_steps) {
      over_budget = true;
      if (block < stop || stopper == nullptr ||
          stopper->stopped.status != LaunchStatus::step_budget_exceeded) {
        stopper = nullptr;
      }
      stop = block;
      total = options.max_steps + 1;
      break;
    }
    total += block_steps[block];
  }
  result.steps = total;
  if (stopper != nullptr) {
    result.status = stopper->stopped.status;
    result.message = stopper->stopped.message;
  } else if (over_budget) {
    result.status = LaunchStatus::step_budget_exceeded;
    result.message = "step budget of " + std::to_string(options.max_steps) +
                     " warp-level operations exceeded (a runaway loop?) in block " +
                     std::to_string(stop) + " (its blocks ran on " + std::to_string(jobs) +
                     " threads: with --jobs 1 the message names the warp and the line)";
  }

  merge_block_outputs(workers, stop, result);
}

void merge_block_outputs(std::vector<BlockWorker>& workers, std::uint64_t stop,
                         LaunchResult& result) {
  std::vector<const BlockOutput*> outputs;
  for (const BlockWorker& w : workers) {
    for (const BlockOutput& o : w.outputs) {
      if (o.block <= stop) outputs.push_back(&o);
    }
  }
  std::sort(outputs.begin(), outputs.end(),
            [](const BlockOutput* a, const BlockOutput* b) { return a->block < b->block; });
  DiagnosticRecorder recorder(result.trace);
  for (const BlockOutput* o : outputs) {
    BlockWorker& w = workers[o->worker];
    const auto renumber = [&](SourceLine& line) {
      if (line.file < w.trace.files.size()) {
        line.file = result.trace.file_index(w.trace.files[line.file]);
      }
    };
    for (std::size_t k = o->found_begin; k < o->found_end; ++k) {
      FoundDiagnostic& found = w.found[k];
      for_each_source_line(found.facts, renumber);
      renumber(found.where);
      recorder.record(found.facts, found.where, found.block, found.warp, found.step);
    }
    for (std::size_t k = o->printf_begin; k < o->printf_end; ++k) {
      result.trace.printf_records.push_back(std::move(w.trace.printf_records[k]));
    }
  }
}

}  // namespace warpsim::runtime
