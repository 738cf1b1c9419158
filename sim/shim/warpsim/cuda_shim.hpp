// The host face of CUDA for kernel files: included before a kernel file (g++ -include), it makes
// ordinary CUDA C++ device code compile with the system compiler and run in the simulator.
// Nothing in a kernel file is written for the simulator.
#pragma once

// libcu++ (CCCL) includes <cuda_fp8.h> when it can find one, which the toolkit's include folder
// (searched after the shim) now provides: the shim has no fp8 types yet, so CCCL keeps them off,
// as before that folder was searched.
#if !defined(CCCL_DISABLE_NVFP8_SUPPORT)
#define CCCL_DISABLE_NVFP8_SUPPORT
#endif

// Thrust builds its CPP device system here, not its CUDA one (whose kernels and PTX the host
// compiler cannot build): device_vector's memory is host memory, as the simulated device's is,
// so kernels take its raw pointers, and thrust::sort and the rest run as host loops. A program
// that chose a device system itself (-DTHRUST_DEVICE_SYSTEM=...) keeps its choice.
#if !defined(THRUST_DEVICE_SYSTEM)
#define THRUST_DEVICE_SYSTEM THRUST_DEVICE_SYSTEM_CPP
#endif

// First: nvcc defines __CUDACC__ and __CUDA_ARCH__ before any header is read (glibc and other
// libraries look at them).
#include "warpsim/arch.hpp"

#include <cmath>
// The C++ <math.h>: CUDA's global math overloads (isnan, signbit, sqrt(float), ...) are found
// unqualified in device code, as nvcc's math_functions.h declares them.
#include <math.h>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <climits>
#include <cfloat>
// The standard headers the shim's own headers use, read before keywords.hpp defines
// __noinline__: libstdc++ writes __attribute__((__noinline__)) in <memory> and <string>, and the
// wrappers in ../bits/ that set the macro aside are not searched in every installed layout (GCC
// 13 read the real shared_ptr_base.h in the package test's consumer).
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "warpsim/keywords.hpp"
#include "warpsim/runtime_types.hpp"
#include "warpsim/vector_types.hpp"
#include "warpsim/half_types.hpp"
#include "warpsim/host_runtime.hpp"
#include "warpsim/c_linkage_runtime.hpp"
#include "warpsim/device_assert.hpp"
#include "warpsim/warp_intrinsics.hpp"
#include "warpsim/atomics.hpp"
#include "warpsim/nv_atomics.hpp"
#include "warpsim/device_math.hpp"
#include "warpsim/float_intrinsics.hpp"
#include "warpsim/integer_intrinsics.hpp"
#include "warpsim/simd_intrinsics.hpp"
#include "warpsim/memory_intrinsics.hpp"
#include "warpsim/device_printf.hpp"
#include "warpsim/inline_ptx.hpp"

// The include guards of the toolkit headers whose content the lines above provide (nvcc reads
// cuda_runtime.h, and through it these, before every .cu file): code that tests them (the
// samples' helper_cuda.h: #ifdef __DRIVER_TYPES_H__, #ifdef __CUDA_RUNTIME_H__) sees what it sees
// under nvcc, and a toolkit header that includes one of them by "name" (cublas_api.h includes
// "driver_types.h") skips it.
#define __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_API_H__
#define __DRIVER_TYPES_H__
#define __DRIVER_FUNCTIONS_H__
#define __HOST_DEFINES_H__
#define __HOST_CONFIG_H__
#define __BUILTIN_TYPES_H__
#define __DEVICE_TYPES_H__
#define __VECTOR_TYPES_H__
#define __VECTOR_FUNCTIONS_H__
#define __TEXTURE_TYPES_H__
#define __SURFACE_TYPES_H__
#define __CHANNEL_DESCRIPTOR_H__
#define __CUDA_TEXTURE_TYPES_H__
#define __CUDA_SURFACE_TYPES_H__
#define __TEXTURE_FETCH_FUNCTIONS_H__
#define __TEXTURE_INDIRECT_FUNCTIONS_H__
#define __SURFACE_FUNCTIONS_H__
#define __SURFACE_INDIRECT_FUNCTIONS_H__
#define __DEVICE_LAUNCH_PARAMETERS_H__
#define __DEVICE_FUNCTIONS_H__
#define __COMMON_FUNCTIONS_H__
#define __MATH_FUNCTIONS_H__
#define __CUDA_DEVICE_RUNTIME_API_H__
#define __DEVICE_ATOMIC_FUNCTIONS_H__
#define __DEVICE_DOUBLE_FUNCTIONS_H__
#define __SM_20_ATOMIC_FUNCTIONS_H__
#define __SM_20_INTRINSICS_H__
#define __SM_30_INTRINSICS_H__
#define __SM_32_ATOMIC_FUNCTIONS_H__
#define __SM_32_INTRINSICS_H__
#define __SM_35_ATOMIC_FUNCTIONS_H__
#define __SM_35_INTRINSICS_H__
#define __SM_60_ATOMIC_FUNCTIONS_H__
#define __SM_61_INTRINSICS_H__
#define __SM_70_RT_H__
#define __SM_80_RT_H__
#define __SM_90_RT_H__
#define __CUDA_PROFILER_API_H__

// host_defines.h's macros that toolkit headers put in their declarations.
#define CUDARTAPI
#define CUDARTAPI_CDECL
#define CUDART_CB
#define CUDART_DEVICE
#define __cudart_builtin__
#define __device_builtin_texture_type__
#define __device_builtin_surface_type__
#define __no_return__ __attribute__((noreturn))
#define __thread__ __thread
#define __import__
#define __export__
#define __cdecl
#define __annotate__(a) __attribute__((a))
#define __location__(a) __annotate__(a)
#define __specialization_static
#define __nv_pure__ __attribute__((pure))
#define __inline_hint__
#define __CUDA_ALIGN__(n) __attribute__((aligned(n)))
#if !defined(__dv)
#define __dv(v) = v
#endif
#define CUDART_DEPRECATED
#define __CUDA_DEPRECATED
#define __CUDART_API_PTDS(api) api
#define __CUDART_API_PTSZ(api) api
