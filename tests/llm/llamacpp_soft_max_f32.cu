// llama.cpp's soft_max_f32 (ggml/src/ggml-cuda/softmax.cu) without a mask, scale 0.5: the row
// cached in dynamic shared memory, the block's max by warp_reduce_max and its sum by
// warp_reduce_sum, each across warps through shared memory. Launched as soft_max_f32_cuda does
// for a row that fits in shared memory: soft_max_f32<true, 0, 0, float>, block 1024 (the row's
// length rounded up to warps, at most 1024), (32 + ncols) floats of shared memory.
#include "ggml/src/ggml-cuda/softmax.cu"

#include "harness.cuh"

int main() {
  const int rows = 4, cols = 3000, block = 1024;
  const float scale = 0.5f;
  const std::vector<float> x = llm_uniform(size_t(rows) * cols, 9, -10.0f, 10.0f);
  float* d_x = llm_to_device(x);
  float* d_y = llm_to_device(std::vector<float>(x.size()));
  const size_t shared = (WARP_SIZE + cols) * sizeof(float);
  soft_max_f32<true, 0, 0, float><<<rows, block, shared>>>(d_x, (const float*)nullptr, d_y, cols, rows, scale,
                                                            0.0f, 0.0f, 0.0f, 0);
  LLM_CHECK(cudaGetLastError());
  LLM_CHECK(cudaDeviceSynchronize());
  const std::vector<float> y = llm_to_host(d_y, x.size());

  std::vector<double> want(x.size());
  for (int r = 0; r < rows; ++r) {
    double max = -INFINITY, sum = 0;
    for (int c = 0; c < cols; ++c) max = std::fmax(max, double(x[r * cols + c]) * scale);
    for (int c = 0; c < cols; ++c) sum += std::exp(double(x[r * cols + c]) * scale - max);
    for (int c = 0; c < cols; ++c) want[r * cols + c] = std::exp(double(x[r * cols + c]) * scale - max) / sum;
  }
  return llm_report("soft_max_f32<true,0,0,float>", "4x3000", llm_max_error(y, want), 1e-5);
}
