// A program that calls cuBLAS beside its own kernel. warpsim cannot run the library: the program
// compiles (the toolkit's cublas_v2.h), runs its kernel and stops at cublasCreate, which warpsim
// names with this file's line. With -DGUARD the library stays out of the simulator's build
// (#ifndef __WARPSIM__) and the program's own kernel runs and checks itself. With -DNEVER_CALLED
// the calls are on a path not taken: the program runs to the end.
#include <cstdio>

#include <cuda_runtime.h>
#if !defined(GUARD) || !defined(__WARPSIM__)
#include <cublas_v2.h>
#endif

__global__ void scale(float* x, float s, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= s;
}

int main() {
  const int n = 64;
  float host[n];
  for (int i = 0; i < n; ++i) host[i] = static_cast<float>(i);
  float* d = nullptr;
  cudaMalloc(&d, sizeof host);
  cudaMemcpy(d, host, sizeof host, cudaMemcpyHostToDevice);
  scale<<<2, 32>>>(d, 2.0f, n);
#if !defined(GUARD) || !defined(__WARPSIM__)
#if defined(NEVER_CALLED)
  if (n == 0) {
#else
  {
#endif
  cublasHandle_t handle;
  cublasCreate(&handle);
  float sum = 0;
  cublasSasum(handle, n, d, 1, &sum);
  cublasDestroy(handle);
  std::printf("sum %g\n", sum);
  }
#endif
  cudaMemcpy(host, d, sizeof host, cudaMemcpyDeviceToHost);
  cudaFree(d);
  const bool ok = host[10] == 20.0f && host[63] == 126.0f;
  std::printf(ok ? "PASSED\n" : "FAILED\n");
  return ok ? 0 : 1;
}
