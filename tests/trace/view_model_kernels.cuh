// Kernels whose traces the view-model suite describes: plain CUDA C++ against the host shim.
#pragma once

__global__ void vm_butterfly(const int* in, int* out) {
  int v = in[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffff, v, offset);
  out[threadIdx.x] = v;
}

// Lanes 0-15 ballot with a half mask; lanes 16-23 exit first; lanes 24-31 ballot apart.
__global__ void vm_split_ballot(unsigned* out) {
  const unsigned lane = threadIdx.x;
  if (lane >= 16 && lane < 24) return;
  if (lane < 16) {
    out[lane] = __ballot_sync(0x0000ffff, lane % 3 == 0);
  } else {
    out[lane] = __ballot_sync(0xff000000, 1);
  }
}

__global__ void vm_match(const int* in, unsigned* out) {
  out[threadIdx.x] = __match_any_sync(0xffffffff, in[threadIdx.x]);
}

// A per-lane shuffle argument: lane i reads lane 31 - i.
__global__ void vm_reverse(const int* in, int* out) {
  out[threadIdx.x] = __shfl_sync(0xffffffff, in[threadIdx.x], 31 - static_cast<int>(threadIdx.x));
}
