// The boundary between kernel code (compiled against the CUDA shim) and the simulator runtime.
// Kernel code reaches the simulator only through these few functions; each lane runs on its own
// fiber and `current_env` always points at the running lane's coordinates.
#pragma once

#include <cstdarg>
#include <cstddef>
#include <cstdint>

#include "warpsim/semantics.hpp"
#include "warpsim/vector_types.hpp"

namespace warpsim::device {

struct LaneEnv {
  uint3 thread_idx, block_idx;
  dim3 block_dim, grid_dim;
};

// Bytes behind `extern __shared__` arrays (the symbol warpsim_dynamic_shared): blocks run one at a
// time, so one buffer serves every block. H100 blocks may use up to 227 KiB.
inline constexpr std::size_t kDynamicSharedCapacity = 256 * 1024;

// initial-exec: kernel objects loaded with dlopen read this without a __tls_get_addr call.
// __thread rather than thread_local: it can have no dynamic initializer, so every read of
// threadIdx is one load, with no call to a TLS wrapper.
extern __thread const LaneEnv* current_env __attribute__((tls_model("initial-exec")));

// Call site of an intrinsic, captured through a default argument at the kernel's call.
struct CallSite {
  const char* file;
  unsigned int line;
  static constexpr CallSite here(const char* file = __builtin_FILE(),
                                 unsigned int line = __builtin_LINE()) {
    return {file, line};
  }
};

// What a lane passes to a warp-level call besides its value. 16 bytes, so that with the value,
// the call site and `pred` the whole call travels in the six argument registers.
struct WarpCall {
  Op op{};
  ValueType type = ValueType::none;
  LaneMask mask = 0;        // the member mask; 0 for __activemask, which takes none
  std::int32_t arg = 0;    // shuffles: srcLane / delta / laneMask
  std::int32_t width = 0;  // shuffles: width
};

}  // namespace warpsim::device

// One lane's part of a warp-level call (device::warp_op below calls it). Blocks the lane until the
// call completes (or returns at once where the policy allows), then returns the lane's result
// bits. `pred` receives the shuffle in-range predicate or match_all's *pred when not null.
// A small assembly function (sim/runtime/warp_call_return.cpp) that returns to the kernel with an indirect
// jump, which the CPU predicts, where a `ret` would be mispredicted on every lane.
extern "C" std::uint64_t warpsim_warp_op(warpsim::device::WarpCall call, std::uint64_t value,
                                         warpsim::device::CallSite site, bool* pred);

namespace warpsim::device {

inline std::uint64_t warp_op(WarpCall call, std::uint64_t value, CallSite site,
                             bool* pred = nullptr) {
  return warpsim_warp_op(call, value, site, pred);
}

// __syncthreads and its _count/_and/_or forms; returns the reduction (1 for plain syncthreads).
int block_barrier(Op op, int predicate, CallSite site);

int vprintf(const char* format, va_list args);

}  // namespace warpsim::device
