// Cooperative groups for kernel files (`#include <cooperative_groups.h>`), as spec section 8 states
// them. Every collective is built only from the shim's public CUDA intrinsics (__shfl_*_sync,
// __ballot_sync, __match_*_sync, __syncwarp, __syncthreads, __activemask, __fns, ...), so each one
// is simulated, checked and traced exactly like hand-written warp code. Which intrinsic a group
// call becomes, with which mask, width and source lane, follows CUDA 13's headers.
//
// Call sites: every member that reaches an intrinsic takes a trailing defaulted CallSite and hands
// it on, so trace steps and diagnostics name the kernel's line, never this header's.
//
// Multi-warp tiles (thread_block_tile<64..1024>) have ranks, sizes and sync() (a barrier of the
// tile's threads, parked by the runtime: warpsim/device_abi.hpp group_sync), and cg::reduce; as in
// CUDA they have no shuffles, votes or matches (those members do not exist).
//
// grid_group::sync() across blocks needs a cooperative launch (cudaLaunchCooperativeKernel), whose
// blocks the runtime keeps resident at once; elsewhere it stops the launch naming the line and why.
// Not simulated: cluster and multi-grid groups.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "warpsim/cuda_shim.hpp"
#include "warpsim/thread_position.hpp"

namespace cooperative_groups {
class thread_group;
class thread_block;
class grid_group;
class coalesced_group;
template <unsigned int Size, class ParentT = void>
class thread_block_tile;
}  // namespace cooperative_groups

namespace warpsim::shim::cg {

using Site = ::warpsim::device::CallSite;

// Size of a static tile type, 0 for any other group.
template <class GroupT>
inline constexpr unsigned int tile_size = 0;
template <unsigned int Size, class ParentT>
inline constexpr unsigned int tile_size<cooperative_groups::thread_block_tile<Size, ParentT>> =
    Size;

// Groups within one warp that carry a member mask: tiles of up to 32 and coalesced groups.
template <class GroupT>
inline constexpr bool is_warp_group =
    (tile_size<GroupT> != 0 && tile_size<GroupT> <= 32) ||
    std::is_same_v<GroupT, cooperative_groups::coalesced_group>;
// Tiles of several whole warps (thread_block_tile<64..1024>).
template <class GroupT>
inline constexpr bool is_multi_warp_tile = tile_size<GroupT> > 32;

// Where the calling thread sits (warpsim/thread_position.hpp).
using ::warpsim::shim::block_thread_rank;
using ::warpsim::shim::lane_id;
using ::warpsim::shim::lanemask_lt;
inline unsigned int block_num_threads() {
  const device::LaneEnv& e = *device::current_env;
  return e.block_dim.x * e.block_dim.y * e.block_dim.z;
}
inline unsigned long long grid_num_blocks() {
  const device::LaneEnv& e = *device::current_env;
  return static_cast<unsigned long long>(e.grid_dim.x) * e.grid_dim.y * e.grid_dim.z;
}
inline unsigned long long grid_block_rank() {
  const device::LaneEnv& e = *device::current_env;
  return e.block_idx.x +
         static_cast<unsigned long long>(e.grid_dim.x) *
             (e.block_idx.y + static_cast<unsigned long long>(e.grid_dim.y) * e.block_idx.z);
}

// a + b as the GPU computes it (two's complement wrap-around), without host overflow.
constexpr int wrapping_add(int a, int b) {
  return static_cast<int>(static_cast<unsigned int>(a) + static_cast<unsigned int>(b));
}

constexpr bool valid_tile_size(unsigned int n) { return n != 0 && n <= 32 && (n & (n - 1)) == 0; }

// What CUDA traps on (a dynamic tile size that is not 1..32 and a power of two) stops the launch
// with this message.
[[noreturn]] inline void stop(const std::string& what, Site site) {
  throw std::logic_error(std::string(site.file) + ":" + std::to_string(site.line) +
                         ": cooperative_groups: " + what);
}

// grid_group::sync(), built as CUDA builds it: a __syncthreads, the block's arrival at the grid
// barrier (the runtime holds it until every block has arrived: a cooperative launch's blocks are
// all resident, sim/runtime/resident_grid.hpp), a __syncthreads. Where they are not, the runtime
// stops the launch naming the line and why.
inline void grid_sync(Site site) {
  __syncthreads(site);
  if (grid_num_blocks() == 1) return;
  ::warpsim::device::grid_barrier(site);
  __syncthreads(site);
}

// sync() of a multi-warp tile of `size` threads: a barrier of the calling thread's tile.
inline void multi_warp_sync(unsigned int size, Site site) {
  const unsigned int first = block_thread_rank() & ~(size - 1);
  const unsigned int threads = block_num_threads();
  const unsigned int count = threads - first < size ? threads - first : size;
  ::warpsim::device::group_sync(first, count, "thread_block_tile::sync", site);
}

// ---- Shuffles of any type (spec section 8) ----------------------------------------------------
// Integer, float, double and __half/__half2 values go through one native shuffle; everything else
// (structs, pointers, __nv_bfloat16, long double, ...) of at most 32 bytes is copied into 32-bit
// int words, and each word is shuffled on its own, lowest word first: one traced step per word.

enum class ShflKind { idx, up, down, bfly };

template <class T>
inline constexpr bool native_shuffle =
    std::is_integral_v<T> || std::is_same_v<T, float> || std::is_same_v<T, double> ||
    std::is_same_v<T, __half> || std::is_same_v<T, __half2>;

// The intrinsic overload for W (integers narrower than int promote to int, as CUDA's do).
template <ShflKind kind, class W>
auto shuffle_native(unsigned int mask, W value, int arg, int width, Site site) {
  if constexpr (kind == ShflKind::idx) {
    return __shfl_sync(mask, value, arg, width, site);
  } else if constexpr (kind == ShflKind::up) {
    return __shfl_up_sync(mask, value, static_cast<unsigned int>(arg), width, site);
  } else if constexpr (kind == ShflKind::down) {
    return __shfl_down_sync(mask, value, static_cast<unsigned int>(arg), width, site);
  } else {
    return __shfl_xor_sync(mask, value, arg, width, site);
  }
}

template <ShflKind kind, class T>
T shuffle(unsigned int mask, T value, int arg, int width, Site site) {
  if constexpr (native_shuffle<T>) {
    return static_cast<T>(shuffle_native<kind>(mask, value, arg, width, site));
  } else {
    static_assert(std::is_trivially_copyable_v<T>,
                  "cooperative_groups shuffles need a trivially copyable type");
    static_assert(sizeof(T) <= 32, "cooperative_groups shuffles take types of at most 32 bytes");
    int words[(sizeof(T) + 3) / 4] = {};
    std::memcpy(words, &value, sizeof(T));
    for (int& word : words) word = shuffle_native<kind>(mask, word, arg, width, site);
    std::memcpy(static_cast<void*>(&value), words, sizeof(T));
    return value;
  }
}

// Reaches the protected state of the group classes (their mask and meta-group numbers) for the
// free functions and the reduce/scan header, as CUDA's _coalesced_group_data_access does.
struct GroupAccess;

// The members a tile of `tilesz` made from a coalesced parent gets, as CUDA's
// coalesced_group::_get_tiled_threads computes them.
struct Partition {
  unsigned int mask, meta_rank, meta_size;
  bool tiled;
};
inline Partition partition_coalesced(const Partition& parent, unsigned int tilesz, Site site) {
  if (!valid_tile_size(tilesz)) {
    stop("tiled_partition(group, " + std::to_string(tilesz) +
             "): the tile size must be 1, 2, 4, 8, 16 or 32",
         site);
  }
  const unsigned int size = static_cast<unsigned int>(__popc(parent.mask));
  const unsigned int rank = static_cast<unsigned int>(__popc(parent.mask & lanemask_lt()));
  if (size <= tilesz) return parent;
  if (parent.tiled) {
    // A tile's members are contiguous lanes from a tile-aligned lane: cut by lane.
    const unsigned int length = std::min(size - (rank & ~(tilesz - 1)), tilesz);
    const unsigned int mask = (0xffffffffu >> (32 - length)) << (lane_id() & ~(tilesz - 1));
    return {mask, rank / tilesz, size / tilesz, true};
  }
  // Any other set of lanes: the members whose ranks share rank / tilesz.
  const unsigned int first = rank / tilesz * tilesz;
  unsigned int mask = 0;
  unsigned int member = 0;
  for (unsigned int rest = parent.mask; rest != 0; rest &= rest - 1, ++member) {
    if (member >= first && member < first + tilesz) mask |= rest & (0u - rest);
  }
  return {mask, rank / tilesz, (size + tilesz - 1) / tilesz, false};
}

}  // namespace warpsim::shim::cg

namespace cooperative_groups {

using ::warpsim::shim::cg::Site;

// Any group, by value; tiles and coalesced groups keep their lanes here. Its size(), thread_rank()
// and sync() dispatch on what the group was made from.
class thread_group {
 protected:
  // CUDA's type ids; multi_warp_tile: a thread_block_tile of more than 32 threads, whose size is
  // kept in mask_.
  enum class Kind : unsigned char { coalesced = 1, grid = 3, block = 4, multi_warp_tile = 6 };

  explicit thread_group(Kind kind, unsigned int mask = 0, unsigned int meta_rank = 0,
                        unsigned int meta_size = 1, bool tiled = false)
      : kind_(kind), tiled_(tiled), mask_(mask), meta_rank_(meta_rank), meta_size_(meta_size) {}

  ::warpsim::shim::cg::Partition partition() const {
    return {mask_, meta_rank_, meta_size_, tiled_};
  }

  Kind kind_;
  bool tiled_;              // made by tiled_partition: members are contiguous lanes
  unsigned int mask_;       // coalesced groups and tiles: member lanes of this warp
  unsigned int meta_rank_;  // which sibling group of the parent this is
  unsigned int meta_size_;  // how many sibling groups the parent was cut into

  friend struct ::warpsim::shim::cg::GroupAccess;

 public:
  unsigned long long size() const;
  unsigned long long num_threads() const { return size(); }
  unsigned long long thread_rank() const;
  void sync(Site site = Site::here()) const;
  unsigned int get_type() const { return static_cast<unsigned int>(kind_); }
};

// The calling thread's block. sync() is __syncthreads().
class thread_block : public thread_group {
  friend thread_block this_thread_block();
  thread_block() : thread_group(Kind::block) {}

 public:
  static void sync(Site site = Site::here()) { __syncthreads(site); }
  static unsigned int size() { return ::warpsim::shim::cg::block_num_threads(); }
  static unsigned int num_threads() { return size(); }
  static unsigned int thread_rank() { return ::warpsim::shim::cg::block_thread_rank(); }
  static dim3 group_index() { return dim3(::warpsim::device::current_env->block_idx); }
  static dim3 thread_index() { return dim3(::warpsim::device::current_env->thread_idx); }
  static dim3 dim_threads() { return ::warpsim::device::current_env->block_dim; }
  static dim3 group_dim() { return dim_threads(); }

  // Split barrier: CUDA completes it at the wait, so the wait is the traced __syncthreads.
  struct arrival_token {};
  arrival_token barrier_arrive() const { return {}; }
  void barrier_wait(arrival_token&&, Site site = Site::here()) const { __syncthreads(site); }
};

inline thread_block this_thread_block() { return thread_block(); }

// Scratch memory that CUDA's multi-warp tiles (tiled_partition<64> ...) communicate through, kept
// in __shared__ memory by the kernel. Warpsim's multi-warp tiles meet in the runtime (group_sync)
// and in the shim's own per-block scratch, so this one is never read; this_thread_block(scratch)
// is this_thread_block().
template <unsigned int MaxBlockSize = 1024>
struct alignas(16) block_tile_memory {
 private:
  [[maybe_unused]] char scratch_[16];
};
template <unsigned int MaxBlockSize>
inline thread_block this_thread_block(block_tile_memory<MaxBlockSize>&) {
  return this_thread_block();
}

// The whole grid. Ranks and sizes are exact; sync() holds every block of a cooperative launch
// (a single block's is a __syncthreads), and is_valid() says whether the launch is cooperative.
class grid_group : public thread_group {
  friend grid_group this_grid();
  grid_group() : thread_group(Kind::grid) {}

 public:
  bool is_valid() const {
    return ::warpsim::shim::cg::grid_num_blocks() == 1 || ::warpsim::device::cooperative_launch();
  }
  void sync(Site site = Site::here()) const { ::warpsim::shim::cg::grid_sync(site); }
  static unsigned long long num_blocks() { return ::warpsim::shim::cg::grid_num_blocks(); }
  static unsigned long long block_rank() { return ::warpsim::shim::cg::grid_block_rank(); }
  static unsigned long long num_threads() {
    return num_blocks() * ::warpsim::shim::cg::block_num_threads();
  }
  static unsigned long long size() { return num_threads(); }
  static unsigned long long thread_rank() {
    return block_rank() * ::warpsim::shim::cg::block_num_threads() +
           ::warpsim::shim::cg::block_thread_rank();
  }
  static dim3 dim_blocks() { return ::warpsim::device::current_env->grid_dim; }
  static dim3 group_dim() { return dim_blocks(); }
  static dim3 block_index() { return dim3(::warpsim::device::current_env->block_idx); }
  static dim3 dim_threads() {
    const auto& e = *::warpsim::device::current_env;
    return dim3(e.grid_dim.x * e.block_dim.x, e.grid_dim.y * e.block_dim.y,
                e.grid_dim.z * e.block_dim.z);
  }
  static dim3 thread_index() {
    const auto& e = *::warpsim::device::current_env;
    return dim3(e.block_idx.x * e.block_dim.x + e.thread_idx.x,
                e.block_idx.y * e.block_dim.y + e.thread_idx.y,
                e.block_idx.z * e.block_dim.z + e.thread_idx.z);
  }
};

inline grid_group this_grid() { return grid_group(); }

// The lanes of a warp named by a mask (coalesced_threads(): the __activemask() of the call, which
// spec section 5 does not promise to be every lane on the same path). Ranks count members in lane
// order; collectives use the member mask and translate ranks to lanes with __fns.
class coalesced_group : public thread_group {
  friend struct ::warpsim::shim::cg::GroupAccess;

  // Compacts lane bits into rank order: bit k of the result is the bit of the k-th member.
  unsigned int pack_lanes(unsigned int lanes) const {
    unsigned int packed = 0;
    unsigned int rank = 0;
    for (unsigned int rest = mask_; rest != 0; rest &= rest - 1, ++rank) {
      if ((lanes & rest & (0u - rest)) != 0) packed |= 1u << rank;
    }
    return packed;
  }

 protected:
  explicit coalesced_group(unsigned int mask, unsigned int meta_rank = 0,
                           unsigned int meta_size = 1, bool tiled = false)
      : thread_group(Kind::coalesced, mask, meta_rank, meta_size, tiled) {}

 public:
  unsigned int num_threads() const { return static_cast<unsigned int>(__popc(mask_)); }
  unsigned int size() const { return num_threads(); }
  unsigned int thread_rank() const {
    return static_cast<unsigned int>(__popc(mask_ & ::warpsim::shim::cg::lanemask_lt()));
  }
  unsigned int meta_group_rank() const { return meta_rank_; }
  unsigned int meta_group_size() const { return meta_size_; }
  void sync(Site site = Site::here()) const { __syncwarp(mask_, site); }

  // Rank 0 is the lowest member; in a full group the rank is the lane; otherwise the
  // (src_rank+1)-th member, and for src_rank >= size() __fns finds none (0xffffffff), so lane 31
  // is read: undefined when lane 31 is not a member (spec section 8; an H100 gave 0).
  // Even lanes 0,2,..,14 of an 8-lane group, shfl(v, 3): every member gets v[6].
  template <class T>
  T shfl(T elem, int src_rank, Site site = Site::here()) const {
    unsigned int lane = static_cast<unsigned int>(src_rank);
    if (src_rank == 0) {
      lane = static_cast<unsigned int>(__ffs(static_cast<int>(mask_)) - 1);
    } else if (size() != 32) {
      lane = __fns(mask_, 0, ::warpsim::shim::cg::wrapping_add(src_rank, 1));
    }
    return ::warpsim::shim::cg::shuffle<::warpsim::shim::cg::ShflKind::idx>(
        mask_, elem, static_cast<int>(lane), 32, site);
  }
  // The member `delta` ranks above; a member with none above keeps its own value. A full group
  // uses __shfl_down_sync itself (so delta counts mod 32 there, spec section 1.3).
  template <class T>
  T shfl_down(T elem, unsigned int delta, Site site = Site::here()) const {
    using ::warpsim::shim::cg::ShflKind;
    if (size() == 32) {
      return ::warpsim::shim::cg::shuffle<ShflKind::down>(0xffffffffu, elem,
                                                          static_cast<int>(delta), 32, site);
    }
    const unsigned int self = ::warpsim::shim::cg::lane_id();
    unsigned int lane = __fns(mask_, self, static_cast<int>(delta + 1));
    if (lane >= 32) lane = self;
    return ::warpsim::shim::cg::shuffle<ShflKind::idx>(mask_, elem, static_cast<int>(lane), 32,
                                                       site);
  }
  // The member `delta` ranks below; rank < delta keeps its own value.
  template <class T>
  T shfl_up(T elem, int delta, Site site = Site::here()) const {
    using ::warpsim::shim::cg::ShflKind;
    if (size() == 32) {
      return ::warpsim::shim::cg::shuffle<ShflKind::up>(0xffffffffu, elem, delta, 32, site);
    }
    const unsigned int self = ::warpsim::shim::cg::lane_id();
    unsigned int lane = __fns(mask_, self, ~delta);  // -(delta + 1), without overflow
    if (lane >= 32) lane = self;
    return ::warpsim::shim::cg::shuffle<ShflKind::idx>(mask_, elem, static_cast<int>(lane), 32,
                                                       site);
  }

  int any(int predicate, Site site = Site::here()) const {
    return __ballot_sync(mask_, predicate, site) != 0;
  }
  int all(int predicate, Site site = Site::here()) const {
    return __ballot_sync(mask_, predicate, site) == mask_;
  }
  // Bit k = the predicate of the member of rank k. Even lanes voting lane%4==0 give 0x5555.
  unsigned int ballot(int predicate, Site site = Site::here()) const {
    if (size() == 32) return __ballot_sync(0xffffffffu, predicate, site);
    return pack_lanes(__ballot_sync(mask_, predicate, site));
  }
  // Members holding the same bits, in rank order.
  template <class T>
  unsigned int match_any(T value, Site site = Site::here()) const {
    static_assert(std::is_arithmetic_v<T>, "match_any takes an integer or floating-point value");
    if (size() == 32) return __match_any_sync(0xffffffffu, value, site);
    return pack_lanes(__match_any_sync(mask_, value, site));
  }
  template <class T>
  unsigned int match_all(T value, int& pred, Site site = Site::here()) const {
    static_assert(std::is_arithmetic_v<T>, "match_all takes an integer or floating-point value");
    if (size() == 32) return __match_all_sync(0xffffffffu, value, &pred, site);
    return pack_lanes(__match_all_sync(mask_, value, &pred, site));
  }
};

// A tile of Size consecutive threads of the block (Size in 1..32, a power of two), always within
// one warp: mask = the low Size bits shifted to the tile's first lane (lane & ~(Size-1)).
// Shuffles pass width Size, so ranks and deltas work inside the tile; a shfl_xor lane mask of
// Size or more reaches the tile below, outside the mask (undefined, spec section 8).
template <unsigned int Size>
class warpsim_warp_tile : public thread_group {
  static_assert(::warpsim::shim::cg::valid_tile_size(Size),
                "thread_block_tile<Size>: Size must be 1, 2, 4, 8, 16, 32, 64, 128, 256, 512 or "
                "1024");
  friend struct ::warpsim::shim::cg::GroupAccess;

 protected:
  static unsigned int tile_base() { return ::warpsim::shim::cg::lane_id() & ~(Size - 1); }
  static unsigned int build_mask() {
    if constexpr (Size == 32) {
      return 0xffffffffu;
    } else {
      return ((1u << Size) - 1u) << tile_base();
    }
  }
  warpsim_warp_tile(unsigned int meta_rank, unsigned int meta_size)
      : thread_group(Kind::coalesced, build_mask(), meta_rank, meta_size, true) {}

 public:
  static unsigned int thread_rank() {
    return ::warpsim::shim::cg::block_thread_rank() & (Size - 1);
  }
  static constexpr unsigned int num_threads() { return Size; }
  static constexpr unsigned int size() { return Size; }
  unsigned int meta_group_rank() const { return meta_rank_; }
  unsigned int meta_group_size() const { return meta_size_; }
  static void sync(Site site = Site::here()) { __syncwarp(build_mask(), site); }

  // Rank src_rank mod Size of this tile: tile<8>.shfl(v, 9) reads rank 1, shfl(v, -1) rank 7.
  template <class T>
  T shfl(T elem, int src_rank, Site site = Site::here()) const {
    return ::warpsim::shim::cg::shuffle<::warpsim::shim::cg::ShflKind::idx>(
        build_mask(), elem, src_rank, static_cast<int>(Size), site);
  }
  // Rank + delta; the top `delta` ranks keep their own value.
  template <class T>
  T shfl_down(T elem, unsigned int delta, Site site = Site::here()) const {
    return ::warpsim::shim::cg::shuffle<::warpsim::shim::cg::ShflKind::down>(
        build_mask(), elem, static_cast<int>(delta), static_cast<int>(Size), site);
  }
  // Rank - delta; the lowest `delta` ranks keep their own value.
  template <class T>
  T shfl_up(T elem, unsigned int delta, Site site = Site::here()) const {
    return ::warpsim::shim::cg::shuffle<::warpsim::shim::cg::ShflKind::up>(
        build_mask(), elem, static_cast<int>(delta), static_cast<int>(Size), site);
  }
  // Rank ^ lane_mask; a source above the tile keeps the own value, one below is undefined.
  template <class T>
  T shfl_xor(T elem, unsigned int lane_mask, Site site = Site::here()) const {
    return ::warpsim::shim::cg::shuffle<::warpsim::shim::cg::ShflKind::bfly>(
        build_mask(), elem, static_cast<int>(lane_mask), static_cast<int>(Size), site);
  }

  int any(int predicate, Site site = Site::here()) const {
    return __ballot_sync(build_mask(), predicate, site) != 0;
  }
  int all(int predicate, Site site = Site::here()) const {
    return __ballot_sync(build_mask(), predicate, site) == build_mask();
  }
  // Tile-relative bits: bit k = the predicate of rank k. tile<8>.ballot(lane & 1) == 0xaa.
  unsigned int ballot(int predicate, Site site = Site::here()) const {
    return __ballot_sync(build_mask(), predicate, site) >> tile_base();
  }
  template <class T>
  unsigned int match_any(T value, Site site = Site::here()) const {
    static_assert(std::is_arithmetic_v<T>, "match_any takes an integer or floating-point value");
    return __match_any_sync(build_mask(), value, site) >> tile_base();
  }
  template <class T>
  unsigned int match_all(T value, int& pred, Site site = Site::here()) const {
    static_assert(std::is_arithmetic_v<T>, "match_all takes an integer or floating-point value");
    return __match_all_sync(build_mask(), value, &pred, site) >> tile_base();
  }
};

// A tile of Size (64 .. 1024, a power of two) consecutive threads of the block, several whole
// warps: ranks, sizes and sync() only, as CUDA's (no shuffles, votes or matches: a kernel that calls
// one does not compile, as with nvcc). sync() is a barrier of the tile's threads; the other tiles
// of the block run on. meta_group_rank = block rank / Size.
template <unsigned int Size>
class warpsim_multi_warp_tile : public thread_group {
  static_assert(Size <= 1024 && (Size & (Size - 1)) == 0,
                "thread_block_tile<Size>: Size must be 1, 2, 4, 8, 16, 32, 64, 128, 256, 512 or "
                "1024");
  friend struct ::warpsim::shim::cg::GroupAccess;

 protected:
  warpsim_multi_warp_tile(unsigned int meta_rank, unsigned int meta_size)
      : thread_group(Kind::multi_warp_tile, Size, meta_rank, meta_size, true) {}

 public:
  static unsigned int thread_rank() {
    return ::warpsim::shim::cg::block_thread_rank() & (Size - 1);
  }
  static constexpr unsigned int num_threads() { return Size; }
  static constexpr unsigned int size() { return Size; }
  unsigned int meta_group_rank() const { return meta_rank_; }
  unsigned int meta_group_size() const { return meta_size_; }
  static void sync(Site site = Site::here()) { ::warpsim::shim::cg::multi_warp_sync(Size, site); }
};

template <unsigned int Size>
class thread_block_tile<Size, void>
    : public std::conditional_t<(Size > 32), warpsim_multi_warp_tile<Size>,
                                warpsim_warp_tile<Size>> {
  using Base = std::conditional_t<(Size > 32), warpsim_multi_warp_tile<Size>,
                                  warpsim_warp_tile<Size>>;
  friend struct ::warpsim::shim::cg::GroupAccess;

 protected:
  thread_block_tile(unsigned int meta_rank, unsigned int meta_size) : Base(meta_rank, meta_size) {}
};

// tiled_partition<Size>(parent): the same tile, remembering its parent type; it converts to
// thread_block_tile<Size>. meta_group_rank = parent rank / Size, meta_group_size =
// ceil(parent size / Size).
template <unsigned int Size, class ParentT>
class thread_block_tile : public thread_block_tile<Size, void> {
  friend struct ::warpsim::shim::cg::GroupAccess;

 protected:
  explicit thread_block_tile(const ParentT& parent)
      : thread_block_tile<Size, void>(
            static_cast<unsigned int>(parent.thread_rank()) / Size,
            (static_cast<unsigned int>(parent.size()) + Size - 1) / Size) {}
};

}  // namespace cooperative_groups

namespace warpsim::shim::cg {

struct GroupAccess {
  template <class Group>
  static unsigned int mask(const Group& g) {
    return g.mask_;
  }
  static cooperative_groups::coalesced_group coalesced(const Partition& p) {
    return cooperative_groups::coalesced_group(p.mask, p.meta_rank, p.meta_size, p.tiled);
  }
  static Partition partition(const cooperative_groups::thread_group& g) { return g.partition(); }
  static bool is_coalesced(const cooperative_groups::thread_group& g) {
    return g.kind_ == cooperative_groups::thread_group::Kind::coalesced;
  }
  static bool is_block(const cooperative_groups::thread_group& g) {
    return g.kind_ == cooperative_groups::thread_group::Kind::block;
  }
  // A tile as a plain thread_group (what tiled_partition(block, n) returns).
  static cooperative_groups::thread_group tile_group(const Partition& p) {
    return cooperative_groups::thread_group(cooperative_groups::thread_group::Kind::coalesced,
                                            p.mask, p.meta_rank, p.meta_size, p.tiled);
  }
  template <unsigned int Size, class ParentT>
  static cooperative_groups::thread_block_tile<Size, ParentT> tile(const ParentT& parent) {
    return cooperative_groups::thread_block_tile<Size, ParentT>(parent);
  }
  static cooperative_groups::thread_block_tile<1, void> single_thread() {
    return cooperative_groups::thread_block_tile<1, void>(0, 1);
  }
};

// Parents that tiled_partition<Size> accepts, as CUDA's: the block, or a larger static tile.
template <unsigned int Size, class ParentT>
struct StaticTileParent : std::false_type {};
template <unsigned int Size>
struct StaticTileParent<Size, cooperative_groups::thread_block> : std::true_type {};
template <unsigned int Size, unsigned int ParentSize, class GrandParentT>
struct StaticTileParent<Size, cooperative_groups::thread_block_tile<ParentSize, GrandParentT>>
    : std::bool_constant<(Size < ParentSize)> {};

}  // namespace warpsim::shim::cg

namespace cooperative_groups {

inline unsigned long long thread_group::size() const {
  switch (kind_) {
    case Kind::coalesced:
      return static_cast<unsigned long long>(__popc(mask_));
    case Kind::multi_warp_tile:
      return mask_;
    case Kind::block:
      return ::warpsim::shim::cg::block_num_threads();
    case Kind::grid:
      return grid_group::size();
  }
  return 0;
}

inline unsigned long long thread_group::thread_rank() const {
  switch (kind_) {
    case Kind::coalesced:
      return static_cast<unsigned long long>(__popc(mask_ & ::warpsim::shim::cg::lanemask_lt()));
    case Kind::multi_warp_tile:
      return ::warpsim::shim::cg::block_thread_rank() & (mask_ - 1);
    case Kind::block:
      return ::warpsim::shim::cg::block_thread_rank();
    case Kind::grid:
      return grid_group::thread_rank();
  }
  return 0;
}

inline void thread_group::sync(Site site) const {
  switch (kind_) {
    case Kind::coalesced:
      __syncwarp(mask_, site);
      break;
    case Kind::multi_warp_tile:
      ::warpsim::shim::cg::multi_warp_sync(mask_, site);
      break;
    case Kind::block:
      __syncthreads(site);
      break;
    case Kind::grid:
      ::warpsim::shim::cg::grid_sync(site);
      break;
  }
}

template <class GroupT>
void sync(const GroupT& g, Site site = Site::here()) {
  g.sync(site);
}
template <class GroupT>
auto thread_rank(const GroupT& g) -> decltype(g.thread_rank()) {
  return g.thread_rank();
}
template <class GroupT>
auto group_size(const GroupT& g) -> decltype(g.num_threads()) {
  return g.num_threads();
}

template <unsigned int Size, class ParentT>
thread_block_tile<Size, ParentT> tiled_partition(const ParentT& parent) {
  static_assert(::warpsim::shim::cg::StaticTileParent<Size, ParentT>::value,
                "tiled_partition<Size>(parent) takes a thread_block or a thread_block_tile larger "
                "than Size (use tiled_partition(group, n) for other groups)");
  return ::warpsim::shim::cg::GroupAccess::tile<Size, ParentT>(parent);
}

// Dynamic tiles of the block: tilesz consecutive threads (a power of two, at most 32), as a
// coalesced thread_group; the block's last tile may have fewer members.
inline thread_group tiled_partition(const thread_block& parent, unsigned int tilesz,
                                    Site site = Site::here()) {
  namespace ws = ::warpsim::shim::cg;
  if (!ws::valid_tile_size(tilesz)) {
    ws::stop("tiled_partition(block, " + std::to_string(tilesz) +
                 "): the tile size must be 1, 2, 4, 8, 16 or 32",
             site);
  }
  const unsigned int base = parent.thread_rank() & ~(tilesz - 1);
  const unsigned int length = std::min(parent.size() - base, tilesz);
  const unsigned int mask = (0xffffffffu >> (32 - length)) << (ws::lane_id() & ~(tilesz - 1));
  return ws::GroupAccess::tile_group(
      {mask, parent.thread_rank() / tilesz, (parent.size() + tilesz - 1) / tilesz, true});
}

inline coalesced_group tiled_partition(const coalesced_group& parent, unsigned int tilesz,
                                       Site site = Site::here()) {
  namespace ws = ::warpsim::shim::cg;
  return ws::GroupAccess::coalesced(
      ws::partition_coalesced(ws::GroupAccess::partition(parent), tilesz, site));
}

inline thread_group tiled_partition(const thread_group& parent, unsigned int tilesz,
                                    Site site = Site::here()) {
  namespace ws = ::warpsim::shim::cg;
  if (ws::GroupAccess::is_coalesced(parent)) {
    return ws::GroupAccess::coalesced(
        ws::partition_coalesced(ws::GroupAccess::partition(parent), tilesz, site));
  }
  if (ws::GroupAccess::is_block(parent)) {
    return tiled_partition(this_thread_block(), tilesz, site);
  }
  ws::stop("tiled_partition(group, n) takes a block, a tile or a coalesced group, not the grid",
           site);
}

inline coalesced_group coalesced_threads(Site site = Site::here()) {
  return ::warpsim::shim::cg::GroupAccess::coalesced(
      {::warpsim::device::group_activemask(site), 0, 1, false});
}

// The calling thread alone (meta_group_rank 0, meta_group_size 1).
inline thread_block_tile<1, void> this_thread() {
  return ::warpsim::shim::cg::GroupAccess::single_thread();
}

// The members of a tile or coalesced group whose predicate matches the caller's: a ballot over the
// group. meta_group_rank is the predicate (0 or 1) and meta_group_size 2, unless all members agree
// (then the group itself, rank 0 of 1).
template <class GroupT>
coalesced_group binary_partition(const GroupT& group, bool pred, Site site = Site::here()) {
  static_assert(::warpsim::shim::cg::is_warp_group<GroupT>,
                "binary_partition takes a coalesced_group or a thread_block_tile");
  namespace ws = ::warpsim::shim::cg;
  const unsigned int mask = ws::GroupAccess::mask(group);
  const unsigned int set = __ballot_sync(mask, pred, site);
  if (set == mask || set == 0) return ws::GroupAccess::coalesced({mask, 0, 1, false});
  return ws::GroupAccess::coalesced({pred ? mask & set : mask & ~set, pred ? 1u : 0u, 2, false});
}

// The members holding the same label (an integer or a pointer): __match_any_sync over the group.
// meta_group_rank counts the groups whose lowest lane is lower; meta_group_size counts groups.
template <class GroupT, class Label>
coalesced_group labeled_partition(const GroupT& group, Label label, Site site = Site::here()) {
  static_assert(::warpsim::shim::cg::is_warp_group<GroupT>,
                "labeled_partition takes a coalesced_group or a thread_block_tile");
  static_assert(std::is_integral_v<Label> || std::is_pointer_v<Label>,
                "labeled_partition takes an integer or pointer label");
  namespace ws = ::warpsim::shim::cg;
  if constexpr (std::is_same_v<Label, bool>) {
    return binary_partition(group, label, site);
  } else {
    const unsigned int mask = ws::GroupAccess::mask(group);
    unsigned int same = 0;
    if constexpr (std::is_pointer_v<Label>) {
      same = __match_any_sync(mask, reinterpret_cast<unsigned long long>(label), site);
    } else {
      same = __match_any_sync(mask, label, site);
    }
    const int leader = __ffs(static_cast<int>(same)) - 1;
    const unsigned int leaders =
        __ballot_sync(mask, static_cast<unsigned int>(leader) == ws::lane_id(), site);
    const unsigned int below = (1u << static_cast<unsigned int>(leader)) - 1u;
    return ws::GroupAccess::coalesced({same, static_cast<unsigned int>(__popc(leaders & below)),
                                       static_cast<unsigned int>(__popc(leaders)), false});
  }
}

}  // namespace cooperative_groups
