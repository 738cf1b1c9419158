// Right: reduces src to 0..31 first (mathematical modulo), then shuffles.
#include <cuda_runtime.h>

__global__ void broadcast(const float* in, float* out, int src) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int s = ((src % 32) + 32) % 32;
  const float v = in[t];
  const float pivot = __shfl_sync(0xffffffff, v, s);
  out[t] = pivot;
}
