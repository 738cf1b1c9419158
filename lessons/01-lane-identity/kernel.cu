// Lane and warp identity: which warp a thread is in, and which lane it is, for any block shape.
#include <cuda_runtime.h>

// `in` is an image with the block's shape, stored row by row: thread (x, y) reads its pixel.
__global__ void lane_identity(const int* in, int* lane_of, int* warp_of, int* naive_warp_of,
                              int* first_of_warp, unsigned* positive_lanes) {
  // The hardware cuts warps from the *linear* thread index, in which x varies fastest, then y,
  // then z: threads 0-31 are warp 0, threads 32-63 warp 1, whatever the block's shape.
  int tid = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
  int lane = tid % 32;  // the lane number that shuffles and ballots use
  int warp = tid / 32;

  lane_of[tid] = lane;
  warp_of[tid] = warp;
  // Right only for a 1-D block: in a 16 x 4 block threadIdx.x < 16, so this is 0 everywhere.
  naive_warp_of[tid] = threadIdx.x / 32;

  // Every lane reads the linear index held by lane 0 of its own warp: 32 * warp.
  first_of_warp[tid] = __shfl_sync(0xffffffff, tid, 0);
  // Bit k of the ballot is lane k's vote, and lane k is thread tid % 32, not threadIdx.x.
  positive_lanes[tid] = __ballot_sync(0xffffffff, in[tid] > 0);
}
