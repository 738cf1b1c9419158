// Kernels for the misuse suite (misuse_test.cpp): each breaks one rule on purpose, or looks as
// if it might and does not. Markers `// @name` name the lines the tests look for.
#pragma once

namespace misuse {

// The lanes past 20 return; the rest reduce with __shfl_down_sync and read lanes that are gone:
// a different set of lanes in each of the five steps.
__global__ void tail_reduce(int* out) {
  if (threadIdx.x >= 20) return;
  int v = static_cast<int>(threadIdx.x);
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);  // @tail
  out[threadIdx.x] = v;
}

}  // namespace misuse
