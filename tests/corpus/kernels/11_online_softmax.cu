// Row softmax, one warp per row, in one pass over the input: each lane keeps a running maximum
// and a sum rescaled whenever the maximum grows ("online softmax"); the lanes' (max, sum) pairs
// are merged with a butterfly of __shfl_xor_sync, and a second pass writes exp(x - max) / sum.
#include <cuda_runtime.h>
#include <math.h>

#define WARP_SIZE 32

__global__ void softmax_rows(const float* __restrict__ x, float* __restrict__ y, int rows,
                             int cols) {
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / WARP_SIZE;
  const int lane = threadIdx.x % WARP_SIZE;
  if (row >= rows) return;  // whole warps leave together

  const float* in = x + row * cols;
  float m = -INFINITY;
  float s = 0.0f;
  for (int c = lane; c < cols; c += WARP_SIZE) {
    const float v = in[c];
    const float m_new = fmaxf(m, v);
    s = s * expf(m - m_new) + expf(v - m_new);
    m = m_new;
  }

  for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1) {
    const float m_other = __shfl_xor_sync(0xffffffff, m, offset);
    const float s_other = __shfl_xor_sync(0xffffffff, s, offset);
    const float m_new = fmaxf(m, m_other);
    s = s * expf(m - m_new) + s_other * expf(m_other - m_new);
    m = m_new;
  }

  float* out = y + row * cols;
  for (int c = lane; c < cols; c += WARP_SIZE) out[c] = expf(in[c] - m) / s;
}
