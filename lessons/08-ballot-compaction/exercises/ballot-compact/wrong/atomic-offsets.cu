// Wrong: each warp reserves room for its values with an atomicAdd on *count. No two warps
// overlap, but warp 1's values land before warp 0's whenever warp 1's atomic runs first.
#include <cuda_runtime.h>

__global__ void ballot_compact(const int* in, int* out, int* count, int n) {
  const int tid = threadIdx.x;
  const int lane = tid % 32;
  const int v = tid < n ? in[tid] : 0;
  const bool keep = tid < n && v > 0;
  const unsigned kept = __ballot_sync(0xffffffff, keep);
  int base = 0;
  if (lane == 0) base = atomicAdd(count, __popc(kept));
  base = __shfl_sync(0xffffffff, base, 0);
  if (keep) out[base + __popc(kept & ((1u << lane) - 1))] = v;
}
