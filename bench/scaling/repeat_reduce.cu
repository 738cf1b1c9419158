// The grid-stride reduction of bench/programs/reduce.cu over N floats (default 16M, 1056 x 256
// threads) launched three times, then an empty kernel three times, each launch timed: a program's
// first launch pays for starting the worker threads and their stacks (bench/scaling/run.sh).
// Usage: repeat_reduce [N]
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "../programs/bench_util.h"
#include "../programs/reduce_kernels.cuh"

__global__ void empty(int* never) {
  if (never != nullptr) *never = 1;
}

int main(int argc, char** argv) {
  const int n = static_cast<int>(size_argument(argc, argv, 1, 16 << 20));
  const std::vector<float> ones(n, 1.0f);
  float *in, *total;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&total, sizeof(float));
  cudaMemcpy(in, ones.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  for (int round = 0; round < 3; ++round) {
    const double start = now_seconds();
    reduceSum<<<1056, 256>>>(in, total, n);
    cudaDeviceSynchronize();
    std::printf("reduce launch %d: %.4f s\n", round, now_seconds() - start);
  }
  for (int round = 0; round < 3; ++round) {
    const double start = now_seconds();
    empty<<<1056, 256>>>(nullptr);
    cudaDeviceSynchronize();
    std::printf("empty launch %d: %.4f s\n", round, now_seconds() - start);
  }
  cudaFree(in);
  cudaFree(total);
  return 0;
}
