// Kernels for the cooperative-groups suite: plain CUDA C++, compiled here against the host shim.
// Comments "// @name" mark lines whose number the tests look up to check trace call sites.
#pragma once

#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

namespace cg = cooperative_groups;

// Spec section 10, case 44: the coalesced group of the even lanes, v = 100 + lane.
__global__ void coalesced_even_lanes(int* shfl20, int* up1, int* down1, unsigned* ballot4,
                                     unsigned* rank) {
  const int lane = static_cast<int>(threadIdx.x);
  const int v = 100 + lane;
  if (lane % 2 == 0) {
    cg::coalesced_group even = cg::coalesced_threads();
    rank[lane] = even.thread_rank();
    shfl20[lane] = even.shfl(v, 20);  // @coalesced_shfl
    up1[lane] = even.shfl_up(v, 1);
    down1[lane] = even.shfl_down(v, 1);
    ballot4[lane] = even.ballot(lane % 4 == 0);
  }
}

// Spec section 10, case 45: tiled_partition<8> of a 32-thread block, v = 100 + lane.
__global__ void tile8_edges(int* idx9, int* idx_minus1, unsigned* ballot_odd, int* xor8) {
  cg::thread_block_tile<8> tile = cg::tiled_partition<8>(cg::this_thread_block());
  const int lane = static_cast<int>(threadIdx.x);
  const int v = 100 + lane;
  idx9[lane] = tile.shfl(v, 9);  // @tile_shfl9
  idx_minus1[lane] = tile.shfl(v, -1);
  ballot_odd[lane] = tile.ballot(lane & 1);
  xor8[lane] = tile.shfl_xor(v, 8);  // @tile_xor8
}

// Every member of each tile of Size gets the tile's sum.
template <class T, unsigned Size>
__global__ void tile_sum(const T* in, T* out) {
  auto tile = cg::tiled_partition<Size>(cg::this_thread_block());
  const unsigned i = cg::this_thread_block().thread_rank();
  out[i] = cg::reduce(tile, in[i], cg::plus<T>());  // @tile_reduce
}

// Min and max of each tile of 4 (shuffles: tiles below 16 do not use redux), and of each tile
// of 32 (redux).
__global__ void tile_min_max(const int* in, int* min4, int* max4, int* min32, unsigned* or32) {
  auto block = cg::this_thread_block();
  auto warp = cg::tiled_partition<32>(block);
  auto quad = cg::tiled_partition<4>(warp);
  const unsigned i = block.thread_rank();
  min4[i] = cg::reduce(quad, in[i], cg::less<int>());
  max4[i] = cg::reduce(quad, in[i], cg::greater<int>());
  min32[i] = cg::reduce(warp, in[i], cg::less<int>());
  or32[i] = cg::reduce(warp, 1u << (i % 32), cg::bit_or<unsigned>());
}

// A block sum: each warp reduces, lane 0 of each warp leaves its partial in shared memory, the
// block meets at sync(), and warp 0 reduces the partials.
__global__ void block_sum(const int* in, int* out) {
  __shared__ int partial[32];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const int v = in[block.group_index().x * block.size() + block.thread_rank()];
  const int warp_total = cg::reduce(warp, v, cg::plus<int>());
  if (warp.thread_rank() == 0) partial[warp.meta_group_rank()] = warp_total;
  block.sync();  // @block_sync
  if (warp.meta_group_rank() == 0) {
    const int mine = warp.thread_rank() < warp.meta_group_size() ? partial[warp.thread_rank()] : 0;
    const int total = cg::reduce(warp, mine, cg::plus<int>());
    if (block.thread_rank() == 0) out[block.group_index().x] = total;
  }
}

struct GroupNumbers {
  unsigned rank, size, meta_rank, meta_size;
};

// Ranks, sizes and meta-group numbers of static and dynamic tiles.
__global__ void group_numbers(GroupNumbers* tile16, GroupNumbers* tile4_of_16,
                              GroupNumbers* dynamic8, GroupNumbers* single) {
  cg::thread_block block = cg::this_thread_block();
  const unsigned i = block.thread_rank();
  auto t16 = cg::tiled_partition<16>(block);
  auto t4 = cg::tiled_partition<4>(t16);
  cg::thread_group d8 = cg::tiled_partition(block, 8);
  auto self = cg::this_thread();
  tile16[i] = {t16.thread_rank(), t16.size(), t16.meta_group_rank(), t16.meta_group_size()};
  tile4_of_16[i] = {t4.thread_rank(), t4.num_threads(), t4.meta_group_rank(), t4.meta_group_size()};
  dynamic8[i] = {static_cast<unsigned>(d8.thread_rank()), static_cast<unsigned>(d8.size()), 0, 0};
  single[i] = {self.thread_rank(), self.size(), self.meta_group_rank(), self.meta_group_size()};
}

// A block of 48 threads cut into dynamic tiles of 32: the second tile has 16 members.
__global__ void partial_last_tile(unsigned* size, unsigned* rank) {
  cg::thread_group tile = cg::tiled_partition(cg::this_thread_block(), 32);
  const unsigned i = cg::this_thread_block().thread_rank();
  size[i] = static_cast<unsigned>(tile.size());
  rank[i] = static_cast<unsigned>(tile.thread_rank());
  tile.sync();
}

// Scans over a tile of 8 (values 1..8 per tile) and over the coalesced group of the odd lanes.
__global__ void scans(const int* in, int* incl8, int* excl8, float* odd_incl, float* odd_excl_max,
                      float* odd_sum) {
  auto tile = cg::tiled_partition<8>(cg::this_thread_block());
  const unsigned i = threadIdx.x;
  incl8[i] = cg::inclusive_scan(tile, in[i]);
  excl8[i] = cg::exclusive_scan(tile, in[i]);
  if (i % 2 == 1) {
    cg::coalesced_group odd = cg::coalesced_threads();
    const float f = static_cast<float>(in[i]);
    odd_incl[i] = cg::inclusive_scan(odd, f);
    odd_excl_max[i] = cg::exclusive_scan(odd, f, cg::greater<float>());
    odd_sum[i] = cg::reduce(odd, f, cg::plus<float>());
  }
}

struct Triple {
  int a;
  float b;
  short c;
};

// A 12-byte struct through a tile shuffle: three 32-bit word shuffles.
__global__ void struct_shuffle(Triple* out) {
  auto tile = cg::tiled_partition<4>(cg::this_thread_block());
  const int lane = static_cast<int>(threadIdx.x);
  const Triple mine{lane, 0.5f * static_cast<float>(lane), static_cast<short>(-lane)};
  out[lane] = tile.shfl_down(mine, 1);
}

// Matches and votes inside tiles of 8, relative to the tile.
__global__ void tile_match_vote(const int* in, unsigned* match_any, unsigned* match_all,
                                int* all_pred, int* any, int* all) {
  auto tile = cg::tiled_partition<8>(cg::this_thread_block());
  const unsigned i = threadIdx.x;
  match_any[i] = tile.match_any(in[i]);
  match_all[i] = tile.match_all(in[i], all_pred[i]);
  any[i] = tile.any(in[i] == 3);
  all[i] = tile.all(in[i] >= 0);
}

// Groups of lanes sharing a label.
__global__ void label_groups(unsigned* size, unsigned* rank, unsigned* meta_rank,
                             unsigned* meta_size, unsigned* odd_size) {
  auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  const unsigned i = threadIdx.x;
  cg::coalesced_group by_third = cg::labeled_partition(warp, static_cast<int>(i % 3));
  size[i] = by_third.size();
  rank[i] = by_third.thread_rank();
  meta_rank[i] = by_third.meta_group_rank();
  meta_size[i] = by_third.meta_group_size();
  odd_size[i] = cg::binary_partition(warp, (i & 1) != 0).size();
}

// Grid-wide numbers; grid sync holds every block of a cooperative launch.
__global__ void grid_ranks(unsigned long long* rank, unsigned long long* size) {
  cg::grid_group grid = cg::this_grid();
  const unsigned long long r = grid.thread_rank();
  rank[r] = r;
  size[r] = grid.size();
  grid.sync();  // @grid_sync
}

// Each thread writes its rank, then after the grid barrier reads the rank of the thread one
// block further on (wrapping): only a barrier across blocks makes that value there. Block
// `skip_block` returns before the barrier (none when it is past the grid).
__global__ void grid_rotate(unsigned* value, unsigned* seen, unsigned skip_block) {
  cg::grid_group grid = cg::this_grid();
  if (blockIdx.x == skip_block) return;
  const unsigned long long r = grid.thread_rank();
  value[r] = static_cast<unsigned>(r) + 1;
  grid.sync();  // @grid_rotate_sync
  seen[r] = value[(r + blockDim.x) % grid.size()];
  grid.sync();
  value[r] = 0;
}

// The block stages its 64 inputs in shared memory with memcpy_async and reads them reversed, so
// each thread reads bytes another thread copied: wait() must be a block barrier.
__global__ void staged_reverse(const int* in, int* out) {
  __shared__ int stage[64];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, stage, in + 64 * block.group_index().x, sizeof(int) * 64);
  cg::wait(block);  // @wait
  out[64 * block.group_index().x + block.thread_rank()] = stage[63 - block.thread_rank()];
}

// Tiles of 64 threads (two warps) in a 256-thread block: ranks and sizes, sync() between the two
// warps of a tile, and cg::reduce over the tile. numbers[t] = {thread_rank, num_threads,
// meta_group_rank, meta_group_size}; partner[t]: what the thread 32 ranks away in the tile
// published before the sync; sum[t]: the tile's sum of block ranks.
struct TileNumbers {
  unsigned rank, size, meta_rank, meta_size;
};
__global__ void tile64(TileNumbers* numbers, int* partner, int* sum) {
  __shared__ cg::block_tile_memory<256> scratch;
  cg::thread_block block = cg::this_thread_block(scratch);
  cg::thread_block_tile<64> tile = cg::tiled_partition<64>(block);
  __shared__ int published[256];
  const unsigned t = block.thread_rank();
  numbers[t] = {tile.thread_rank(), tile.num_threads(), tile.meta_group_rank(),
                tile.meta_group_size()};
  published[t] = static_cast<int>(t) * 3;
  tile.sync();  // @tile64_sync
  partner[t] = published[t ^ 32];
  sum[t] = cg::reduce(tile, static_cast<int>(t), cg::plus<int>());
}

// Warp 1 of a 64-thread tile returns before the tile's sync: warp 0 waits for it forever.
__global__ void tile64_missing_warp(int* out) {
  cg::thread_block_tile<64> tile = cg::tiled_partition<64>(cg::this_thread_block());
  if (threadIdx.x >= 32) return;
  tile.sync();  // @tile64_deadlock
  out[threadIdx.x] = 1;
}
