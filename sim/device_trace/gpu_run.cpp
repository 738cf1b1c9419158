// A GPU's run compared with the simulator's: buffers, steps, and each step's GPU outputs.
#include <algorithm>
#include <unordered_map>

#include "warpsim/device_trace.hpp"

namespace warpsim {

std::vector<BufferData> buffer_data(const GpuRun& run) {
  std::vector<BufferData> out;
  for (const GpuBuffer& b : run.buffers) out.push_back(BufferData{b.arg, b.type, b.bytes, b.field});
  return out;
}

bool GpuComparison::identical() const {
  for (const BufferComparison& b : buffers) {
    if (!b.identical()) return false;
  }
  return !steps || steps->identical();
}

bool GpuComparison::matches() const {
  for (const BufferComparison& b : buffers) {
    if (!b.matches()) return false;
  }
  return !steps || steps->identical();
}

GpuComparison compare_run(const GpuRun& run, const Trace* sim_trace,
                          std::span<const BufferData> sim_buffers, std::uint64_t ulp_tolerance) {
  GpuComparison c;
  c.device = run.device;
  c.ulp_tolerance = ulp_tolerance;
  const std::vector<BufferData> gpu_buffers = buffer_data(run);
  c.buffers = compare_buffers(sim_buffers, gpu_buffers, ulp_tolerance);
  if (!run.trace) {
    c.steps_note = run.trace_note.empty() ? "no device trace was recorded" : run.trace_note;
  } else if (sim_trace == nullptr) {
    c.steps_note = "the simulator's trace is not available";
  } else if (sim_trace->steps.empty() &&
             std::any_of(run.trace->threads.begin(), run.trace->threads.end(),
                         [](const DeviceThreadCalls& t) { return !t.calls.empty(); })) {
    c.steps_note = "the simulator's steps were not recorded";
  } else {
    c.grid = run.trace->grid;
    c.traced_blocks = run.trace->traced_blocks;
    c.steps = compare(*sim_trace, *run.trace, ulp_tolerance);
  }
  return c;
}

GpuStepOutputs::GpuStepOutputs(const Trace& sim, const DeviceTrace& gpu) {
  // Each traced thread's calls, and how many of them the steps so far have used.
  struct Cursor {
    const DeviceThreadCalls* calls = nullptr;
    std::size_t next = 0;
  };
  std::unordered_map<std::uint64_t, Cursor> threads;
  const auto key = [](std::uint64_t block, std::uint32_t thread) { return block << 32 | thread; };
  for (const DeviceThreadCalls& thread : gpu.threads) threads[key(thread.block, thread.thread)] = {&thread, 0};
  TraceStep s;
  for (std::size_t i = 0; i < sim.steps.size(); ++i) {
    sim.steps.read(i, s);
    if (s.block >= gpu.traced_blocks) continue;
    Lanes lanes{};
    bool any = false;
    for (int lane = 0; lane < kWarpSize; ++lane) {
      if (!has_lane(s.participants, lane)) continue;
      const auto found = threads.find(key(s.block, s.warp * kWarpSize + static_cast<std::uint32_t>(lane)));
      if (found == threads.end()) continue;
      Cursor& cursor = found->second;
      // The k-th call on each side; a call of another kind still shows, as the GPU's output.
      if (cursor.next < cursor.calls->calls.size()) {
        lanes[static_cast<std::size_t>(lane)] = cursor.calls->calls[cursor.next].output;
        any = true;
      }
      ++cursor.next;
    }
    if (any) steps_.emplace_back(i, lanes);
  }
}

const GpuStepOutputs::Lanes* GpuStepOutputs::at(std::size_t step) const {
  const auto it = std::lower_bound(steps_.begin(), steps_.end(), step,
                                   [](const auto& entry, std::size_t s) { return entry.first < s; });
  return it != steps_.end() && it->first == step ? &it->second : nullptr;
}

}  // namespace warpsim
