// Reference for lesson 13: the textbook two-pass softmax of each row, one element at a time.
#include <cuda_runtime.h>
#include <math.h>

__global__ void softmax_rows_reference(const float* x, float* y, int rows, int cols) {
  for (int r = 0; r < rows; ++r) {
    const float* in = x + r * cols;
    float* out = y + r * cols;
    float m = -INFINITY;
    for (int c = 0; c < cols; ++c) m = fmaxf(m, in[c]);
    double s = 0.0;  // double: the reference's own rounding stays far below the kernel's
    for (int c = 0; c < cols; ++c) s += expf(in[c] - m);
    for (int c = 0; c < cols; ++c) out[c] = expf(in[c] - m) / static_cast<float>(s);
  }
}
