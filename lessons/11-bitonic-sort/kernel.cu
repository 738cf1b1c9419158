// Bitonic sort of 32 keys, one per lane, in 15 xor shuffles; then of (key, value) pairs.
#include <cuda_runtime.h>

// Stage k (2, 4, 8, 16, 32) turns sorted runs of k / 2 lanes into sorted runs of k lanes, in
// steps j = k / 2, ..., 1. In each step lane i and its partner i ^ j compare their keys: the
// lower lane of the pair keeps the smaller key when its run of k lanes is ascending, the larger
// when it is descending. Runs alternate: lane i's run is ascending when bit k of i is 0. In the
// last stage (k = 32) bit 32 is 0 for every lane, so the whole warp ends ascending.

// Sorts keys in place. `vals` is not touched; it is here so that both kernels take the same
// arguments.
__global__ void bitonic_sort_keys(int* keys, int* vals) {
  int lane = threadIdx.x % 32;
  int key = keys[lane];
  for (int k = 2; k <= 32; k *= 2) {
    for (int j = k / 2; j > 0; j /= 2) {
      int other = __shfl_xor_sync(0xffffffff, key, j);  // step: compare keys
      bool ascending = (lane & k) == 0;
      bool lower = (lane & j) == 0;
      key = (lower == ascending) ? min(key, other) : max(key, other);
    }
  }
  keys[lane] = key;
}

// Sorts (key, value) pairs by key: the same network, with the value travelling with its key.
// Equal keys are ordered by value, so the result does not depend on the network (a bitonic sort
// is not stable: with values 0..31, the lane each key came from, ties keep their input order).
__global__ void bitonic_sort_pairs(int* keys, int* vals) {
  int lane = threadIdx.x % 32;
  int key = keys[lane];
  int val = vals[lane];
  for (int k = 2; k <= 32; k *= 2) {
    for (int j = k / 2; j > 0; j /= 2) {
      int other_key = __shfl_xor_sync(0xffffffff, key, j);
      int other_val = __shfl_xor_sync(0xffffffff, val, j);
      bool ascending = (lane & k) == 0;
      bool lower = (lane & j) == 0;
      bool other_smaller = other_key < key || (other_key == key && other_val < val);
      // Take the partner's pair when it belongs here: the smaller pair where this lane keeps
      // the minimum, the larger one where it keeps the maximum.
      if (other_smaller == (lower == ascending)) {
        key = other_key;
        val = other_val;
      }
    }
  }
  keys[lane] = key;
  vals[lane] = val;
}
