// Right: warp 0 turns the per-warp counts into offsets with an exclusive shuffle scan.
#include <cuda_runtime.h>

__global__ void ballot_compact(const int* in, int* out, int* count, int n) {
  __shared__ int warp_count[32];
  __shared__ int warp_offset[32];
  const int tid = threadIdx.x;
  const int lane = tid % 32;
  const int warp = tid / 32;
  const int warps = blockDim.x / 32;
  const int v = tid < n ? in[tid] : 0;
  const bool keep = tid < n && v > 0;
  const unsigned kept = __ballot_sync(0xffffffff, keep);
  if (lane == 0) warp_count[warp] = __popc(kept);
  __syncthreads();
  if (warp == 0) {
    const int c = lane < warps ? warp_count[lane] : 0;
    int s = c;
    for (int d = 1; d < 32; d *= 2) {
      const int up = __shfl_up_sync(0xffffffff, s, d);
      if (lane >= d) s += up;
    }
    warp_offset[lane] = s - c;
    if (lane == 31) *count = s;
  }
  __syncthreads();
  if (keep) out[warp_offset[warp] + __popc(kept & ((1u << lane) - 1))] = v;
}
