// The sync family (sync.hpp): rendezvous arithmetic of warp-level calls and block barriers.
#include "warpsim/sync.hpp"

#include "warpsim/detail/lane_compare.hpp"

#include <bit>

namespace warpsim::sync {

ExitedLater named_lanes_exited_later(LaneMask absent_exited, LaneMask last_call_in_loop,
                                     const CallShape& shape) {
  ExitedLater later;
  // Left the loop: the lane made a call in it, so it was past any early return the function has
  // before the loop; only a return inside the loop may have ended it first.
  if (!(shape.known && shape.return_in_loop)) later.left_loop = absent_exited & last_call_in_loop;
  // Went past the call: only a branch explains missing it, and only if no return came first.
  if (shape.known && shape.in_branch && !shape.return_before) {
    later.skipped = absent_exited & ~last_call_in_loop;
  }
  return later;
}

LaneMask masks_from_activemask(LaneMask callers, LaneMask fresh, const LaneMask* masks,
                               const LaneMask* activemask_value, bool alone_is_fine) {
  LaneMask named = 0;
  for (LaneMask m = callers & fresh; m != 0; m &= m - 1) {
    const int lane = std::countr_zero(m);
    const LaneMask got = activemask_value[lane];
    if (masks[lane] != got) continue;
    if (alone_is_fine && got == lane_bit(lane)) continue;
    named |= lane_bit(lane);
  }
  return named;
}

bool barrier_completes(std::span<const WarpAtBarrier> warps) {
  bool any_waiting = false;
  for (const WarpAtBarrier& w : warps) {
    if ((w.waiting | w.exited) != kFullMask) return false;
    any_waiting = any_waiting || w.waiting != 0;
  }
  return any_waiting;
}

BarrierTally tally_barrier(std::span<const WarpAtBarrier> warps) {
  BarrierTally tally;
  for (const WarpAtBarrier& w : warps) {
    // A warp at a time: the waiting lanes whose predicate is not 0 (vector compares).
    const LaneMask holds = w.waiting & ~lanes::equal_to(w.predicate, std::uint64_t{0});
    tally.count += static_cast<std::uint32_t>(std::popcount(holds));
    tally.all = tally.all && holds == w.waiting;
    tally.any = tally.any || holds != 0;
    tally.exited_threads += static_cast<std::uint32_t>(std::popcount(w.exited & w.threads));
  }
  return tally;
}

NamedBarrierMisuse check_named_barrier(std::uint32_t id, std::uint32_t count, bool counted,
                                       std::uint32_t block_capacity) {
  if (id >= 16) return NamedBarrierMisuse::id_out_of_range;
  if (!counted) return NamedBarrierMisuse::none;
  if (count == 0 || count % kWarpSize != 0) return NamedBarrierMisuse::count_not_warps;
  if (count > block_capacity) return NamedBarrierMisuse::count_over_block;
  return NamedBarrierMisuse::none;
}

}  // namespace warpsim::sync
