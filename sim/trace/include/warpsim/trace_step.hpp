// One traced step: a warp-level call (or a block barrier) as every participating lane made it.
#pragma once

#include <array>
#include <cstdint>

#include "warpsim/semantics.hpp"

namespace warpsim {

struct SourceLine {
  std::uint32_t file = 0;  // index into Trace::files
  std::uint32_t line = 0;
  friend constexpr bool operator==(const SourceLine&, const SourceLine&) = default;
};

// One warp-level operation as every participating lane saw it. Entries of lanes outside
// `participants` are 0 (src_lane -1). arg, width and src_lane belong to shuffles; for every other
// op they are 0, 0 and -1.
struct TraceStep {
  Op op{};
  ValueType type = ValueType::none;
  std::uint64_t block = 0;   // linear block index
  std::uint32_t warp = 0;    // warp index within the block
  LaneMask mask = 0;         // the member mask (of the lowest participant when they disagree)
  LaneMask participants = 0; // lanes that executed the call together
  LaneMask exited = 0;       // lanes of the warp that had exited before it
  LaneMask undefined = 0;    // participants whose result CUDA leaves undefined
  LaneMask pred = 0;         // shuffles: in-range predicate; match_all: *pred
  std::uint32_t sequence = 0;  // per-warp step number (0, 1, 2, ...)
  std::array<std::uint64_t, kWarpSize> input{};
  std::array<std::int32_t, kWarpSize> arg{};
  std::array<std::int32_t, kWarpSize> width{};
  std::array<std::int8_t, kWarpSize> src_lane = no_source_lanes();
  std::array<std::uint64_t, kWarpSize> output{};
  std::array<LaneMask, kWarpSize> lane_mask{};   // each participant's own mask
  std::array<SourceLine, kWarpSize> where{};     // each participant's call site

  friend bool operator==(const TraceStep&, const TraceStep&) = default;

  static constexpr std::array<std::int8_t, kWarpSize> no_source_lanes() {
    std::array<std::int8_t, kWarpSize> lanes{};
    lanes.fill(-1);
    return lanes;
  }
};

}  // namespace warpsim
