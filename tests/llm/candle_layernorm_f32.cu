// candle's layernorm_f32 (candle-kernels/src/reduce.cu): mean and mean of squares together as a
// float2 warp_reduce_sum (two __shfl_xor_sync a round), then across warps through shared memory.
// Launched as candle does for rows shorter than 1024: block (32, 1, 1), one row a block.
#include "candle-kernels/src/reduce.cu"

#include "harness.cuh"

int main() {
  const int rows = 16, cols = 500, block = 32;
  const float eps = 1e-5f;
  const std::vector<float> x = llm_uniform(size_t(rows) * cols, 12, -3.0f, 3.0f);
  const std::vector<float> alpha = llm_uniform(cols, 13, 0.5f, 1.5f), beta = llm_uniform(cols, 14, -1.0f, 1.0f);
  float* d_x = llm_to_device(x);
  float* d_alpha = llm_to_device(alpha);
  float* d_beta = llm_to_device(beta);
  float* d_y = llm_to_device(std::vector<float>(x.size()));
  layernorm_f32<<<rows, dim3(block, 1, 1)>>>(d_x, d_y, d_alpha, d_beta, cols, block, eps);
  LLM_CHECK(cudaGetLastError());
  LLM_CHECK(cudaDeviceSynchronize());
  const std::vector<float> y = llm_to_host(d_y, x.size());

  std::vector<double> want(x.size());
  for (int r = 0; r < rows; ++r) {
    double sum = 0, squares = 0;
    for (int c = 0; c < cols; ++c) sum += x[r * cols + c];
    const double mean = sum / cols;
    for (int c = 0; c < cols; ++c) squares += (x[r * cols + c] - mean) * (x[r * cols + c] - mean);
    const double s = 1.0 / std::sqrt(squares / cols + eps);
    for (int c = 0; c < cols; ++c) want[r * cols + c] = (x[r * cols + c] - mean) * s * alpha[c] + beta[c];
  }
  // candle takes the variance as E[x^2] - mean^2 in f32: a few ulp of the squares' sum.
  return llm_report("layernorm_f32", "16x500", llm_max_error(y, want), 1e-4);
}
