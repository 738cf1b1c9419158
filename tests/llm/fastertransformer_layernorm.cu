// FasterTransformer's generalLayerNorm (src/fastertransformer/kernels/layernorm_kernels.cu) on
// f32, launched by FasterTransformer's own invokeGeneralLayerNorm: one row per block, mean and
// variance by blockReduceSum (reduce_kernel_utils.cuh: warpReduceSum's __shfl_xor_sync, then
// the warps' sums through shared memory), results broadcast through __shared__ variables.
#include "src/fastertransformer/kernels/layernorm_kernels.cu"

#include "harness.cuh"

int main() {
  const int m = 6, n = 1024;
  const float eps = 1e-6f;
  const std::vector<float> x = llm_uniform(size_t(m) * n, 6, -3.0f, 3.0f);
  const std::vector<float> gamma = llm_uniform(n, 7, 0.5f, 1.5f), beta = llm_uniform(n, 8, -0.5f, 0.5f);
  float* d_x = llm_to_device(x);
  float* d_gamma = llm_to_device(gamma);
  float* d_beta = llm_to_device(beta);
  float* d_y = llm_to_device(std::vector<float>(x.size()));
  fastertransformer::invokeGeneralLayerNorm<float>(d_y, d_x, d_gamma, d_beta, eps, m, n, nullptr, nullptr, 0,
                                                   0, 2);
  LLM_CHECK(cudaGetLastError());
  LLM_CHECK(cudaDeviceSynchronize());
  const std::vector<float> y = llm_to_host(d_y, x.size());

  std::vector<double> want(x.size());
  for (int r = 0; r < m; ++r) {
    double sum = 0, squares = 0;
    for (int c = 0; c < n; ++c) sum += x[r * n + c];
    const double mean = sum / n;
    for (int c = 0; c < n; ++c) squares += (x[r * n + c] - mean) * (x[r * n + c] - mean);
    const double s = 1.0 / std::sqrt(squares / n + eps);
    for (int c = 0; c < n; ++c) want[r * n + c] = (x[r * n + c] - mean) * s * gamma[c] + beta[c];
  }
  return llm_report("generalLayerNorm<float>", "6x1024", llm_max_error(y, want), 1e-5);
}
