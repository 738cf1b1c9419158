// A kernel that waits for its child (cudaDeviceSynchronize in device code): CUDA 12 removed it
// from device code, and children run after their parent here, so the program stops at the call.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void child(int* out) { *out = 1; }

__global__ void parent(int* out) {
  child<<<1, 1>>>(out);
  cudaDeviceSynchronize();
}

int main() {
  int* out;
  cudaMalloc(&out, sizeof(int));
  parent<<<1, 1>>>(out);
  std::printf("%s\n", cudaDeviceSynchronize() == cudaSuccess ? "PASSED" : "launch failed");
  return 0;
}
