// Warp match: __match_any_sync, __match_all_sync (spec section 3).
#include "families.hpp"

namespace warpsim::semantics_detail {

// Contract. S = lane i's group: the callers that passed the same mask as lane i (all callers when
// they share one mask; see vote.cpp for why). Values compare bit for bit: all 64 bits for 64-bit
// types (a full match.b64), the low 32 otherwise. So +0.0 != -0.0 and NaNs match only with
// identical bits.
//   match_any: lane i receives the mask of lanes k in S with bits(k) == bits(i) (always has i).
//   match_all: if every lane of S holds the same bits, each lane of S receives S and *pred = 1;
//              otherwise each receives 0 and *pred = 0. S is the non-exited subset of the mask,
//              as PTX and an H100 give (spec case 34), not the mask the Programming Guide names.
// Undefined in CUDA, and what we do: as for votes, converged callers outside the mask they pass
// still take part; we count them and flag the group undefined.
// Example: lanes 0..7 call with mask 0xff, lanes 8..31 exited, value = lane / 3 (i32).
//   match_any -> 0x07 0x07 0x07 0x38 0x38 0x38 0xc0 0xc0
//   match_all -> 0 on every lane, pred 0x00;   with value = 5: 0xff on every lane, pred 0xff
void evaluate_match(Op op, ValueType type, const StepInputs& in, StepOutputs& out) {
  if (op != Op::match_any && op != Op::match_all) unhandled_op(op, "match.cpp");
  const std::uint64_t bits = is_64bit(type) ? ~std::uint64_t{0} : 0xffffffffu;
  auto same = [&](int a, int b) { return ((in.value[a] ^ in.value[b]) & bits) == 0; };
  for_each_mask_group(in, [&](LaneMask group, LaneMask mask) {
    if (op == Op::match_any) {
      // One pass per distinct value: its peers all receive the same mask.
      for (LaneMask left = group; left != 0;) {
        const int lane = std::countr_zero(left);
        const LaneMask peers = group & lanes_where([&](int other) { return same(lane, other); });
        for_each_lane(peers, [&](int peer) { out.value[peer] = peers; });
        left &= ~peers;
      }
    } else {
      const int first = std::countr_zero(group);
      const LaneMask peers = group & lanes_where([&](int other) { return same(first, other); });
      const LaneMask result = peers == group ? group : 0;
      for_each_lane(group, [&](int lane) { out.value[lane] = result; });
      out.pred |= result;
    }
    out.undefined |= undefined_if_group_exceeds_mask(group, mask);
  });
}

}  // namespace warpsim::semantics_detail
