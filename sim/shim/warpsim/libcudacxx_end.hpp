// The other half of libcudacxx_begin.hpp: the shim's macros back.
#pragma pop_macro("__CUDACC__")
#pragma pop_macro("__NVCC__")
#pragma pop_macro("__CUDA_ARCH__")
#pragma pop_macro("__CUDA_ARCH_LIST__")
#pragma pop_macro("__CUDACC_VER_MAJOR__")
#pragma pop_macro("__CUDACC_VER_MINOR__")
#pragma pop_macro("__CUDACC_VER_BUILD__")
#pragma pop_macro("__CUDA_API_VER_MAJOR__")
#pragma pop_macro("__CUDA_API_VER_MINOR__")
#pragma pop_macro("__global__")
#pragma pop_macro("__device__")
#pragma pop_macro("__host__")
#pragma pop_macro("__shared__")
#pragma pop_macro("__constant__")
#pragma pop_macro("__managed__")
#pragma pop_macro("__forceinline__")
#pragma pop_macro("__noinline__")
#pragma pop_macro("__align__")
#pragma pop_macro("__launch_bounds__")
#pragma pop_macro("__grid_constant__")
#pragma pop_macro("printf")

// CCCL asks GCC to unroll its loops fully (`#pragma GCC unroll 65534`, for nvcc's `#pragma
// unroll`): unrolling changes no result, and GCC's unroller took minutes on cub's radix sort
// (its 256-digit loops, nested). The simulator's build leaves its loops rolled.
#ifdef _CCCL_PRAGMA_UNROLL
#undef _CCCL_PRAGMA_UNROLL
#undef _CCCL_PRAGMA_UNROLL_FULL
#define _CCCL_PRAGMA_UNROLL(_N)
#define _CCCL_PRAGMA_UNROLL_FULL()
#endif
