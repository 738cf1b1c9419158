// histogram.cu's 256-bin histogram in C++: each thread counts into its own histogram (the
// block's shared one in CUDA), then adds it to the global one (OpenMP: atomically). Built serial
// (c++ -O2, one thread) and OpenMP (-fopenmp) by run.py.
// Usage: histogram [N]
#include <cstdio>
#include <vector>

#include "bench_util.h"

int main(int argc, char** argv) {
  const int n = static_cast<int>(size_argument(argc, argv, 1, 16 << 20));
  std::vector<unsigned char> data(n);
  for (int i = 0; i < n; ++i) data[i] = static_cast<unsigned char>(hash32(i) >> 24);
  start_threads();

  const double start = now_seconds();
  unsigned int histo[256] = {};
#pragma omp parallel
  {
    unsigned int temp[256] = {};
#pragma omp for nowait
    for (int i = 0; i < n; ++i) ++temp[data[i]];
    for (int b = 0; b < 256; ++b) {
#pragma omp atomic
      histo[b] += temp[b];
    }
  }
  const double end = now_seconds();

  unsigned int expected[256] = {};
  for (int i = 0; i < n; ++i) ++expected[data[i]];
  int wrongBins = 0;
  long total = 0;
  for (int b = 0; b < 256; ++b) {
    if (histo[b] != expected[b]) ++wrongBins;
    total += histo[b];
  }
  std::printf("histogram of %d bytes: %ld counted, bin 0 = %u, %d wrong bins\n", n, total,
              histo[0], wrongBins);
  print_time("compute", end - start);
  std::printf("%s\n", wrongBins == 0 ? "PASSED" : "FAILED");
  return wrongBins == 0 ? 0 : 1;
}
