// 256-bin histogram of N bytes (default 16M), as in "CUDA by Example": each block counts into a
// histogram in shared memory with atomicAdd over a grid-stride loop, then adds its counts to the
// global histogram with atomicAdd.
// Usage: histogram [N]
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#include "bench_util.h"
#include "cuda_check.cuh"

__global__ void histogram256(const unsigned char* data, int n, unsigned int* histo) {
  __shared__ unsigned int temp[256];
  temp[threadIdx.x] = 0;
  __syncthreads();
  for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&temp[data[i]], 1);
  __syncthreads();
  atomicAdd(&histo[threadIdx.x], temp[threadIdx.x]);
}

int main(int argc, char** argv) {
  const int n = static_cast<int>(size_argument(argc, argv, 1, 16 << 20));
  std::vector<unsigned char> data(n);
  for (int i = 0; i < n; ++i) data[i] = static_cast<unsigned char>(hash32(i) >> 24);
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const int blocks = prop.multiProcessorCount * 2;
  unsigned char* d_data;
  unsigned int* d_histo;
  CHECK(cudaMalloc(&d_data, n));
  CHECK(cudaMalloc(&d_histo, 256 * sizeof(unsigned int)));
  CHECK(cudaMemcpy(d_data, data.data(), n, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_histo, 0, 256 * sizeof(unsigned int)));

  const double start = now_seconds();
  histogram256<<<blocks, 256>>>(d_data, n, d_histo);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  const double end = now_seconds();

  unsigned int histo[256];
  CHECK(cudaMemcpy(histo, d_histo, sizeof histo, cudaMemcpyDeviceToHost));
  unsigned int expected[256] = {};
  for (int i = 0; i < n; ++i) ++expected[data[i]];
  int wrongBins = 0;
  long total = 0;
  for (int b = 0; b < 256; ++b) {
    if (histo[b] != expected[b]) ++wrongBins;
    total += histo[b];
  }
  CHECK(cudaFree(d_data));
  CHECK(cudaFree(d_histo));
  std::printf("histogram of %d bytes in %d blocks x 256: %ld counted, bin 0 = %u, %d wrong bins\n",
              n, blocks, total, histo[0], wrongBins);
  print_time("compute", end - start);
  std::printf("%s\n", wrongBins == 0 ? "PASSED" : "FAILED");
  return wrongBins == 0 ? 0 : 1;
}
