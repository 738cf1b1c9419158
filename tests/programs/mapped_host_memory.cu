// Zero-copy: host memory allocated with cudaHostAlloc(..., cudaHostAllocMapped), its device
// pointer from cudaHostGetDevicePointer, written by a kernel and read by the host after a sync.
#include "check.cuh"

__global__ void squares(int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i * i;
}

int main() {
  const int n = 777;
  int* host = nullptr;
  CHECK(cudaHostAlloc(&host, n * sizeof(int), cudaHostAllocMapped));
  int* device = nullptr;
  CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&device), host, 0));
  squares<<<(n + 255) / 256, 256>>>(device, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += host[i] != i * i;
  std::printf("mapped host memory: last square %d, %d wrong\n", host[n - 1], wrong);
  CHECK(cudaFreeHost(host));
  return report(wrong == 0);
}
