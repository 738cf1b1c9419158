// llm.c's layernorm_forward_kernel3 (llmc/layernorm.cuh): one warp per row of bf16 (floatX),
// mean and variance by warpReduceSum (__shfl_xor_sync), the mean and rstd written with __stcs,
// the row with __ldcs/__stcs. Launched as llm.c's layernorm_forward does before its kernel6
// path: block 256 (8 rows a block), grid ceil(N / 8).
#include "llmc/layernorm.cuh"

#include "harness.cuh"

cudaDeviceProp deviceProp;  // llmc/cuda_common.h declares it for the main program to define

int main() {
  const int N = 20, C = 768, block = 256;
  std::vector<floatX> x(size_t(N) * C), weight(C), bias(C);
  std::vector<float> xf(x.size()), wf(C), bf(C);
  LlmRandom random(4);
  for (size_t i = 0; i < x.size(); ++i) xf[i] = float(x[i] = floatX(random.uniform(-2.0f, 2.0f)));
  for (int c = 0; c < C; ++c) {
    wf[c] = float(weight[c] = floatX(random.uniform(0.5f, 1.5f)));
    bf[c] = float(bias[c] = floatX(random.uniform(-0.5f, 0.5f)));
  }
  floatX* d_x = llm_to_device(x);
  floatX* d_w = llm_to_device(weight);
  floatX* d_b = llm_to_device(bias);
  floatX* d_out = llm_to_device(std::vector<floatX>(x.size()));
  float* d_mean = llm_to_device(std::vector<float>(N));
  float* d_rstd = llm_to_device(std::vector<float>(N));
  layernorm_forward_kernel3<<<CEIL_DIV(N * 32, block), block>>>(d_out, d_mean, d_rstd, d_x, d_w, d_b, N, C);
  LLM_CHECK(cudaGetLastError());
  LLM_CHECK(cudaDeviceSynchronize());
  const std::vector<floatX> out = llm_to_host(d_out, x.size());
  const std::vector<float> mean = llm_to_host(d_mean, N), rstd = llm_to_host(d_rstd, N);

  std::vector<float> got;
  std::vector<double> want;
  for (int n = 0; n < N; ++n) {
    double sum = 0, squares = 0;
    for (int c = 0; c < C; ++c) sum += xf[n * C + c];
    const double m = sum / C;
    for (int c = 0; c < C; ++c) squares += (xf[n * C + c] - m) * (xf[n * C + c] - m);
    const double s = 1.0 / std::sqrt(squares / C + 1e-5);
    got.push_back(mean[n]), want.push_back(m);
    got.push_back(rstd[n]), want.push_back(s);
    for (int c = 0; c < C; ++c) {
      got.push_back(float(out[n * C + c]));
      want.push_back(s * (xf[n * C + c] - m) * wf[c] + bf[c]);
    }
  }
  // bf16 output: one rounding is 2^-8 of the value.
  return llm_report("layernorm_forward_kernel3", "20x768", llm_max_error(got, want), 1.0 / 128);
}
