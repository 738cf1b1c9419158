// CUDA's declaration keywords and built-in variables, for host compilation of kernel files.
// Blocks run one at a time, so a function-local `static` is exactly per-block `__shared__` memory.
#pragma once

#include "warpsim/device_abi.hpp"

#if defined(WARPSIM_SCAN_KERNELS)
#define __global__ __global__  // kept in preprocessed text, where `warpsim run` looks for kernels
#else
#define __global__
#endif
#define __device__
#define __host__
#define __forceinline__ inline __attribute__((__always_inline__))
// nvcc's front end knows __noinline__ as a keyword; a host compiler can only have a macro, and a
// macro also rewrites the GNU attribute spelling `__attribute__((__noinline__))` that libstdc++
// uses (into `__attribute__((__attribute__((__noinline__))))`, an error). The expansion names
// the attribute by its reserved spelling, which the preprocessor does not expand again here, and
// the libstdc++ files that use that spelling are read through the wrappers in ../bits/, which set
// the macro aside (see ../bits/README.md).
#define __noinline__ __attribute__((__noinline__))
#define __inline__ inline
#define __shared__ static
#define __constant__ static
#define __managed__
#define __restrict__ __restrict
#define __align__(n) alignas(n)
#define __launch_bounds__(...)
#define __grid_constant__
#define __device_builtin__
#define __builtin_align__(n) alignas(n)

inline constexpr int warpSize = 32;

namespace warpsim::shim {
inline const uint3& thread_idx() { return device::current_env->thread_idx; }
inline const uint3& block_idx() { return device::current_env->block_idx; }
inline const dim3& block_dim() { return device::current_env->block_dim; }
inline const dim3& grid_dim() { return device::current_env->grid_dim; }
}  // namespace warpsim::shim

#define threadIdx (::warpsim::shim::thread_idx())
#define blockIdx (::warpsim::shim::block_idx())
#define blockDim (::warpsim::shim::block_dim())
#define gridDim (::warpsim::shim::grid_dim())
