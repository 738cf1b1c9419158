// Inclusive prefix sum of each block: warps scan with __shfl_up_sync, the warps' totals are
// scanned by warp 0 in dynamic shared memory (extern __shared__, sized at the launch).
#include <vector>

#include "check.cuh"

__device__ int warpInclusiveScan(int value) {
  const int lane = threadIdx.x & 31;
  for (int delta = 1; delta < 32; delta <<= 1) {
    const int up = __shfl_up_sync(0xffffffff, value, delta);
    if (lane >= delta) value += up;
  }
  return value;
}

__global__ void blockScan(const int* in, int* out) {
  extern __shared__ int warpTotals[];
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int index = blockIdx.x * blockDim.x + threadIdx.x;
  int value = warpInclusiveScan(in[index]);
  if (lane == 31) warpTotals[warp] = value;
  __syncthreads();
  if (warp == 0) {
    const int warps = blockDim.x / 32;
    int total = lane < warps ? warpTotals[lane] : 0;
    total = warpInclusiveScan(total);
    if (lane < warps) warpTotals[lane] = total;
  }
  __syncthreads();
  if (warp > 0) value += warpTotals[warp - 1];
  out[index] = value;
}

int main() {
  const int threads = 512, blocks = 6, n = threads * blocks;
  std::vector<int> in(n), out(n);
  for (int i = 0; i < n; ++i) in[i] = (i % 13) - 4;
  int *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  blockScan<<<blocks, threads, (threads / 32) * sizeof(int)>>>(d_in, d_out);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  int mismatches = 0;
  for (int b = 0; b < blocks; ++b) {
    int running = 0;
    for (int t = 0; t < threads; ++t) {
      running += in[b * threads + t];
      if (out[b * threads + t] != running) ++mismatches;
    }
  }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  std::printf("block scan of %d blocks x %d: last of block 0 = %d, %d mismatches\n", blocks,
              threads, out[threads - 1], mismatches);
  return report(mismatches == 0);
}
