// A warp-aggregated count with a lost update: each warp's leader reads the total, the warp votes,
// and the leader writes the total back with a plain store instead of atomicAdd. Run in the
// simulator's default order (a warp runs on until it waits) it prints the right count; when warps
// interleave at the shuffle (exec --schedules, an order seed) updates are lost, and --check races
// names the read and the write whatever the order. `shared` adds a race in __shared__ memory: a
// tree sum without __syncthreads() between its steps.
#include <cstdio>
#include <cstring>

#include <cuda_runtime.h>

__global__ void countFlags(const int* flags, unsigned* total) {
  const unsigned lane = threadIdx.x & 31u;
  unsigned old = 0;
  if (lane == 0) old = *total;
  old = __shfl_sync(0xffffffffu, old, 0);
  const unsigned votes = __ballot_sync(0xffffffffu, flags[blockIdx.x * blockDim.x + threadIdx.x] != 0);
  if (lane == 0) *total = old + __popc(votes);
}

__global__ void sharedSum(const int* in, int* out) {
  __shared__ int s[64];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  for (unsigned stride = 32; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
  }
  if (threadIdx.x == 0) *out = s[0];
}

int main(int argc, char** argv) {
  const bool shared = argc > 1 && std::strcmp(argv[1], "shared") == 0;
  int* flags;
  unsigned* total;
  cudaMalloc(&flags, 256 * sizeof(int));
  cudaMalloc(&total, sizeof(unsigned));
  int host[256];
  for (int i = 0; i < 256; ++i) host[i] = 1;
  cudaMemcpy(flags, host, sizeof host, cudaMemcpyHostToDevice);
  cudaMemset(total, 0, sizeof(unsigned));
  if (shared) {
    sharedSum<<<1, 64>>>(flags, reinterpret_cast<int*>(total));
  } else {
    countFlags<<<2, 128>>>(flags, total);
  }
  unsigned result = 0;
  cudaMemcpy(&result, total, sizeof result, cudaMemcpyDeviceToHost);
  std::printf("total: %u\n", result);
  return 0;
}
