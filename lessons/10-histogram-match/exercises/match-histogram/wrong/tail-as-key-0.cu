// Wrong: lanes past n take key 0 (the value a zeroed register holds) and are counted in bin 0.
#include <cuda_runtime.h>

__global__ void histogram(const int* keys, int* bins, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  const int key = i < n ? keys[i] : 0;
  const unsigned peers = __match_any_sync(0xffffffff, key);
  if (lane == __ffs(peers) - 1) atomicAdd(&bins[key], __popc(peers));
}
