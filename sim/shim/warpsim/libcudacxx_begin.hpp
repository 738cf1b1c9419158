// Included (with libcudacxx_end.hpp) around each libcu++ header that the shim's cuda/ wrappers
// take from the CUDA toolkit: libcu++ compiles as host code when nvcc's macros are absent, so the
// shim's macros are set aside while it is read and restored after. No include guard: wrappers
// nest (libcu++'s headers include each other), and each level sets aside what is defined.
#pragma push_macro("__CUDACC__")
#pragma push_macro("__NVCC__")
#pragma push_macro("__CUDA_ARCH__")
#pragma push_macro("__CUDA_ARCH_LIST__")
#pragma push_macro("__CUDACC_VER_MAJOR__")
#pragma push_macro("__CUDACC_VER_MINOR__")
#pragma push_macro("__CUDACC_VER_BUILD__")
#pragma push_macro("__CUDA_API_VER_MAJOR__")
#pragma push_macro("__CUDA_API_VER_MINOR__")
#pragma push_macro("__global__")
#pragma push_macro("__device__")
#pragma push_macro("__host__")
#pragma push_macro("__shared__")
#pragma push_macro("__constant__")
#pragma push_macro("__managed__")
#pragma push_macro("__forceinline__")
#pragma push_macro("__noinline__")
#pragma push_macro("__align__")
#pragma push_macro("__launch_bounds__")
#pragma push_macro("__grid_constant__")
#pragma push_macro("printf")
#undef __CUDACC__
#undef __NVCC__
#undef __CUDA_ARCH__
#undef __CUDA_ARCH_LIST__
#undef __CUDACC_VER_MAJOR__
#undef __CUDACC_VER_MINOR__
#undef __CUDACC_VER_BUILD__
#undef __CUDA_API_VER_MAJOR__
#undef __CUDA_API_VER_MINOR__
#undef __global__
#undef __device__
#undef __host__
#undef __shared__
#undef __constant__
#undef __managed__
#undef __forceinline__
#undef __noinline__
#undef __align__
#undef __launch_bounds__
#undef __grid_constant__
#undef printf
