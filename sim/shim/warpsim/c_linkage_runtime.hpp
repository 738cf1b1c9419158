// The runtime calls a program's C files make (nvcc hands a .c file to the host C compiler, which
// links against libcudart's C symbols): Rodinia's b+tree calls cudaSetDevice from main.c. The C
// files see them declared in c/cuda_runtime_api.h (keep the two lists alike). The
// shim's runtime functions are C++ (overloads, templates, default arguments), so each call here
// gets a C-linkage twin under the C name that forwards to it. They are inline and `used`: every
// C++ file of the program emits them, the linker keeps one, and a program that defines the name
// itself keeps its own. Only calls whose arguments a C caller passes as C++ declares them are
// listed (no structs whose layout is the shim's).
#pragma once

// Not in a kernel file run one kernel at a time (`warpsim run`), which is no program with C files.
#if !defined(WARPSIM_KERNEL_FILE)

#include <cstddef>

// The twin of `name` returns `call`; most forward their arguments to the C++ function.
#define WARPSIM_C_TWIN(result, name, parameters, call)                                       \
  extern "C" inline __attribute__((used)) result warpsim_c_##name parameters __asm__(#name); \
  extern "C" inline result warpsim_c_##name parameters { return call; }
#define WARPSIM_C_LINKAGE(result, name, parameters, arguments) \
  WARPSIM_C_TWIN(result, name, parameters, ::name arguments)

WARPSIM_C_LINKAGE(cudaError_t, cudaSetDevice, (int device), (device))
WARPSIM_C_LINKAGE(cudaError_t, cudaGetDevice, (int* device), (device))
WARPSIM_C_LINKAGE(cudaError_t, cudaGetDeviceCount, (int* count), (count))
WARPSIM_C_LINKAGE(cudaError_t, cudaDeviceSynchronize, (void), ())
WARPSIM_C_LINKAGE(cudaError_t, cudaThreadSynchronize, (void), ())
WARPSIM_C_LINKAGE(cudaError_t, cudaDeviceReset, (void), ())
WARPSIM_C_LINKAGE(cudaError_t, cudaGetLastError, (void), ())
WARPSIM_C_LINKAGE(cudaError_t, cudaPeekAtLastError, (void), ())
WARPSIM_C_LINKAGE(const char*, cudaGetErrorString, (cudaError_t error), (error))
WARPSIM_C_LINKAGE(const char*, cudaGetErrorName, (cudaError_t error), (error))
WARPSIM_C_LINKAGE(cudaError_t, cudaMalloc, (void** pointer, std::size_t bytes), (pointer, bytes))
WARPSIM_C_LINKAGE(cudaError_t, cudaMallocHost, (void** pointer, std::size_t bytes),
                  (pointer, bytes))
// The copies and frees name their C caller's line when a GPU would refuse them
// (program::check_copy): the twin itself is what the C code calls, so its return address is the
// caller's.
WARPSIM_C_TWIN(cudaError_t, cudaFree, (void* pointer),
               ::warpsim::shim::free_memory(pointer, __builtin_return_address(0)))
WARPSIM_C_TWIN(cudaError_t, cudaFreeHost, (void* pointer),
               static_cast<cudaError_t>(::warpsim::program::release_checked(
                   "cudaFreeHost", pointer, __builtin_return_address(0))))
WARPSIM_C_TWIN(cudaError_t, cudaMemcpy,
               (void* destination, const void* source, std::size_t bytes, cudaMemcpyKind kind),
               ::warpsim::shim::copy(destination, source, bytes, kind, "cudaMemcpy",
                                     __builtin_return_address(0)))
WARPSIM_C_TWIN(cudaError_t, cudaMemset, (void* destination, int value, std::size_t bytes),
               ::warpsim::shim::set(destination, value, bytes, "cudaMemset",
                                    __builtin_return_address(0)))
WARPSIM_C_LINKAGE(cudaError_t, cudaMallocManaged,
                  (void** pointer, std::size_t bytes, unsigned flags), (pointer, bytes, flags))
WARPSIM_C_LINKAGE(cudaError_t, cudaHostAlloc, (void** pointer, std::size_t bytes, unsigned flags),
                  (pointer, bytes, flags))
WARPSIM_C_LINKAGE(cudaError_t, cudaMemGetInfo, (std::size_t* free_bytes, std::size_t* total_bytes),
                  (free_bytes, total_bytes))
WARPSIM_C_LINKAGE(cudaError_t, cudaStreamCreate, (cudaStream_t* stream), (stream))
WARPSIM_C_LINKAGE(cudaError_t, cudaStreamSynchronize, (cudaStream_t stream), (stream))
WARPSIM_C_LINKAGE(cudaError_t, cudaStreamDestroy, (cudaStream_t stream), (stream))
WARPSIM_C_LINKAGE(cudaError_t, cudaEventCreate, (cudaEvent_t* event), (event))
WARPSIM_C_LINKAGE(cudaError_t, cudaEventRecord, (cudaEvent_t event, cudaStream_t stream),
                  (event, stream))
WARPSIM_C_LINKAGE(cudaError_t, cudaEventSynchronize, (cudaEvent_t event), (event))
WARPSIM_C_LINKAGE(cudaError_t, cudaEventElapsedTime,
                  (float* ms, cudaEvent_t start, cudaEvent_t end), (ms, start, end))
WARPSIM_C_LINKAGE(cudaError_t, cudaEventDestroy, (cudaEvent_t event), (event))
WARPSIM_C_TWIN(cudaError_t, cudaMemcpyAsync,
               (void* destination, const void* source, std::size_t bytes, cudaMemcpyKind kind,
                cudaStream_t stream),
               ::warpsim::shim::copy_async(destination, source, bytes, kind, stream,
                                           __builtin_return_address(0)))
WARPSIM_C_TWIN(cudaError_t, cudaMemsetAsync,
               (void* destination, int value, std::size_t bytes, cudaStream_t stream),
               ::warpsim::shim::set_async(destination, value, bytes, stream,
                                          __builtin_return_address(0)))
#undef WARPSIM_C_LINKAGE
#undef WARPSIM_C_TWIN

#endif  // !defined(WARPSIM_KERNEL_FILE)
