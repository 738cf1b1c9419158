// integral_image.cu's two passes in C++: scan every row, then every column. OpenMP
// (-fopenmp): rows split over the cores, then columns split over the cores in strips of 64
// (each strip walks down the image, as each CUDA thread walks down its column). Built serial
// (c++ -O2) and OpenMP by run.py.
// Usage: integral_image [W [H]]
#include <cstdio>
#include <vector>

#include "bench_util.h"

int main(int argc, char** argv) {
  const int width = static_cast<int>(size_argument(argc, argv, 1, 1920));
  const int height = static_cast<int>(size_argument(argc, argv, 2, 1080));
  const int n = width * height;
  std::vector<unsigned int> image(n), integral(n);
  for (int i = 0; i < n; ++i) image[i] = hash32(i) % 256;
  start_threads();

  const double start = now_seconds();
#pragma omp parallel for
  for (int y = 0; y < height; ++y) {
    unsigned int sum = 0;
    for (int x = 0; x < width; ++x) integral[y * width + x] = sum += image[y * width + x];
  }
  const double rows = now_seconds();
  const int strip = 64;
#pragma omp parallel for
  for (int x0 = 0; x0 < width; x0 += strip) {
    const int x1 = x0 + strip < width ? x0 + strip : width;
    for (int y = 1; y < height; ++y)
      for (int x = x0; x < x1; ++x) integral[y * width + x] += integral[(y - 1) * width + x];
  }
  const double end = now_seconds();

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
  std::printf("integral image of %d x %d: bottom right %u (expected %u), %d mismatches\n", width,
              height, integral[n - 1], expected[n - 1], mismatches);
  print_time("rows", rows - start);
  print_time("columns", end - rows);
  print_time("compute", end - start);
  std::printf("%s\n", mismatches == 0 ? "PASSED" : "FAILED");
  return mismatches == 0 ? 0 : 1;
}
