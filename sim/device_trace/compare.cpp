// A simulator trace against a device trace, lane by lane and call by call.
#include <algorithm>
#include <tuple>
#include <unordered_map>

#include "warpsim/device_trace.hpp"

namespace warpsim {
namespace {

DeviceCall call_of(const TraceStep& s, int lane) {
  const auto i = static_cast<std::size_t>(lane);
  DeviceCall c;
  c.op = s.op;
  c.type = s.type;
  c.mask = s.lane_mask[i];
  c.input = s.input[i];
  c.output = s.output[i];
  c.arg = is_shuffle(s.op) ? s.arg[i] : 0;
  c.width = is_shuffle(s.op) ? s.width[i] : 0;
  c.line = s.where[i].line;
  c.pred = intrinsic_for(s.op).pred_out && has_lane(s.pred, lane);  // a shuffle's in-range bit: GPU-invisible
  return c;
}

LaneCall lane_call(const Trace& trace, std::size_t index, int lane) {
  const TraceStep& s = trace.steps[index];
  return LaneCall{call_of(s, lane), index, has_lane(s.undefined, lane)};
}

std::uint64_t warp_key(std::uint64_t block, std::uint32_t warp, std::uint32_t warps_per_block) {
  return block * warps_per_block + warp;
}

// Where a lane's first difference sits in simulator step order: the step of its simulator call, or
// just after its last simulator call where the simulator made none.
std::uint64_t order_key(const CallDifference& d, const std::vector<LaneCall>& sim) {
  if (d.sim_step >= 0) return static_cast<std::uint64_t>(d.sim_step) * 2;
  return sim.empty() ? 0 : sim.back().step * 2 + 1;
}

}  // namespace

std::string_view to_string(CallField field) {
  switch (field) {
    case CallField::count:
      return "count";
    case CallField::op:
      return "op";
    case CallField::type:
      return "type";
    case CallField::mask:
      return "mask";
    case CallField::arg:
      return "arg";
    case CallField::width:
      return "width";
    case CallField::input:
      return "input";
    case CallField::output:
      return "output";
    case CallField::pred:
      return "pred";
    case CallField::line:
      return "line";
  }
  return "?";
}

std::vector<LaneCall> lane_calls(const Trace& trace, std::uint64_t block, std::uint32_t thread) {
  const std::uint32_t warp = thread / kWarpSize;
  const int lane = static_cast<int>(thread % kWarpSize);
  std::vector<LaneCall> calls;
  for (std::size_t i = 0; i < trace.steps.size(); ++i) {
    const TraceStep& s = trace.steps[i];
    if (s.block == block && s.warp == warp && has_lane(s.participants, lane)) {
      calls.push_back(lane_call(trace, i, lane));
    }
  }
  return calls;
}

// Float values within `ulps` of each other count as equal (math functions differ in the last
// bits between the host library and the device); everything else compares bit for bit.
static bool same_value(std::uint64_t a, std::uint64_t b, ValueType type, std::uint64_t ulps) {
  if (a == b) return true;
  const bool is_float = type == ValueType::f32 || type == ValueType::f64;
  return ulps > 0 && is_float && ulp_distance(a, b, type) <= ulps;
}

std::optional<CallField> first_differing_field(const DeviceCall& sim, const DeviceCall& gpu,
                                               bool undefined, std::uint64_t ulps) {
  if (sim.op != gpu.op) return CallField::op;
  if (sim.type != gpu.type) return CallField::type;
  if (sim.mask != gpu.mask) return CallField::mask;
  if (is_shuffle(sim.op) && sim.arg != gpu.arg) return CallField::arg;
  if (is_shuffle(sim.op) && sim.width != gpu.width) return CallField::width;
  if (!same_value(sim.input, gpu.input, sim.type, ulps)) return CallField::input;
  if (!undefined && !same_value(sim.output, gpu.output, sim.type, ulps)) return CallField::output;
  if (intrinsic_for(sim.op).pred_out && sim.pred != gpu.pred) return CallField::pred;
  if (gpu.line != 0 && sim.line != gpu.line) return CallField::line;
  return std::nullopt;
}

TraceComparison compare(const Trace& sim, const DeviceTrace& gpu, std::uint64_t ulp_tolerance) {
  TraceComparison result;
  const auto dim = [](Dim3 d) {
    return std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z);
  };
  if (!(sim.grid == gpu.grid) || !(sim.block == gpu.block)) {
    result.incomparable = "the simulator ran grid (" + dim(sim.grid) + ") block (" +
                          dim(sim.block) + ") but the GPU grid (" + dim(gpu.grid) + ") block (" +
                          dim(gpu.block) + ")";
    return result;
  }
  if (gpu.threads.empty()) {
    result.incomparable = "the GPU trace holds no threads";
    return result;
  }

  // Steps of each traced warp, in trace order: one pass over the trace, not one per lane.
  const auto threads_per_block = static_cast<std::uint32_t>(sim.block.count());
  const std::uint32_t warps_per_block = (threads_per_block + kWarpSize - 1) / kWarpSize;
  std::unordered_map<std::uint64_t, std::vector<std::size_t>> warp_steps;
  for (std::size_t i = 0; i < sim.steps.size(); ++i) {
    const TraceStep& s = sim.steps[i];
    if (s.block < gpu.traced_blocks)
      warp_steps[warp_key(s.block, s.warp, warps_per_block)].push_back(i);
  }

  std::vector<CallDifference> differences;  // the first per differing lane
  std::vector<std::uint64_t> keys;          // their order_key
  std::vector<LaneCall> sim_calls;
  for (const DeviceThreadCalls& thread : gpu.threads) {
    ++result.lanes;
    const std::uint32_t warp = thread.thread / kWarpSize;
    const int lane = static_cast<int>(thread.thread % kWarpSize);
    sim_calls.clear();
    if (const auto it = warp_steps.find(warp_key(thread.block, warp, warps_per_block));
        it != warp_steps.end()) {
      for (const std::size_t index : it->second) {
        if (has_lane(sim.steps[index].participants, lane))
          sim_calls.push_back(lane_call(sim, index, lane));
      }
    }
    if (thread.dropped > 0) ++result.truncated_lanes;

    CallDifference d;
    d.block = thread.block;
    d.thread = thread.thread;
    d.warp = warp;
    d.lane = static_cast<std::uint32_t>(lane);
    bool differs = false;
    const std::size_t paired = std::min(sim_calls.size(), thread.calls.size());
    for (std::size_t k = 0; k < paired && !differs; ++k) {
      const LaneCall& s = sim_calls[k];
      const DeviceCall& g = thread.calls[k];
      ++result.calls;
      if (s.undefined) ++result.undefined_outputs;
      if (g.line == 0) ++result.unknown_lines;
      if (const auto field = first_differing_field(s.call, g, s.undefined, ulp_tolerance)) {
        differs = true;
        d.call = k;
        d.field = *field;
        d.sim = s.call;
        d.gpu = g;
        d.sim_step = static_cast<std::int64_t>(s.step);
      }
    }
    // One side made more calls. Past the device's capacity its calls are only counted.
    const std::uint64_t gpu_total = thread.calls.size() + thread.dropped;
    if (!differs && sim_calls.size() != gpu_total) {
      differs = true;
      const std::uint64_t at = std::min<std::uint64_t>(sim_calls.size(), gpu_total);
      d.call = at;
      d.field = CallField::count;
      if (at < sim_calls.size()) {
        d.sim = sim_calls[at].call;
        d.sim_step = static_cast<std::int64_t>(sim_calls[at].step);
      }
      if (at < thread.calls.size()) d.gpu = thread.calls[at];
    }
    if (!differs) continue;
    ++result.differing_lanes;
    if (d.sim_step >= 0) {
      const SourceLine where =
          sim.steps[static_cast<std::size_t>(d.sim_step)].where[static_cast<std::size_t>(lane)];
      if (where.file < sim.files.size()) d.file = sim.files[where.file];
    }
    keys.push_back(order_key(d, sim_calls));
    differences.push_back(std::move(d));
  }

  if (differences.empty()) return result;
  std::size_t first = 0;
  for (std::size_t i = 1; i < differences.size(); ++i) {
    const auto rank = [&](std::size_t k) {
      return std::tuple(keys[k], differences[k].block, differences[k].thread);
    };
    if (rank(i) < rank(first)) first = i;
  }
  CallDifference chosen = differences[first];
  for (std::size_t i = 0; i < differences.size(); ++i) {
    const CallDifference& other = differences[i];
    if (other.block != chosen.block || other.warp != chosen.warp) continue;
    const bool same_place = chosen.sim_step >= 0 ? other.sim_step == chosen.sim_step
                                                 : other.sim_step < 0 && other.call == chosen.call;
    if (same_place) chosen.lanes |= lane_bit(static_cast<int>(other.lane));
  }
  result.first_difference = std::move(chosen);
  return result;
}

}  // namespace warpsim
