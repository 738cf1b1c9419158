// cg::reduce, cg::inclusive_scan and cg::exclusive_scan over a thread_block_tile or a
// coalesced_group (`#include <cooperative_groups/reduce.h>` / `<cooperative_groups/scan.h>`),
// built from the groups' own shuffles and the __reduce_*_sync intrinsics, so every step is traced
// at the kernel's line. Which steps a call becomes follows CUDA 13's headers:
//
//   reduce, integer of at most 4 bytes with cg::plus/less/greater/bit_and/bit_or/bit_xor of that
//           same type, on a tile of 16 or 32 or a coalesced group, compiled for sm_80 or later:
//           one __reduce_{add,min,max,and,or,xor}_sync over the group mask;
//   reduce, anything else on a tile (or a full coalesced group): a butterfly,
//           v = op(v, shfl_xor(v, m)) for m = Size/2 .. 1, every member ends with the result;
//   reduce, anything else on a partial coalesced group: an inclusive scan, then every member
//           reads the highest member's total;
//   inclusive_scan, tile or full coalesced group: v = op(v, shfl_up(v, d)) where d <= rank, for
//           d = 1, 2, 4, ...;  partial coalesced group: the same rounds, each member reading the
//           member d ranks lower with __shfl_sync (its lane found with __fns);
//   exclusive_scan: the inclusive scan, then integer cg::plus subtracts the own value (rank 0
//           gets 0) and any other op shifts up one rank (rank 0 gets a value-initialised T{}).
#pragma once

#include <new>
#include <string>
#include <type_traits>
#include <utility>

#include "warpsim/cooperative_groups.hpp"

// std::remove_cvref_t is C++20; kernel files compile as C++17.
template <class T>
using cg_remove_cvref_t = std::remove_cv_t<std::remove_reference_t<T>>;

namespace cooperative_groups {

// The function objects CUDA's reduce/scan accelerate. less/greater return the min/max.
template <class T>
struct plus {
  T operator()(T a, T b) const { return static_cast<T>(a + b); }
};
template <class T>
struct less {
  T operator()(T a, T b) const { return (b < a) ? b : a; }
};
template <class T>
struct greater {
  T operator()(T a, T b) const { return (a < b) ? b : a; }
};
template <class T>
struct bit_and {
  T operator()(T a, T b) const { return static_cast<T>(a & b); }
};
template <class T>
struct bit_or {
  T operator()(T a, T b) const { return static_cast<T>(a | b); }
};
template <class T>
struct bit_xor {
  T operator()(T a, T b) const { return static_cast<T>(a ^ b); }
};

}  // namespace cooperative_groups

namespace warpsim::shim::cg {

template <class Op, class V>
inline constexpr bool redux_op = std::is_integral_v<V> && sizeof(V) <= 4 &&
                                 (std::is_same_v<Op, cooperative_groups::plus<V>> ||
                                  std::is_same_v<Op, cooperative_groups::less<V>> ||
                                  std::is_same_v<Op, cooperative_groups::greater<V>> ||
                                  std::is_same_v<Op, cooperative_groups::bit_and<V>> ||
                                  std::is_same_v<Op, cooperative_groups::bit_or<V>> ||
                                  std::is_same_v<Op, cooperative_groups::bit_xor<V>>);

// CUDA uses redux only where it is not slower than shuffles: tiles of 16 or 32, coalesced groups;
// and only where the architecture has it (sm_80 and later).
template <class GroupT>
inline constexpr bool redux_group =
    __CUDA_ARCH__ >= 800 &&
    (tile_size<GroupT> >= 16 || std::is_same_v<GroupT, cooperative_groups::coalesced_group>);

// One __reduce_*_sync over `mask`; signed types use the signed (int) overloads.
template <class Op, class V>
V redux(unsigned int mask, V value, Site site) {
  using Word = std::conditional_t<std::is_unsigned_v<V>, unsigned int, int>;
  const Word word = static_cast<Word>(value);
  const unsigned int bits = static_cast<unsigned int>(word);
  if constexpr (std::is_same_v<Op, cooperative_groups::plus<V>>) {
    return static_cast<V>(__reduce_add_sync(mask, word, site));
  } else if constexpr (std::is_same_v<Op, cooperative_groups::less<V>>) {
    return static_cast<V>(__reduce_min_sync(mask, word, site));
  } else if constexpr (std::is_same_v<Op, cooperative_groups::greater<V>>) {
    return static_cast<V>(__reduce_max_sync(mask, word, site));
  } else if constexpr (std::is_same_v<Op, cooperative_groups::bit_and<V>>) {
    return static_cast<V>(static_cast<Word>(__reduce_and_sync(mask, bits, site)));
  } else if constexpr (std::is_same_v<Op, cooperative_groups::bit_or<V>>) {
    return static_cast<V>(static_cast<Word>(__reduce_or_sync(mask, bits, site)));
  } else {
    return static_cast<V>(static_cast<Word>(__reduce_xor_sync(mask, bits, site)));
  }
}

// v = op(v, shfl_xor(v, m)), m = Size/2 .. 1, within `mask` at width Size.
template <unsigned int Size, class V, class Fn>
V butterfly(unsigned int mask, V value, Fn& op, Site site) {
  for (unsigned int m = Size / 2; m > 0; m >>= 1) {
    value = op(value, shuffle<ShflKind::bfly>(mask, value, static_cast<int>(m),
                                              static_cast<int>(Size), site));
  }
  return value;
}

// Hillis-Steele over ranks with the group's own shfl_up (tiles, full coalesced groups).
template <class GroupT, class V, class Fn>
V scan_contiguous(const GroupT& group, V value, Fn& op, Site site) {
  const unsigned int rank = static_cast<unsigned int>(group.thread_rank());
  for (unsigned int d = 1; d < static_cast<unsigned int>(group.size()); d <<= 1) {
    const V lower = group.shfl_up(value, d, site);
    if (d <= rank) value = op(value, lower);
  }
  return value;
}

// The same rounds over any set of lanes: each member reads the lane of rank - d (found with
// __fns); members with rank < d read their own lane and keep their value.
template <class V, class Fn>
V scan_members(unsigned int mask, V value, Fn& op, Site site) {
  const unsigned int lane = lane_id();
  const unsigned int rank = static_cast<unsigned int>(__popc(mask & lanemask_lt()));
  const unsigned int size = static_cast<unsigned int>(__popc(mask));
  for (unsigned int d = 1; d < size; d <<= 1) {
    const unsigned int source = d <= rank ? __fns(mask, 0, static_cast<int>(rank - d + 1)) : lane;
    const V lower = shuffle<ShflKind::idx>(mask, value, static_cast<int>(source), 32, site);
    if (d <= rank) value = op(value, lower);
  }
  return value;
}

template <class GroupT, class V, class Fn>
V inclusive_scan(const GroupT& group, V value, Fn& op, Site site) {
  if constexpr (tile_size<GroupT> != 0) {
    return scan_contiguous(group, value, op, site);
  } else {
    if (group.size() == 32) return scan_contiguous(group, value, op, site);
    return scan_members(GroupAccess::mask(group), value, op, site);
  }
}

// reduce over a tile of several warps: each warp reduces its 32 lanes as a tile<32> does, lane 0
// of each warp leaves its warp's total in the block's scratch, the tile syncs, and every member
// combines its tile's warp totals in warp order; a second sync lets the next reduce reuse the
// scratch. (Shared memory is per block and a block runs on one OS thread: thread_local is
// per-block shared scratch, as __shared__ is in the shim.)
template <unsigned int Size, class V, class Fn>
V reduce_multi_warp(V value, Fn& op, Site site) {
  alignas(V) static thread_local unsigned char scratch[32 * sizeof(V)];
  V* const totals = reinterpret_cast<V*>(scratch);
  V warp_total = value;
  if constexpr (__CUDA_ARCH__ >= 800 && redux_op<std::remove_cv_t<Fn>, V>) {
    warp_total = redux<std::remove_cv_t<Fn>>(0xffffffffu, value, site);
  } else {
    warp_total = butterfly<32>(0xffffffffu, value, op, site);
  }
  const unsigned int warp = block_thread_rank() / 32;
  if (lane_id() == 0) new (&totals[warp]) V(warp_total);
  multi_warp_sync(Size, site);
  const unsigned int first = warp & ~(Size / 32 - 1);
  V total = totals[first];
  for (unsigned int w = first + 1; w < first + Size / 32; ++w) total = op(total, totals[w]);
  multi_warp_sync(Size, site);
  return total;
}

template <class GroupT, class V, class Fn>
V reduce(const GroupT& group, V value, Fn& op, Site site) {
  const unsigned int mask = GroupAccess::mask(group);
  if constexpr (is_multi_warp_tile<GroupT>) {
    return reduce_multi_warp<tile_size<GroupT>>(value, op, site);
  } else if constexpr (redux_group<GroupT> && redux_op<std::remove_cv_t<Fn>, V>) {
    return redux<std::remove_cv_t<Fn>>(mask, value, site);
  } else if constexpr (tile_size<GroupT> != 0) {
    return butterfly<tile_size<GroupT>>(mask, value, op, site);
  } else {
    if (group.size() == 32) return butterfly<32>(0xffffffffu, value, op, site);
    const V total = scan_members(mask, value, op, site);
    const int last = 31 - __clz(static_cast<int>(mask));
    return shuffle<ShflKind::idx>(mask, total, last, 32, site);
  }
}

template <class GroupT>
constexpr void check_group() {
  static_assert(is_warp_group<GroupT> || is_multi_warp_tile<GroupT>,
                "cooperative_groups reduce and scans take a thread_block_tile or a "
                "coalesced_group");
}
// Scans over a tile of several warps stop the launch when reached.
template <class GroupT>
[[noreturn]] void stop_multi_warp_scan(Site site) {
  stop("inclusive_scan/exclusive_scan over a thread_block_tile of " +
           std::to_string(tile_size<GroupT>) + " threads (several warps) is not simulated",
       site);
}

}  // namespace warpsim::shim::cg

namespace cooperative_groups {

// Every member receives op over all members' values.
// tile<8> of lanes 0..7 with values 1..8 and cg::plus<int>(): every member gets 36.
template <class GroupT, class V, class Fn>
auto reduce(const GroupT& group, V&& value, Fn&& op, Site site = Site::here())
    -> decltype(op(value, value)) {
  ::warpsim::shim::cg::check_group<GroupT>();
  return ::warpsim::shim::cg::reduce(group, cg_remove_cvref_t<V>(value), op, site);
}

// Rank r receives op over the values of ranks 0..r.
// tile<8> with values 1..8 and plus: 1, 3, 6, 10, 15, 21, 28, 36.
template <class GroupT, class V, class Fn>
auto inclusive_scan(const GroupT& group, V&& value, Fn&& op, Site site = Site::here())
    -> decltype(op(value, value)) {
  ::warpsim::shim::cg::check_group<GroupT>();
  if constexpr (::warpsim::shim::cg::is_multi_warp_tile<GroupT>) {
    ::warpsim::shim::cg::stop_multi_warp_scan<GroupT>(site);
  } else {
    return ::warpsim::shim::cg::inclusive_scan(group, cg_remove_cvref_t<V>(value), op, site);
  }
}
template <class GroupT, class V>
cg_remove_cvref_t<V> inclusive_scan(const GroupT& group, V&& value, Site site = Site::here()) {
  plus<cg_remove_cvref_t<V>> op;
  return inclusive_scan(group, std::forward<V>(value), op, site);
}

// Rank r receives op over the values of ranks 0..r-1; rank 0 gets T{} (0 for integer plus).
// tile<8> with values 1..8 and plus: 0, 1, 3, 6, 10, 15, 21, 28.
template <class GroupT, class V, class Fn>
auto exclusive_scan(const GroupT& group, V&& value, Fn&& op, Site site = Site::here())
    -> decltype(op(value, value)) {
  ::warpsim::shim::cg::check_group<GroupT>();
  using T = cg_remove_cvref_t<V>;
  if constexpr (::warpsim::shim::cg::is_multi_warp_tile<GroupT>) {
    ::warpsim::shim::cg::stop_multi_warp_scan<GroupT>(site);
  } else if constexpr (std::is_integral_v<T> && std::is_same_v<cg_remove_cvref_t<Fn>, plus<T>>) {
    const T own = value;
    const T inclusive = ::warpsim::shim::cg::inclusive_scan(group, own, op, site);
    return static_cast<T>(inclusive - own);
  } else {
    const T own = value;
    const T inclusive = ::warpsim::shim::cg::inclusive_scan(group, own, op, site);
    const T lower = group.shfl_up(inclusive, 1, site);
    if (group.thread_rank() == 0) return T{};
    return lower;
  }
}
template <class GroupT, class V>
cg_remove_cvref_t<V> exclusive_scan(const GroupT& group, V&& value, Site site = Site::here()) {
  plus<cg_remove_cvref_t<V>> op;
  return exclusive_scan(group, std::forward<V>(value), op, site);
}

}  // namespace cooperative_groups
