// Swap neighbouring elements in the lower half of every warp; the upper half stays as it is.
//
// WHAT IS WRONG: the shuffle sits inside `if (lane < 16)`, yet its mask, 0xffffffff, names all 32
// lanes. Lanes 16-31 skip the branch, store their element and exit: when lanes 0-15 make the call
// they have not exited, and they never make it. CUDA leaves such a call undefined (every named
// lane that has not exited must make it). An H100, like the simulator, completes it once lanes
// 16-31 are gone, and since lanes 0-15 only read each other the values come out as intended,
// which is what makes the bug easy to miss. Fix: pass the lanes that take the branch,
// __shfl_xor_sync(0x0000ffff, v, 1), or call the shuffle in every lane before the branch.
#include <cuda_runtime.h>

__global__ void swap_lower_pairs(const int* in, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  int v = in[i];
  if (lane < 16) v = __shfl_xor_sync(0xffffffff, v, 1);
  out[i] = v;
}
