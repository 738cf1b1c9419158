// reduce.cu's sum in C++: one loop over the elements (OpenMP: split over the cores, each
// thread's partial sum added at the end). Built serial (c++ -O2) and OpenMP (-fopenmp) by run.py.
// Usage: reduce [N]
#include <cmath>
#include <cstdio>
#include <vector>

#include "bench_util.h"

int main(int argc, char** argv) {
  const int n = static_cast<int>(size_argument(argc, argv, 1, 16 << 20));
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) in[i] = static_cast<float>(hash32(i) % 16) * 0.25f;
  start_threads();

  const double start = now_seconds();
  double total = 0.0;
#pragma omp parallel
  {
    double sum = 0.0;  // this thread's partial sum, as each CUDA thread's (in double: one float
                       // accumulator over 16M values loses about 2e-5 of the total)
#pragma omp for nowait
    for (int i = 0; i < n; ++i) sum += in[i];
#pragma omp atomic
    total += sum;
  }
  const double end = now_seconds();

  double expected = 0;
  for (int i = 0; i < n; ++i) expected += in[i];
  const bool passed = std::fabs(total - expected) <= 1e-5 * expected;
  std::printf("sum of %d floats: %.1f (expected %.1f)\n", n, total, expected);
  print_time("compute", end - start);
  std::printf("%s\n", passed ? "PASSED" : "FAILED");
  return passed ? 0 : 1;
}
