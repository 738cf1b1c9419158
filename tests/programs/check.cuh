// The error-checking macro of the corpus programs, as the CUDA samples write it.
#pragma once
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#define CHECK(call)                                                                \
  do {                                                                             \
    const cudaError_t check_error_ = (call);                                       \
    if (check_error_ != cudaSuccess) {                                             \
      std::fprintf(stderr, "CUDA error '%s' (%s) at %s:%d\n",                      \
                   cudaGetErrorString(check_error_), cudaGetErrorName(check_error_), \
                   __FILE__, __LINE__);                                            \
      std::exit(1);                                                                \
    }                                                                              \
  } while (0)

inline int report(bool passed) {
  std::printf("%s\n", passed ? "PASSED" : "FAILED");
  return passed ? 0 : 1;
}
