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
  const auto dims = [](const Dim3& d) { return std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z); };
  if (o.block.count() == 0 || o.block.count() > 1024 || o.block.z > 64) {
    throw std::invalid_argument("invalid block shape (" + dims(o.block) +
                                "): CUDA allows 1 to 1024 threads per block, z at most 64");
  }
  if (o.grid.count() == 0 || o.grid.y > 65535 || o.grid.z > 65535) {
    throw std::invalid_argument("invalid grid shape (" + dims(o.grid) +
                                "): every dimension at least 1, y and z at most 65535");
  }
  if (o.stack_bytes < 16 * 1024) throw std::invalid_argument("fiber stacks below 16 KiB");
  if (o.dynamic_shared_bytes > device::kDynamicSharedCapacity) {
    throw std::invalid_argument("dynamic shared memory of " + std::to_string(o.dynamic_shared_bytes) +
                                " bytes; the simulator provides at most " +
                                std::to_string(device::kDynamicSharedCapacity));
  }
}

}  // namespace

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
