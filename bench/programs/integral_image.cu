// Integral image (summed-area table) of a W x H image of 8-bit values (default 1920 x 1080): a
// row pass, one warp per row (each 32-pixel piece scanned with __shfl_up_sync, the running total
// carried with __shfl_sync), then a column pass, one thread per column walking down it.
// Usage: integral_image [W [H]]
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#include "bench_util.h"
#include "cuda_check.cuh"

__global__ void scanRows(const unsigned int* in, unsigned int* out, int width, int height) {
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (row >= height) return;
  unsigned int carry = 0;
  for (int base = 0; base < width; base += 32) {
    const int x = base + lane;
    unsigned int v = x < width ? in[row * width + x] : 0;
    for (int delta = 1; delta < 32; delta *= 2) {
      const unsigned int up = __shfl_up_sync(0xffffffff, v, delta);
      if (lane >= delta) v += up;
    }
    v += carry;
    if (x < width) out[row * width + x] = v;
    carry = __shfl_sync(0xffffffff, v, 31);
  }
}

__global__ void scanColumns(unsigned int* image, int width, int height) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width) return;
  unsigned int sum = 0;
  for (int y = 0; y < height; ++y) {
    sum += image[y * width + x];
    image[y * width + x] = sum;
  }
}

int main(int argc, char** argv) {
  const int width = static_cast<int>(size_argument(argc, argv, 1, 1920));
  const int height = static_cast<int>(size_argument(argc, argv, 2, 1080));
  const int n = width * height;
  std::vector<unsigned int> image(n), integral(n);
  for (int i = 0; i < n; ++i) image[i] = hash32(i) % 256;
  unsigned int *d_image, *d_integral;
  CHECK(cudaMalloc(&d_image, n * sizeof(unsigned int)));
  CHECK(cudaMalloc(&d_integral, n * sizeof(unsigned int)));
  CHECK(cudaMemcpy(d_image, image.data(), n * sizeof(unsigned int), cudaMemcpyHostToDevice));

  const double start = now_seconds();
  const int threads = 256;
  scanRows<<<(height * 32 + threads - 1) / threads, threads>>>(d_image, d_integral, width, height);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  const double rows = now_seconds();
  scanColumns<<<(width + threads - 1) / threads, threads>>>(d_integral, width, height);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  const double end = now_seconds();

  CHECK(cudaMemcpy(integral.data(), d_integral, n * sizeof(unsigned int),
                   cudaMemcpyDeviceToHost));
  std::vector<unsigned int> expected(n);
  int mismatches = 0;
  for (int y = 0; y < height; ++y) {
    unsigned int rowSum = 0;
    for (int x = 0; x < width; ++x) {
      rowSum += image[y * width + x];
      expected[y * width + x] = rowSum + (y > 0 ? expected[(y - 1) * width + x] : 0);
      if (integral[y * width + x] != expected[y * width + x]) ++mismatches;
    }
  }
  CHECK(cudaFree(d_image));
  CHECK(cudaFree(d_integral));
  std::printf("integral image of %d x %d: bottom right %u (expected %u), %d mismatches\n", width,
              height, integral[n - 1], expected[n - 1], mismatches);
  print_time("rows", rows - start);
  print_time("columns", end - rows);
  print_time("compute", end - start);
  std::printf("%s\n", mismatches == 0 ? "PASSED" : "FAILED");
  return mismatches == 0 ? 0 : 1;
}
