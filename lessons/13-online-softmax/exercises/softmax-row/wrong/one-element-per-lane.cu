// Wrong: each lane handles element `lane` only, as if no row were longer than 32.
#include <cuda_runtime.h>
#include <math.h>

__global__ void softmax_rows(const float* x, float* y, int cols) {
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  const float* in = x + row * cols;
  const float v = lane < cols ? in[lane] : -INFINITY;
  float m = v;
  for (int offset = 16; offset > 0; offset /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, offset));
  float e = lane < cols ? expf(v - m) : 0.0f;
  float s = e;
  for (int offset = 16; offset > 0; offset /= 2) s += __shfl_xor_sync(0xffffffff, s, offset);
  if (lane < cols) y[row * cols + lane] = e / s;
}
