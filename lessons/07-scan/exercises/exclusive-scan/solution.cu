// Reference solution of the exercise exclusive-scan (lessons/07-scan).
#include <cuda_runtime.h>

__global__ void exclusive_scan(const int* in, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  int v = in[i];
  for (int d = 1; d < 32; d *= 2) {
    const int up = __shfl_up_sync(0xffffffff, v, d);
    if (lane >= d) v += up;
  }
  // The inclusive scan of the lane below; lane 0 has none.
  const int before = __shfl_up_sync(0xffffffff, v, 1);
  out[i] = lane == 0 ? 0 : before;
}
