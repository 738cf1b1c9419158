// cudaMalloc into a pointer to const (HSOpticalFlow allocates its read-only images so): CUDA's
// template takes it; the shim once refused it at compile time.
#include <cstdio>
__global__ void fill(float* p) { p[threadIdx.x] = 2.0f * threadIdx.x; }
int main() {
  const float* in = nullptr;
  cudaMalloc(&in, 32 * sizeof(float));  // as HSOpticalFlow allocates its read-only images
  fill<<<1, 32>>>(const_cast<float*>(in));
  float h[32];
  cudaMemcpy(h, in, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(const_cast<float*>(in));
  printf("%g\n", h[31]);
  return h[31] == 62.0f ? 0 : 1;
}
