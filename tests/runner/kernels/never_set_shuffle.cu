// Head lanes (flags[lane] != 0) set their segment mask; the others never do, and then every lane
// reads its right neighbour's: a read of a never-set value whenever the neighbour is no head (as
// in a published segmented reduction). The _fixed kernels set it on every path.
__global__ void never_set_shuffle(const int* flags, unsigned* out) {
  const int lane = threadIdx.x;
  unsigned segment_mask;
  if (flags[lane]) segment_mask = 0xffffffffu << lane;
  out[lane] = __shfl_down_sync(0xffffffff, segment_mask, 1);
}

__global__ void never_set_shuffle_fixed(const int* flags, unsigned* out) {
  const int lane = threadIdx.x;
  unsigned segment_mask = 0;
  if (flags[lane]) segment_mask = 0xffffffffu << lane;
  out[lane] = __shfl_down_sync(0xffffffff, segment_mask, 1);
}

// Lane 3 never sets its contribution; every other lane reads it through the reduction.
__global__ void never_set_reduce(int* out) {
  const int lane = threadIdx.x;
  int contribution;
  if (lane != 3) contribution = lane;
  out[lane] = __reduce_add_sync(0xffffffff, contribution);
}

__global__ void never_set_reduce_fixed(int* out) {
  const int lane = threadIdx.x;
  int contribution = 0;
  if (lane != 3) contribution = lane;
  out[lane] = __reduce_add_sync(0xffffffff, contribution);
}
