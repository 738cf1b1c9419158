// Right: the ballot loop of lesson 10, one round per distinct key of the warp. Unlike the lesson,
// `todo` starts as the lanes that exist (a ballot of all of them), not 0xffffffff: in a block of
// 48 threads the second warp has 16 lanes, and lanes 16-31 would never leave `todo`.
#include <cuda_runtime.h>

__global__ void histogram(const int* keys, int* bins, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  const int key = i < n ? keys[i] : -1;
  unsigned todo = __ballot_sync(0xffffffff, 1);  // lanes whose key is not counted yet
  while (todo != 0) {
    const int leader = __ffs(todo) - 1;
    const int leader_key = __shfl_sync(0xffffffff, key, leader);
    const unsigned peers = __ballot_sync(0xffffffff, key == leader_key);
    if (lane == leader && leader_key >= 0) atomicAdd(&bins[leader_key], __popc(peers));
    todo &= ~peers;
  }
}
