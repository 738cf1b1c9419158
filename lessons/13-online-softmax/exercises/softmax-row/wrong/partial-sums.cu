// Wrong: after __shfl_down_sync reductions only lane 0 holds the row's maximum and sum; the other
// lanes hold partial results and use them.
#include <cuda_runtime.h>
#include <math.h>

__global__ void softmax_rows(const float* x, float* y, int cols) {
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  const float* in = x + row * cols;
  float m = -INFINITY;
  for (int c = lane; c < cols; c += 32) m = fmaxf(m, in[c]);
  for (int offset = 16; offset > 0; offset /= 2) m = fmaxf(m, __shfl_down_sync(0xffffffff, m, offset));
  float s = 0.0f;
  for (int c = lane; c < cols; c += 32) s += expf(in[c] - m);
  for (int offset = 16; offset > 0; offset /= 2) s += __shfl_down_sync(0xffffffff, s, offset);
  float* out = y + row * cols;
  for (int c = lane; c < cols; c += 32) out[c] = expf(in[c] - m) / s;
}
