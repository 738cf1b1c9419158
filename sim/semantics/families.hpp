// Internal to sim/semantics: one evaluator per intrinsic family, dispatched by evaluate().
// Each one's contract (what lane i receives, what is undefined, an 8-lane example) sits beside
// its definition. All of them write only callers' entries of an `out` that evaluate() cleared.
#pragma once

#include <bit>
#include <cstdint>

#include "warpsim/detail/lane_compare.hpp"
#include "warpsim/semantics.hpp"

namespace warpsim::semantics_detail {

void evaluate_shfl(Op op, ValueType type, const StepInputs& in, StepOutputs& out,
                   const SemanticsOptions& options);
// Shuffles by all 32 lanes, each passing the full mask: writes all of `out` (no clearing first).
void evaluate_shfl_whole_warp(Op op, ValueType type, const StepInputs& in, StepOutputs& out);
void evaluate_vote(Op op, const StepInputs& in, StepOutputs& out);
void evaluate_match(Op op, ValueType type, const StepInputs& in, StepOutputs& out);
void evaluate_reduce(Op op, ValueType type, const StepInputs& in, StepOutputs& out);

// A family's file reached an op it has no case for: the table gave the op this family, and the
// family's file was not taught it. Our own bug, so it stops the process (in every build type),
// naming the op and the file.
[[noreturn]] void unhandled_op(Op op, const char* family_file);

// Calls f(lane) for every set bit of m, lowest lane first.
template <class F>
void for_each_lane(LaneMask m, F&& f) {
  for (; m != 0; m &= m - 1) f(std::countr_zero(m));
}

// The lanes (callers or not) for which pred(lane) holds. A plain loop over all 32 lanes, which
// compilers turn into branch-free, vectorised code.
template <class P>
LaneMask lanes_where(P&& pred) {
  LaneMask m = 0;
  for (int lane = 0; lane < kWarpSize; ++lane) m |= LaneMask{pred(lane)} << lane;
  return m;
}

// Calls f(group, mask) for each group of callers that passed the same mask. Votes, matches and
// reductions run once per group: an H100 runs each distinct mask separately (WARPSYNC.EXCLUSIVE),
// so tiles of 8 calling with their own masks get per-tile ballots, while all 32 converged lanes
// passing 0xffff form one group and all count (spec case 27). With one mask: one group, one pass.
template <class F>
void for_each_mask_group(const StepInputs& in, F&& f) {
  for (LaneMask left = in.callers; left != 0;) {
    const LaneMask mask = in.mask[std::countr_zero(left)];
    const LaneMask group = left & lanes::equal_to(in.mask.data(), mask);
    f(group, mask);
    left &= ~group;
  }
}

// A group whose members are not all in their (shared) mask gets a real result that CUDA does not
// promise (PTX says non-members add nothing; hardware counts them): flag the whole group.
inline LaneMask undefined_if_group_exceeds_mask(LaneMask group, LaneMask mask) {
  return (group & ~mask) != 0 ? group : 0;
}

// The low bits that carry a value of type t (64, 32 or, for a single half, 16).
inline std::uint64_t value_bits_mask(ValueType t) {
  if (is_64bit(t)) return ~std::uint64_t{0};
  if (t == ValueType::f16 || t == ValueType::bf16) return 0xffffu;
  return 0xffffffffu;
}

}  // namespace warpsim::semantics_detail
