// Cooperative groups through `warpsim run`: a tile reduction, then a grid barrier.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

__global__ void tile_reduce(const int* in, int* out) {
  auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = cg::reduce(tile, in[i], cg::plus<int>());
}

__global__ void grid_barrier(int* data) {
  cg::grid_group grid = cg::this_grid();
  data[grid.thread_rank()] = 1;
  grid.sync();
}
