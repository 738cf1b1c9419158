// flashinfer's RMSNormKernel (include/flashinfer/norm.cuh) on fp16, launched by flashinfer's own
// host function flashinfer::norm::RMSNorm: cudaLaunchKernelEx with a programmatic-serialization
// attribute, block (32, warps), 16-byte vec_t loads, warp sums by math::shfl_xor_sync and the
// warps' sums through dynamic shared memory.
#include "flashinfer/norm.cuh"

#include "harness.cuh"

int main() {
  const uint32_t batch = 5, d = 4096;
  const float eps = 1e-5f;
  std::vector<half> x(size_t(batch) * d), weight(d);
  std::vector<float> xf(x.size()), wf(d);
  LlmRandom random(5);
  for (size_t i = 0; i < x.size(); ++i) xf[i] = __half2float(x[i] = __float2half(random.uniform(-2.0f, 2.0f)));
  for (uint32_t c = 0; c < d; ++c) wf[c] = __half2float(weight[c] = __float2half(random.uniform(0.5f, 1.5f)));
  half* d_x = llm_to_device(x);
  half* d_w = llm_to_device(weight);
  half* d_y = llm_to_device(std::vector<half>(x.size()));
  LLM_CHECK(flashinfer::norm::RMSNorm(d_x, d_w, d_y, batch, d, d, d, eps));
  LLM_CHECK(cudaDeviceSynchronize());
  const std::vector<half> y = llm_to_host(d_y, x.size());

  std::vector<float> got(x.size());
  std::vector<double> want(x.size());
  for (uint32_t b = 0; b < batch; ++b) {
    double squares = 0;
    for (uint32_t c = 0; c < d; ++c) squares += double(xf[b * d + c]) * xf[b * d + c];
    const double scale = 1.0 / std::sqrt(squares / d + eps);
    for (uint32_t c = 0; c < d; ++c) {
      want[b * d + c] = scale * xf[b * d + c] * wf[c];
      got[b * d + c] = __half2float(y[b * d + c]);
    }
  }
  // fp16 keeps 11 significant bits: one rounding is 2^-11 relative; rsqrt's approximation adds.
  return llm_report("RMSNormKernel<8, half>", "5x4096", llm_max_error(got, want), 2e-3);
}
