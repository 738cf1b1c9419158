// What broadcast must compute: each group's pivot is its element at position src_lane mod width.
#include <cuda_runtime.h>

__global__ void broadcast_reference(const float* in, float* pivot_of, float* minus_pivot,
                                    int src_lane, int width) {
  // width is a power of two, 1..32, so src_lane & (width - 1) is src_lane modulo width, also for
  // a negative src_lane (-1 & 31 = 31).
  for (int lane = 0; lane < 32; ++lane) {
    int first = lane / width * width;  // the first lane of lane's group
    float pivot = in[first + (src_lane & (width - 1))];
    pivot_of[lane] = pivot;
    minus_pivot[lane] = in[lane] - pivot;
  }
}
