// Wrong: reads the source's element from memory, but src is not taken modulo 32: src = 37 reads
// past the warp (and past the end of in), src = -1 before it.
#include <cuda_runtime.h>

__global__ void broadcast(const float* in, float* out, int src) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = in[32 * (t / 32) + src];
}
