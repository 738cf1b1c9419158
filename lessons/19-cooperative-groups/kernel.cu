// Lesson 19: cooperative groups. A group object carries its own member mask and width, so a
// tile of 4, 8 or 16 lanes reduces without any hand-written mask; and coalesced_threads() names
// the lanes that took a branch, numbering them 0, 1, 2, ... by rank.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

// Butterfly sum inside one tile of N lanes: tile.shfl_xor(v, k) is
// __shfl_xor_sync(tile's mask, v, k, N). Every lane of the tile ends with the tile's sum.
template <unsigned int N>
__device__ int tile_sum(cg::thread_block_tile<N> tile, int v) {
  for (int offset = N / 2; offset > 0; offset /= 2) {
    v += tile.shfl_xor(v, offset);  // step: tile sum
  }
  return v;
}

__global__ void tiles_and_groups(const int* in, int* sum16, int* sum8, int* sum4, int* rank,
                                 int* list, int* count) {
  const cg::thread_block block = cg::this_thread_block();
  const int i = block.thread_rank();
  const int v = in[i];

  // The same warp cut three ways; each tile reduces on its own.
  const cg::thread_block_tile<16> tile16 = cg::tiled_partition<16>(block);
  const cg::thread_block_tile<8> tile8 = cg::tiled_partition<8>(block);
  const cg::thread_block_tile<4> tile4 = cg::tiled_partition<4>(block);
  sum16[i] = tile_sum(tile16, v);
  sum8[i] = tile_sum(tile8, v);
  sum4[i] = tile_sum(tile4, v);

  // Append every positive value to `list`, whose first *count entries are taken: one atomicAdd
  // per group instead of one per thread (a warp-aggregated atomic). coalesced_threads() is the
  // group of lanes running this line together: here, the lanes with v > 0. Its thread_rank()
  // numbers those lanes 0, 1, 2, ... in lane order, so the rank, not the lane id, is the slot.
  if (v > 0) {
    const cg::coalesced_group active = cg::coalesced_threads();  // step: group
    rank[i] = active.thread_rank();
    int base = 0;
    if (active.thread_rank() == 0) base = atomicAdd(count, static_cast<int>(active.size()));
    base = active.shfl(base, 0);  // step: leader's base
    list[base + active.thread_rank()] = v;
  }
}
