// Sums of neighbour pairs along a row of n elements: lane l handles elements l, l + 32, ... and
// adds each to its neighbour's (k ^ 1), which the neighbouring lane holds.
//
// WHAT IS WRONG: the loop's trip count differs between lanes when n is not a multiple of 32
// (n = 40: lanes 0-7 go round twice, lanes 8-31 once), yet the shuffle inside names all 32
// lanes. On the second trip lanes 8-31 have left the loop; they have not exited, they are on
// their way to the store after it. CUDA leaves the call undefined; an H100, like the
// simulator, completes it once lanes 8-31 have exited, and as lanes 0-7 only read each other the
// sums come out as intended. Fix: go round in whole rounds of the warp,
// for (base = 0; base < n; base += 32) with k = base + lane, loading 0 past the end, so that
// every lane makes every call.
#include <cuda_runtime.h>

__global__ void pair_sums_strided(const int* row, int* out, int n) {
  const int lane = threadIdx.x & 31;
  int acc = 0;
  for (int k = lane; k < n; k += 32) {
    const int x = row[k];
    acc += x + __shfl_xor_sync(0xffffffff, x, 1);
  }
  out[lane] = acc;
}
