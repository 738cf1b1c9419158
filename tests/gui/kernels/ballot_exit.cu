// A ballot while part of the warp is gone: lanes 16-23 have exited, lanes 0-15 vote on
// "lane % 3 == 0" with a half-warp mask, lanes 24-31 vote apart with their own mask.
#include <cuda_runtime.h>

__global__ void split_ballot(unsigned* out) {
  const unsigned lane = threadIdx.x;
  if (lane >= 16 && lane < 24) return;
  if (lane < 16) {
    out[lane] = __ballot_sync(0x0000ffff, lane % 3 == 0);
  } else {
    out[lane] = __ballot_sync(0xff000000, 1);
  }
}
