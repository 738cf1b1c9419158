// Wrong: every lane adds what the shuffle returns; lanes below d get their own v back and double it.
#include <cuda_runtime.h>

__global__ void inclusive_scan(const int* in, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  for (int d = 1; d < 32; d *= 2) {
    v += __shfl_up_sync(0xffffffff, v, d);
  }
  out[i] = v;
}
