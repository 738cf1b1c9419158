// Wrong: __shfl_up_sync by 1 gives lane 0 its own inclusive sum back, and lane 0 keeps it.
#include <cuda_runtime.h>

__global__ void exclusive_scan(const int* in, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  int v = in[i];
  for (int d = 1; d < 32; d *= 2) {
    const int up = __shfl_up_sync(0xffffffff, v, d);
    if (lane >= d) v += up;
  }
  out[i] = __shfl_up_sync(0xffffffff, v, 1);
}
