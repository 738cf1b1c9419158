// A classic mistake: the kernel gets the host array instead of the device copy. The simulator
// can read host memory, so the program "passes" here; the report warns, as an H200 faults
// (docs/gpu-runs/host-memory-in-kernel.txt), and under --check it is a finding.
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

__global__ void doubleAll(const int* in, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2 * in[i];
}

int main() {
  const int n = 64;
  std::vector<int> host(n, 21);
  int *d_in, *d_out;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_out, n * sizeof(int));
  cudaMemcpy(d_in, host.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  doubleAll<<<1, n>>>(host.data(), d_out, n);  // should be d_in
  doubleAll<<<1, n>>>(d_in, d_out, n);
  int first = 0;
  cudaMemcpy(&first, d_out, sizeof(int), cudaMemcpyDeviceToHost);
  std::printf("%d\n", first);
  return 0;
}
