// candle's rmsnorm_bf16 (candle-kernels/src/reduce.cu): bf16 in and out, f32 accumulation, a
// warp_reduce_sum of __shfl_xor_sync and, for 1024 threads, a second one over the warps' sums
// in shared memory. Launched as candle does for a row of at least 1024: block (1024, 1, 1).
#include "candle-kernels/src/reduce.cu"

#include "harness.cuh"

int main() {
  const int rows = 4, cols = 2048, block = 1024;
  const float eps = 1e-6f;
  std::vector<__nv_bfloat16> x(size_t(rows) * cols), alpha(cols);
  std::vector<float> xf(x.size()), af(cols);  // the values the bf16 inputs hold
  LlmRandom random(2);
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = __float2bfloat16(random.uniform(-3.0f, 3.0f));
    xf[i] = __bfloat162float(x[i]);
  }
  for (int c = 0; c < cols; ++c) {
    alpha[c] = __float2bfloat16(random.uniform(0.5f, 1.5f));
    af[c] = __bfloat162float(alpha[c]);
  }
  __nv_bfloat16* d_x = llm_to_device(x);
  __nv_bfloat16* d_alpha = llm_to_device(alpha);
  __nv_bfloat16* d_y = llm_to_device(std::vector<__nv_bfloat16>(x.size()));
  rmsnorm_bf16<<<rows, dim3(block, 1, 1)>>>(d_x, d_y, d_alpha, cols, block, eps);
  LLM_CHECK(cudaGetLastError());
  LLM_CHECK(cudaDeviceSynchronize());
  const std::vector<__nv_bfloat16> y = llm_to_host(d_y, x.size());

  std::vector<float> got(x.size());
  std::vector<double> want(x.size());
  for (int r = 0; r < rows; ++r) {
    double squares = 0;
    for (int c = 0; c < cols; ++c) squares += double(xf[r * cols + c]) * xf[r * cols + c];
    const double scale = 1.0 / std::sqrt(squares / cols + eps);
    for (int c = 0; c < cols; ++c) {
      want[r * cols + c] = scale * xf[r * cols + c] * af[c];
      got[r * cols + c] = __bfloat162float(y[r * cols + c]);
    }
  }
  // bf16 keeps 8 significant bits: one rounding of the output is 2^-8 relative.
  return llm_report("rmsnorm_bf16", "4x2048", llm_max_error(got, want), 1.0 / 128);
}
