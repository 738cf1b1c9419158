// How many elements of each warp's 32 are positive: one ballot, one popcount.
//
// WHAT IS WRONG: the ballot's mask is __activemask(), the lanes that happen to execute this line
// together. Here every lane of the warp gets there, and an H100 usually runs them together, so
// the mask is 0xffffffff and the count is right. But __activemask() is a snapshot, not a
// promise: under independent thread scheduling the warp may reach the line in smaller groups,
// each getting its own smaller mask and a ballot of its own lanes only (warpsim run --policy
// interleaved shows it: every lane then ballots alone). Fix: every lane of the warp takes part,
// so say so: __ballot_sync(0xffffffff, in[i] > 0).
#include <cuda_runtime.h>

__global__ void count_positive_per_warp(const int* in, int* counts) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned positive = __ballot_sync(__activemask(), in[i] > 0);
  if ((threadIdx.x & 31) == 0) counts[i / 32] = __popc(positive);
}
