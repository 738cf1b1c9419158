// What four_shuffles must compute: each output names its source lane by plain arithmetic.
#include <cuda_runtime.h>

__global__ void four_shuffles_reference(const float* in, float* by_idx, float* by_up,
                                        float* by_down, float* by_xor, int k, int width) {
  // k is in 0..31 and width is a power of two, 1..32.
  for (int lane = 0; lane < 32; ++lane) {
    int first = lane / width * width;  // the first and last lanes of lane's group
    int last = first + width - 1;
    by_idx[lane] = in[first + (lane + k) % width];
    by_up[lane] = lane - k >= first ? in[lane - k] : in[lane];
    by_down[lane] = lane + k <= last ? in[lane + k] : in[lane];
    // lane ^ k never exceeds 31; with k >= width it can land in an earlier group, which is allowed.
    int partner = lane ^ k;
    by_xor[lane] = partner <= last ? in[partner] : in[lane];
  }
}
