// Wrong: warps are numbered within the block, so block 1's warp 0 writes out[0] again.
#include <cuda_runtime.h>

__global__ void warp_sum(const float* in, float* out, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  float v = t < n ? in[t] : 0.0f;
  for (int offset = 16; offset > 0; offset /= 2) {
    v += __shfl_xor_sync(0xffffffff, v, offset);
  }
  if (lane == 0) out[threadIdx.x / 32] = v;
}
