// Exercise broadcast (lesson 03, broadcast from any lane): see statement.md.
// Grade it with:  warpsim grade broadcast starter.cu
#include <cuda_runtime.h>

__global__ void broadcast(const float* in, float* out, int src) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[t];

  // TODO: every lane of the warp must receive the value that lane src (modulo 32) holds.

  out[t] = v;
}
