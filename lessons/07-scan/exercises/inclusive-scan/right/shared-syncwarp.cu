// Right: the shared-memory scan with __syncwarp between every read and every write.
#include <cuda_runtime.h>

__global__ void inclusive_scan(const int* in, int* out) {
  __shared__ int s[1024];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  s[threadIdx.x] = in[i];
  __syncwarp();
  for (int d = 1; d < 32; d *= 2) {
    const int add = lane >= d ? s[threadIdx.x - d] : 0;
    __syncwarp();  // every lane has read before any lane writes
    s[threadIdx.x] += add;
    __syncwarp();  // every lane has written before the next round reads
  }
  out[i] = s[threadIdx.x];
}
