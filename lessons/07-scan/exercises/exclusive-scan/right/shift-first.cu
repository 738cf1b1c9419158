// Right: shift the inputs up by one lane first (lane 0 takes 0), then an inclusive scan.
#include <cuda_runtime.h>

__global__ void exclusive_scan(const int* in, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  int v = __shfl_up_sync(0xffffffff, in[i], 1);
  if (lane == 0) v = 0;
  for (int d = 1; d < 32; d *= 2) {
    const int up = __shfl_up_sync(0xffffffff, v, d);
    if (lane >= d) v += up;
  }
  out[i] = v;
}
