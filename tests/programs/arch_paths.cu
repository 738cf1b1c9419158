// Code behind `#if __CUDA_ARCH__` and CUDART_VERSION tests takes the device path the GPU takes:
// on sm_80 and newer the warp sum uses __reduce_add_sync, before that a shuffle loop; both must
// give the same sums. The kernel records which path it compiled.
#include "check.cuh"

__device__ unsigned warpSum(unsigned value) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_add_sync(0xffffffffu, value);
#else
  for (int offset = 16; offset > 0; offset /= 2) value += __shfl_xor_sync(0xffffffffu, value, offset);
  return value;
#endif
}

__global__ void sums(unsigned* out, int* path) {
  const unsigned total = warpSum(threadIdx.x + 1);
  if (threadIdx.x % 32 == 0) out[threadIdx.x / 32] = total;
  if (threadIdx.x == 0) {
#ifdef __CUDA_ARCH__
    *path = __CUDA_ARCH__;
#else
    *path = -1;
#endif
  }
}

int main() {
#if CUDART_VERSION < 11000
  std::printf("this program needs CUDA 11 or newer\n");
  return 1;
#else
  unsigned* out;
  int* path;
  CHECK(cudaMallocManaged(&out, 2 * sizeof(unsigned)));
  CHECK(cudaMallocManaged(&path, sizeof(int)));
  sums<<<1, 64>>>(out, path);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  // The device pass ran with __CUDA_ARCH__ of the compiled architecture: at most the device's.
  const bool arch_ok = *path > 0 && *path <= prop.major * 100 + prop.minor * 10;
  std::printf("warp sums %u %u, device path compiled: %s\n", out[0], out[1],
              arch_ok ? "yes" : "no");
  const bool passed = out[0] == 528 && out[1] == 1552 && arch_ok;
  CHECK(cudaFree(out));
  CHECK(cudaFree(path));
  return report(passed);
#endif
}
