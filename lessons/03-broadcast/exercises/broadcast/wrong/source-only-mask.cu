// Wrong: "only the source lane gives a value", so the mask names only it; but all 32 lanes call,
// and 31 of them call with a mask that does not name them (undefined behaviour).
#include <cuda_runtime.h>

__global__ void broadcast(const float* in, float* out, int src) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned mask = 1u << (src & 31);
  out[t] = __shfl_sync(mask, in[t], src);
}
