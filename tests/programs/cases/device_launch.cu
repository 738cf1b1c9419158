// A kernel that launches a kernel (CUDA dynamic parallelism): not simulated, so the parent's
// launch stops naming the child's launch and line, whatever the number of worker threads.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void child(int* out) { out[threadIdx.x] = 1; }

__global__ void parent(int* out) {
  if (threadIdx.x == 0) child<<<1, 2>>>(out + 2 * blockIdx.x);
}

int main() {
  int* out;
  cudaMalloc(&out, 8 * sizeof(int));
  parent<<<4, 2>>>(out);
  std::printf("%s\n", cudaDeviceSynchronize() == cudaSuccess ? "PASSED" : "launch failed");
  return 0;
}
