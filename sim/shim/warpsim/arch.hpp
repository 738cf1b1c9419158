// The macros nvcc's device pass defines, for the architecture a kernel file is compiled for, so
// that `#if __CUDA_ARCH__ >= 800` and `#ifdef __CUDACC__` take the paths they take on a GPU.
//
// `warpsim run` passes -D__CUDA_ARCH__=NNN and -D__CUDA_ARCH_LIST__=NNN for the architecture of
// the request (KernelFileRequest::arch, "sm_90" by default); anything else that includes the shim
// gets sm_90, the H100 whose behaviour the simulator models. The toolkit is CUDA 13.0 (nvcc
// V13.0.88), whose nvcc defines exactly these values for `nvcc -arch=sm_90`.
//
// Intrinsics that need a newer architecture than the chosen one are declared through
// WARPSIM_NEEDS_ARCH below: calling one fails to compile with a message naming the intrinsic, the
// architecture it needs and the one compiled for, as nvcc rejects them (there, as an undefined
// identifier).
#pragma once

#ifndef __CUDA_ARCH__
#define __CUDA_ARCH__ 900
#endif
#ifndef __CUDA_ARCH_LIST__
#define __CUDA_ARCH_LIST__ __CUDA_ARCH__
#endif

#if __CUDA_ARCH__ != 700 && __CUDA_ARCH__ != 750 && __CUDA_ARCH__ != 800 && \
    __CUDA_ARCH__ != 860 && __CUDA_ARCH__ != 870 && __CUDA_ARCH__ != 890 && __CUDA_ARCH__ != 900
#error "warpsim compiles kernel files for sm_70, sm_75, sm_80, sm_86, sm_87, sm_89 or sm_90 (__CUDA_ARCH__ 700 ... 900)"
#endif

#define __CUDACC__ 1
#define __NVCC__ 1
#define __CUDACC_VER_MAJOR__ 13
#define __CUDACC_VER_MINOR__ 0
#define __CUDACC_VER_BUILD__ 88
#define __CUDA_API_VER_MAJOR__ 13
#define __CUDA_API_VER_MINOR__ 0
// cuda_runtime_api.h's; nvcc includes cuda_runtime.h in every .cu file, so it is always there.
#define CUDART_VERSION 13000
// The shim's own mark, for code that must tell the simulator from a GPU build.
#define __CUDACC_WARPSIM__ 1

#include "warpsim/unsupported.hpp"  // after the macros: nvcc defines them before any header

#define WARPSIM_STRINGIZE_(x) #x
#define WARPSIM_STRINGIZE(x) WARPSIM_STRINGIZE_(x)

namespace warpsim::shim {
// False, but only once a template is instantiated: static_assert(needs_arch<A...>, ...) in a
// template body fires where the template is used, not where it is declared.
template <class... Args>
inline constexpr bool needs_arch = false;
}  // namespace warpsim::shim

// Declares NAME as a function template that accepts any arguments and fails to compile when
// called: for intrinsics the chosen architecture lacks. RESULT is what it would return; ARCH the
// sm number it needs:
//   WARPSIM_NEEDS_ARCH(unsigned, __reduce_add_sync, 80)   // sm_80: __CUDA_ARCH__ >= 800
#define WARPSIM_NEEDS_ARCH(RESULT, NAME, ARCH)                                                   \
  template <class... Args>                                                                       \
  RESULT NAME(Args...) {                                                                         \
    static_assert(::warpsim::shim::needs_arch<Args...>,                                          \
                  #NAME " needs sm_" WARPSIM_STRINGIZE(ARCH) " or newer (__CUDA_ARCH__ >= " #ARCH \
                  "0), but this file is compiled with __CUDA_ARCH__ " WARPSIM_STRINGIZE(        \
                      __CUDA_ARCH__) " (warpsim run --arch)");                                   \
    return ::warpsim::shim::default_value<RESULT>();                                           \
  }
