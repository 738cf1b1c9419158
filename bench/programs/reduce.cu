// Sum of N floats (default 16M): a grid-stride loop per thread, a warp reduction with
// __shfl_down_sync, the warps' sums through shared memory, one atomicAdd per block.
// Usage: reduce [N]
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#include "bench_util.h"
#include "cuda_check.cuh"

#include "reduce_kernels.cuh"

int main(int argc, char** argv) {
  const int n = static_cast<int>(size_argument(argc, argv, 1, 16 << 20));
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) in[i] = static_cast<float>(hash32(i) % 16) * 0.25f;
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const int threads = 256;
  const int blocks = prop.multiProcessorCount * 8;
  float *d_in, *d_total;
  CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CHECK(cudaMalloc(&d_total, sizeof(float)));
  CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_total, 0, sizeof(float)));

  const double start = now_seconds();
  reduceSum<<<blocks, threads>>>(d_in, d_total, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  const double end = now_seconds();

  float total = 0;
  CHECK(cudaMemcpy(&total, d_total, sizeof(float), cudaMemcpyDeviceToHost));
  double expected = 0;
  for (int i = 0; i < n; ++i) expected += in[i];
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_total));
  const bool passed = std::fabs(total - expected) <= 1e-5 * expected;
  std::printf("sum of %d floats in %d blocks x %d: %.1f (expected %.1f)\n", n, blocks, threads,
              total, expected);
  print_time("compute", end - start);
  std::printf("%s\n", passed ? "PASSED" : "FAILED");
  return passed ? 0 : 1;
}
