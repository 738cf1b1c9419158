// Reference solution of the exercise ballot-compact (lessons/08-ballot-compaction).
#include <cuda_runtime.h>

__global__ void ballot_compact(const int* in, int* out, int* count, int n) {
  __shared__ int warp_count[32];
  const int tid = threadIdx.x;
  const int lane = tid % 32;
  const int warp = tid / 32;
  const int v = tid < n ? in[tid] : 0;
  const bool keep = tid < n && v > 0;
  const unsigned kept = __ballot_sync(0xffffffff, keep);  // every lane votes, also past n
  if (lane == 0) warp_count[warp] = __popc(kept);
  __syncthreads();  // every warp's count is in shared memory

  int offset = 0;  // what the warps before this one keep
  for (int w = 0; w < warp; ++w) offset += warp_count[w];
  if (keep) out[offset + __popc(kept & ((1u << lane) - 1))] = v;
  if (tid == 0) {
    int total = 0;
    for (int w = 0; w < blockDim.x / 32; ++w) total += warp_count[w];
    *count = total;
  }
}
