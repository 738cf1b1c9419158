// Right: the online softmax of lesson 13: maximum and sum in one pass, merged with a butterfly.
#include <cuda_runtime.h>
#include <math.h>

__global__ void softmax_rows(const float* x, float* y, int cols) {
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  const float* in = x + row * cols;
  float m = -INFINITY;
  float s = 0.0f;
  for (int c = lane; c < cols; c += 32) {
    const float v = in[c];
    const float m_new = fmaxf(m, v);
    s = s * expf(m - m_new) + expf(v - m_new);
    m = m_new;
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    const float m_other = __shfl_xor_sync(0xffffffff, m, offset);
    const float s_other = __shfl_xor_sync(0xffffffff, s, offset);
    const float m_new = fmaxf(m, m_other);
    if (m_new != -INFINITY) s = s * expf(m - m_new) + s_other * expf(m_other - m_new);
    m = m_new;
  }
  float* out = y + row * cols;
  for (int c = lane; c < cols; c += 32) out[c] = expf(in[c] - m) / s;
}
