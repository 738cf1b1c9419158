// Inclusive prefix sum within each warp (Hillis-Steele over __shfl_up_sync). A kernel file: no
// main, no host code; warpsim::run_kernel_file and `warpsim run` compile it as it is.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void warp_inclusive_scan(const int* in, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  int value = i < n ? in[i] : 0;
  for (int offset = 1; offset < 32; offset *= 2) {
    const int below = __shfl_up_sync(0xffffffff, value, offset);
    if (lane >= offset) value += below;
  }
  if (i < n) out[i] = value;
  if (i == 0) printf("scanning %d values\n", n);
}
