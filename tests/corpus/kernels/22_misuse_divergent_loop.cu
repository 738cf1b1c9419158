// Sum of neighbour pairs along a row: each lane walks the row 32 elements apart, adds its
// neighbour's element with a shuffle, and the warp then reduces the lanes' partial sums.
//
// WHAT IS WRONG: the loop's trip count differs between lanes when n is not a multiple of 32,
// yet the shuffle inside it names all 32 lanes. On the last trip only lanes with k < n are in
// the loop; the others have left it but have not exited, so they are already waiting in the
// reduction's __shfl_xor_sync. On Volta and later the two call sites meet as one shuffle, and
// from then on every shuffle pairs lanes that are at different stages of the algorithm: lanes
// 16..23 add a loop value into their reduction, lanes 0..7 run one shuffle behind the rest, and
// the lanes end with three different "totals". Fix: keep the loop convergent (iterate to the
// warp's rounded-up trip count and load 0 past the end) or build the mask with a ballot.
#include <cuda_runtime.h>

__global__ void pair_sums(const int* row, int* out, int n) {
  const int lane = threadIdx.x & 31;
  int acc = 0;
  for (int k = lane; k < n; k += 32) {
    int x = row[k];
    x += __shfl_xor_sync(0xffffffff, x, 1);  // x + the neighbour's element
    acc += x;
  }
  for (int offset = 16; offset > 0; offset >>= 1) acc += __shfl_xor_sync(0xffffffff, acc, offset);
  out[lane] = acc;  // every lane writes, to show how the stages mixed
}
