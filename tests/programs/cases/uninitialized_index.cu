// An index read from a buffer nothing wrote (the bug: the copy of the indices was forgotten).
// Under --check uninit the buffer holds the undefined pattern, a huge negative int, so the
// gather reads far outside any allocation and the program dies: the crash report must still name
// the read of undefined memory that made the wild address.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void gather(const int* indices, const float* table, float* out) {
  const int i = threadIdx.x;
  const int index = indices[i];
  out[i] = table[index];
}

int main() {
  const int n = 32;
  int* indices;
  float *table, *out;
  cudaMalloc(&indices, n * sizeof(int));
  cudaMalloc(&table, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemset(table, 0, n * sizeof(float));
  gather<<<1, n>>>(indices, table, out);
  cudaDeviceSynchronize();
  float host[n];
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  std::printf("out[0] = %g\n", host[0]);
  return 0;
}
