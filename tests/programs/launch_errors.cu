// Launch errors as CUDA reports them: a block of 2048 threads is refused (nothing runs,
// cudaGetLastError says "invalid argument" once, then the error is cleared: what an H100 with
// CUDA 13.0 answers, not the "invalid configuration argument" one might expect); a valid launch
// after it runs.
#include <cstring>

#include "check.cuh"

__global__ void mark(int* flag) { *flag = 1; }

int main() {
  int* flag;
  CHECK(cudaMallocManaged(&flag, sizeof(int)));
  *flag = 0;
  mark<<<1, 2048>>>(flag);
  const cudaError_t peeked = cudaPeekAtLastError();
  const cudaError_t refused = cudaGetLastError();
  const cudaError_t after = cudaGetLastError();
  CHECK(cudaDeviceSynchronize());
  std::printf("block of 2048: %s; then: %s; flag %d\n", cudaGetErrorString(refused),
              cudaGetErrorString(after), *flag);
  mark<<<1, 1>>>(flag);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::printf("block of 1: flag %d\n", *flag);
  const bool passed = peeked == cudaErrorInvalidValue && refused == cudaErrorInvalidValue &&
                      after == cudaSuccess && *flag == 1 &&
                      std::strcmp(cudaGetErrorString(refused), "invalid argument") == 0;
  CHECK(cudaFree(flag));
  return report(passed);
}
