// Sum of the first NUM_ELEMENTS inputs, after the example of what not to do in the CUDA
// Programming Guide's notes on independent thread scheduling.
//
// WHAT IS WRONG: __activemask() is used as the shuffle mask. It only reports which lanes
// happen to execute this instruction together right now; it is no promise about which lanes
// will take part in the shuffles that follow (the scheduler may split the branch further).
// And even as typically observed (lanes 0..19) the mask is too small: __shfl_down_sync makes
// lane 4 read lane 20, which is not in the mask and never calls. Fix: compute the mask before
// the branch with __ballot_sync(0xffffffff, threadIdx.x < NUM_ELEMENTS) and reduce only over it.
#include <cuda_runtime.h>

#define NUM_ELEMENTS 20

__global__ void sum_first_elements(const int* input, int* out) {
  int val = 0;
  if (threadIdx.x < NUM_ELEMENTS) {
    unsigned int mask = __activemask();
    val = input[threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2) val += __shfl_down_sync(mask, val, offset);
  }
  if (threadIdx.x == 0) *out = val;
}
