// A device-side assert (simpleAssert's pattern): the failing lane prints the GPU's message, the
// launch stops, and the program goes on with cudaErrorAssert from every call that reports errors
// (a sticky error). Host code's assert stays the C library's.
#include <cassert>
#include <cstdio>

__global__ void check_below(const int* values, int limit) { assert(values[threadIdx.x] < limit); }

int main() {
  int host[32];
  for (int i = 0; i < 32; ++i) host[i] = i;
  int* values = nullptr;
  cudaMalloc(&values, sizeof host);
  cudaMemcpy(values, host, sizeof host, cudaMemcpyHostToDevice);
  check_below<<<1, 32>>>(values, 40);  // every assertion holds
  std::printf("first: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  check_below<<<1, 32>>>(values, 20);  // lanes 20..31 fail
  const cudaError_t error = cudaDeviceSynchronize();
  std::printf("second: %s (%s)\n", cudaGetErrorName(error), cudaGetErrorString(error));
  std::printf("after: %s %s\n", cudaGetErrorName(cudaGetLastError()),
              cudaGetErrorName(cudaGetLastError()));
  assert(error == cudaErrorAssert);  // host code: holds
  return error == cudaErrorAssert ? 0 : 1;
}
