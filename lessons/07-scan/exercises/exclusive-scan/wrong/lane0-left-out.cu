// Wrong: lane 0's answer is 0 anyway, so it skips the final shift and the mask leaves it out.
// But lane 1 reads lane 0's sum in that shift: it reads a lane that does not take part.
#include <cuda_runtime.h>

__global__ void exclusive_scan(const int* in, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  int v = in[i];
  for (int d = 1; d < 32; d *= 2) {
    const int up = __shfl_up_sync(0xffffffff, v, d);
    if (lane >= d) v += up;
  }
  if (lane == 0) {
    out[i] = 0;
  } else {
    out[i] = __shfl_up_sync(0xfffffffe, v, 1);
  }
}
