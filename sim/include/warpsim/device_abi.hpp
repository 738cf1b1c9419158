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

// initial-exec: kernel objects loaded with dlopen read this without a __tls_get_addr call.
// Bytes behind `extern __shared__` arrays (the symbol warpsim_dynamic_shared): blocks run one at a
// time, so one buffer serves every block. H100 blocks may use up to 227 KiB.
inline constexpr std::size_t kDynamicSharedCapacity = 256 * 1024;

extern thread_local const LaneEnv* current_env __attribute__((tls_model("initial-exec")));

// Call site of an intrinsic, captured through a default argument at the kernel's call.
struct CallSite {
  const char* file;
  unsigned int line;
  static constexpr CallSite here(const char* file = __builtin_FILE(),
                                 unsigned int line = __builtin_LINE()) {
    return {file, line};
  }
};

// One lane's part of a warp-level call. Blocks the lane until the call completes (or returns at
// once where the policy allows), then returns the lane's result bits. `pred` receives the
// shuffle in-range predicate or match_all's *pred when not null.
std::uint64_t warp_op(Op op, ValueType type, LaneMask mask, std::uint64_t value, std::int32_t arg,
                      std::int32_t width, CallSite site, bool* pred = nullptr);

// __syncthreads and its _count/_and/_or forms; returns the reduction (1 for plain syncthreads).
int block_barrier(Op op, int predicate, CallSite site);

int vprintf(const char* format, va_list args);

}  // namespace warpsim::device
