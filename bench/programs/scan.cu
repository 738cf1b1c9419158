// Inclusive scan (prefix sum) of N ints (default 4M), as the tutorials write it: each block of
// 512 threads scans its 512 elements with warp shuffles (__shfl_up_sync) and shared memory and
// writes its total; the block totals are scanned the same way (recursively), and a last pass
// adds each block's offset.
// Usage: scan [N]
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#include "bench_util.h"
#include "cuda_check.cuh"

constexpr int kThreads = 512;

__device__ int warpInclusiveScan(int value) {
  const int lane = threadIdx.x % 32;
  for (int delta = 1; delta < 32; delta *= 2) {
    const int up = __shfl_up_sync(0xffffffff, value, delta);
    if (lane >= delta) value += up;
  }
  return value;
}

__global__ void scanBlocks(const int* in, int* out, int* blockSums, int n) {
  __shared__ int warpTotals[kThreads / 32];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  int value = warpInclusiveScan(i < n ? in[i] : 0);
  if (lane == 31) warpTotals[warp] = value;
  __syncthreads();
  if (warp == 0) {
    int total = lane < blockDim.x / 32 ? warpTotals[lane] : 0;
    total = warpInclusiveScan(total);
    if (lane < blockDim.x / 32) warpTotals[lane] = total;
  }
  __syncthreads();
  if (warp > 0) value += warpTotals[warp - 1];
  if (i < n) out[i] = value;
  if (blockSums != nullptr && threadIdx.x == blockDim.x - 1) blockSums[blockIdx.x] = value;
}

__global__ void addBlockOffsets(int* out, const int* scannedSums, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x > 0 && i < n) out[i] += scannedSums[blockIdx.x - 1];
}

void inclusiveScan(const int* d_in, int* d_out, int n) {
  const int blocks = (n + kThreads - 1) / kThreads;
  if (blocks == 1) {
    scanBlocks<<<1, kThreads>>>(d_in, d_out, nullptr, n);
    CHECK(cudaGetLastError());
    return;
  }
  int *d_sums, *d_scannedSums;
  CHECK(cudaMalloc(&d_sums, blocks * sizeof(int)));
  CHECK(cudaMalloc(&d_scannedSums, blocks * sizeof(int)));
  scanBlocks<<<blocks, kThreads>>>(d_in, d_out, d_sums, n);
  CHECK(cudaGetLastError());
  inclusiveScan(d_sums, d_scannedSums, blocks);
  addBlockOffsets<<<blocks, kThreads>>>(d_out, d_scannedSums, n);
  CHECK(cudaGetLastError());
  CHECK(cudaFree(d_sums));
  CHECK(cudaFree(d_scannedSums));
}

int main(int argc, char** argv) {
  const int n = static_cast<int>(size_argument(argc, argv, 1, 4 << 20));
  std::vector<int> in(n), out(n);
  for (int i = 0; i < n; ++i) in[i] = static_cast<int>(hash32(i) % 16);
  int *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  const double start = now_seconds();
  inclusiveScan(d_in, d_out, n);
  CHECK(cudaDeviceSynchronize());
  const double end = now_seconds();

  CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  int mismatches = 0;
  int running = 0;
  for (int i = 0; i < n; ++i) {
    running += in[i];
    if (out[i] != running) ++mismatches;
  }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  std::printf("inclusive scan of %d ints: last %d (expected %d), %d mismatches\n", n,
              out[n - 1], running, mismatches);
  print_time("compute", end - start);
  std::printf("%s\n", mismatches == 0 ? "PASSED" : "FAILED");
  return mismatches == 0 ? 0 : 1;
}
