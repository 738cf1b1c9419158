// A 64-bin histogram: each block counts into shared memory with atomicAdd, then adds its bins
// to the global histogram; the data live in managed memory (cudaMallocManaged).
#include "check.cuh"

constexpr int kBins = 64;

__global__ void histogram(const unsigned char* data, int n, unsigned int* bins) {
  __shared__ unsigned int local[kBins];
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    atomicAdd(&local[data[i] % kBins], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}

int main() {
  const int n = 100000;
  unsigned char* data = nullptr;
  unsigned int* bins = nullptr;
  CHECK(cudaMallocManaged(&data, n));
  CHECK(cudaMallocManaged(&bins, kBins * sizeof(unsigned int)));
  unsigned int expected[kBins] = {};
  unsigned int seed = 12345;
  for (int i = 0; i < n; ++i) {
    seed = seed * 1664525u + 1013904223u;
    data[i] = static_cast<unsigned char>(seed >> 24);
    ++expected[data[i] % kBins];
  }
  for (int b = 0; b < kBins; ++b) bins[b] = 0;
  histogram<<<16, 128>>>(data, n, bins);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  int wrong = 0;
  unsigned int total = 0;
  for (int b = 0; b < kBins; ++b) {
    total += bins[b];
    if (bins[b] != expected[b]) ++wrong;
  }
  std::printf("histogram: %u values in %d bins, bin 0 = %u, %d wrong bins\n", total, kBins,
              bins[0], wrong);
  CHECK(cudaFree(data));
  CHECK(cudaFree(bins));
  return report(wrong == 0 && total == static_cast<unsigned int>(n));
}
