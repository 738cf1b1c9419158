// Reference solution of the exercise inclusive-scan (lessons/07-scan).
#include <cuda_runtime.h>

__global__ void inclusive_scan(const int* in, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  int v = in[i];
  for (int d = 1; d < 32; d *= 2) {
    const int up = __shfl_up_sync(0xffffffff, v, d);
    if (lane >= d) v += up;  // lanes below d got their own v back
  }
  out[i] = v;
}
