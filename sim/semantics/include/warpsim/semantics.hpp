// Pure semantics of every warp-level intrinsic, as ../shared/spec/warp-semantics.md states them.
// One step = one warp-level call as every participating lane made it; evaluate() returns what each
// lane receives. No scheduling, no tracing, no diagnostics here: those live in the runtime.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "warpsim/intrinsic_table.hpp"

namespace warpsim {

using LaneMask = std::uint32_t;
inline constexpr int kWarpSize = 32;
inline constexpr LaneMask kFullMask = 0xffffffffu;

inline constexpr LaneMask lane_bit(int lane) { return LaneMask{1} << lane; }
inline constexpr bool has_lane(LaneMask m, int lane) { return (m >> lane) & 1u; }
// A lane as an index into the per-lane arrays (value[lane_at(lane)]).
inline constexpr std::size_t lane_at(int lane) { return static_cast<std::size_t>(lane); }

// What each lane brought to one call. Only lanes in `callers` are read.
struct StepInputs {
  LaneMask callers = 0;                  // lanes that executed this call together
  LaneMask exited = 0;                   // lanes that had exited the kernel before it
  std::array<LaneMask, kWarpSize> mask{};        // each caller's member mask
  std::array<std::uint64_t, kWarpSize> value{};  // raw bits, zero-extended; predicates for votes
  std::array<std::int32_t, kWarpSize> arg{};     // shuffles: srcLane / delta / laneMask
  std::array<std::int32_t, kWarpSize> width{};   // shuffles: width
};

// What each caller received. evaluate() overwrites all of it: entries of non-callers are zero,
// src_lane is -1 for non-callers and for every lane of a non-shuffle step.
struct StepOutputs {
  std::array<std::uint64_t, kWarpSize> value{};  // result bits, zero-extended (masks as 32 bits)
  std::array<std::int8_t, kWarpSize> src_lane{}; // shuffles: lane whose value was read, -1 none
  LaneMask pred = 0;       // shuffles: PTX in-range predicate p; match_all: *pred
  LaneMask undefined = 0;  // results that CUDA leaves undefined (value still as an H100 gives it)
};

struct SemanticsOptions {
  // Value a shuffle returns when its source lane did not supply one (exited, not calling).
  // An H100 returns 0 (spec section 1.2); the result is flagged undefined either way.
  std::uint64_t invalid_source_value = 0;
};

// Computes every caller's result of one warp-level step. Preconditions: op is not a block
// barrier, accepts_type(op, type), and no lane is both a caller and exited.
// Besides the per-family rules (see sim/semantics/*.cpp), a caller's result is flagged undefined
// when a call that takes a mask breaks spec section 0: its own bit is missing from its mask, its
// mask names a lane that neither called nor exited, or a caller it names passed another mask.
void evaluate(Op op, ValueType type, const StepInputs& in, StepOutputs& out,
              const SemanticsOptions& options = {});

// The lane a shuffle reads, by the PTX formula of spec section 1.2 (width packed into the c
// operand as CUDA's headers do; every argument and width is accepted). `in_range` is PTX's p;
// when it is false the lane reads itself.
struct ShflSource {
  int lane = 0;
  bool in_range = false;
};
ShflSource shfl_source_lane(Op op, int lane, std::int32_t arg, std::int32_t width);

}  // namespace warpsim
