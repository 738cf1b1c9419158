// Kernels for lanes_in_place_test.cpp: lanes that run to their end without waiting, and lanes
// that wait after others have run in place on the same stack.
#pragma once

// Each thread takes the next ticket: the order in which the block's lanes ran (one OS thread).
__global__ void ticket_order(unsigned* counter, unsigned* ticket) {
  ticket[blockIdx.x * blockDim.x + threadIdx.x] = (*counter)++;
}

// Lanes from `first_waiting` on shuffle (mask: those lanes); the others return at once. Every lane
// keeps a local array across the shuffle and checks it after: a lane resumed on a stack that
// another lane has since run on would find it overwritten.
__global__ void some_lanes_wait(unsigned first_waiting, unsigned* out, int* stack_intact) {
  const unsigned lane = threadIdx.x % 32;
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  volatile unsigned local[64];
  for (unsigned k = 0; k < 64; ++k) local[k] = t * 131 + k;
  if (lane < first_waiting) {
    out[t] = t;
    stack_intact[t] = 1;
    return;
  }
  const unsigned mask = first_waiting == 0 ? 0xffffffffu : ~((1u << first_waiting) - 1);
  out[t] = __shfl_down_sync(mask, t, 1);
  int intact = 1;
  for (unsigned k = 0; k < 64; ++k) intact &= local[k] == t * 131 + k ? 1 : 0;
  stack_intact[t] = intact;
}

// The first lanes (below `last_waiting`) shuffle, the rest return at once.
__global__ void low_lanes_wait(unsigned last_waiting, unsigned* out) {
  const unsigned lane = threadIdx.x % 32;
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (lane >= last_waiting) {
    out[t] = t;
    return;
  }
  out[t] = __shfl_xor_sync((1u << last_waiting) - 1, t, 1);
}

// A collective on a branch that no lane takes (n is never negative).
__global__ void collective_not_taken(int n, const float* in, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  if (n < 0) v = __shfl_xor_sync(0xffffffff, v, 1);
  out[i] = v * 2.0f;
}
