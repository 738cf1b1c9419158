// CUDA runtime APIs that warpsim does not simulate: CUDA graphs and stream capture, inter-process
// memory, a second GPU, host functions in streams, memory pools. Their types are here so that
// programs compile; the functions are declared without a definition, and warpsim links a stub for
// each one a program calls that stops the program there, naming it and the line
// (sim/runner/library_stubs.hpp). A program that never reaches one runs.
#pragma once

#include <cstddef>

struct CUgraph_st;
struct CUgraphExec_st;
struct CUgraphNode_st;
struct CUmemPoolHandle_st;
using cudaGraph_t = CUgraph_st*;
using cudaGraphExec_t = CUgraphExec_st*;
using cudaGraphNode_t = CUgraphNode_st*;
using cudaMemPool_t = CUmemPoolHandle_st*;

enum cudaStreamCaptureMode {
  cudaStreamCaptureModeGlobal = 0,
  cudaStreamCaptureModeThreadLocal = 1,
  cudaStreamCaptureModeRelaxed = 2
};
enum cudaStreamCaptureStatus {
  cudaStreamCaptureStatusNone = 0,
  cudaStreamCaptureStatusActive = 1,
  cudaStreamCaptureStatusInvalidated = 2
};
// Members named gridDim and blockDim, as CUDA names them: the shim's built-in variables are
// macros (keywords.hpp), set aside for the declaration. (Code that reads these members by name
// does not compile: it meets the macros.)
#pragma push_macro("gridDim")
#pragma push_macro("blockDim")
#undef gridDim
#undef blockDim
struct cudaKernelNodeParams {
  void* func;
  dim3 gridDim;
  dim3 blockDim;
  unsigned int sharedMemBytes;
  void** kernelParams;
  void** extra;
};
#pragma pop_macro("gridDim")
#pragma pop_macro("blockDim")
struct cudaMemsetParams {
  void* dst;
  std::size_t pitch;
  unsigned int value;
  unsigned int elementSize;
  std::size_t width;
  std::size_t height;
};
using cudaHostFn_t = void (*)(void*);
struct cudaHostNodeParams {
  cudaHostFn_t fn;
  void* userData;
};
using cudaStreamCallback_t = void (*)(cudaStream_t, cudaError_t, void*);

struct cudaIpcMemHandle_st {
  char reserved[64];
};
using cudaIpcMemHandle_t = cudaIpcMemHandle_st;
struct cudaIpcEventHandle_st {
  char reserved[64];
};
using cudaIpcEventHandle_t = cudaIpcEventHandle_st;
inline constexpr unsigned cudaIpcMemLazyEnablePeerAccess = 0x01;

extern "C" {
// Graphs and stream capture: warpsim runs each launch when it is made.
cudaError_t cudaGraphCreate(cudaGraph_t*, unsigned int);
cudaError_t cudaGraphDestroy(cudaGraph_t);
cudaError_t cudaGraphInstantiate(cudaGraphExec_t*, cudaGraph_t, unsigned long long = 0);
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t*, cudaGraph_t, unsigned long long = 0);
cudaError_t cudaGraphLaunch(cudaGraphExec_t, cudaStream_t);
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t);
cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t*, cudaGraph_t, const cudaGraphNode_t*,
                                   std::size_t, const cudaKernelNodeParams*);
cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t*, cudaGraph_t, const cudaGraphNode_t*,
                                   std::size_t, const cudaMemsetParams*);
cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t*, cudaGraph_t, const cudaGraphNode_t*,
                                   std::size_t, const cudaMemcpy3DParms*);
cudaError_t cudaGraphAddHostNode(cudaGraphNode_t*, cudaGraph_t, const cudaGraphNode_t*,
                                 std::size_t, const cudaHostNodeParams*);
cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t*, cudaGraph_t, const cudaGraphNode_t*,
                                  std::size_t);
cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t*, cudaGraph_t, const cudaGraphNode_t*,
                                       std::size_t, cudaGraph_t);
cudaError_t cudaGraphClone(cudaGraph_t*, cudaGraph_t);
cudaError_t cudaGraphGetNodes(cudaGraph_t, cudaGraphNode_t*, std::size_t*);
cudaError_t cudaGraphUpload(cudaGraphExec_t, cudaStream_t);
cudaError_t cudaStreamBeginCapture(cudaStream_t, cudaStreamCaptureMode);
cudaError_t cudaStreamEndCapture(cudaStream_t, cudaGraph_t*);
cudaError_t cudaStreamIsCapturing(cudaStream_t, cudaStreamCaptureStatus*);
// Host work in streams.
cudaError_t cudaLaunchHostFunc(cudaStream_t, cudaHostFn_t, void*);
cudaError_t cudaStreamAddCallback(cudaStream_t, cudaStreamCallback_t, void*, unsigned int);
// Other processes' memory and a second GPU.
cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t*, void*);
cudaError_t cudaIpcOpenMemHandle(void**, cudaIpcMemHandle_t, unsigned int);
cudaError_t cudaIpcCloseMemHandle(void*);
cudaError_t cudaIpcGetEventHandle(cudaIpcEventHandle_t*, cudaEvent_t);
cudaError_t cudaIpcOpenEventHandle(cudaEvent_t*, cudaIpcEventHandle_t);
cudaError_t cudaMemcpyPeer(void*, int, const void*, int, std::size_t);
cudaError_t cudaMemcpyPeerAsync(void*, int, const void*, int, std::size_t, cudaStream_t = nullptr);
cudaError_t cudaDeviceEnablePeerAccess(int, unsigned int);
cudaError_t cudaDeviceDisablePeerAccess(int);
// Memory pools.
cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t*, int);
cudaError_t cudaDeviceGetMemPool(cudaMemPool_t*, int);
cudaError_t cudaMallocFromPoolAsync(void**, std::size_t, cudaMemPool_t, cudaStream_t);
}
