// Lesson 20 (pitfall): a full mask inside a divergent branch.
// One warp holds two vectors of 16: a in lanes 0-15, b in lanes 16-31. Lane i < 16 fetches b[i]
// from its partner lane i ^ 16 = i + 16, multiplies, and a butterfly sums the products.
//
// WHAT IS WRONG in dot16: the shuffle that fetches b sits inside `if (lane < 16)`, but its mask,
// 0xffffffff, names all 32 lanes. Lanes 16-31 skip the branch. They have not exited, so they are
// not excused: they arrive at the next shuffle they meet, the first round of the sum. On Volta
// and later the two call sites combine into one shuffle, so lanes 0-15 receive the upper lanes'
// p (still 0) instead of their v, the upper lanes receive a values as if they were products, and
// from then on the two halves of the warp run one round apart. dot16_fixed shuffles before the
// branch, with every lane taking part, and uses the result only inside it.
#include <cuda_runtime.h>

__global__ void dot16(const int* in, int* out) {
  const int lane = threadIdx.x % 32;
  const int v = in[lane];
  int p = 0;
  if (lane < 16) {
    const int b = __shfl_xor_sync(0xffffffff, v, 16);  // step: fetch b (WRONG: lanes 16-31 never call)
    p = v * b;
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    p += __shfl_xor_sync(0xffffffff, p, offset);  // step: sum
  }
  if (lane == 0) *out = p;
}

__global__ void dot16_fixed(const int* in, int* out) {
  const int lane = threadIdx.x % 32;
  const int v = in[lane];
  const int b = __shfl_xor_sync(0xffffffff, v, 16);  // every lane calls; lanes 16-31 ignore b
  int p = lane < 16 ? v * b : 0;
  for (int offset = 16; offset > 0; offset /= 2) {
    p += __shfl_xor_sync(0xffffffff, p, offset);
  }
  if (lane == 0) *out = p;
}
