// flashinfer's FusedAddRMSNormKernel (include/flashinfer/norm.cuh) on fp16, launched by
// flashinfer::norm::FusedAddRMSNorm: residual += input (written back), then input = rmsnorm(residual)
// * weight; the sum of squares by math::shfl_xor_sync within warps and shared memory across them,
// the f32 row kept in dynamic shared memory between the two passes.
#include "flashinfer/norm.cuh"

#include "harness.cuh"

int main() {
  const uint32_t batch = 4, d = 2048;
  const float eps = 1e-5f;
  std::vector<half> x(size_t(batch) * d), residual(x.size()), weight(d);
  std::vector<float> xf(x.size()), rf(x.size()), wf(d);
  LlmRandom random(10);
  for (size_t i = 0; i < x.size(); ++i) {
    xf[i] = __half2float(x[i] = __float2half(random.uniform(-2.0f, 2.0f)));
    rf[i] = __half2float(residual[i] = __float2half(random.uniform(-2.0f, 2.0f)));
  }
  for (uint32_t c = 0; c < d; ++c) wf[c] = __half2float(weight[c] = __float2half(random.uniform(0.5f, 1.5f)));
  half* d_x = llm_to_device(x);
  half* d_r = llm_to_device(residual);
  half* d_w = llm_to_device(weight);
  LLM_CHECK(flashinfer::norm::FusedAddRMSNorm(d_x, d_r, d_w, batch, d, d, d, eps));
  LLM_CHECK(cudaDeviceSynchronize());
  const std::vector<half> y = llm_to_host(d_x, x.size()), r = llm_to_host(d_r, x.size());

  std::vector<float> got;
  std::vector<double> want;
  for (uint32_t b = 0; b < batch; ++b) {
    double squares = 0;
    std::vector<double> sum(d);
    for (uint32_t c = 0; c < d; ++c) {
      sum[c] = double(xf[b * d + c]) + rf[b * d + c];
      squares += sum[c] * sum[c];
    }
    const double scale = 1.0 / std::sqrt(squares / d + eps);
    for (uint32_t c = 0; c < d; ++c) {
      got.push_back(__half2float(r[b * d + c])), want.push_back(sum[c]);
      got.push_back(__half2float(y[b * d + c])), want.push_back(sum[c] * scale * wf[c]);
    }
  }
  return llm_report("FusedAddRMSNormKernel<8, half>", "4x2048", llm_max_error(got, want), 2e-3);
}
