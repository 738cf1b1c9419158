// Wrong (for blocks whose size is not a multiple of 32): lesson 10's ballot loop starts with every
// lane to do. Lanes that do not exist never vote, never leave `todo`, and the loop never ends.
#include <cuda_runtime.h>

__global__ void histogram(const int* keys, int* bins, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  const int key = i < n ? keys[i] : -1;
  unsigned todo = 0xffffffff;
  while (todo != 0) {
    const int leader = __ffs(todo) - 1;
    const int leader_key = __shfl_sync(0xffffffff, key, leader);
    const unsigned peers = __ballot_sync(0xffffffff, key == leader_key);
    if (lane == leader && leader_key >= 0) atomicAdd(&bins[leader_key], __popc(peers));
    todo &= ~peers;
  }
}
