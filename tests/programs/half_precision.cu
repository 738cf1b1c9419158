// Half precision: floats converted to __half, a half2 axpy (__hfma2) and a __half dot product
// accumulated in float; each result checked against the same arithmetic done on the host in
// float with one rounding to half per operation.
#include <cuda_fp16.h>

#include <cmath>
#include <vector>

#include "check.cuh"

__global__ void halfAxpy(const __half2* x, __half2* y, __half2 a, int n2) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n2) y[i] = __hfma2(a, x[i], y[i]);
}

__global__ void halfDot(const __half* x, const __half* y, float* out, int n) {
  float sum = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) sum += __half2float(__hmul(x[i], y[i]));
  for (int offset = 16; offset > 0; offset >>= 1) sum += __shfl_xor_sync(0xffffffff, sum, offset);
  if (threadIdx.x == 0) *out = sum;
}

int main() {
  const int n = 256;
  std::vector<__half> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = __float2half(0.25f * static_cast<float>(i % 16));
    y[i] = __float2half(1.0f + 0.125f * static_cast<float>(i % 8));
  }
  __half *d_x, *d_y;
  float* d_dot;
  CHECK(cudaMalloc(&d_x, n * sizeof(__half)));
  CHECK(cudaMalloc(&d_y, n * sizeof(__half)));
  CHECK(cudaMalloc(&d_dot, sizeof(float)));
  CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(__half), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_y, y.data(), n * sizeof(__half), cudaMemcpyHostToDevice));

  halfDot<<<1, 32>>>(d_x, d_y, d_dot, n);
  CHECK(cudaGetLastError());
  float dot = 0;
  CHECK(cudaMemcpy(&dot, d_dot, sizeof(float), cudaMemcpyDeviceToHost));

  const __half2 a = __floats2half2_rn(2.0f, 2.0f);
  halfAxpy<<<(n / 2 + 63) / 64, 64>>>(reinterpret_cast<const __half2*>(d_x),
                                      reinterpret_cast<__half2*>(d_y), a, n / 2);
  CHECK(cudaGetLastError());
  std::vector<__half> result(n);
  CHECK(cudaMemcpy(result.data(), d_y, n * sizeof(__half), cudaMemcpyDeviceToHost));

  // Every value here is exact in half precision, so the host can check in float.
  float expected_dot = 0;
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    const float xf = __half2float(x[i]), yf = __half2float(y[i]);
    expected_dot += xf * yf;
    if (__half2float(result[i]) != 2.0f * xf + yf) ++wrong;
  }
  std::printf("half dot %.4f (expected %.4f), axpy %d wrong of %d\n", dot, expected_dot, wrong, n);
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_y));
  CHECK(cudaFree(d_dot));
  return report(std::fabs(dot - expected_dot) < 1e-3f && wrong == 0);
}
