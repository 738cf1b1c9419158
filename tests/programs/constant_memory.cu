// Constant memory for polynomial coefficients (cudaMemcpyToSymbol), a __device__ counter read
// back with cudaMemcpyFromSymbol, and a kernel that evaluates the polynomial by Horner's rule.
#include <vector>

#include "check.cuh"

constexpr int kDegree = 4;
__constant__ float coefficients[kDegree + 1];
__device__ unsigned int evaluated;

__global__ void polynomial(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float value = coefficients[kDegree];
  for (int k = kDegree - 1; k >= 0; --k) value = value * x[i] + coefficients[k];
  y[i] = value;
  atomicAdd(&evaluated, 1u);
}

int main() {
  const int n = 1000;
  const float host_coefficients[kDegree + 1] = {1.0f, -2.0f, 0.5f, 0.25f, -0.125f};
  CHECK(cudaMemcpyToSymbol(coefficients, host_coefficients, sizeof host_coefficients));
  const unsigned int zero = 0;
  CHECK(cudaMemcpyToSymbol(evaluated, &zero, sizeof zero));
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i % 8) * 0.5f - 2.0f;
  float *d_x, *d_y;
  CHECK(cudaMalloc(&d_x, n * sizeof(float)));
  CHECK(cudaMalloc(&d_y, n * sizeof(float)));
  CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  polynomial<<<(n + 127) / 128, 128>>>(d_x, d_y, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(y.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost));
  unsigned int count = 0;
  CHECK(cudaMemcpyFromSymbol(&count, evaluated, sizeof count));
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    float value = host_coefficients[kDegree];
    for (int k = kDegree - 1; k >= 0; --k) value = value * x[i] + host_coefficients[k];
    if (value != y[i]) ++wrong;  // small exact values: the same on both sides
  }
  std::printf("polynomial at %d points: %u evaluated, p(-2) = %g, %d wrong\n", n, count, y[0], wrong);
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_y));
  return report(wrong == 0 && count == static_cast<unsigned int>(n));
}
