// A kernel that waits for a flag nobody sets: it never ends, on a GPU or in the simulator.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void waitForFlag(volatile int* flag) {
  while (*flag == 0) {
  }
}

int main() {
  int* flag;
  cudaMalloc(&flag, sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  std::printf("waiting\n");
  waitForFlag<<<1, 1>>>(flag);
  cudaDeviceSynchronize();
  std::printf("PASSED\n");
  return 0;
}
