// evaluate(): one warp-level step, dispatched on its family (the intrinsic table's row) to the
// family's file (shfl.cpp, vote.cpp, match.cpp, redux.cpp); __activemask and __syncwarp are small
// enough to live here.
#include <cassert>
#include <cstdio>
#include <cstdlib>

#include "families.hpp"

namespace warpsim {
namespace {

// Callers whose call breaks spec section 0 itself: own bit missing from the mask (rule 1), the
// mask names a lane that neither called nor exited (a member that never arrived), or a caller it
// names passed a different mask (rule 2: same intrinsic, same mask).
LaneMask callers_of_ill_formed_call(const StepInputs& in) {
  if (in.callers == 0) return 0;
  const LaneMask arrived_or_gone = in.callers | in.exited;
  const LaneMask common = in.mask[std::countr_zero(in.callers)];
  const bool uniform = (in.callers & ~lanes::equal_to(in.mask.data(), common)) == 0;
  if (uniform) {  // the usual case, in one pass
    if ((common & ~arrived_or_gone) != 0) return in.callers;
    return in.callers & ~common;
  }
  LaneMask bad = 0;
  semantics_detail::for_each_lane(in.callers, [&](int lane) {
    const LaneMask m = in.mask[lane];
    bool ok = has_lane(m, lane) && (m & ~arrived_or_gone) == 0;
    semantics_detail::for_each_lane(m & in.callers,
                                    [&](int member) { ok = ok && in.mask[member] == m; });
    if (!ok) bad |= lane_bit(lane);
  });
  return bad;
}

}  // namespace

namespace semantics_detail {

void unhandled_op(Op op, const char* where) {
  std::fprintf(stderr, "warpsim: evaluate(): __%.*s has no case in sim/semantics/%s\n",
               static_cast<int>(to_string(op).size()), to_string(op).data(), where);
  std::abort();
}

}  // namespace semantics_detail

// __activemask() contract: every caller receives `callers` (the lanes the scheduler ran
// together here, never an exited lane). Example: lanes 0..7 call, the rest exited -> 0xff on
// each; with both arms of if (lane < 10) run as two steps -> 0x3ff and 0xfffffc00 (spec case 39).
// It takes no mask, so nothing about it is undefined; it is also no promise (spec section 5).
//
// __syncwarp(mask) contract: no value (all zero); its ordering effect belongs to the runtime.
void evaluate(Op op, ValueType type, const StepInputs& in, StepOutputs& out,
              const SemanticsOptions& options) {
  assert(!is_block_barrier(op) && "block barriers span warps: the runtime evaluates them");
  assert(accepts_type(op, type));
  assert((in.callers & in.exited) == 0);
  using namespace semantics_detail;
  if (is_shuffle(op) && in.callers == kFullMask &&
      lanes::equal_to(in.mask.data(), kFullMask) == kFullMask) {
    // The usual call, well formed by construction: the fast path writes every entry.
    evaluate_shfl_whole_warp(op, type, in, out);
    return;
  }
  out.value.fill(0);
  out.src_lane.fill(-1);
  out.pred = 0;
  out.undefined = 0;
  switch (family_of(op)) {
    case IntrinsicFamily::shuffle:
      evaluate_shfl(op, type, in, out, options);
      break;
    case IntrinsicFamily::vote:
      evaluate_vote(op, in, out);
      break;
    case IntrinsicFamily::match:
      evaluate_match(op, type, in, out);
      break;
    case IntrinsicFamily::reduce:
      evaluate_reduce(op, type, in, out);
      break;
    case IntrinsicFamily::activemask:
      for_each_lane(in.callers, [&](int lane) { out.value[lane] = in.callers; });
      return;
    case IntrinsicFamily::warp_barrier:
      break;
    case IntrinsicFamily::block_barrier:  // spans warps: the runtime evaluates it
    case IntrinsicFamily::bit:            // has no Op
      assert(!"not a warp-level step");
      return;
    default:  // a family added to the table without its case here
      unhandled_op(op, "evaluate.cpp");
  }
  out.undefined |= callers_of_ill_formed_call(in);
}

}  // namespace warpsim
