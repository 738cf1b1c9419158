// Right: lanes past n return at once. A full mask may name lanes that have exited: they are not
// waited for, and __match_any_sync reads nothing from them.
#include <cuda_runtime.h>

__global__ void histogram(const int* keys, int* bins, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int key = keys[i];
  const unsigned peers = __match_any_sync(0xffffffff, key);
  if (threadIdx.x % 32 == __ffs(peers) - 1) atomicAdd(&bins[key], __popc(peers));
}
