// A histogram with one atomic per distinct key per warp instead of one per lane: the lanes that
// hold the same key (peers) count themselves, and the lowest of them adds the count. Two ways to
// find a lane's peers: a ballot loop, one round per distinct key, or one __match_any_sync.
#include <cuda_runtime.h>

// keys[i] is in [0, number of bins); bins accumulates over every warp of the launch.
__global__ void histogram_ballot(const int* keys, int n, int* bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  int key = i < n ? keys[i] : -1;  // lanes past the end hold no key, but still vote

  // Each round handles one key: the lowest lane not yet counted leads, every lane learns the
  // leader's key, and a ballot finds all lanes holding it. Every lane sees the same ballots, so
  // `todo` is the same in every lane and the whole warp runs the same number of rounds.
  unsigned todo = 0xffffffff;  // lanes whose key is not counted yet
  while (todo != 0) {
    int leader = __ffs(todo) - 1;
    int leader_key = __shfl_sync(0xffffffff, key, leader);
    unsigned peers = __ballot_sync(0xffffffff, key == leader_key);
    if (lane == leader && leader_key >= 0) atomicAdd(&bins[leader_key], __popc(peers));
    todo &= ~peers;
  }
}

__global__ void histogram_match(const int* keys, int n, int* bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  int key = i < n ? keys[i] : -1;
  // Every lane receives the mask of the lanes whose key equals its own: all groups at once.
  unsigned peers = __match_any_sync(0xffffffff, key);
  int leader = __ffs(peers) - 1;  // the lowest lane of the group
  if (lane == leader && key >= 0) atomicAdd(&bins[key], __popc(peers));
}
