// Stream compaction with a ballot: keep the positive values, packed to the front of `out` in
// their original order, and count them.
#include <cuda_runtime.h>

// One warp, n <= 32 values.
__global__ void compact_warp(const int* in, int n, int* out, int* count) {
  int lane = threadIdx.x % 32;
  int v = lane < n ? in[lane] : 0;
  bool keep = lane < n && v > 0;
  // Every lane votes, also the lanes past n (they vote 0): a full-mask ballot needs all 32.
  unsigned kept = __ballot_sync(0xffffffff, keep);  // bit k: lane k keeps its value
  // A kept lane's position is the number of kept lanes below it: the set bits of `kept` under
  // bit `lane`. (1u << lane) - 1 has exactly the bits of the lanes below this one.
  int position = __popc(kept & ((1u << lane) - 1));
  if (keep) out[position] = v;
  if (lane == 0) *count = __popc(kept);
}

// One block of several warps (blockDim.x a multiple of 32, n <= blockDim.x). Each warp compacts
// its 32 values as above, but must write after everything the warps before it keep, so it
// needs their counts: each warp's lane 0 publishes its count in shared memory, and after
// __syncthreads every warp adds up the counts of the warps before it.
//
// Without those offsets every warp would write its kept values to out[0], out[1], ...: warp 1
// would overwrite warp 0's results, and which value survives in each slot would depend on the
// order in which the GPU happens to run the warps (a race). Reserving space with
// atomicAdd(count, kept) instead fixes the overlap but not the order: the warps' runs would land
// in whatever order their atomics happen to run.
__global__ void compact_block(const int* in, int n, int* out, int* count) {
  __shared__ int warp_count[32];
  int tid = threadIdx.x;
  int lane = tid % 32;
  int warp = tid / 32;
  int v = tid < n ? in[tid] : 0;
  bool keep = tid < n && v > 0;
  unsigned kept = __ballot_sync(0xffffffff, keep);
  if (lane == 0) warp_count[warp] = __popc(kept);
  __syncthreads();  // every warp's count is now in shared memory

  int offset = 0;  // values kept by the warps before this one
  for (int w = 0; w < warp; ++w) offset += warp_count[w];
  if (keep) out[offset + __popc(kept & ((1u << lane) - 1))] = v;
  if (tid == 0) {
    int total = 0;
    for (int w = 0; w < blockDim.x / 32; ++w) total += warp_count[w];
    *count = total;
  }
}
