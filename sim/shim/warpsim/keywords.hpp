// CUDA's declaration keywords and built-in variables, for host compilation of kernel files.
// Each keyword becomes what gives the host program the same meaning, in every position nvcc
// accepts it (after or before `static`, at namespace or block scope, in a header or the file).
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
// One variable per thread of the host program, static storage duration at block scope: blocks
// run one at a time on a thread, so it is exactly per-block shared memory. `thread_local` rather
// than `static` combines with `static` (`static __shared__ float s[32];`) and with `extern`, in
// functions and namespaces alike.
#define __shared__ thread_local
// A namespace-scope variable (nvcc rejects __constant__ in functions); `inline` (C++17) so that
// `static __constant__` and `extern __constant__` are well-formed and a header that defines one
// can be included by several files of a test. Each in an ELF section of its own,
// warpsim_constant_N (one name would mix read-only and writable variables, which compilers
// reject): __isConstant and the constant window (memory_intrinsics.hpp) find them there.
#define WARPSIM_STRINGIFY_(x) #x
#define WARPSIM_STRINGIFY(x) WARPSIM_STRINGIFY_(x)
#define __constant__ \
  inline __attribute__((section("warpsim_constant_" WARPSIM_STRINGIFY(__COUNTER__))))
#define __managed__
#define __restrict__ __restrict
// nvcc's own host definition: a GNU attribute is allowed among decl-specifiers (after `static`,
// `__shared__`), where C++'s alignas is not.
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __attribute__((aligned(n)))
#define __launch_bounds__(...)
#define __maxnreg__(n)
#define __cluster_dims__(...)
#define __grid_constant__
#define __device_builtin__

inline constexpr int warpSize = 32;

namespace warpsim::shim {
// Outside a kernel, host code that runs device code (a __host__ __device__ functor's __CUDA_ARCH__
// branch, which Thrust's host backend calls from its loops: warpsim compiles one pass with
// __CUDA_ARCH__ defined) runs as one thread: thread 0 of block 0 of a one-thread grid.
inline constexpr device::LaneEnv kHostThreadEnv{{0, 0, 0}, {0, 0, 0}, {1, 1, 1}, {1, 1, 1}};
inline const device::LaneEnv& env() {
  const device::LaneEnv* e = device::current_env;
  return __builtin_expect(e != nullptr, 1) ? *e : kHostThreadEnv;
}
inline const uint3& thread_idx() { return env().thread_idx; }
inline const uint3& block_idx() { return env().block_idx; }
inline const dim3& block_dim() { return env().block_dim; }
inline const dim3& grid_dim() { return env().grid_dim; }
}  // namespace warpsim::shim

#define threadIdx (::warpsim::shim::thread_idx())
#define blockIdx (::warpsim::shim::block_idx())
#define blockDim (::warpsim::shim::block_dim())
#define gridDim (::warpsim::shim::grid_dim())
