// Launches written in the user's headers: a benchmark harness (include/bench/) that launches
// through a function pointer and a parameter pack, and a kernel file included as Rodinia
// includes its `*_kernel.cu`.
#include <cstdio>
#include <vector>

#include "include/bench/bench_harness.cuh"
#include "include/block_sum_kernel.cu"

int main() {
  const int n = 1000;
  const int block = 64;
  const int blocks = (n + block - 1) / block;
  int *data = nullptr, *sums = nullptr;
  cudaMalloc(&data, n * sizeof(int));
  cudaMalloc(&sums, blocks * sizeof(int));

  benchFillDevice(data, n, 3);  // launched in the header
  const float ms = timeKernel(blockSum<block>, dim3(blocks), dim3(block), block * sizeof(int), 2,
                              data, sums, n);  // launched in the header, through a pack
  std::vector<int> host(blocks);
  cudaMemcpy(host.data(), sums, blocks * sizeof(int), cudaMemcpyDeviceToHost);
  int errors = 0;
  for (int b = 0; b < blocks; ++b) {
    int expected = 0;
    for (int i = b * block; i < n && i < (b + 1) * block; ++i) expected += 3 + i % BENCH_MODULUS;
    if (host[b] != expected) ++errors;
  }

  // And one launch in this file, of the header's kernel.
  benchFill<<<1, 32>>>(data, 5, 100);
  int first[5];
  cudaMemcpy(first, data, sizeof first, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 5; ++i) {
    if (first[i] != 100 + i % BENCH_MODULUS) ++errors;
  }
  cudaFree(data);
  cudaFree(sums);
  std::printf("block sums of %d values in %d blocks: %d errors (timed: %s)\n", n, blocks, errors,
              ms >= 0 ? "yes" : "no");
  std::printf("%s\n", errors == 0 ? "PASSED" : "FAILED");
  return errors == 0 ? 0 : 1;
}
