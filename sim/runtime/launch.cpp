#include "warpsim/launch.hpp"

#include <stdexcept>
#include <string>

#include "block_runner.hpp"
#include "warpsim/device_abi.hpp"

namespace warpsim {

std::string_view to_string(LaunchStatus status) {
  switch (status) {
    case LaunchStatus::completed: return "completed";
    case LaunchStatus::deadlock: return "deadlock";
    case LaunchStatus::step_budget_exceeded: return "step_budget_exceeded";
    case LaunchStatus::kernel_exception: return "kernel_exception";
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
  runtime::BlockRunner runner(options, thread_body, result.trace, result.steps);
  std::uint64_t linear = 0;
  for (std::uint32_t z = 0; z < options.grid.z; ++z) {
    for (std::uint32_t y = 0; y < options.grid.y; ++y) {
      for (std::uint32_t x = 0; x < options.grid.x; ++x, ++linear) {
        runtime::BlockOutcome outcome = runner.run(linear, {x, y, z});
        if (outcome.status != LaunchStatus::completed) {
          result.status = outcome.status;
          result.message = std::move(outcome.message);
          return result;
        }
      }
    }
  }
  return result;
}

}  // namespace warpsim
