// Shared by the CUDA (.cu) and the C++ (.cpp, serial and OpenMP) versions of each benchmark
// program: the size argument, the input values and a wall-clock timer, so all three versions
// work on the same data and time the same part (the kernels, or the loops that do their work).
#pragma once
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

// The element count: argv[index] if given (a positive integer), else `fallback`.
inline long size_argument(int argc, char** argv, int index, long fallback) {
  if (argc <= index) return fallback;
  char* end = nullptr;
  const long value = std::strtol(argv[index], &end, 10);
  if (end == argv[index] || *end != '\0' || value <= 0) {
    std::fprintf(stderr, "usage: %s [N]: N must be a positive integer, not '%s'\n", argv[0],
                 argv[index]);
    std::exit(2);
  }
  return value;
}

// A cheap integer hash (lowbias32): the inputs are hash(i) reduced to the range each program
// needs, the same in every version.
inline uint32_t hash32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

inline double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// The line run.py reads: "time NAME: SECONDS s".
inline void print_time(const char* name, double seconds) {
  std::printf("time %s: %.6f s\n", name, seconds);
}

#ifdef _OPENMP
#include <omp.h>
// The OpenMP builds start their threads before the timed part, so the first parallel loop's
// time is the loop's, not the thread pool's start.
inline void start_threads() {
  int threads = 0;
#pragma omp parallel
  {
#pragma omp atomic
    threads += 1;
  }
  if (threads < 1) std::exit(3);
}
#else
inline void start_threads() {}
#endif
