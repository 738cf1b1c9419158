// Wrong: a Hillis-Steele scan in shared memory that assumes the 32 lanes execute each statement
// together. They need not: a lane may read s[lane - d] after that lane has already added to it.
#include <cuda_runtime.h>

__global__ void inclusive_scan(const int* in, int* out) {
  __shared__ int s[1024];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  s[threadIdx.x] = in[i];
  for (int d = 1; d < 32; d *= 2) {
    if (lane >= d) s[threadIdx.x] += s[threadIdx.x - d];
  }
  out[i] = s[threadIdx.x];
}
