// Vector addition of N floats (default 16M), one thread per element as in the CUDA samples,
// then the sum of the result: a block reduction with warp shuffles and shared memory writes one
// partial sum per block, and the host adds the partials.
// Usage: vector_add [N]
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#include "bench_util.h"
#include "cuda_check.cuh"

#include "vector_add_kernels.cuh"

int main(int argc, char** argv) {
  const int n = static_cast<int>(size_argument(argc, argv, 1, 16 << 20));
  const size_t bytes = n * sizeof(float);
  std::vector<float> a(n), b(n), c(n);
  for (int i = 0; i < n; ++i) {
    a[i] = static_cast<float>(hash32(i) % 101);
    b[i] = static_cast<float>(static_cast<int>(hash32(i + n) % 37) - 18);
  }
  const int threads = 256;
  const int blocks = (n + threads - 1) / threads;
  std::vector<float> partial(blocks);
  float *d_a, *d_b, *d_c, *d_partial;
  CHECK(cudaMalloc(&d_a, bytes));
  CHECK(cudaMalloc(&d_b, bytes));
  CHECK(cudaMalloc(&d_c, bytes));
  CHECK(cudaMalloc(&d_partial, blocks * sizeof(float)));
  CHECK(cudaMemcpy(d_a, a.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_b, b.data(), bytes, cudaMemcpyHostToDevice));

  const double start = now_seconds();
  vectorAdd<<<blocks, threads>>>(d_a, d_b, d_c, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  const double added = now_seconds();
  blockSum<<<blocks, threads>>>(d_c, d_partial, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  const double summed = now_seconds();

  CHECK(cudaMemcpy(c.data(), d_c, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(partial.data(), d_partial, blocks * sizeof(float), cudaMemcpyDeviceToHost));
  double sum = 0;
  for (int k = 0; k < blocks; ++k) sum += partial[k];
  int errors = 0;
  double expected = 0;
  for (int i = 0; i < n; ++i) {
    if (c[i] != a[i] + b[i]) ++errors;
    expected += a[i] + b[i];
  }
  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_b));
  CHECK(cudaFree(d_c));
  CHECK(cudaFree(d_partial));
  const bool passed = errors == 0 && sum == expected;
  std::printf("vector add of %d floats: %d errors; sum %.0f (expected %.0f)\n", n, errors, sum,
              expected);
  print_time("add", added - start);
  print_time("sum", summed - added);
  print_time("compute", summed - start);
  std::printf("%s\n", passed ? "PASSED" : "FAILED");
  return passed ? 0 : 1;
}
