// Warp sum of forward differences, taken only where the input passes a threshold.
//
// WHAT IS WRONG: the __shfl_down_sync inside `if (keep)` names all 32 lanes, but lanes that fail
// the test skip the branch and wait in a different collective (the __shfl_xor_sync of the
// reduction below). Two different shuffle operations never combine into one call, so neither
// group can complete: the warp hangs on the GPU. The simulator stops it with a deadlock report.
// Fix: do the shuffle before the branch (all lanes), and only use its result inside.
#include <cuda_runtime.h>

__global__ void filtered_diff_sum(const int* in, int* out, int threshold) {
  const int lane = threadIdx.x & 31;
  int v = in[threadIdx.x];
  const bool keep = v > threshold;
  if (keep) {
    const int right = __shfl_down_sync(0xffffffff, v, 1);
    v = right - v;
  } else {
    v = 0;
  }
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffff, v, offset);
  if (lane == 0) *out = v;
}
