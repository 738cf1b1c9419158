// Exercise mask-repair (lesson 22, reading a lane that has exited): see statement.md.
// Grade it with:  warpsim grade mask-repair starter.cu
//
// This kernel computes the right sum on an H100, and the grader fails it. Find out why (the
// grader's first failing case shows the step and the lanes), and repair it.
#include <cuda_runtime.h>

__global__ void tail_sum(const float* in, float* out, int n) {
  const int lane = threadIdx.x % 32;
  // TODO: lanes n and above leave here, yet the shuffles below read some of them.
  if (lane >= n) return;
  float v = in[lane];
  for (int offset = 16; offset > 0; offset /= 2) {
    v += __shfl_down_sync(0xffffffff, v, offset);
  }
  if (lane == 0) *out = v;
}
