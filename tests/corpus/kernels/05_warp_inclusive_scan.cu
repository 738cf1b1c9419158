// Warp inclusive scan (Hillis-Steele / Kogge-Stone) with __shfl_up_sync. Every lane takes part
// in every shuffle; lanes below the offset receive their own value back and must not add it,
// hence the lane guard.
#include <cuda_runtime.h>

__device__ __forceinline__ float warp_inclusive_scan(float v) {
  const int lane = threadIdx.x & 31;
#pragma unroll
  for (int offset = 1; offset < 32; offset <<= 1) {
    float up = __shfl_up_sync(0xffffffff, v, offset);
    if (lane >= offset) v += up;
  }
  return v;
}

__global__ void warp_scan(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = warp_inclusive_scan(in[i]);
}
