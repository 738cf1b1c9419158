// Lanes 16-31 return early, yet the shuffle names them in its mask: undefined on a GPU (it may
// hang or give any value); the program cannot see it, the simulator reports it.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void halfWarpSum(const int* in, int* out) {
  const int lane = threadIdx.x;
  if (lane >= 16) return;
  int value = in[lane];
  for (int offset = 8; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
  if (lane == 0) *out = value;
}

int main() {
  int *in, *out;
  cudaMallocManaged(&in, 32 * sizeof(int));
  cudaMallocManaged(&out, sizeof(int));
  for (int i = 0; i < 32; ++i) in[i] = 1;
  halfWarpSum<<<1, 32>>>(in, out);
  cudaDeviceSynchronize();
  std::printf("sum %d\n", *out);
  std::printf("%s\n", *out == 16 ? "PASSED" : "FAILED");
  return *out == 16 ? 0 : 1;
}
