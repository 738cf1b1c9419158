// The four shuffles side by side: idx, up, down and xor, each with a width.
#include <cuda_runtime.h>

// Each shuffle hands lane i the value of one lane, its source. `width` (1, 2, 4, 8, 16 or 32)
// splits the warp into groups of that many lanes; a shuffle never reads past its own group's
// end, and up never reads below its start: such a lane gets its own value back.
__global__ void four_shuffles(const float* in, float* by_idx, float* by_up, float* by_down,
                              float* by_xor, int k, int width) {
  int lane = threadIdx.x % 32;
  float v = in[lane];
  // idx reads the lane it names; srcLane is taken mod width, so lane + k rotates each group by k.
  by_idx[lane] = __shfl_sync(0xffffffff, v, lane + k, width);
  // up reads lane - k: the first k lanes of each group have no such lane and keep their own.
  by_up[lane] = __shfl_up_sync(0xffffffff, v, k, width);
  // down reads lane + k: the last k lanes of each group keep their own.
  by_down[lane] = __shfl_down_sync(0xffffffff, v, k, width);
  // xor reads lane ^ k: partners swap, like the two ends of a butterfly.
  by_xor[lane] = __shfl_xor_sync(0xffffffff, v, k, width);
}
