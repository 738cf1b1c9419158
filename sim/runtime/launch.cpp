#include "warpsim/launch.hpp"

#include <memory>
#include <random>
#include <stdexcept>
#include <string>

#include "block_pool.hpp"
#include "block_runner.hpp"
#include "memory_checker.hpp"
#include "resident_grid.hpp"
#include "warpsim/device_abi.hpp"

namespace warpsim {

std::string_view to_string(LaunchStatus status) {
  switch (status) {
    case LaunchStatus::completed: return "completed";
    case LaunchStatus::deadlock: return "deadlock";
    case LaunchStatus::step_budget_exceeded: return "step_budget_exceeded";
    case LaunchStatus::kernel_exception: return "kernel_exception";
    case LaunchStatus::out_of_bounds: return "out_of_bounds";
    case LaunchStatus::time_limit: return "time_limit";
  }
  return "?";
}

LanePosition current_lane_position() noexcept { return runtime::position_snapshot(); }

namespace {

void check_shape(const LaunchOptions& o) {
  if (const Expected<void> shape = check_launch_shape(o.grid, o.block); !shape) {
    throw std::invalid_argument(shape.error().message);
  }
  if (o.stack_bytes < 16 * 1024) throw std::invalid_argument("fiber stacks below 16 KiB");
  if (o.dynamic_shared_bytes > device::kDynamicSharedCapacity) {
    throw std::invalid_argument("dynamic shared memory of " + std::to_string(o.dynamic_shared_bytes) +
                                " bytes; the simulator provides at most " +
                                std::to_string(device::kDynamicSharedCapacity));
  }
}

// The order blocks run in: 0, 1, 2, ... without a seed; with one, every block once in a seeded
// order (a full-period LCG modulo the next power of two, a = 1 mod 4 and c odd, skipping values
// past the end), in constant memory however large the grid.
class BlockOrder {
 public:
  BlockOrder(std::uint64_t count, std::uint64_t seed) : count_(count), seeded_(seed != 0) {
    if (!seeded_) return;
    while (size_ < count_) size_ *= 2;
    std::mt19937_64 rng(seed);
    a_ = (rng() & ~std::uint64_t{3}) | 1;
    c_ = rng() | 1;
    next_ = rng() & (size_ - 1);
  }
  // The i-th block to run (i counts up from 0, one call each).
  std::uint64_t at(std::uint64_t i) {
    if (!seeded_) return i;
    std::uint64_t x = next_;
    do {
      x = next_;
      next_ = (a_ * next_ + c_) & (size_ - 1);
    } while (x >= count_);
    return x;
  }

 private:
  std::uint64_t count_;
  bool seeded_;
  std::uint64_t size_ = 1, a_ = 1, c_ = 1, next_ = 0;
};

}  // namespace

Expected<void> check_launch_shape(Dim3 grid, Dim3 block) {
  const auto dims = [](Dim3 d) {
    return std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z);
  };
  if (block.x == 0 || block.y == 0 || block.z == 0) {
    return fail("block (" + dims(block) + ") has a zero extent");
  }
  if (grid.x == 0 || grid.y == 0 || grid.z == 0) {
    return fail("grid (" + dims(grid) + ") has a zero extent");
  }
  if (block.count() > 1024) {
    return fail("block (" + dims(block) + ") has " + std::to_string(block.count()) +
                " threads; a block holds at most 1024");
  }
  if (block.z > 64) return fail("block z is " + std::to_string(block.z) + "; at most 64");
  if (grid.x > 2147483647u) return fail("grid x is larger than 2147483647");
  if (grid.y > 65535 || grid.z > 65535) {
    return fail("grid (" + dims(grid) + "): y and z are at most 65535");
  }
  return {};
}

LaunchResult launch(const LaunchOptions& options, const std::function<void()>& thread_body) {
  check_shape(options);
  LaunchResult result;
  result.trace.grid = options.grid;
  result.trace.block = options.block;
  if (runtime::runs_resident(options)) {
    runtime::run_blocks_resident(options, thread_body, result);
    return result;
  }
  if (runtime::can_spread_blocks(options)) {
    runtime::run_blocks_spread(options, thread_body, result);
    return result;
  }
  runtime::BlockRunner runner(options, thread_body, result.trace, result.steps);
  std::unique_ptr<runtime::MemoryChecker> checker;
  if (options.checks.any()) {
    if (!instrumented_code_loaded()) {
      throw std::invalid_argument(
          "memory checks need the kernel compiled with -fsanitize=thread (warpsim run --check "
          "does that); no such code is loaded, so nothing would be checked");
    }
    checker = std::make_unique<runtime::MemoryChecker>(
        options.checks, static_cast<std::uint32_t>(options.block.count()));
    checker->make_current(true);
    if (options.record_steps) checker->watch_steps(&result.trace.steps);
    checker->set_never_set_fill(options.never_set_fill);
    runner.set_checker(checker.get());
  }
  const Dim3 g = options.grid;
  BlockOrder order(g.count(), options.order_seed);
  for (std::uint64_t i = 0; i < g.count(); ++i) {
    const std::uint64_t linear = order.at(i);
    const Dim3 idx = runtime::block_index(linear, g);
    if (checker) checker->begin_block(linear);
    runtime::BlockOutcome outcome = runner.run(linear, idx);
    if (outcome.status != LaunchStatus::completed) {
      result.status = outcome.status;
      result.message = std::move(outcome.message);
      result.stop = std::move(outcome.stop);
      break;
    }
  }
  if (checker) {
    const std::size_t before = result.trace.diagnostics.size();
    checker->add_diagnostics(result.trace);
    if (result.status == LaunchStatus::out_of_bounds) {
      // The launch's message is the access that stopped it, with its lane and line.
      for (std::size_t i = before; i < result.trace.diagnostics.size(); ++i) {
        if (result.trace.diagnostics[i].kind == DiagnosticKind::out_of_bounds) {
          result.message = result.trace.diagnostics[i].message;
        }
      }
    }
  }
  return result;
}

}  // namespace warpsim
