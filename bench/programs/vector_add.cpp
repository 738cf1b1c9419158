// vector_add.cu's algorithm in C++: c = a + b, one loop iteration per element, then one partial
// sum per 256 elements and the partials added in double. Built twice by run.py: serial
// (c++ -O2) and OpenMP (c++ -O2 -fopenmp, the loops split over all cores).
// Usage: vector_add [N]
#include <cstdio>
#include <vector>

#include "bench_util.h"

int main(int argc, char** argv) {
  const int n = static_cast<int>(size_argument(argc, argv, 1, 16 << 20));
  std::vector<float> a(n), b(n), c(n);
  for (int i = 0; i < n; ++i) {
    a[i] = static_cast<float>(hash32(i) % 101);
    b[i] = static_cast<float>(static_cast<int>(hash32(i + n) % 37) - 18);
  }
  const int chunk = 256;
  const int blocks = (n + chunk - 1) / chunk;
  std::vector<float> partial(blocks);
  start_threads();

  const double start = now_seconds();
#pragma omp parallel for
  for (int i = 0; i < n; ++i) c[i] = a[i] + b[i];
  const double added = now_seconds();
#pragma omp parallel for
  for (int k = 0; k < blocks; ++k) {
    float v = 0;
    const int end = (k + 1) * chunk < n ? (k + 1) * chunk : n;
    for (int i = k * chunk; i < end; ++i) v += c[i];
    partial[k] = v;
  }
  const double summed = now_seconds();

  double sum = 0;
  for (int k = 0; k < blocks; ++k) sum += partial[k];
  int errors = 0;
  double expected = 0;
  for (int i = 0; i < n; ++i) {
    if (c[i] != a[i] + b[i]) ++errors;
    expected += a[i] + b[i];
  }
  const bool passed = errors == 0 && sum == expected;
  std::printf("vector add of %d floats: %d errors; sum %.0f (expected %.0f)\n", n, errors, sum,
              expected);
  print_time("add", added - start);
  print_time("sum", summed - added);
  print_time("compute", summed - start);
  std::printf("%s\n", passed ? "PASSED" : "FAILED");
  return passed ? 0 : 1;
}
