// Kernels that macros declare, as libraries stamp them out per type.
#include <cuda_runtime.h>

#define DEFINE_SCALE_KERNEL(NAME, T, FACTOR) \
  __global__ void NAME(T* data) { data[threadIdx.x] *= FACTOR; }

DEFINE_SCALE_KERNEL(scale_by_two, float, 2.0f)
DEFINE_SCALE_KERNEL(scale_by_three, int, 3)

#define WARP_SUM_KERNEL(T)                                                  \
  __global__ void warp_sum_##T(const T* in, T* out) {                       \
    T v = in[threadIdx.x];                                                  \
    for (int offset = 16; offset > 0; offset /= 2)                          \
      v += __shfl_down_sync(0xffffffff, v, offset);                         \
    if (threadIdx.x == 0) *out = v;                                         \
  }

WARP_SUM_KERNEL(int)

__global__ void written_out(int* x) { x[threadIdx.x] = 1; }
