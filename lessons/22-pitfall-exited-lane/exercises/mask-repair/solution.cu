// Reference solution of the exercise mask-repair (lessons/22-pitfall-exited-lane).
#include <cuda_runtime.h>

__global__ void tail_sum(const float* in, float* out, int n) {
  const int lane = threadIdx.x % 32;
  float v = lane < n ? in[lane] : 0.0f;  // every lane stays; the missing elements add 0
  for (int offset = 16; offset > 0; offset /= 2) {
    v += __shfl_down_sync(0xffffffff, v, offset);
  }
  if (lane == 0) *out = v;
}
