// Wrong: every thread loads in[tid] first and tests tid < n after: threads n and above read past
// the end of in.
#include <cuda_runtime.h>

__global__ void ballot_compact(const int* in, int* out, int* count, int n) {
  __shared__ int warp_count[32];
  const int tid = threadIdx.x;
  const int lane = tid % 32;
  const int warp = tid / 32;
  const int v = in[tid];
  const bool keep = tid < n && v > 0;
  const unsigned kept = __ballot_sync(0xffffffff, keep);
  if (lane == 0) warp_count[warp] = __popc(kept);
  __syncthreads();
  int offset = 0;
  for (int w = 0; w < warp; ++w) offset += warp_count[w];
  if (keep) out[offset + __popc(kept & ((1u << lane) - 1))] = v;
  if (tid == 0) {
    int total = 0;
    for (int w = 0; w < blockDim.x / 32; ++w) total += warp_count[w];
    *count = total;
  }
}
