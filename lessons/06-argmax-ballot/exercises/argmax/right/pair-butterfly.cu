// Right: a butterfly over (value, lane) pairs; the larger value wins, the lower lane on ties, so
// every lane ends with the warp's argmax.
#include <cuda_runtime.h>

__global__ void warp_argmax(const int* in, int* arg) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  int k = threadIdx.x % 32;
  for (int offset = 16; offset > 0; offset /= 2) {
    const int ov = __shfl_xor_sync(0xffffffff, v, offset);
    const int ok = __shfl_xor_sync(0xffffffff, k, offset);
    if (ov > v || (ov == v && ok < k)) {
      v = ov;
      k = ok;
    }
  }
  if (threadIdx.x % 32 == 0) arg[t / 32] = k;
}
