// Wrong: only the threads with an element vote, but the mask names all 32 lanes; the lanes past n
// go on to __syncthreads and the ballot waits for them there.
#include <cuda_runtime.h>

__global__ void ballot_compact(const int* in, int* out, int* count, int n) {
  __shared__ int warp_count[32];
  __shared__ unsigned warp_kept[32];
  const int tid = threadIdx.x;
  const int lane = tid % 32;
  const int warp = tid / 32;
  if (tid < n) {
    const unsigned kept = __ballot_sync(0xffffffff, in[tid] > 0);
    if (lane == 0) {
      warp_count[warp] = __popc(kept);
      warp_kept[warp] = kept;
    }
  } else if (lane == 0) {
    warp_count[warp] = 0;
    warp_kept[warp] = 0;
  }
  __syncthreads();
  int offset = 0;
  for (int w = 0; w < warp; ++w) offset += warp_count[w];
  const unsigned kept = warp_kept[warp];
  if (tid < n && in[tid] > 0) out[offset + __popc(kept & ((1u << lane) - 1))] = in[tid];
  if (tid == 0) {
    int total = 0;
    for (int w = 0; w < blockDim.x / 32; ++w) total += warp_count[w];
    *count = total;
  }
}
