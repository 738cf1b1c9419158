// CUDA runtime APIs that warpsim does not simulate: inter-process memory and a second GPU. Their
// types are here so that programs compile; the functions are declared without a definition, and
// warpsim links a stub for each one a program calls that stops the program there, naming it and
// the line (sim/runner/library_stubs.hpp). A program that never reaches one runs.
#pragma once

#include <cstddef>

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
}
