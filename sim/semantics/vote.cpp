// Warp vote: __ballot_sync, __any_sync, __all_sync, __uni_sync (spec section 2).
#include "families.hpp"

namespace warpsim::semantics_detail {

// Contract. S = lane i's group: the callers that passed the same mask as lane i (exited lanes
// never call). With the usual single mask, S is all callers. A lane's predicate is true iff the
// low 32 bits of its value (CUDA's int pred) are non-zero.
//   ballot: lane i receives the mask of lanes in S whose predicate is true.
//   any   : 1 if some lane of S votes true, else 0 (exactly 1, as an H100 gives).
//   all   : 1 if every lane of S votes true, else 0.
//   uni   : 1 if all lanes of S vote the same way, else 0.
// Undefined in CUDA, and what we do: converged callers outside the mask still vote when they pass
// that same mask (PTX says they add 0; an H100 counts them, spec case 27). We count them and flag
// undefined the whole group. Callers passing other masks form other groups (H100 probe: tiles of
// 8 with their own masks get 0xaa << tile base from ballot(lane & 1)).
// Example: lanes 0..7 call with mask 0xff, lanes 8..31 exited.
//   pred = (lane % 3 == 0): ballot -> 0x49, any -> 1, all -> 0, uni -> 0 on every lane
//   pred = 1              : ballot -> 0xff, any -> 1, all -> 1, uni -> 1
//   pred = 1, mask 0x0f   : ballot -> 0xff on every lane, undefined 0xff
//   pred = 1, lanes 0..3 pass 0x0f and 4..7 pass 0xf0: ballot -> 0x0f on 0..3, 0xf0 on 4..7
void evaluate_vote(Op op, const StepInputs& in, StepOutputs& out) {
  const LaneMask true_lanes =
      lanes_where([&](int lane) { return static_cast<std::uint32_t>(in.value[lane]) != 0; });
  for_each_mask_group(in, [&](LaneMask group, LaneMask mask) {
    const LaneMask votes = true_lanes & group;
    std::uint64_t result = 0;
    switch (op) {
      case Op::ballot:
        result = votes;
        break;
      case Op::any:
        result = votes != 0;
        break;
      case Op::all:
        result = votes == group;
        break;
      case Op::uni:
        result = votes == 0 || votes == group;
        break;
      default:
        unhandled_op(op, "vote.cpp");
    }
    for_each_lane(group, [&](int lane) { out.value[lane] = result; });
    out.undefined |= undefined_if_group_exceeds_mask(group, mask);
  });
}

}  // namespace warpsim::semantics_detail
