// Wrong: every lane of a group of k peers adds k, so the group counts k * k.
#include <cuda_runtime.h>

__global__ void histogram(const int* keys, int* bins, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int key = i < n ? keys[i] : -1;
  const unsigned peers = __match_any_sync(0xffffffff, key);
  if (key >= 0) atomicAdd(&bins[key], __popc(peers));
}
