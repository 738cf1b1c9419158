// Stream compaction inside a warp: __ballot_sync tells every lane which lanes keep their
// element, and the number of keepers below a lane (popc of the ballot under its lane mask) is
// where it writes. Each warp compacts into its own 32-slot segment.
#include <cuda_runtime.h>

__device__ __forceinline__ unsigned int lanemask_lt() {
  return (1u << (threadIdx.x & 31)) - 1u;
}

__global__ void compact_positive(const int* in, int* out, int* warp_counts, int* total, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int warp_id = i / 32;
  const int x = (i < n) ? in[i] : 0;
  const bool keep = x > 0;

  const unsigned int ballot = __ballot_sync(0xffffffff, keep);
  const int pos = __popc(ballot & lanemask_lt());
  if (keep) out[warp_id * 32 + pos] = x;

  if ((threadIdx.x & 31) == 0) {
    warp_counts[warp_id] = __popc(ballot);
    atomicAdd(total, __popc(ballot));
  }
}
