// Shared by the device-trace suites: a "perfect GPU" built from a simulator trace.
#pragma once

#include "support/launch_helpers.hpp"
#include "warpsim/device_trace.hpp"
#include "warpsim/launch.hpp"

namespace device_trace_test {

using warpsim::test::shape;

// What a GPU whose every call agrees with the simulator would record for the first `blocks`
// blocks.
inline warpsim::DeviceTrace device_trace_of(const warpsim::Trace& sim, std::uint64_t blocks) {
  warpsim::DeviceTrace t;
  t.device = "simulated GPU";
  t.sm = 90;
  t.driver = 13000;
  t.date = "2025-01-01T00:00:00Z";
  t.grid = sim.grid;
  t.block = sim.block;
  t.traced_blocks = blocks;
  t.capacity = 256;
  for (std::uint64_t b = 0; b < blocks; ++b) {
    for (std::uint32_t thread = 0; thread < sim.block.count(); ++thread) {
      warpsim::DeviceThreadCalls calls;
      calls.block = b;
      calls.thread = thread;
      for (const warpsim::LaneCall& c : warpsim::lane_calls(sim, b, thread)) calls.calls.push_back(c.call);
      t.threads.push_back(std::move(calls));
    }
  }
  return t;
}

}  // namespace device_trace_test
