/* Stand-in for CUDA's <cuda_runtime_api.h> in a program's C files: nvcc hands a .c file to the
   host C compiler with the toolkit's headers, whose C part declares the runtime's functions.
   warpsim's runtime is C++ (warpsim/host_runtime.hpp); each function declared here is a
   C-linkage twin of it, which the program's CUDA or C++ files emit
   (warpsim/c_linkage_runtime.hpp). Only this folder is searched for C files, so a C file that
   calls a function not declared here gets the compiler's error for it. */
#ifndef WARPSIM_C_CUDA_RUNTIME_API_H
#define WARPSIM_C_CUDA_RUNTIME_API_H

#include <stddef.h>

#include "../warpsim/runtime_enums.h"

struct CUstream_st;
struct CUevent_st;
typedef struct CUstream_st* cudaStream_t;
typedef struct CUevent_st* cudaEvent_t;

#define cudaHostAllocDefault 0x00
#define cudaMemAttachGlobal 0x01

cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaThreadSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char* cudaGetErrorString(cudaError_t error);
const char* cudaGetErrorName(cudaError_t error);
cudaError_t cudaMalloc(void** pointer, size_t bytes);
cudaError_t cudaMallocHost(void** pointer, size_t bytes);
cudaError_t cudaMallocManaged(void** pointer, size_t bytes, unsigned int flags);
cudaError_t cudaHostAlloc(void** pointer, size_t bytes, unsigned int flags);
cudaError_t cudaFree(void* pointer);
cudaError_t cudaFreeHost(void* pointer);
cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes);
cudaError_t cudaMemcpy(void* destination, const void* source, size_t bytes,
                       enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void* destination, const void* source, size_t bytes,
                            enum cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t cudaMemset(void* destination, int value, size_t bytes);
cudaError_t cudaMemsetAsync(void* destination, int value, size_t bytes, cudaStream_t stream);
cudaError_t cudaStreamCreate(cudaStream_t* stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaEventDestroy(cudaEvent_t event);

#endif /* WARPSIM_C_CUDA_RUNTIME_API_H */
