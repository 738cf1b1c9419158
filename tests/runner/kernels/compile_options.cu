// Needs -I tests/runner/kernels/include_dir and -D OFFSET=VALUE (and -D TWICE).
#include "scale.h"

__global__ void scaled(int* out) {
#ifdef TWICE
  out[threadIdx.x] = 2 * (static_cast<int>(threadIdx.x) * SCALE_FROM_HEADER + OFFSET);
#else
  out[threadIdx.x] = static_cast<int>(threadIdx.x) * SCALE_FROM_HEADER + OFFSET;
#endif
}
