#include "block_runner.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <exception>
#include <utility>

namespace warpsim::runtime {
namespace {

thread_local BlockRunner* tl_runner = nullptr;

// Async-signal-safe position for crash reports: plain stores, read by the signal handler.
LanePosition g_position;

std::string cuda_name(Op op) { return "__" + std::string(to_string(op)); }

int lowest_lane(LaneMask m) { return std::countr_zero(m); }

}  // namespace

LanePosition position_snapshot() noexcept { return g_position; }

BlockRunner* BlockRunner::current() { return tl_runner; }

BlockRunner::BlockRunner(const LaunchOptions& options, const std::function<void()>& thread_body,
                         Trace& trace, std::uint64_t& steps)
    : options_(options),
      thread_body_(thread_body),
      trace_(trace),
      steps_(steps),
      stacks_(StackPool::for_this_thread()),
      rng_(options.seed) {
  threads_ = static_cast<std::uint32_t>(options.block.count());
  const std::uint32_t warps = (threads_ + kWarpSize - 1) / kWarpSize;
  lanes_.resize(std::size_t{warps} * kWarpSize);
  warps_.resize(warps);
  for (std::uint32_t t = 0; t < lanes_.size(); ++t) {
    Lane& l = lanes_[t];
    l.thread = t;
    l.warp = t / kWarpSize;
    l.lane = t % kWarpSize;
    const std::uint32_t bx = options.block.x, by = options.block.y;
    l.env.thread_idx = {t % bx, (t / bx) % by, t / (bx * by)};
    l.env.block_dim = {options.block.x, options.block.y, options.block.z};
    l.env.grid_dim = {options.grid.x, options.grid.y, options.grid.z};
  }
  for (std::uint32_t w = 0; w < warps; ++w) warps_[w].index = w;
  g_position = {};
  g_position.running = true;
}

BlockRunner::~BlockRunner() {
  g_position.running = false;
  if (tl_runner == this) tl_runner = nullptr;
}

BlockOutcome BlockRunner::run(std::uint64_t block_linear, Dim3 block_idx) {
  block_linear_ = block_linear;
  outcome_ = {};
  aborted_ = false;
  current_warp_ = 0;
  g_position.block = block_linear;
  g_position.block_idx = block_idx;

  for (Warp& w : warps_) {
    const std::uint32_t first = w.index * kWarpSize;
    const std::uint32_t existing = std::min<std::uint32_t>(kWarpSize, threads_ - first);
    const LaneMask present = existing == kWarpSize ? kFullMask : (LaneMask{1} << existing) - 1;
    w.exited = ~present;
    w.ready = present;
    w.at_op = w.at_barrier = 0;
    w.sequence = 0;
  }
  for (Lane& l : lanes_) {
    l.env.block_idx = {block_idx.x, block_idx.y, block_idx.z};
    if (l.thread >= threads_) {
      l.state = LaneState::exited;
      continue;
    }
    l.state = LaneState::ready;
    l.context = boost::context::fiber(
        std::allocator_arg, PooledStack(stacks_, options_.stack_bytes),
        [this, &l](boost::context::fiber&& from) {
          adopt(switched_from_, std::move(from));
          set_running(&l);
          lane_main(l);
          Lane* next = pick_next();
          switched_from_ = &l;
          set_running(next);
          return std::move(next != nullptr ? next->context : main_context_);
        });
  }

  BlockRunner* const outer = tl_runner;
  tl_runner = this;
  switch_to(pick_next());
  // Back in the launching context: the block finished, or the launch was stopped. Fibers still
  // suspended (deadlock, budget) are unwound by destroying them.
  for (Lane& l : lanes_) l.context = {};
  tl_runner = outer;
  running_ = nullptr;
  device::current_env = nullptr;
  return outcome_;
}

void BlockRunner::lane_main(Lane& lane) {
  try {
    thread_body_();
  } catch (const boost::context::detail::forced_unwind&) {
    throw;  // the launch is being torn down; let Boost.Context unwind this fiber
  } catch (const std::exception& e) {
    abort_launch(LaunchStatus::kernel_exception,
                 "kernel code threw: " + std::string(e.what()));
  } catch (...) {
    abort_launch(LaunchStatus::kernel_exception, "kernel code threw a non-standard exception");
  }
  Warp& w = warps_[lane.warp];
  lane.state = LaneState::exited;
  w.exited |= lane_bit(static_cast<int>(lane.lane));
}

void BlockRunner::adopt(Lane* from, boost::context::fiber&& context) {
  if (from == nullptr) {
    main_context_ = std::move(context);
  } else {
    from->context = std::move(context);
  }
}

void BlockRunner::set_running(Lane* lane) {
  running_ = lane;
  if (lane == nullptr) {
    device::current_env = nullptr;
    return;
  }
  lane->state = LaneState::running;
  device::current_env = &lane->env;
  g_position.thread = lane->thread;
  g_position.warp = lane->warp;
  g_position.lane = lane->lane;
  g_position.last_file = lane->where_file;
  g_position.last_line = lane->where.line;
}

void BlockRunner::switch_to(Lane* next) {
  Lane* const self = running_;
  if (next == self) {
    if (self != nullptr) self->state = LaneState::running;
    return;
  }
  boost::context::fiber& target = next != nullptr ? next->context : main_context_;
  switched_from_ = self;
  set_running(next);
  boost::context::fiber from = std::move(target).resume();
  adopt(switched_from_, std::move(from));
  set_running(self);
}

int BlockRunner::choose_lane(LaneMask ready) {
  if (options_.policy == ConvergencePolicy::maximal) return lowest_lane(ready);
  const int count = std::popcount(ready);
  int k = static_cast<int>(rng_() % static_cast<std::uint64_t>(count));
  while (k-- > 0) ready &= ready - 1;
  return lowest_lane(ready);
}

Lane* BlockRunner::pick_next() {
  const std::uint32_t warp_count = static_cast<std::uint32_t>(warps_.size());
  while (!aborted_) {
    Warp& w = warps_[current_warp_];
    if (w.ready != 0) {
      const int lane = choose_lane(w.ready);
      w.ready &= ~lane_bit(lane);
      return &lanes_[std::size_t{w.index} * kWarpSize + static_cast<std::size_t>(lane)];
    }
    if (w.at_op != 0 && resolve_warp(w)) continue;

    bool moved = false;
    for (std::uint32_t k = 1; k < warp_count && !moved; ++k) {
      const std::uint32_t index = (current_warp_ + k) % warp_count;
      Warp& other = warps_[index];
      if (other.ready != 0 || (other.at_op != 0 && resolve_warp(other))) {
        current_warp_ = index;
        moved = true;
      }
    }
    if (moved) continue;
    if (aborted_) break;

    const bool all_exited = std::all_of(warps_.begin(), warps_.end(),
                                        [](const Warp& x) { return x.exited == kFullMask; });
    if (all_exited) return nullptr;
    if (resolve_barrier()) {
      current_warp_ = 0;
      continue;
    }
    if (resolve_stuck()) continue;
    describe_deadlock();
  }
  return nullptr;
}

void BlockRunner::wait_here(Lane& lane) {
  switch_to(pick_next());
  assert(running_ == &lane);
  (void)lane;
}

bool BlockRunner::same_call(const Lane& a, const Lane& b) const {
  if (a.op != b.op || a.type != b.type || a.mask != b.mask) return false;
  // __activemask is no rendezvous: under maximal convergence it names the lanes at the same site.
  return a.op != Op::activemask || a.where == b.where;
}

std::uint64_t BlockRunner::warp_op(Op op, ValueType type, LaneMask mask, std::uint64_t value,
                                   std::int32_t arg, std::int32_t width, device::CallSite site,
                                   bool* pred) {
  Lane& l = *running_;
  l.op = op;
  l.type = type;
  l.mask = op == Op::activemask ? 0 : mask;
  l.value = value;
  l.arg = arg;
  l.width = width;
  l.where = {intern_file(site.file), site.line};
  l.where_file = site.file;
  g_position.last_file = site.file;
  g_position.last_line = site.line;
  Warp& w = warps_[l.warp];
  const LaneMask me = lane_bit(static_cast<int>(l.lane));
  l.state = LaneState::at_warp_op;
  w.at_op |= me;
  if (op == Op::activemask && options_.policy == ConvergencePolicy::interleaved) {
    // Independent scheduling may run this lane alone: the smallest answer hardware may give.
    complete_group(w, me, false);
    w.ready &= ~me;
    l.state = LaneState::running;
  } else {
    wait_here(l);
  }
  if (pred != nullptr) *pred = l.pred;
  return l.result;
}

int BlockRunner::block_barrier(Op op, int predicate, device::CallSite site) {
  Lane& l = *running_;
  l.op = op;
  l.type = ValueType::none;
  l.mask = 0;
  l.value = predicate != 0 ? 1 : 0;
  l.where = {intern_file(site.file), site.line};
  l.where_file = site.file;
  g_position.last_file = site.file;
  g_position.last_line = site.line;
  l.state = LaneState::at_barrier;
  warps_[l.warp].at_barrier |= lane_bit(static_cast<int>(l.lane));
  wait_here(l);
  return static_cast<int>(l.result);
}

void BlockRunner::lane_printf(std::string text) {
  const Lane& l = *running_;
  trace_.printf_records.push_back({block_linear_, l.thread, std::move(text)});
}

bool BlockRunner::resolve_warp(Warp& w) {
  assert(w.ready == 0);
  Lane* const base = &lanes_[std::size_t{w.index} * kWarpSize];
  LaneMask remaining = w.at_op;
  bool progress = false;
  while (remaining != 0 && !aborted_) {
    const Lane& first = base[lowest_lane(remaining)];
    LaneMask group = 0;
    for (LaneMask m = remaining; m != 0; m &= m - 1) {
      const int i = lowest_lane(m);
      if (same_call(first, base[i])) group |= lane_bit(i);
    }
    remaining &= ~group;
    const LaneMask required = first.mask & ~w.exited;
    if (first.op == Op::activemask || (required & ~group) == 0) {
      complete_group(w, group, false);
      progress = true;
    }
  }
  return progress;
}

void BlockRunner::complete_group(Warp& w, LaneMask group, bool masks_disagree) {
  Lane* const base = &lanes_[std::size_t{w.index} * kWarpSize];
  const Lane& first = base[lowest_lane(group)];
  StepInputs in;
  in.callers = group;
  in.exited = w.exited;
  for (LaneMask m = group; m != 0; m &= m - 1) {
    const int i = lowest_lane(m);
    const Lane& l = base[i];
    in.mask[i] = l.mask;
    in.value[i] = l.value;
    in.arg[i] = l.arg;
    in.width[i] = l.width;
  }
  StepOutputs out;
  evaluate(first.op, first.type, in, out, options_.semantics);

  for (LaneMask m = group; m != 0; m &= m - 1) {
    const int i = lowest_lane(m);
    Lane& l = base[i];
    l.result = out.value[i];
    l.pred = has_lane(out.pred, i);
    l.state = LaneState::ready;
  }
  w.at_op &= ~group;
  w.ready |= group;

  TraceStep step;
  step.op = first.op;
  step.type = first.type;
  step.block = block_linear_;
  step.warp = w.index;
  step.mask = first.mask;
  step.participants = group;
  step.exited = w.exited;
  step.undefined = out.undefined;
  step.pred = out.pred;
  step.sequence = w.sequence++;
  step.input = in.value;
  step.arg = in.arg;
  step.width = in.width;
  step.src_lane = out.src_lane;
  step.output = out.value;
  step.lane_mask = in.mask;
  for (LaneMask m = group; m != 0; m &= m - 1) {
    const int i = lowest_lane(m);
    step.where[i] = base[i].where;
  }
  const std::int64_t index =
      options_.record_steps ? static_cast<std::int64_t>(trace_.steps.size()) : -1;
  if (masks_disagree) {
    diagnose(DiagnosticKind::mask_mismatch,
             cuda_name(first.op) + ": lanes met with different masks; simulated as one call "
                                   "over the lanes that arrived",
             w, group, first.where, index);
  }
  record_step_diagnostics(w, step, index);
  if (options_.record_steps) trace_.steps.push_back(step);
  count_step(w, first);
}

void BlockRunner::count_step(const Warp& w, const Lane& lane) {
  if (++steps_ <= options_.max_steps) return;
  abort_launch(LaunchStatus::step_budget_exceeded,
               "step budget of " + std::to_string(options_.max_steps) +
                   " warp-level operations exceeded (a runaway loop?) in block " +
                   std::to_string(block_linear_) + " warp " + std::to_string(w.index) + " at " +
                   site_text(lane));
}

bool BlockRunner::resolve_barrier() {
  // Every warp is quiescent here. The barrier completes once every live thread waits in it.
  bool any_waiting = false;
  for (const Warp& w : warps_) {
    if (w.at_op != 0) return false;
    if ((w.at_barrier | w.exited) != kFullMask) return false;
    any_waiting = any_waiting || w.at_barrier != 0;
  }
  if (!any_waiting) return false;

  int count = 0;
  bool all = true, any = false;
  const Lane* first = nullptr;
  bool split_sites = false, mixed_ops = false;
  for (const Warp& w : warps_) {
    for (LaneMask m = w.at_barrier; m != 0; m &= m - 1) {
      const Lane& l = lanes_[std::size_t{w.index} * kWarpSize + static_cast<std::size_t>(lowest_lane(m))];
      count += l.value != 0 ? 1 : 0;
      all = all && l.value != 0;
      any = any || l.value != 0;
      if (first == nullptr) first = &l;
      split_sites = split_sites || !(l.where == first->where);
      mixed_ops = mixed_ops || l.op != first->op;
    }
  }
  std::uint64_t missing_threads = 0;
  for (const Warp& w : warps_) {
    const std::uint32_t base = w.index * kWarpSize;
    for (LaneMask m = w.exited; m != 0; m &= m - 1) {
      if (base + static_cast<std::uint32_t>(lowest_lane(m)) < threads_) ++missing_threads;
    }
  }

  for (Warp& w : warps_) {
    if (w.at_barrier == 0) continue;
    Lane* const base = &lanes_[std::size_t{w.index} * kWarpSize];
    TraceStep step;
    step.op = first->op;
    step.block = block_linear_;
    step.warp = w.index;
    step.participants = w.at_barrier;
    step.exited = w.exited;
    step.sequence = w.sequence++;
    for (LaneMask m = w.at_barrier; m != 0; m &= m - 1) {
      const int i = lowest_lane(m);
      Lane& l = base[i];
      switch (l.op) {
        case Op::syncthreads_count: l.result = static_cast<std::uint64_t>(count); break;
        case Op::syncthreads_and: l.result = all ? 1 : 0; break;
        case Op::syncthreads_or: l.result = any ? 1 : 0; break;
        default: l.result = 0; break;
      }
      l.state = LaneState::ready;
      step.input[i] = l.value;
      step.output[i] = l.result;
      step.where[i] = l.where;
      step.src_lane[i] = -1;
    }
    const std::int64_t index =
        options_.record_steps ? static_cast<std::int64_t>(trace_.steps.size()) : -1;
    if (w.index == first->warp) {
      if (split_sites || mixed_ops) {
        diagnose(DiagnosticKind::divergent_syncthreads,
                 "threads of the block reached this barrier from different lines or forms of "
                 "__syncthreads (divergent code): CUDA requires every thread to reach the same one",
                 w, w.at_barrier, first->where, index);
      }
      if (missing_threads > 0) {
        diagnose(DiagnosticKind::divergent_syncthreads,
                 std::to_string(missing_threads) +
                     " thread(s) of the block exited before this __syncthreads; hardware "
                     "releases the barrier without them, but CUDA leaves this undefined",
                 w, w.at_barrier, first->where, index);
      }
    }
    if (options_.record_steps) trace_.steps.push_back(step);
    w.ready = w.at_barrier;
    w.at_barrier = 0;
    count_step(w, *first);
  }
  return true;
}

bool BlockRunner::resolve_stuck() {
  // Nothing can complete by the rules. Hardware still runs lanes that meet at the same operation
  // with different masks as one instruction; anything else is a hang.
  for (Warp& w : warps_) {
    const Lane* const base = &lanes_[std::size_t{w.index} * kWarpSize];
    LaneMask remaining = w.at_op;
    while (remaining != 0) {
      const Lane& first = base[lowest_lane(remaining)];
      LaneMask same_op = 0;
      LaneMask named = 0;
      for (LaneMask m = remaining; m != 0; m &= m - 1) {
        const int i = lowest_lane(m);
        if (base[i].op == first.op && base[i].type == first.type) {
          same_op |= lane_bit(i);
          named |= base[i].mask;
        }
      }
      remaining &= ~same_op;
      if ((named & ~w.exited & ~same_op) == 0) {
        complete_group(w, same_op, true);
        return true;
      }
    }
  }
  return false;
}

void BlockRunner::describe_deadlock() {
  std::string message = "deadlock in block " + std::to_string(block_linear_) + ": ";
  bool described = false;
  for (const Warp& w : warps_) {
    const Lane* const base = &lanes_[std::size_t{w.index} * kWarpSize];
    if (w.at_op == 0) continue;
    const Lane& first = base[lowest_lane(w.at_op)];
    LaneMask waiting = 0;
    for (LaneMask m = w.at_op; m != 0; m &= m - 1) {
      if (same_call(first, base[lowest_lane(m)])) waiting |= lane_bit(lowest_lane(m));
    }
    const LaneMask missing = first.mask & ~w.exited & ~waiting;
    std::string text = "warp " + std::to_string(w.index) + " lanes " + format_lanes(waiting) +
                       " wait in " + cuda_name(first.op) + " at " + site_text(first) +
                       " with mask " + format_mask(first.mask) + ", but lane(s) " +
                       format_lanes(missing) + " named in it ";
    if (missing != 0) {
      const Lane& other = base[lowest_lane(missing)];
      if (other.state == LaneState::at_barrier) {
        text += "wait in " + cuda_name(other.op) + " at " + site_text(other);
      } else if (other.state == LaneState::at_warp_op) {
        text += "wait in " + cuda_name(other.op) + " at " + site_text(other) +
                (other.op == first.op ? " with mask " + format_mask(other.mask)
                                      : " (different operations never meet: hardware hangs)");
      } else {
        text += "never arrive";
      }
    }
    diagnose(DiagnosticKind::deadlock, text, w, missing != 0 ? missing : waiting, first.where, -1);
    message += text;
    described = true;
    break;
  }
  if (!described) {
    // Only barriers wait: some threads are elsewhere forever (cannot happen without warp ops,
    // kept as a safety net so that no state ends silently).
    message += "threads wait in __syncthreads that other threads never reach";
    diagnose(DiagnosticKind::deadlock, message, warps_.front(), 0, {}, -1);
  }
  abort_launch(LaunchStatus::deadlock, message);
}

void BlockRunner::abort_launch(LaunchStatus status, std::string message) {
  if (aborted_) return;
  aborted_ = true;
  outcome_.status = status;
  outcome_.message = std::move(message);
}

void BlockRunner::record_step_diagnostics(const Warp& w, const TraceStep& step,
                                          std::int64_t step_index) {
  const Lane* const base = &lanes_[std::size_t{w.index} * kWarpSize];
  const Lane& first = base[lowest_lane(step.participants)];
  if (step.op == Op::activemask) return;
  LaneMask outside = 0;
  bool split = false;
  for (LaneMask m = step.participants; m != 0; m &= m - 1) {
    const int i = lowest_lane(m);
    if (!has_lane(step.lane_mask[i], i)) outside |= lane_bit(i);
    split = split || !(step.where[i] == first.where);
  }
  if (outside != 0) {
    diagnose(DiagnosticKind::caller_not_in_mask,
             cuda_name(step.op) + " called by lane(s) " + format_lanes(outside) +
                 " whose mask " + format_mask(step.lane_mask[lowest_lane(outside)]) +
                 " does not name them (undefined in CUDA; hardware lets converged lanes take part)",
             w, outside, base[lowest_lane(outside)].where, step_index);
  }
  if (split) {
    diagnose(DiagnosticKind::split_call_sites,
             cuda_name(step.op) + " completed with lanes at different source lines (legal on "
                                  "Volta and later, where the calls combine; fragile code)",
             w, step.participants, first.where, step_index);
  }
  if (is_shuffle(step.op) && step.undefined != 0) {
    const int reader = lowest_lane(step.undefined);
    const int source = step.src_lane[reader];
    std::string why = "is outside its mask";
    if (source >= 0 && has_lane(step.exited, source)) {
      why = "has exited";
    } else if (source >= 0 && !has_lane(step.participants, source)) {
      why = "did not take part in this call";
    }
    diagnose(DiagnosticKind::undefined_source,
             cuda_name(step.op) + ": lane(s) " + format_lanes(step.undefined) +
                 " read a lane that " + why + " (e.g. lane " + std::to_string(reader) +
                 " read lane " + std::to_string(source) +
                 "); the result is undefined (an H100 returns 0 for an absent lane)",
             w, step.undefined, base[reader].where, step_index);
  }
}

void BlockRunner::diagnose(DiagnosticKind kind, std::string message, const Warp& w,
                           LaneMask lanes, SourceLine where, std::int64_t step) {
  const std::uint64_t key = (std::uint64_t{static_cast<std::uint8_t>(kind)} << 56) ^
                            (std::uint64_t{where.file} << 32) ^ where.line;
  auto [it, inserted] = diagnostic_index_.try_emplace(key, trace_.diagnostics.size());
  if (!inserted && kind != DiagnosticKind::deadlock) {
    ++trace_.diagnostics[it->second].occurrences;
    return;
  }
  Diagnostic d;
  d.kind = kind;
  d.message = std::move(message);
  d.lanes = lanes;
  d.block = block_linear_;
  d.warp = w.index;
  d.step = step;
  d.where = where;
  trace_.diagnostics.push_back(std::move(d));
}

std::uint32_t BlockRunner::intern_file(const char* file) {
  auto it = file_ids_.find(file);
  if (it != file_ids_.end()) return it->second;
  const std::uint32_t id = trace_.file_index(file);
  file_ids_.emplace(file, id);
  return id;
}

std::string BlockRunner::site_text(const Lane& lane) const {
  const std::string& file = lane.where.file < trace_.files.size() ? trace_.files[lane.where.file]
                                                                  : std::string("?");
  return file + ":" + std::to_string(lane.where.line);
}

}  // namespace warpsim::runtime
