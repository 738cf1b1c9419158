// Warp reduce: __reduce_{add,min,max,and,or,xor}_sync (spec section 4; redux.sync, sm_80).
#include "families.hpp"

namespace warpsim::semantics_detail {

// Contract. S = lane i's group: the callers that passed the same mask as lane i (all callers when
// they share one mask; see vote.cpp for why). Each reads the low 32 bits of its value.
//   Every lane of S receives the same 32-bit result over S (zero-extended in out.value):
//   add wraps modulo 2^32 (INT_MAX + 1 -> INT_MIN; int and unsigned give the same bits);
//   min/max compare as signed for i32 and as unsigned for u32 and none;
//   and/or/xor act on the bits (CUDA has them for unsigned only; type none).
// Undefined in CUDA, and what we do: as for votes, converged callers outside the mask they pass
// still contribute; we count them and flag the group undefined.
// Example: lanes 0..7 call with mask 0xff, lanes 8..31 exited, value = lane - 3 (-3 .. 4).
//   add -> 4;  min i32 -> -3 (0xfffffffd), u32 -> 0;  max i32 -> 4, u32 -> 0xffffffff
//   and -> 0;  or -> 0xffffffff;  xor -> 0xfffffff8
void evaluate_reduce(Op op, ValueType type, const StepInputs& in, StepOutputs& out) {
  const bool is_signed = type == ValueType::i32;
  for_each_mask_group(in, [&](LaneMask group, LaneMask mask) {
    // Folds the group's low words, starting from the operation's identity.
    auto fold = [&](std::uint32_t identity, auto combine) {
      std::uint32_t acc = identity;
      for (int lane = 0; lane < kWarpSize; ++lane)
        if (has_lane(group, lane)) acc = combine(acc, static_cast<std::uint32_t>(in.value[lane]));
      return acc;
    };
    auto as_signed = [](std::uint32_t x) { return static_cast<std::int32_t>(x); };
    std::uint32_t result = 0;
    switch (op) {
      case Op::reduce_add:
        result = fold(0u, [](auto a, auto x) { return a + x; });
        break;
      case Op::reduce_and:
        result = fold(~0u, [](auto a, auto x) { return a & x; });
        break;
      case Op::reduce_or:
        result = fold(0u, [](auto a, auto x) { return a | x; });
        break;
      case Op::reduce_xor:
        result = fold(0u, [](auto a, auto x) { return a ^ x; });
        break;
      case Op::reduce_min:
        result = is_signed
                     ? fold(0x7fffffffu,
                            [&](auto a, auto x) { return as_signed(x) < as_signed(a) ? x : a; })
                     : fold(~0u, [](auto a, auto x) { return x < a ? x : a; });
        break;
      case Op::reduce_max:
        result = is_signed
                     ? fold(0x80000000u,
                            [&](auto a, auto x) { return as_signed(x) > as_signed(a) ? x : a; })
                     : fold(0u, [](auto a, auto x) { return x > a ? x : a; });
        break;
      default:
        unhandled_op(op, "redux.cpp");
    }
    for_each_lane(group, [&](int lane) { out.value[lane] = result; });
    out.undefined |= undefined_if_group_exceeds_mask(group, mask);
  });
}

}  // namespace warpsim::semantics_detail
