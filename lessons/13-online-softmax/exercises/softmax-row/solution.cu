// Reference solution of the exercise softmax-row (lessons/13-online-softmax): two passes over the
// row, each merged across the warp with a butterfly.
#include <cuda_runtime.h>
#include <math.h>

__global__ void softmax_rows(const float* x, float* y, int cols) {
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  const float* in = x + row * cols;
  float* out = y + row * cols;

  float m = -INFINITY;  // the row's maximum
  for (int c = lane; c < cols; c += 32) m = fmaxf(m, in[c]);
  for (int offset = 16; offset > 0; offset /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, offset));

  float s = 0.0f;  // the sum of exp(x - max) over the row
  for (int c = lane; c < cols; c += 32) s += expf(in[c] - m);
  for (int offset = 16; offset > 0; offset /= 2) s += __shfl_xor_sync(0xffffffff, s, offset);

  for (int c = lane; c < cols; c += 32) out[c] = expf(in[c] - m) / s;
}
