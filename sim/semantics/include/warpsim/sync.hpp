// The sync family: when a rendezvous completes and who broke its rules, as pure arithmetic over
// lane masks (spec sections 0, 5, 6 and 9). A warp-level call completes once every non-exited
// lane its mask names has arrived; a block barrier once every live thread of the block waits in
// one. The runtime keeps the lanes and their states and asks these functions; nothing here
// schedules, traces or words a message (sim/trace/diagnostic_text.cpp words them).
// Each contract below has an 8-lane example that tests/semantics/sync_test.cpp asserts.
#pragma once

#include <cstdint>
#include <span>

#include "warpsim/detail/lane_compare.hpp"
#include "warpsim/semantics.hpp"

namespace warpsim::sync {

// ---- Warp-level calls (shuffle, vote, match, reduce, __syncwarp) ----

// Lanes a call with member mask `mask` still waits for: named, not exited, not yet arrived.
// Example: mask 0xff, lanes 6-7 exited, lanes 0-3 arrived -> 0x30 (lanes 4 and 5).
constexpr LaneMask awaited_lanes(LaneMask mask, LaneMask exited, LaneMask arrived) {
  return mask & ~exited & ~arrived;
}

// Whether lanes `arrived`, met in one call of `op` with member mask `mask`, complete it now.
// __activemask takes no mask and is no rendezvous: it always completes.
// Example: mask 0xff, lanes 6-7 exited: lanes 0-5 arriving complete it, lanes 0-4 do not.
constexpr bool call_completes(Op op, LaneMask mask, LaneMask exited, LaneMask arrived) {
  return op == Op::activemask || awaited_lanes(mask, exited, arrived) == 0;
}

// Lanes that met at one operation with different masks can still complete together (an H100
// runs them as one instruction) once no lane that any of them names is missing: `named` is the
// union of their masks. Example: lanes 0-3 pass 0x0f, lanes 4-7 pass 0xff, lanes 8-31 exited:
// they complete (named 0xff, all arrived); with lane 7 elsewhere they do not.
constexpr bool mismatched_call_completes(LaneMask named, LaneMask exited, LaneMask arrived) {
  return awaited_lanes(named, exited, arrived) == 0;
}

// Lanes named in a completed call with member mask `mask` that did not make it, having exited.
// Rule 2 of spec section 0 excuses them only if they had exited *before* the call was made;
// named_lanes_exited_later sorts out those that had not.
// Example: mask 0xff, callers 0x0f, lanes 4-7 exited -> 0xf0.
constexpr LaneMask named_absent_exited(LaneMask mask, LaneMask exited, LaneMask callers) {
  return mask & exited & ~callers;
}

// What the source text around a call says about how a lane can miss it without leaving the
// kernel first (sim/runtime/call_context.hpp reads it; `known` false when it could not).
struct CallShape {
  bool known = false;
  bool in_branch = false;       // inside an if/else/switch body, or after ?: && || in its statement
  bool return_before = false;   // its function has a return (or throw) before the call
  bool return_in_loop = false;  // a return (or throw) inside the innermost loop around the call
  std::uint32_t loop_first_line = 0, loop_last_line = 0;  // that loop's lines; 0: no loop
};

// Named lanes that had not exited when a call was made, yet never made it and exited later: the
// call is undefined (spec section 0 rule 2, pitfall 3 of section 9), even though hardware, like
// the simulator, completes it once they are gone.
struct ExitedLater {
  LaneMask left_loop = 0;  // their last call was this same call site: they left its loop
  LaneMask skipped = 0;    // they went past the call in a branch that does not make it
  constexpr LaneMask lanes() const { return left_loop | skipped; }
};

// Which of `absent_exited` (named_absent_exited of the call) exited after the call was made.
// A lane that runs natively leaves no trace of where it exited, so program order is read from
// what is known:
//   - a lane whose last warp-level call was in the loop around this call, or was this call
//     (`last_call_in_loop`), was in the loop and went on without it: it exited later, unless the
//     loop itself has a return (`return_in_loop`), through which it may have left the kernel;
//   - any other lane exited later if the call sits in a branch (`in_branch`) of a function with
//     no return before it: it cannot have left the kernel before the branch, so it skipped the
//     call. With a return before the call (an early `if (i >= n) return;`), it may have left
//     there, which rule 2 allows: nothing is named.
// Example (8 lanes, lanes 4-7 absent and exited):
//   if (lane < 4) v = __shfl_sync(0xff, ...); out[lane] = v;  -> skipped 0xf0
//   if (lane >= 4) return; v = __shfl_sync(0xff, ...);         -> none
//   for (k = lane; k < 12; k += 8) v += __shfl_sync(0xff, ...) -> left_loop 0xf0 (lanes 4-7
//     called it once, lanes 0-3 call it a second time)
ExitedLater named_lanes_exited_later(LaneMask absent_exited, LaneMask last_call_in_loop,
                                     const CallShape& shape);

// Lanes of a call that passed as their member mask exactly what their last __activemask()
// returned, with no warp-level call in between (`fresh`: lanes whose last call was a plain
// __activemask; `activemask_value`: what each got). Such a mask names whichever lanes happened
// to run together there, which independent thread scheduling may split at any time (spec
// section 5, pitfall 2 of section 9). A lane whose __activemask() named only itself under
// maximal convergence gets the same from every schedule: not named when `alone_is_fine`.
// Example: lanes 0-7 got 0xff and call __ballot_sync(0xff, p) -> 0xff; had lane 3 passed 0x0f,
// or called __syncwarp() in between, lane 3 would not be among them.
LaneMask masks_from_activemask(LaneMask callers, LaneMask fresh, const LaneMask* masks,
                               const LaneMask* activemask_value, bool alone_is_fine);

// ---- Block barriers: __syncthreads and its _count / _and / _or forms ----

// One warp as a block barrier sees it.
struct WarpAtBarrier {
  LaneMask waiting = 0;   // lanes waiting in a block barrier
  LaneMask exited = 0;    // lanes that have exited, and lanes past the block's last thread
  LaneMask threads = 0;   // lanes that are threads of the block (all but in a partial last warp)
  const std::uint64_t* predicate = nullptr;  // per lane, read for waiting lanes: 0 or 1
};

// Whether the barrier completes: every live thread of the block waits in it, and one at least.
// Example: two warps of 8 threads; warp 0 all waiting, warp 1 lanes 0-5 waiting and 6-7 exited
// -> completes; with warp 1 lane 5 still running -> does not.
bool barrier_completes(std::span<const WarpAtBarrier> warps);

// The block-wide reduction the _count/_and/_or forms return, over the waiting threads.
struct BarrierTally {
  std::uint32_t count = 0;           // waiting threads whose predicate is true
  bool all = true;                   // every waiting thread's predicate is true
  bool any = false;                  // some waiting thread's predicate is true
  std::uint32_t exited_threads = 0;  // threads of the block that exited before the barrier
};
// Example: 8 threads, predicates 1 0 1 1 0 0 1 1, lanes 6-7 exited -> count 3, all false,
// any true, exited_threads 2.
BarrierTally tally_barrier(std::span<const WarpAtBarrier> warps);

// What `form` returns to each waiting thread: the count, 1/0 for and/or, 0 for __syncthreads.
// Inline: asked once per waiting lane.
inline std::uint64_t barrier_result(Op form, const BarrierTally& tally) {
  switch (form) {
    case Op::syncthreads_count: return tally.count;
    case Op::syncthreads_and: return tally.all ? 1 : 0;
    case Op::syncthreads_or: return tally.any ? 1 : 0;
    default: return 0;
  }
}

// Waiting lanes that reached the barrier in another form or at another call site than `form` at
// `site` (divergent code: CUDA requires every thread to reach the same __syncthreads). Site is
// whatever the caller uses for call sites (1, 4 or 8 bytes, compared bit for bit).
// Example: lanes 0-7 wait, lanes 0-3 in __syncthreads() at line 10 and 4-7 at line 12 ->
// lanes_elsewhere(0xff, ..., syncthreads, line 10) = 0xf0.
template <class Site>
LaneMask lanes_elsewhere(LaneMask waiting, const Op* forms, const Site* sites, Op form,
                         const Site& site) {
  return waiting & ~(lanes::equal_to(forms, form) & lanes::equal_to(sites, site));
}

// ---- Named barriers: bar.sync id, count (__barrier_sync, __barrier_sync_count) ----

// What is wrong with a named barrier's operands, before any thread waits: the id must name one
// of a block's 16 barriers; a thread count (`counted`: __barrier_sync_count) must be a non-zero
// multiple of the warp size (PTX ISA, barrier) and no more than the block's warps can bring
// (`block_capacity`: its warps times 32; a warp arrives whole).
// Example: check_named_barrier(1, 48, true, 128) = count_not_warps; (16, 0, false, 128) =
// id_out_of_range.
enum class NamedBarrierMisuse : std::uint8_t { none, id_out_of_range, count_not_warps, count_over_block };
NamedBarrierMisuse check_named_barrier(std::uint32_t id, std::uint32_t count, bool counted,
                                       std::uint32_t block_capacity);

}  // namespace warpsim::sync
