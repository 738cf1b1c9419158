// Kernels for block_pool_test.cpp: blocks that do different things, so that a launch spread over
// threads has something to merge in block order.
#pragma once

#include <cstdio>

namespace pool {

// Every block sums its threads' values with shuffles and adds the sum to `total`; blocks whose
// index is a multiple of 3 also read exited lanes (undefined_source, a different set of lanes per
// block), blocks whose index is a multiple of 5 print a line, and each thread writes its own
// element of `out`.
__global__ void mixed(const int* in, int* out, unsigned long long* total) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  if (blockIdx.x % 3 == 0 && (threadIdx.x & 31) >= 20 + blockIdx.x % 7) return;
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
  if ((threadIdx.x & 31) == 0) atomicAdd(total, static_cast<unsigned long long>(v));
  if (blockIdx.x % 5 == 0 && threadIdx.x == 0) printf("block %u sums to %d\n", blockIdx.x, v);
  out[i] = v;
}

// Block `stuck` waits in a __syncwarp whose mask names lanes that wait in another one: a
// deadlock, in that block only.
__global__ void deadlock_in_block(int* out, unsigned stuck) {
  const unsigned lane = threadIdx.x & 31;
  if (blockIdx.x == stuck) {
    if (lane < 16) {
      __syncwarp(0xffffffff);
    } else {
      __syncwarp(0xffff0000);
      __shfl_sync(0xffffffff, 1, 0);
    }
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

// Each block's thread 0 takes a ticket: atomics stay atomic when blocks run at once.
__global__ void tickets(int* counter, int* ticket_of_block) {
  if (threadIdx.x == 0) ticket_of_block[blockIdx.x] = atomicAdd(counter, 1);
  __syncthreads();
  for (int k = 0; k < 64; ++k) atomicAdd(counter + 1, 1);
}

}  // namespace pool
