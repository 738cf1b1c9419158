// Test helpers: build one step's inputs in a line or two, and run it.
#pragma once

#include <bit>
#include <cstdint>

#include "warpsim/semantics.hpp"

namespace warpsim::test {

// `callers` call with `mask`; every other lane has exited. v = 100 + lane, arg 0, width 32.
inline StepInputs warp_inputs(LaneMask callers = kFullMask, LaneMask mask = kFullMask) {
  StepInputs in;
  in.callers = callers;
  in.exited = ~callers;
  in.mask.fill(mask);
  in.width.fill(32);
  for (int lane = 0; lane < kWarpSize; ++lane) in.value[lane] = 100u + static_cast<unsigned>(lane);
  return in;
}

template <class F>
StepInputs& set_values(StepInputs& in, F&& value_of_lane) {
  for (int lane = 0; lane < kWarpSize; ++lane)
    in.value[lane] = static_cast<std::uint64_t>(value_of_lane(lane));
  return in;
}

template <class F>
StepInputs& set_args(StepInputs& in, F&& arg_of_lane) {
  for (int lane = 0; lane < kWarpSize; ++lane)
    in.arg[lane] = static_cast<std::int32_t>(arg_of_lane(lane));
  return in;
}

inline StepInputs& set_uniform(StepInputs& in, std::int32_t arg, std::int32_t width = 32) {
  in.arg.fill(arg);
  in.width.fill(width);
  return in;
}

inline StepOutputs run(Op op, ValueType type, const StepInputs& in,
                       const SemanticsOptions& options = {}) {
  StepOutputs out;
  evaluate(op, type, in, out, options);
  return out;
}

inline std::uint64_t bits_of(float f) { return std::bit_cast<std::uint32_t>(f); }
inline std::uint64_t bits_of(double d) { return std::bit_cast<std::uint64_t>(d); }

// Masks of lanes [first, last].
constexpr LaneMask lanes_from_to(int first, int last) {
  LaneMask m = 0;
  for (int lane = first; lane <= last; ++lane) m |= lane_bit(lane);
  return m;
}

}  // namespace warpsim::test
