// Where the calling thread sits in its block and warp, for the shim's own helpers (cooperative
// groups, inline PTX's special registers). Warps are cut from the linear thread index, x fastest.
#pragma once

#include "warpsim/device_abi.hpp"

namespace warpsim::shim {

inline unsigned int block_thread_rank() {
  const device::LaneEnv& e = *device::current_env;
  return e.thread_idx.x + e.block_dim.x * (e.thread_idx.y + e.block_dim.y * e.thread_idx.z);
}
inline unsigned int lane_id() { return block_thread_rank() % 32u; }
inline unsigned int lanemask_lt() { return (1u << lane_id()) - 1u; }

}  // namespace warpsim::shim
