// Kernels for the runtime suites: plain CUDA C++, compiled here against the host shim.
#pragma once

__global__ void butterfly_sum(const float* in, float* out) {
  float v = in[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffff, v, offset);
  out[threadIdx.x] = v;
}

__global__ void tail_exit_ballot(int n, unsigned* out) {
  if (static_cast<int>(threadIdx.x) >= n) return;
  out[threadIdx.x] = __ballot_sync(0xffffffff, threadIdx.x % 2 == 0);
}

__global__ void two_arm_ballot(unsigned* out) {
  const unsigned lane = threadIdx.x;
  if (lane & 1) {
    out[lane] = __ballot_sync(0xAAAAAAAA, lane > 10);
  } else {
    out[lane] = __ballot_sync(0x55555555, lane < 10);
  }
}

__global__ void activemask_arms(unsigned* out) {
  if (threadIdx.x < 10) {
    out[threadIdx.x] = __activemask();
  } else {
    out[threadIdx.x] = __activemask();
  }
}

__global__ void divergent_different_ops(int* out) {
  int v = static_cast<int>(threadIdx.x);
  if (threadIdx.x < 16) {
    v = __shfl_up_sync(0xffffffff, v, 1);
  } else {
    v = __shfl_down_sync(0xffffffff, v, 1);
  }
  out[threadIdx.x] = v;
}

__global__ void block_sum(const int* in, int* out) {
  __shared__ int partial[32];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffff, v, offset);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / 32 ? partial[lane] : 0;
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffff, v, offset);
    if (lane == 0) atomicAdd(out, v);
  }
}

__global__ void count_positive(const int* in, int* out) {
  out[blockIdx.x] = __syncthreads_count(in[threadIdx.x] > 0);
}

__global__ void print_lanes() {
  if (threadIdx.x < 2) printf("lane %u of block %u\n", threadIdx.x, blockIdx.x);
}

__global__ void shuffle_from_exited(int* out) {
  if (threadIdx.x >= 20) return;
  out[threadIdx.x] = __shfl_sync(0xffffffff, static_cast<int>(threadIdx.x) + 100, 25);
}

__global__ void spin_forever(int* out) {
  int v = 0;
  while (out[0] == 0) v += __shfl_xor_sync(0xffffffff, 1, 1);
  out[1] = v;
}

__global__ void syncthreads_in_branch(int* out) {
  if (threadIdx.x < 32) {
    __syncthreads();
  } else {
    __syncthreads();
  }
  out[threadIdx.x] = 1;
}

// The order blocks and warps ran in: the first lane of each block, and of each warp before and
// after a full-mask shuffle, takes the next ticket.
__global__ void take_tickets(int* counter, int* block_ticket, int* warp_ticket) {
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  if (threadIdx.x == 0) block_ticket[blockIdx.x] = atomicAdd(&counter[0], 1);
  if (lane == 0) warp_ticket[2 * warp] = atomicAdd(&counter[1], 1);
  __shfl_sync(0xffffffff, 0, 0);
  if (lane == 0) warp_ticket[2 * warp + 1] = atomicAdd(&counter[1], 1);
}
