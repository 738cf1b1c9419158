// Reference for lesson 16. Every lane's outputs are the same warp-wide results. The half sums
// are exact because the inputs are integers whose sums stay below 2048 (where half precision
// still holds every integer), so they are computed in float here.
#include <cuda_runtime.h>

__global__ void wide_shuffles_reference(const double* x, const long long* k, const float* h,
                                        double* x_last, double* x_sum, long long* k_max,
                                        float* h_sum) {
  double sum = 0.0;
  long long max = k[0];
  float even = 0.0f, odd = 0.0f;
  for (int i = 0; i < 32; ++i) {
    sum += x[i];
    if (k[i] > max) max = k[i];
    even += h[2 * i];
    odd += h[2 * i + 1];
  }
  for (int lane = 0; lane < 32; ++lane) {
    x_last[lane] = x[31];
    x_sum[lane] = sum;
    k_max[lane] = max;
    h_sum[2 * lane] = even;
    h_sum[2 * lane + 1] = odd;
  }
}
