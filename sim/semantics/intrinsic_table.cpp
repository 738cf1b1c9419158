// The one registry of CUDA intrinsic names; Op names derive from it. Adding an intrinsic: its Op
// in semantics.hpp, a row here, its semantics in its family's file (and accepts_type in names.cpp).
#include "warpsim/intrinsic_table.hpp"

#include <algorithm>
#include <array>
#include <cassert>

namespace warpsim {
namespace {

using F = IntrinsicFamily;

constexpr std::array kIntrinsics{
    IntrinsicInfo{"__shfl_sync", Op::shfl_idx, F::shuffle,
                  "lane i gets var of lane base + (srcLane mod width) of its width-segment"},
    IntrinsicInfo{
        "__shfl_up_sync", Op::shfl_up, F::shuffle,
        "lane i gets var of lane i - (delta & 31), or its own if that leaves its segment"},
    IntrinsicInfo{
        "__shfl_down_sync", Op::shfl_down, F::shuffle,
        "lane i gets var of lane i + (delta & 31), or its own if that leaves its segment"},
    IntrinsicInfo{"__shfl_xor_sync", Op::shfl_xor, F::shuffle,
                  "lane i gets var of lane i ^ (laneMask & 31), or its own if above its segment"},
    IntrinsicInfo{"__ballot_sync", Op::ballot, F::vote,
                  "every caller gets the mask of callers whose pred is non-zero"},
    IntrinsicInfo{"__any_sync", Op::any, F::vote,
                  "every caller gets 1 if some caller's pred is non-zero, else 0"},
    IntrinsicInfo{"__all_sync", Op::all, F::vote,
                  "every caller gets 1 if every caller's pred is non-zero, else 0"},
    IntrinsicInfo{"__uni_sync", Op::uni, F::vote,
                  "every caller gets 1 if all callers' preds agree (zero or not), else 0"},
    IntrinsicInfo{"__match_any_sync", Op::match_any, F::match,
                  "lane i gets the mask of callers whose value has the same bits as its own"},
    IntrinsicInfo{
        "__match_all_sync", Op::match_all, F::match,
        "every caller gets the callers' mask and *pred = 1 if all bits agree, else 0 and 0"},
    IntrinsicInfo{"__reduce_add_sync", Op::reduce_add, F::reduce,
                  "every caller gets the callers' sum, modulo 2^32"},
    IntrinsicInfo{"__reduce_min_sync", Op::reduce_min, F::reduce,
                  "every caller gets the callers' minimum (signed for int)"},
    IntrinsicInfo{"__reduce_max_sync", Op::reduce_max, F::reduce,
                  "every caller gets the callers' maximum (signed for int)"},
    IntrinsicInfo{"__reduce_and_sync", Op::reduce_and, F::reduce,
                  "every caller gets the bitwise AND of the callers' values"},
    IntrinsicInfo{"__reduce_or_sync", Op::reduce_or, F::reduce,
                  "every caller gets the bitwise OR of the callers' values"},
    IntrinsicInfo{"__reduce_xor_sync", Op::reduce_xor, F::reduce,
                  "every caller gets the bitwise XOR of the callers' values"},
    IntrinsicInfo{
        "__activemask", Op::activemask, F::activemask,
        "every caller gets the mask of lanes executing this call with it (no promise, no sync)"},
    IntrinsicInfo{"__syncwarp", Op::syncwarp, F::warp_barrier,
                  "lane i waits for every non-exited lane of mask; orders memory among them"},
    IntrinsicInfo{"__syncthreads", Op::syncthreads, F::block_barrier,
                  "thread waits for every non-exited thread of the block; orders block memory"},
    IntrinsicInfo{
        "__syncthreads_count", Op::syncthreads_count, F::block_barrier,
        "as __syncthreads; every thread gets the number of threads whose pred is non-zero"},
    IntrinsicInfo{"__syncthreads_and", Op::syncthreads_and, F::block_barrier,
                  "as __syncthreads; every thread gets 1 if every thread's pred is non-zero"},
    IntrinsicInfo{"__syncthreads_or", Op::syncthreads_or, F::block_barrier,
                  "as __syncthreads; every thread gets 1 if some thread's pred is non-zero"},
    IntrinsicInfo{"__popc", std::nullopt, F::bit, "number of set bits of a 32-bit value"},
    IntrinsicInfo{"__popcll", std::nullopt, F::bit, "number of set bits of a 64-bit value"},
    IntrinsicInfo{"__ffs", std::nullopt, F::bit,
                  "1 + position of the lowest set bit of a 32-bit value, 0 if none"},
    IntrinsicInfo{"__ffsll", std::nullopt, F::bit,
                  "1 + position of the lowest set bit of a 64-bit value, 0 if none"},
    IntrinsicInfo{"__clz", std::nullopt, F::bit,
                  "number of leading zero bits of a 32-bit value (32 for 0)"},
    IntrinsicInfo{"__clzll", std::nullopt, F::bit,
                  "number of leading zero bits of a 64-bit value (64 for 0)"},
    IntrinsicInfo{"__brev", std::nullopt, F::bit, "the 32 bits in reverse order"},
    IntrinsicInfo{"__brevll", std::nullopt, F::bit, "the 64 bits in reverse order"},
    IntrinsicInfo{
        "__fns", std::nullopt, F::bit,
        "position of the |offset|-th set bit of mask from base (up if > 0, down if < 0), else ~0"},
};

// Where each Op's row is, found at compile time; the static_assert keeps the table gap-free.
constexpr std::array<std::size_t, kOpCount> index_rows_by_op() {
  std::array<std::size_t, kOpCount> rows{};
  rows.fill(kIntrinsics.size());
  for (std::size_t row = 0; row < kIntrinsics.size(); ++row) {
    if (!kIntrinsics[row].op) continue;
    const auto op = static_cast<std::size_t>(*kIntrinsics[row].op);
    rows[op] = rows[op] == kIntrinsics.size() ? row : kIntrinsics.size() + 1;  // twice: mark bad
  }
  return rows;
}
constexpr std::array kRowOfOp = index_rows_by_op();
static_assert(std::ranges::all_of(kRowOfOp,
                                  [](std::size_t row) { return row < kIntrinsics.size(); }),
              "every Op needs exactly one row in kIntrinsics");

}  // namespace

// Op names are the CUDA names without their leading "__", as vector files and traces spell them.
std::string_view to_string(Op op) {
  const auto i = static_cast<std::size_t>(op);
  assert(i < kRowOfOp.size());
  return kIntrinsics[kRowOfOp[i]].name.substr(2);
}

std::optional<Op> op_from_string(std::string_view name) {
  for (const IntrinsicInfo& info : kIntrinsics)
    if (info.op && info.name.substr(2) == name) return info.op;
  return std::nullopt;
}

std::string_view to_string(IntrinsicFamily family) {
  switch (family) {
    case F::shuffle:
      return "shuffle";
    case F::vote:
      return "vote";
    case F::match:
      return "match";
    case F::reduce:
      return "reduce";
    case F::activemask:
      return "activemask";
    case F::warp_barrier:
      return "warp barrier";
    case F::block_barrier:
      return "block barrier";
    case F::bit:
      return "bit";
  }
  return "?";
}

std::span<const IntrinsicInfo> intrinsic_table() { return kIntrinsics; }

const IntrinsicInfo* find_intrinsic(std::string_view name) {
  for (const IntrinsicInfo& info : kIntrinsics)
    if (info.name == name) return &info;
  return nullptr;
}

const IntrinsicInfo& intrinsic_for(Op op) {
  return kIntrinsics[kRowOfOp[static_cast<std::size_t>(op)]];
}

}  // namespace warpsim
