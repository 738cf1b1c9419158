// The CUDA toolkit's surface beyond <<<>>>: the include guards helper headers test, the device
// attributes, launches through cudaLaunchKernel and cudaLaunchKernelEx, occupancy, pitched copies.
// Every answer here is what an H100 gives (for occupancy: a kernel of at most 32 registers a
// thread and no static shared memory, which these kernels are), and an H200 too but for its L2.
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>
#include <driver_types.h>
#include <vector_functions.h>

#include "check.cuh"

#if !defined(__CUDA_RUNTIME_H__) || !defined(__DRIVER_TYPES_H__) || !defined(__VECTOR_TYPES_H__)
#error "the toolkit's include guards are not defined"
#endif

__global__ void fill(int* out, int n, int base) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = base + i;
}

__global__ void scaleRows(float* rows, size_t pitch, int width, int height, float s) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y;
  if (x < width && y < height) {
    float* row = reinterpret_cast<float*>(reinterpret_cast<char*>(rows) + y * pitch);
    row[x] *= s;
  }
}

int main() {
  bool ok = true;
  int value = 0;
  CHECK(cudaDeviceGetAttribute(&value, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0));
  ok = ok && value == 233472;
  CHECK(cudaDeviceGetAttribute(&value, cudaDevAttrMaxBlocksPerMultiprocessor, 0));
  ok = ok && value == 32;
  // The L2 is where Hopper parts differ: 50 MiB on the H100 (the simulated device), 60 MiB on an
  // H200 (recorded/toolkit_surface.txt).
  CHECK(cudaDeviceGetAttribute(&value, cudaDevAttrL2CacheSize, 0));
  ok = ok && value >= 50 * 1024 * 1024 && value % (1024 * 1024) == 0;

  const int n = 1000;
  int* d = nullptr;
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  int count = n, base = 7;
  void* args[] = {&d, &count, &base};
  CHECK(cudaLaunchKernel(fill, dim3((n + 255) / 256), dim3(256), args, 0, nullptr));
  int host[n];
  CHECK(cudaMemcpy(host, d, sizeof host, cudaMemcpyDeviceToHost));
  ok = ok && host[0] == 7 && host[999] == 1006;

  // (Its members gridDim and blockDim cannot be named in the simulator: the built-ins are macros.)
  cudaLaunchConfig_t config = {dim3(4), dim3(256), 0, nullptr, nullptr, 0};
  CHECK(cudaLaunchKernelEx(&config, fill, d, n, 100));
  CHECK(cudaMemcpy(host, d, sizeof host, cudaMemcpyDeviceToHost));
  ok = ok && host[0] == 100 && host[999] == 1099;

  int blocks = 0, min_grid = 0, block = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fill, 256, 0));
  ok = ok && blocks == 8;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fill, 128, 48 * 1024));
  ok = ok && blocks == 4;  // 228 KiB / (48 KiB + 1 KiB reserved)
  CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, fill));
  ok = ok && block == 1024 && min_grid == 2 * 132;

  const int width = 100, height = 3;
  float* rows = nullptr;
  size_t pitch = 0;
  CHECK(cudaMallocPitch(&rows, &pitch, width * sizeof(float), height));
  ok = ok && pitch == 512;
  float plain[height][width];
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) plain[y][x] = static_cast<float>(y * width + x);
  CHECK(cudaMemcpy2D(rows, pitch, plain, width * sizeof(float), width * sizeof(float), height,
                     cudaMemcpyHostToDevice));
  scaleRows<<<dim3(1, height), 128>>>(rows, pitch, width, height, 2.0f);
  CHECK(cudaGetLastError());
  float back[height][width];
  CHECK(cudaMemcpy2D(back, width * sizeof(float), rows, pitch, width * sizeof(float), height,
                     cudaMemcpyDeviceToHost));
  ok = ok && back[0][1] == 2.0f && back[2][99] == 2.0f * 299;

  CHECK(cudaFree(rows));
  CHECK(cudaFree(d));
  std::printf(ok ? "PASSED\n" : "FAILED\n");
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
