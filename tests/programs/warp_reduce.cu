// Sum of an array: a warp reduces with __shfl_down_sync, warp 0 reduces the warps' sums from
// shared memory, one atomicAdd per block (the classic "faster parallel reductions" pattern).
#include <vector>

#include "check.cuh"

template <typename T>
__device__ T warpReduceSum(T value) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) {
    value += __shfl_down_sync(0xffffffff, value, offset);
  }
  return value;
}

template <typename T, int BLOCK>
__global__ void blockSum(const T* in, T* total, int n) {
  __shared__ T warpSums[BLOCK / 32];
  const int lane = threadIdx.x % warpSize;
  const int warp = threadIdx.x / warpSize;
  T sum = 0;
  for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += gridDim.x * BLOCK) sum += in[i];
  sum = warpReduceSum(sum);
  if (lane == 0) warpSums[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = lane < BLOCK / 32 ? warpSums[lane] : 0;
    sum = warpReduceSum(sum);
    if (lane == 0) atomicAdd(total, sum);
  }
}

int main() {
  const int n = 1 << 16;
  std::vector<int> host(n);
  long long expected = 0;
  for (int i = 0; i < n; ++i) {
    host[i] = (i * 7) % 101 - 50;
    expected += host[i];
  }
  int *d_in = nullptr, *d_total = nullptr;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_total, sizeof(int)));
  CHECK(cudaMemcpy(d_in, host.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_total, 0, sizeof(int)));
  blockSum<int, 256><<<32, 256>>>(d_in, d_total, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  int total = 0;
  CHECK(cudaMemcpy(&total, d_total, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_total));
  std::printf("sum of %d values: %d (expected %lld)\n", n, total, expected);
  return report(total == expected);
}
