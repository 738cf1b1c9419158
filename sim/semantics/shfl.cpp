// Warp shuffle: __shfl_sync, __shfl_up_sync, __shfl_down_sync, __shfl_xor_sync (spec section 1).
#include <emmintrin.h>

#include <cassert>

#include "families.hpp"

namespace warpsim {

namespace {

// CUDA packs `width` into PTX's c operand as ((32 - width) << 8) | clamp, with clamp 0 for up and
// 0x1f otherwise; PTX keeps 5 bits of each field and 5 bits of b. Computing in unsigned makes
// every int width (0, 12, 33, 64, -1, INT_MIN, ...) well defined, with the bits hardware sees.
template <Op kOp>
ShflSource source_lane(int lane, std::int32_t arg, std::int32_t width) {
  const int seg = static_cast<int>((32u - static_cast<std::uint32_t>(width)) & 31u);
  const int bval = static_cast<int>(static_cast<std::uint32_t>(arg) & 31u);
  const int min_lane = lane & seg;
  if constexpr (kOp == Op::shfl_up) {
    const int max_lane = min_lane;  // clamp 0
    const int j = lane - bval;
    return j >= max_lane ? ShflSource{j, true} : ShflSource{lane, false};
  } else {
    const int max_lane = min_lane | (31 & ~seg);
    int j = 0;
    if constexpr (kOp == Op::shfl_idx) j = min_lane | (bval & ~seg);
    if constexpr (kOp == Op::shfl_down) j = lane + bval;
    if constexpr (kOp == Op::shfl_xor) j = lane ^ bval;
    return j <= max_lane ? ShflSource{j, true} : ShflSource{lane, false};
  }
}

// source_lane for all 32 lanes at once, four lanes per SSE2 operation: the source lanes into
// `src`, PTX's p as the returned mask.
template <Op kOp>
LaneMask source_lanes(const StepInputs& in, std::array<std::int32_t, kWarpSize>& src) {
  const __m128i c31 = _mm_set1_epi32(31);
  const __m128i c32 = _mm_set1_epi32(32);
  const __m128i ones = _mm_set1_epi32(-1);
  __m128i lane = _mm_set_epi32(3, 2, 1, 0);
  LaneMask pred = 0;
  for (int k = 0; k < kWarpSize / 4; ++k) {
    const __m128i arg = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in.arg.data() + 4 * k));
    const __m128i width = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in.width.data() + 4 * k));
    const __m128i seg = _mm_and_si128(_mm_sub_epi32(c32, width), c31);
    const __m128i bval = _mm_and_si128(arg, c31);
    const __m128i min_lane = _mm_and_si128(lane, seg);
    __m128i j;
    __m128i in_range;
    if constexpr (kOp == Op::shfl_up) {
      j = _mm_sub_epi32(lane, bval);
      in_range = _mm_xor_si128(_mm_cmpgt_epi32(min_lane, j), ones);  // j >= min_lane
    } else {
      const __m128i max_lane = _mm_or_si128(min_lane, _mm_andnot_si128(seg, c31));
      if constexpr (kOp == Op::shfl_idx) j = _mm_or_si128(min_lane, _mm_andnot_si128(seg, bval));
      if constexpr (kOp == Op::shfl_down) j = _mm_add_epi32(lane, bval);
      if constexpr (kOp == Op::shfl_xor) j = _mm_xor_si128(lane, bval);
      in_range = _mm_xor_si128(_mm_cmpgt_epi32(j, max_lane), ones);  // j <= max_lane
    }
    const __m128i chosen = _mm_or_si128(_mm_and_si128(in_range, j), _mm_andnot_si128(in_range, lane));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(src.data() + 4 * k), chosen);
    pred |= static_cast<LaneMask>(_mm_movemask_ps(_mm_castsi128_ps(in_range))) << (4 * k);
    lane = _mm_add_epi32(lane, _mm_set1_epi32(4));
  }
  return pred;
}

}  // namespace

ShflSource shfl_source_lane(Op op, int lane, std::int32_t arg, std::int32_t width) {
  assert(is_shuffle(op) && lane >= 0 && lane < kWarpSize);
  switch (op) {
    case Op::shfl_idx: return source_lane<Op::shfl_idx>(lane, arg, width);
    case Op::shfl_up: return source_lane<Op::shfl_up>(lane, arg, width);
    case Op::shfl_down: return source_lane<Op::shfl_down>(lane, arg, width);
    case Op::shfl_xor: return source_lane<Op::shfl_xor>(lane, arg, width);
    default: semantics_detail::unhandled_op(op, "shfl.cpp");
  }
}

namespace semantics_detail {

// Contract, for every caller i (arg = srcLane / delta / laneMask, all taken per lane):
//   j = shfl_source_lane(op, i, arg[i], width[i]).lane; out.src_lane[i] = j; pred bit i = PTX p.
//   idx : j = base + (srcLane mod w) for power-of-two w, base = i & ~(w-1)
//   up  : j = i - (delta & 31) if that stays in i's segment, else i (p = 0)
//   down: j = i + (delta & 31) if that stays in i's segment, else i (p = 0)
//   xor : j = i ^ (laneMask & 31) unless that is above i's segment, else i (p = 0)
//   Other widths follow the same bit formula (seg = (32 - width) & 31); no width is rejected.
//   Lane i receives lane j's bits: all 64 for 64-bit types (hardware moves both halves from the
//   same lane), the low 16 for a single half, otherwise the low 32. Payloads pass unchanged.
// Undefined in CUDA, and what we return:
//   - j did not call (exited, inactive, or at another call): options.invalid_source_value
//     (0 by default, as an H100 gives), flagged undefined; p is still the range test.
//   - j called but is outside i's own mask: j's real value (as hardware gives), flagged undefined.
// Example: lanes 0..7 call with mask 0xff, lanes 8..31 exited, v = 10 * lane.
//   __shfl_sync     (0xff, v, 7 - lane, 8) -> 70 60 50 40 30 20 10  0   p 0xff
//   __shfl_up_sync  (0xff, v, 1, 4)        ->  0  0 10 20 40 40 50 60   p 0xee
//   __shfl_down_sync(0xff, v, 2, 8)        -> 20 30 40 50 60 70 60 70   p 0x3f
//   __shfl_xor_sync (0xff, v, 1, 8)        -> 10  0 30 20 50 40 70 60   p 0xff
//   __shfl_down_sync(0xff, v, 2)           -> 20 30 40 50 60 70  0  0   p 0xff, undefined 0xc0
//                                             (lanes 6 and 7 read exited lanes 8 and 9)
namespace {

// One pass over the callers for one kind of shuffle, free of branches on the lane's data.
template <Op kOp>
void shuffle_callers(const StepInputs& in, StepOutputs& out, std::uint64_t bits,
                     std::uint64_t invalid_source_value) {
  LaneMask pred = 0, undefined = 0;
  for_each_lane(in.callers, [&](int lane) {
    const ShflSource src = source_lane<kOp>(lane, in.arg[lane], in.width[lane]);
    out.src_lane[lane] = static_cast<std::int8_t>(src.lane);
    pred |= LaneMask{src.in_range} << lane;
    const bool supplied = has_lane(in.callers, src.lane);
    out.value[lane] = (supplied ? in.value[src.lane] : invalid_source_value) & bits;
    undefined |= LaneMask{!supplied || !has_lane(in.mask[lane], src.lane)} << lane;
  });
  out.pred |= pred;
  out.undefined |= undefined;
}

}  // namespace

namespace {

template <Op kOp>
void shuffle_whole_warp(const StepInputs& in, StepOutputs& out, std::uint64_t bits) {
  std::array<std::int32_t, kWarpSize> src;
  out.pred = source_lanes<kOp>(in, src);
  out.undefined = 0;
#pragma GCC unroll 8
  for (int lane = 0; lane < kWarpSize; ++lane) {
    out.src_lane[lane] = static_cast<std::int8_t>(src[lane]);
    out.value[lane] = in.value[src[lane]] & bits;
  }
}

}  // namespace

// The usual call: all 32 lanes with the full mask. Every source supplies a value that the
// reader's mask names, so nothing is undefined; every entry of `out` is written.
void evaluate_shfl_whole_warp(Op op, ValueType type, const StepInputs& in, StepOutputs& out) {
  const std::uint64_t bits = value_bits_mask(type);
  switch (op) {
    case Op::shfl_idx: shuffle_whole_warp<Op::shfl_idx>(in, out, bits); break;
    case Op::shfl_up: shuffle_whole_warp<Op::shfl_up>(in, out, bits); break;
    case Op::shfl_down: shuffle_whole_warp<Op::shfl_down>(in, out, bits); break;
    case Op::shfl_xor: shuffle_whole_warp<Op::shfl_xor>(in, out, bits); break;
    default: unhandled_op(op, "shfl.cpp");
  }
}

void evaluate_shfl(Op op, ValueType type, const StepInputs& in, StepOutputs& out,
                   const SemanticsOptions& options) {
  const std::uint64_t bits = value_bits_mask(type);
  const std::uint64_t invalid = options.invalid_source_value;
  switch (op) {
    case Op::shfl_idx: shuffle_callers<Op::shfl_idx>(in, out, bits, invalid); break;
    case Op::shfl_up: shuffle_callers<Op::shfl_up>(in, out, bits, invalid); break;
    case Op::shfl_down: shuffle_callers<Op::shfl_down>(in, out, bits, invalid); break;
    case Op::shfl_xor: shuffle_callers<Op::shfl_xor>(in, out, bits, invalid); break;
    default: unhandled_op(op, "shfl.cpp");
  }
}

}  // namespace semantics_detail
}  // namespace warpsim
