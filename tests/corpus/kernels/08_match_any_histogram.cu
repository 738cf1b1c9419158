// Warp-aggregated histogram: __match_any_sync groups the lanes that hit the same bin, the
// lowest lane of each group (the leader) adds the group's size with one shared-memory atomic,
// and the block's histogram is added to the global one at the end.
#include <cuda_runtime.h>

#define NUM_BINS 16

__global__ void histogram_match_any(const int* keys, unsigned int* hist,
                                    unsigned int* peer_masks, int n) {
  __shared__ unsigned int s_hist[NUM_BINS];
  for (int b = threadIdx.x; b < NUM_BINS; b += blockDim.x) s_hist[b] = 0;
  __syncthreads();

  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  // Lanes past the end vote too, with a bin of -1, so the full mask stays right.
  const int bin = (i < n) ? keys[i] % NUM_BINS : -1;

  const unsigned int peers = __match_any_sync(0xffffffff, bin);
  const int leader = __ffs(peers) - 1;
  if (bin >= 0 && lane == leader) atomicAdd(&s_hist[bin], __popc(peers));
  peer_masks[i] = peers;
  __syncthreads();

  for (int b = threadIdx.x; b < NUM_BINS; b += blockDim.x) atomicAdd(&hist[b], s_hist[b]);
}
