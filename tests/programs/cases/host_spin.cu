// The host waits for a flag its kernel never sets, in host code: only the time limit ends it.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void setNothing(int* flag) { flag[1] = 1; }

int main() {
  int* flag;
  cudaMallocManaged(&flag, 2 * sizeof(int));
  flag[0] = 0;
  setNothing<<<1, 32>>>(flag);
  cudaDeviceSynchronize();
  std::printf("waiting\n");
  std::fflush(stdout);
  while (*(volatile int*)flag == 0) {
  }
  std::printf("PASSED\n");
  return 0;
}
