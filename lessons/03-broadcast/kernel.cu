// Broadcast: every lane reads the value of one lane, chosen at run time.
#include <cuda_runtime.h>

// Each lane learns the pivot, the value held by lane src_lane, and subtracts it from its own.
// With width < 32 each group of `width` lanes has its own pivot: lane src_lane of that group.
__global__ void broadcast(const float* in, float* pivot_of, float* minus_pivot, int src_lane,
                          int width) {
  int lane = threadIdx.x % 32;
  float v = in[lane];
  // Every lane names the same source, so every lane (of a group) receives the same value.
  // srcLane is taken modulo width: 37 reads lane 5, and -1 reads the group's last lane.
  float pivot = __shfl_sync(0xffffffff, v, src_lane, width);
  pivot_of[lane] = pivot;
  minus_pivot[lane] = v - pivot;
}
