// Every CUDA intrinsic the simulator provides, registered once: its name, the step it records,
// its family and a one-line contract. The CUDA shim, the trace views and the docs read this.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "warpsim/semantics.hpp"

namespace warpsim {

enum class IntrinsicFamily : std::uint8_t {
  shuffle,        // __shfl*_sync
  vote,           // __ballot/__any/__all/__uni_sync
  match,          // __match_any/_all_sync
  reduce,         // __reduce_*_sync
  activemask,     // __activemask
  warp_barrier,   // __syncwarp
  block_barrier,  // __syncthreads*
  bit,            // __popc, __ffs, __clz, __brev, __fns: plain per-lane functions (bit_ops.hpp)
};
std::string_view to_string(IntrinsicFamily family);

struct IntrinsicInfo {
  std::string_view name;  // CUDA spelling, e.g. "__shfl_xor_sync"
  std::optional<Op> op;   // the step a call records; none for bit helpers (not traced)
  IntrinsicFamily family{};
  std::string_view contract;  // what lane i receives, in one line
};

// The whole table, in a fixed order (families together).
std::span<const IntrinsicInfo> intrinsic_table();

// The entry named `name`, or nullptr.
const IntrinsicInfo* find_intrinsic(std::string_view name);

// The intrinsic that records `op` (every Op has exactly one).
const IntrinsicInfo& intrinsic_for(Op op);

}  // namespace warpsim
