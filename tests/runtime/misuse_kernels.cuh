// Kernels for the misuse suite (misuse_test.cpp): each breaks one rule on purpose, or looks as
// if it might and does not. Markers `// @name` name the lines the tests look for.
#pragma once

#include <cooperative_groups.h>

namespace misuse {

namespace cg = cooperative_groups;

// Lanes 16-31 skip a full-mask shuffle and exit: they had not exited when lanes 0-15 made it.
__global__ void half_warp_full_mask(const int* in, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  if ((threadIdx.x & 31) < 16) v = __shfl_xor_sync(0xffffffff, v, 1);  // @branch_shfl
  out[i] = v;
}

// Lane l goes round ceil((n - l) / 32) times: with n = 40, lanes 8-31 leave the loop (and exit)
// while lanes 0-7 make the full-mask shuffle a second time.
__global__ void lane_varying_loop(const int* row, int* out, int n) {
  const int lane = threadIdx.x & 31;
  int acc = 0;
  for (int k = lane; k < n; k += 32) {
    const int x = row[k];
    acc += x + __shfl_xor_sync(0xffffffff, x, 1);  // @loop_shfl
  }
  out[lane] = acc;
}

// Lanes past n return first; the others reduce with the full mask, in a loop: allowed (lanes
// that exited are ignored), and no value is read from them.
__global__ void early_return_then_reduce(const int* in, int* out, int n) {
  const int lane = threadIdx.x & 31;
  if (lane >= n) return;
  int v = in[lane];
  for (int round = 0; round < 3; ++round) v = __reduce_add_sync(0xffffffff, v) / n;  // @reduce
  out[lane] = v;
}

// A full-mask reduction inside a branch every thread of the block takes: in a block of 48
// threads, lanes 16-31 of warp 1 are no threads at all, and are not named.
__global__ void partial_warp_branch(int* out) {
  int v = 1;
  if (blockIdx.x == 0) v = __reduce_add_sync(0xffffffff, v);  // @partial
  out[threadIdx.x] = v;
}

// The lanes past 20 return; the rest reduce with __shfl_down_sync and read lanes that are gone:
// a different set of lanes in each of the five steps.
__global__ void tail_reduce(int* out) {
  if (threadIdx.x >= 20) return;
  int v = static_cast<int>(threadIdx.x);
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);  // @tail
  out[threadIdx.x] = v;
}

// The classic pitfall: a ballot over whatever __activemask() says, in converged code.
__global__ void activemask_ballot(unsigned* out) {
  out[threadIdx.x] = __ballot_sync(__activemask(), threadIdx.x % 2 == 0);  // @activemask_ballot
}

// __activemask() read and kept, then a shuffle with a mask computed another way.
__global__ void activemask_then_ballot_mask(unsigned* out, int* values) {
  const unsigned seen = __activemask();
  const unsigned members = __ballot_sync(0xffffffff, threadIdx.x < 16);
  if (threadIdx.x < 16) values[threadIdx.x] = __shfl_xor_sync(members, seen, 1);  // @members
  out[threadIdx.x] = seen;
}

// A warp-aggregated atomic through cooperative groups: coalesced_threads() is __activemask()
// inside, and its mask is the group, by definition.
__global__ void aggregated_append(const int* in, int* list, int* count) {
  const int v = in[threadIdx.x];
  if (v > 0) {
    const cg::coalesced_group active = cg::coalesced_threads();
    int base = 0;
    if (active.thread_rank() == 0) base = atomicAdd(count, static_cast<int>(active.size()));
    base = active.shfl(base, 0);
    list[base + active.thread_rank()] = v;
  }
}

}  // namespace misuse
