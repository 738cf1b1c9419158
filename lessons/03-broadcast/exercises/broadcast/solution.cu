// Reference solution of the exercise broadcast (lessons/03-broadcast).
#include <cuda_runtime.h>

__global__ void broadcast(const float* in, float* out, int src) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  // Every lane names the same source; __shfl_sync takes it modulo 32, bits pass unchanged.
  out[t] = __shfl_sync(0xffffffff, in[t], src);
}
