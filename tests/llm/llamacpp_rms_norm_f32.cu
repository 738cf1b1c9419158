// llama.cpp's rms_norm_f32 (ggml/src/ggml-cuda/norm.cu): one row per block, the row's sum of
// squares by warp_reduce_sum (common.cuh's __shfl_xor_sync butterfly), then across the 32 warps
// of a 1024-thread block through shared memory and a second warp_reduce_sum. Launched as
// rms_norm_f32_cuda does for ncols >= 1024: grid (rows, channels, samples), block 1024.
#include "ggml/src/ggml-cuda/norm.cu"

#include "harness.cuh"

int main() {
  const int rows = 3, channels = 2, samples = 1, cols = 4096;
  const float eps = 1e-6f;
  const std::vector<float> x = llm_uniform(size_t(rows) * channels * samples * cols, 3, -2.0f, 2.0f);
  float* d_x = llm_to_device(x);
  float* d_y = llm_to_device(std::vector<float>(x.size()));
  const int64_t stride_row = cols, stride_channel = int64_t(rows) * cols,
                stride_sample = int64_t(channels) * rows * cols;
  rms_norm_f32<1024><<<dim3(rows, channels, samples), dim3(1024, 1, 1)>>>(
      d_x, d_y, cols, stride_row, stride_channel, stride_sample, eps);
  LLM_CHECK(cudaGetLastError());
  LLM_CHECK(cudaDeviceSynchronize());
  const std::vector<float> y = llm_to_host(d_y, x.size());

  std::vector<double> want(x.size());
  for (size_t row = 0; row < x.size() / cols; ++row) {
    double squares = 0;
    for (int c = 0; c < cols; ++c) squares += double(x[row * cols + c]) * x[row * cols + c];
    const double scale = 1.0 / std::sqrt(squares / cols + eps);
    for (int c = 0; c < cols; ++c) want[row * cols + c] = scale * x[row * cols + c];
  }
  return llm_report("rms_norm_f32<1024>", "6x4096", llm_max_error(y, want), 1e-5);
}
