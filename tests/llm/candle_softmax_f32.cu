// candle's softmax_f32 (candle-kernels/src/reduce.cu): one row per block column, the row's 32
// threads along y, max and sum by __shfl_xor_sync. Launched as candle's Rust side does:
// grid (rows), block (1, 32, 1).
#include "candle-kernels/src/reduce.cu"

#include "harness.cuh"

int main() {
  const int rows = 8, cols = 1000;
  const std::vector<float> x = llm_uniform(size_t(rows) * cols, 1, -8.0f, 8.0f);
  float* d_x = llm_to_device(x);
  float* d_y = llm_to_device(std::vector<float>(x.size()));
  softmax_f32<<<dim3(rows, 1, 1), dim3(1, 32, 1)>>>(d_x, d_y, cols);
  LLM_CHECK(cudaGetLastError());
  LLM_CHECK(cudaDeviceSynchronize());
  const std::vector<float> y = llm_to_host(d_y, x.size());

  std::vector<double> want(x.size());
  for (int r = 0; r < rows; ++r) {
    double max = -INFINITY, sum = 0;
    for (int c = 0; c < cols; ++c) max = std::fmax(max, x[r * cols + c]);
    for (int c = 0; c < cols; ++c) sum += std::exp(double(x[r * cols + c]) - max);
    for (int c = 0; c < cols; ++c) want[r * cols + c] = std::exp(double(x[r * cols + c]) - max) / sum;
  }
  return llm_report("softmax_f32", "8x1000", llm_max_error(y, want), 1e-5);
}
