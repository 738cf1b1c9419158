// A kernel that launches itself with no end (CUDA dynamic parallelism): CUDA nests grids at most
// 24 deep, so the launch from the grid at depth 24 is refused, and the launching thread's
// cudaGetLastError says cudaErrorLaunchMaxDepthExceeded.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void dive(int depth, int* refused_at, int* error) {
  dive<<<1, 1>>>(depth + 1, refused_at, error);
  const cudaError_t launch = cudaGetLastError();
  if (launch != cudaSuccess) {
    *refused_at = depth;
    *error = launch;
  }
}

int main() {
  int* result;
  cudaMalloc(&result, 2 * sizeof(int));
  cudaMemset(result, 0, 2 * sizeof(int));
  dive<<<1, 1>>>(0, result, result + 1);
  const cudaError_t sync = cudaDeviceSynchronize();
  int host[2] = {};
  cudaMemcpy(host, result, sizeof host, cudaMemcpyDeviceToHost);
  std::printf("the launch from depth %d was refused: %s; the host's synchronize: %s\n", host[0],
              cudaGetErrorName(static_cast<cudaError_t>(host[1])), cudaGetErrorName(sync));
  std::printf("%s\n", host[0] == 24 && host[1] == cudaErrorLaunchMaxDepthExceeded &&
                              sync == cudaSuccess
                          ? "PASSED"
                          : "FAILED");
  return 0;
}
