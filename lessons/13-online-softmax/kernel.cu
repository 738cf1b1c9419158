// Lesson 13: online softmax, one warp per row.
// y[c] = exp(x[c] - max) / sum_k exp(x[k] - max). Subtracting the row's maximum keeps expf from
// overflowing; the "online" form finds the maximum and the sum in the same pass: whenever the
// maximum grows, the sum so far is rescaled by exp(old_max - new_max).
#include <cuda_runtime.h>
#include <math.h>

__global__ void softmax_rows(const float* x, float* y, int rows, int cols) {
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (row >= rows) return;  // all 32 lanes of a warp share a row, so whole warps leave together

  // Pass 1, each lane alone: running maximum m and sum s = sum of exp(v - m) over the lane's
  // elements c = lane, lane + 32, ... A lane with no element keeps m = -inf and s = 0.
  const float* in = x + row * cols;
  float m = -INFINITY;
  float s = 0.0f;
  for (int c = lane; c < cols; c += 32) {
    const float v = in[c];
    const float m_new = fmaxf(m, v);
    s = s * expf(m - m_new) + expf(v - m_new);  // the old terms, rescaled to the new maximum
    m = m_new;
  }

  // Merge the 32 (m, s) pairs with a butterfly: partners lane and lane ^ offset swap their
  // pairs and both keep the merged pair, so after 5 rounds every lane holds the row's (m, s).
  for (int offset = 16; offset > 0; offset /= 2) {
    const float m_other = __shfl_xor_sync(0xffffffff, m, offset);  // step: partner's maximum
    const float s_other = __shfl_xor_sync(0xffffffff, s, offset);  // step: partner's sum
    const float m_new = fmaxf(m, m_other);
    // Two empty lanes (rows shorter than 16) would compute expf(-inf - -inf) = expf(NaN).
    if (m_new != -INFINITY) s = s * expf(m - m_new) + s_other * expf(m_other - m_new);
    m = m_new;
  }

  // Pass 2: every lane knows the row's maximum and sum, and writes its own elements.
  float* out = y + row * cols;
  for (int c = lane; c < cols; c += 32) out[c] = expf(in[c] - m) / s;
}
