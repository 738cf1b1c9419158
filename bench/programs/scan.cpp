// scan.cu's inclusive scan in C++. Serial (c++ -O2): one running sum. OpenMP (-fopenmp): the
// same two passes as the CUDA version, with one chunk per thread instead of one per block: each
// thread scans its chunk, the chunk totals are scanned, each thread adds its chunk's offset.
// Usage: scan [N]
#include <cstdio>
#include <vector>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "bench_util.h"

void inclusiveScan(const int* in, int* out, int n) {
#ifdef _OPENMP
  std::vector<int> chunkSums(omp_get_max_threads() + 1, 0);
#pragma omp parallel
  {
    const int threads = omp_get_num_threads(), t = omp_get_thread_num();
    const int begin = static_cast<int>(static_cast<long>(n) * t / threads);
    const int end = static_cast<int>(static_cast<long>(n) * (t + 1) / threads);
    int running = 0;
    for (int i = begin; i < end; ++i) out[i] = running += in[i];
    chunkSums[t + 1] = running;
#pragma omp barrier
    int offset = 0;
    for (int k = 0; k <= t; ++k) offset += chunkSums[k];
    for (int i = begin; i < end; ++i) out[i] += offset;
  }
#else
  int running = 0;
  for (int i = 0; i < n; ++i) out[i] = running += in[i];
#endif
}

int main(int argc, char** argv) {
  const int n = static_cast<int>(size_argument(argc, argv, 1, 4 << 20));
  std::vector<int> in(n), out(n);
  for (int i = 0; i < n; ++i) in[i] = static_cast<int>(hash32(i) % 16);
  start_threads();

  const double start = now_seconds();
  inclusiveScan(in.data(), out.data(), n);
  const double end = now_seconds();

  int mismatches = 0;
  int running = 0;
  for (int i = 0; i < n; ++i) {
    running += in[i];
    if (out[i] != running) ++mismatches;
  }
  std::printf("inclusive scan of %d ints: last %d (expected %d), %d mismatches\n", n,
              out[n - 1], running, mismatches);
  print_time("compute", end - start);
  std::printf("%s\n", mismatches == 0 ? "PASSED" : "FAILED");
  return mismatches == 0 ? 0 : 1;
}
