// A benchmark suite's shared harness, as suites keep it: every program includes this header and
// launches through it, so the launches below are in a header, not in the program's file.
#pragma once
#include <cstdio>
#include <utility>

#include "bench_config.h"  // beside this header: found from here, not from the program's folder

// Times `repeats` launches of any kernel with any arguments: a launch through a function
// pointer and a parameter pack.
template <typename... Params, typename... Args>
float timeKernel(void (*kernel)(Params...), dim3 grid, dim3 block, size_t shared, int repeats,
                 Args&&... args) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  for (int r = 0; r < repeats; ++r) {
    kernel<<<grid, block, shared>>>(std::forward<Args>(args)...);
  }
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return ms;
}

// The suite's fill kernel, launched from the header itself.
__global__ void benchFill(int* data, int n, int value) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    data[i] = value + i % BENCH_MODULUS;
  }
}

inline void benchFillDevice(int* data, int n, int value) {
  benchFill<<<(n + BENCH_BLOCK - 1) / BENCH_BLOCK, BENCH_BLOCK>>>(data, n, value);
}
