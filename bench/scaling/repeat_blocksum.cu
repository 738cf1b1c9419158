// Vector add, then a shuffle block sum (the kernels of bench/programs/vector_add.cu), over N
// floats (default 4M), each launched three times and timed: a program's first launch pays for
// starting the worker threads and their stacks (bench/scaling/run.sh).
// Usage: repeat_blocksum [N]
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "../programs/bench_util.h"
#include "../programs/vector_add_kernels.cuh"

int main(int argc, char** argv) {
  const int n = static_cast<int>(size_argument(argc, argv, 1, 4 << 20));
  const int blocks = (n + 255) / 256;
  const std::vector<float> ones(n, 1.0f);
  float *a, *b, *c, *partial;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  cudaMalloc(&c, n * sizeof(float));
  cudaMalloc(&partial, blocks * sizeof(float));
  cudaMemcpy(a, ones.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(b, ones.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  for (int round = 0; round < 3; ++round) {
    const double start = now_seconds();
    vectorAdd<<<blocks, 256>>>(a, b, c, n);
    cudaDeviceSynchronize();
    std::printf("add launch %d: %.4f s\n", round, now_seconds() - start);
  }
  for (int round = 0; round < 3; ++round) {
    const double start = now_seconds();
    blockSum<<<blocks, 256>>>(c, partial, n);
    cudaDeviceSynchronize();
    std::printf("sum launch %d: %.4f s\n", round, now_seconds() - start);
  }
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  cudaFree(partial);
  return 0;
}
