// Wrong: width 16 splits the warp into two halves; lanes 16-31 read lane 16 + (src % 16).
#include <cuda_runtime.h>

__global__ void broadcast(const float* in, float* out, int src) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = __shfl_sync(0xffffffff, in[t], src, 16);
}
