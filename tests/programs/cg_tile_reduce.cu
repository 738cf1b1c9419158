// Cooperative groups: a block split into tiles of 32 with tiled_partition, each tile reducing
// with cg::reduce and a tile of 8 reducing with shfl_down; tile leaders add with atomicAdd.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "check.cuh"

namespace cg = cooperative_groups;

__global__ void tileSums(const int* in, int* sum32, int* sum8, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(block);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int value = i < n ? in[i] : 0;
  const int total = cg::reduce(tile32, value, cg::plus<int>());
  if (tile32.thread_rank() == 0) atomicAdd(sum32, total);

  cg::thread_block_tile<8> tile8 = cg::tiled_partition<8>(block);
  int partial = value;
  for (int offset = tile8.size() / 2; offset > 0; offset /= 2) {
    partial += tile8.shfl_down(partial, offset);
  }
  if (tile8.thread_rank() == 0) atomicAdd(sum8, partial);
}

int main() {
  const int n = 3000;
  int* in;
  int *d_sum32, *d_sum8;
  CHECK(cudaMallocManaged(&in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_sum32, sizeof(int)));
  CHECK(cudaMalloc(&d_sum8, sizeof(int)));
  CHECK(cudaMemset(d_sum32, 0, sizeof(int)));
  CHECK(cudaMemset(d_sum8, 0, sizeof(int)));
  int expected = 0;
  for (int i = 0; i < n; ++i) {
    in[i] = i % 17;
    expected += in[i];
  }
  tileSums<<<(n + 127) / 128, 128>>>(in, d_sum32, d_sum8, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  int sum32 = 0, sum8 = 0;
  CHECK(cudaMemcpy(&sum32, d_sum32, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&sum8, d_sum8, sizeof(int), cudaMemcpyDeviceToHost));
  std::printf("tile sums: 32-wide %d, 8-wide %d, expected %d\n", sum32, sum8, expected);
  CHECK(cudaFree(in));
  CHECK(cudaFree(d_sum32));
  CHECK(cudaFree(d_sum8));
  return report(sum32 == expected && sum8 == expected);
}
