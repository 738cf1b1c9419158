// Reference solution of the exercise match-histogram (lessons/10-histogram-match).
#include <cuda_runtime.h>

__global__ void histogram(const int* keys, int* bins, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  const int key = i < n ? keys[i] : -1;  // lanes past n hold no key, but still take part
  const unsigned peers = __match_any_sync(0xffffffff, key);
  const int leader = __ffs(peers) - 1;  // the lowest lane of the group
  if (lane == leader && key >= 0) atomicAdd(&bins[key], __popc(peers));
}
