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

// One round of the butterfly, then the two halves call different shuffles under the full mask:
// lanes 0-15 wait in the shift-down for lanes 16-31, which wait in the shift-up (a deadlock).
// Lanes 28-31 exit first, so that the wait names exited lanes too.
__global__ void vm_deadlock(int* out) {
  const int lane = static_cast<int>(threadIdx.x);
  int v = __shfl_xor_sync(0xffffffff, lane, 1);
  if (lane >= 28) return;
  if (lane < 16) {
    v = __shfl_down_sync(0xffffffff, v, 1);
  } else {
    v = __shfl_up_sync(0xffffffff, v, 1);
  }
  out[lane] = v;
}

// Every lane calls with a mask that leaves it out from lane 16 (warp 0) or lane 8 (warp 1) up:
// one diagnostic at one line, recurring with more lanes.
__global__ void vm_not_in_mask(int* out) {
  const unsigned mask = threadIdx.x < 32 ? 0x0000ffffu : 0x000000ffu;
  out[threadIdx.x] = __shfl_sync(mask, static_cast<int>(threadIdx.x), 0);
}
