// A kernel whose warp shuffles forever: the simulator's step budget (--max-steps) stops the
// launch, and warpsim stops the program there; on a GPU it would hang.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void shuffleForever(int* out) {
  int value = threadIdx.x;
  while (value >= 0) value = __shfl_sync(0xffffffffu, value, (threadIdx.x + 1) % 32) % 1000;
  *out = value;
}

int main() {
  int* out;
  cudaMalloc(&out, sizeof(int));
  shuffleForever<<<1, 32>>>(out);
  cudaDeviceSynchronize();
  std::printf("not reached\n");
  return 0;
}
