// Misuse found in completed steps, barriers and deadlocks, recorded in the trace. Off the per-lane
// path: complete_group (block_runner.cpp) calls in only when a step looks wrong. What counts as
// wrong is warpsim/sync.hpp's and the evaluator's; the words are warpsim/diagnostic_text.hpp's.
#include <bit>
#include <cassert>

#include "block_runner.hpp"
#include "warpsim/detail/lane_compare.hpp"

namespace warpsim::runtime {
namespace {

int lowest_lane(LaneMask m) { return std::countr_zero(m); }

}  // namespace

void BlockRunner::record_step_diagnostics(Warp& w, const StepLog::Source& step,
                                          std::int64_t index, bool masks_disagree) {
  if (step.op == Op::activemask) {
    note_activemask(w, step.participants);
    return;
  }
  if ((w.activemask_fresh & step.participants) != 0) check_activemask_masks(w, step, index);

  const int first = lowest_lane(step.participants);
  if (masks_disagree) {
    const int other =
        lowest_lane(step.participants & ~lanes::equal_to(step.lane_mask, step.lane_mask[first]));
    diagnose(facts::MaskMismatch{step.op, step.participants, first, other, step.lane_mask[first],
                                 step.lane_mask[other]},
             step.where[first], w, index);
  } else if (const LaneMask absent =
                 sync::named_absent_exited(step.mask, w.exited & w.threads, step.participants);
             absent != 0) {
    check_exited_later(w, step, index, absent);
  }

  // Lanes that met with one mask (the rule, unless resolve_stuck grouped them) share step.mask.
  const LaneMask outside =
      step.participants &
      ~(masks_disagree ? lanes::naming_themselves(step.lane_mask) : step.mask);
  if (outside != 0) {
    const int lane = lowest_lane(outside);
    diagnose(facts::CallerNotInMask{step.op, outside, step.lane_mask[lane]}, step.where[lane], w,
             index);
  }
  const LaneMask here = step.participants & lanes::equal_to(step.where, step.where[first]);
  if (here != step.participants) {
    const LaneMask others = step.participants & ~here;
    const SourceLine elsewhere = step.where[lowest_lane(others)];
    diagnose(facts::SplitCallSites{step.op, here, step.where[first], others, elsewhere,
                                   !lanes::same_in(step.where, others)},
             step.where[first], w, index);
  }
  if (const LaneMask never_set =
          never_set_lanes(step.op, step.type, step.input, step.participants);
      never_set != 0) {
    check_never_set(step, never_set, w, index);
  }
  if (is_shuffle(step.op) && step.undefined != 0) {
    const int reader = lowest_lane(step.undefined);
    const int source = step.src_lane[reader];
    using Why = facts::UndefinedSource::Why;
    Why why = Why::outside_mask;
    if (source >= 0 && has_lane(step.exited, source)) {
      why = Why::exited;
    } else if (source >= 0 && !has_lane(step.participants, source)) {
      why = Why::not_calling;
    }
    diagnose(facts::UndefinedSource{step.op, step.undefined, reader, source, why},
             step.where[reader], w, index);
  }
}

LaneMask BlockRunner::never_set_lanes(Op op, ValueType type, const std::uint64_t* values,
                                      LaneMask group) const {
  if (options_.never_set_fill == 0 || intrinsic_for(op).operand != OperandKind::value) return 0;
  const int bytes = type == ValueType::f16 || type == ValueType::bf16 ? 2 : is_64bit(type) ? 8 : 4;
  const std::uint64_t fill = (~std::uint64_t{0} >> (64 - 8 * bytes)) / 0xff * options_.never_set_fill;
  return lanes::equal_to(values, fill) & group;
}

void BlockRunner::check_never_set(const StepLog::Source& step, LaneMask never_set, const Warp& w,
                                  std::int64_t index) {
  // Who read a never-set value: a shuffle's lanes whose source it was (its own value read back
  // is no exchange); every other caller of a match or reduction, which combines all values.
  LaneMask readers = 0;
  int reader = -1, source = -1;
  for (LaneMask m = step.participants & ~step.undefined; m != 0; m &= m - 1) {
    const int lane = lowest_lane(m);
    int from = -1;
    if (is_shuffle(step.op)) {
      const int s = step.src_lane[lane];
      if (s >= 0 && s != lane && has_lane(never_set, s)) from = s;
    } else if (const LaneMask others = never_set & ~lane_bit(lane); others != 0) {
      from = lowest_lane(others);
    }
    if (from < 0) continue;
    readers |= lane_bit(lane);
    if (reader < 0) {
      reader = lane;
      source = from;
    }
  }
  if (readers == 0) return;
  const LaneMask sources = is_shuffle(step.op) ? [&] {
    LaneMask read = 0;
    for (LaneMask m = readers; m != 0; m &= m - 1) read |= lane_bit(step.src_lane[lowest_lane(m)]);
    return read;
  }() : never_set;
  diagnose(facts::UninitialisedValue{step.op, readers, sources, reader, source,
                                     step.input[source]},
           step.where[reader], w, index);
}

CallContext BlockRunner::call_context_at(SourceLine where, Op op) {
  const std::uint64_t key = (std::uint64_t{static_cast<std::uint8_t>(op)} << 56) ^
                            (std::uint64_t{where.file} << 32) ^ where.line;
  if (const auto it = call_context_at_.find(key); it != call_context_at_.end()) return it->second;
  CallContext context;
  if (where.file < trace_.files.size()) {
    context = call_contexts_.of(trace_.files[where.file], where.line, cuda_name(op));
  }
  call_context_at_.emplace(key, context);
  return context;
}

void BlockRunner::check_exited_later(const Warp& w, const StepLog::Source& step,
                                     std::int64_t index, LaneMask absent) {
  const SourceLine here = step.where[lowest_lane(step.participants)];
  // Lanes that made this very call with a mask of their own and exited (each lane passing its
  // own mask, as HeCBench's bscan does): not a loop left or a branch not taken.
  LaneMask own_mask = absent & lanes::equal_to(w.where.data(), here) &
                      ~lanes::equal_to(w.pending.mask.data(), step.mask);
  for (LaneMask m = own_mask; m != 0; m &= m - 1) {
    if (w.op[lowest_lane(m)] != step.op) own_mask &= ~lane_bit(lowest_lane(m));
  }
  if (own_mask != 0) {
    const int lane = lowest_lane(own_mask);
    diagnose(facts::NamedLaneExitedLater{step.op, own_mask, step.participants, step.mask, false,
                                         true, lane, w.pending.mask[lane]},
             here, w, index);
    absent &= ~own_mask;
    if (absent == 0) return;
  }
  const sync::CallShape shape = call_context_at(here, step.op).shape;
  // Lanes whose last call (kept in w.where after they exited) was in this call's loop, or was
  // this call when the source gave no loop (the loop may be in a caller).
  LaneMask in_loop = 0;
  if (shape.loop_first_line != 0) {
    for (LaneMask m = absent; m != 0; m &= m - 1) {
      const int lane = lowest_lane(m);
      const SourceLine last = w.where[lane];
      if (last.file == here.file && last.line >= shape.loop_first_line &&
          last.line <= shape.loop_last_line) {
        in_loop |= lane_bit(lane);
      }
    }
  } else {
    in_loop = absent & lanes::equal_to(w.where.data(), here);
  }
  const sync::ExitedLater later = sync::named_lanes_exited_later(absent, in_loop, shape);
  if (later.lanes() == 0) return;
  diagnose(facts::NamedLaneExitedLater{step.op, later.lanes(), step.participants, step.mask,
                                       later.skipped == 0},
           here, w, index);
}

void BlockRunner::note_activemask(Warp& w, LaneMask group) {
  // coalesced_threads() asks through device::group_activemask (arg kGroupActivemask): the group
  // is by definition the lanes that ran together, so its mask is no guess about who will call.
  const LaneMask plain = group & lanes::equal_to(w.pending.arg.data(), std::int32_t{0});
  w.activemask_fresh = (w.activemask_fresh & ~group) | plain;
  for (LaneMask m = plain; m != 0; m &= m - 1) {
    const int lane = lowest_lane(m);
    w.activemask_value[lane] = static_cast<LaneMask>(w.result[lane]);
    w.activemask_where[lane] = w.where[lane];
  }
}

void BlockRunner::check_activemask_masks(Warp& w, const StepLog::Source& step,
                                         std::int64_t index) {
  const LaneMask named =
      sync::masks_from_activemask(step.participants, w.activemask_fresh, step.lane_mask,
                                  w.activemask_value.data(), /*alone_is_fine=*/maximal_);
  w.activemask_fresh &= ~step.participants;
  if (named == 0) return;
  const int lane = lowest_lane(named);
  // Equal values are only a hint; the call's text settles it where it can be read: a literal
  // 0xffffffff that equals what __activemask() gave in converged code is no misuse.
  if (call_context_at(step.where[lane], step.op).mask == MaskOrigin::elsewhere) return;
  diagnose(facts::ActivemaskAsMask{step.op, named, step.lane_mask[lane], w.activemask_where[lane]},
           step.where[lane], w, index);
}

void BlockRunner::record_barrier_diagnostics(const Warp& first_warp, int first_lane,
                                             const sync::BarrierTally& tally,
                                             std::int64_t index) {
  const Op form = first_warp.op[first_lane];
  const SourceLine where = first_warp.where[first_lane];
  for (const Warp& w : warps_) {  // warps before first_warp wait in no barrier
    const LaneMask elsewhere =
        sync::lanes_elsewhere(w.at_barrier, w.op.data(), w.where.data(), form, where);
    if (elsewhere == 0) continue;
    const int other = lowest_lane(elsewhere);
    diagnose(facts::BarrierSplit{first_warp.at_barrier, form, where, w.op[other], w.where[other]},
             where, first_warp, index);
    break;
  }
  if (tally.exited_threads > 0) {
    diagnose(facts::BarrierAfterExit{first_warp.at_barrier, form, tally.exited_threads}, where,
             first_warp, index);
  }
}

void BlockRunner::record_waits() {
  for (const Warp& w : warps_) {
    if ((w.threads & ~w.exited) == 0) continue;  // every thread of it is done: it waits for none
    WarpWait wait;
    wait.block = block_linear_;
    wait.warp = w.index;
    for (int lane = 0; lane < kWarpSize; ++lane) {
      LaneWait& l = wait.lanes[static_cast<std::size_t>(lane)];
      if (!has_lane(w.threads, lane)) {
        l.state = LaneWait::State::not_a_thread;
      } else if (has_lane(w.exited, lane)) {
        l.state = LaneWait::State::exited;
      } else if (has_lane(w.at_op, lane)) {
        l = {LaneWait::State::in_call, w.op[lane], w.where[lane], w.pending.mask[lane]};
      } else if (has_lane(w.at_barrier, lane)) {
        l = {LaneWait::State::at_barrier, w.op[lane], w.where[lane], 0};
      } else {
        l.state = LaneWait::State::running;
      }
    }
    trace_.waits.push_back(wait);
  }
}

void BlockRunner::describe_deadlock() {
  record_waits();
  if (describe_async_deadlock()) return;
  for (const Warp& w : warps_) {
    if (w.at_op == 0) continue;
    const int first = lowest_lane(w.at_op);
    const LaneMask waiting = same_call_lanes(w, first) & w.at_op;
    facts::Deadlock d;
    d.warp = w.index;
    d.waiting = waiting;
    d.op = w.op[first];
    d.where = w.where[first];
    d.mask = w.pending.mask[first];
    d.missing = sync::awaited_lanes(d.mask, w.exited, waiting);
    if (d.missing != 0) {
      using MissingAre = facts::Deadlock::MissingAre;
      const int other = lowest_lane(d.missing);
      d.their_op = w.op[other];
      d.elsewhere = w.where[other];
      d.their_mask = w.pending.mask[other];
      if (has_lane(w.at_barrier, other)) {
        d.missing_are = MissingAre::at_barrier;
      } else if (has_lane(w.at_op, other)) {
        d.missing_are = d.their_op == d.op ? MissingAre::at_same_op : MissingAre::at_other_op;
      } else {
        d.missing_are = MissingAre::never_arriving;
      }
      diagnose(facts::MissingLane{d.op, d.missing, d.where,
                                  has_lane(w.at_barrier | w.at_op, other), d.their_op,
                                  d.elsewhere},
               d.elsewhere, w, -1);
    }
    const std::string text = diagnostic_message(d, trace_.files);
    diagnose(d, d.where, w, -1);
    abort_launch(LaunchStatus::deadlock, deadlock_stop_message(block_linear_, text));
    return;
  }
  // Only barriers wait. A named barrier that too few warps reach (too small a block, threads that
  // exited or wait at another barrier, or more warps than its count, the last of them left over).
  for (const Warp& w : warps_) {
    if (w.at_barrier == 0) continue;
    const int lane = lowest_lane(w.at_barrier);
    if (w.op[lane] != Op::barrier_sync) continue;
    facts::BarrierDeadlock d;
    d.op = Op::barrier_sync;
    d.warp = w.index;
    d.lanes = w.at_barrier;
    d.id = w.pending.arg[lane];
    d.count = w.pending.width[lane];
    d.where = w.where[lane];
    for (const Warp& x : warps_) {
      if (x.at_barrier == 0 || x.barrier_arrival == 0) continue;
      const int xl = lowest_lane(x.at_barrier);
      if (x.op[xl] == Op::barrier_sync && x.pending.arg[xl] == d.id) ++d.arrived;
    }
    if (d.count == 0) {
      d.needed = 0;
      for (const Warp& x : warps_) d.needed += (x.exited & x.threads) != x.threads ? 1 : 0;
    } else {
      d.needed = static_cast<std::uint32_t>(d.count) / kWarpSize;
    }
    d.completions = barrier_completions_[static_cast<std::size_t>(d.id)];
    diagnose(d, d.where, w, -1);
    abort_launch(LaunchStatus::deadlock,
                 deadlock_stop_message(block_linear_, diagnostic_message(d, trace_.files)));
    return;
  }
  // Only __syncthreads waits, and some live thread is in none: cannot happen, since every thread
  // is in a call, at a barrier or exited once all warps are quiescent. Kept so no state ends
  // silently.
  const facts::BarrierDeadlock d;
  diagnose(d, {}, warps_.front(), -1);
  abort_launch(LaunchStatus::deadlock,
               deadlock_stop_message(block_linear_, diagnostic_message(d, trace_.files)));
}

void BlockRunner::diagnose(const DiagnosticFacts& facts, SourceLine where, const Warp& w,
                           std::int64_t step) {
  if (found_ != nullptr) {  // a block of a launch spread over threads: replayed in block order
    found_->push_back({facts, where, block_linear_, w.index, step});
    return;
  }
  diagnostics_.record(facts, where, block_linear_, w.index, step);
}

}  // namespace warpsim::runtime
