// Kernels whose steps the GUI's view layer draws in its tests: plain CUDA against the host shim.
#pragma once

#include "warpsim/cuda_shim.hpp"

inline __global__ void gui_butterfly(const int* in, int* out) {
  int v = in[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffff, v, offset);
  out[threadIdx.x] = v;
}

// Lanes 0-15 ballot with a half mask; lanes 16-23 exit first; lanes 24-31 ballot apart.
inline __global__ void gui_split_ballot(unsigned* out) {
  const unsigned lane = threadIdx.x;
  if (lane >= 16 && lane < 24) return;
  if (lane < 16) {
    out[lane] = __ballot_sync(0x0000ffff, lane % 3 == 0);
  } else {
    out[lane] = __ballot_sync(0xff000000, 1);
  }
}

inline __global__ void gui_match(const int* in, unsigned* out) {
  out[threadIdx.x] = __match_any_sync(0xffffffff, in[threadIdx.x]);
}

inline __global__ void gui_reduce(const int* in, int* out) {
  out[threadIdx.x] = __reduce_add_sync(0xffffffff, in[threadIdx.x]);
}

// The halves shuffle apart. Lanes 16-31 go first (their own mask), then exit; lanes 0-15 then
// shuffle down by 8 with a full mask, so lanes 8-15 read exited lanes: undefined, and an
// undefined_source diagnostic names them. A __syncwarp of what is left ends it.
inline __global__ void gui_half_shuffle(const int* in, int* out) {
  int v = in[threadIdx.x];
  if (threadIdx.x < 16) {
    v += __shfl_down_sync(0xffffffff, v, 8);
    __syncwarp(0x0000ffff);
  } else {
    v += __shfl_down_sync(0xffff0000, v, 1);
  }
  out[threadIdx.x] = v;
}
