// Right, without a shuffle: every lane reads the source lane's element itself.
#include <cuda_runtime.h>

__global__ void broadcast(const float* in, float* out, int src) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = in[32 * (t / 32) + (src & 31)];
}
