#include "block_runner.hpp"

#include "warpsim/detail/lane_compare.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <exception>
#include <utility>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#endif

namespace warpsim::runtime {

namespace {

__thread BlockRunner* tl_runner __attribute__((tls_model("initial-exec"))) = nullptr;

// Async-signal-safe position for crash reports: plain stores, read by the signal handler (which
// runs on the simulating thread). One per thread: launches on other threads have their own.
struct Position {
  bool running = false;
  std::uint64_t block = 0;
  Dim3 block_idx{};
};
constinit thread_local Position g_position;

// Thrown into a suspended lane to unwind its stack when a launch is torn down.
struct LaneUnwind {};

std::string cuda_name(Op op) { return "__" + std::string(to_string(op)); }

int lowest_lane(LaneMask m) { return std::countr_zero(m); }


// AddressSanitizer must be told about every stack switch (no-ops in other builds).
#if defined(__SANITIZE_ADDRESS__)
constinit thread_local const void* g_main_stack_bottom = nullptr;
constinit thread_local std::size_t g_main_stack_size = 0;
constinit thread_local bool g_switching_from_main = false;
void before_switch(void** fake_stack, const Lane* from, const Lane* target) {
  g_switching_from_main = from == nullptr;
  if (target != nullptr) {
    __sanitizer_start_switch_fiber(fake_stack, static_cast<char*>(target->stack.top) - target->stack.size,
                                   target->stack.size);
  } else {
    __sanitizer_start_switch_fiber(fake_stack, g_main_stack_bottom, g_main_stack_size);
  }
}
void after_switch(void* fake_stack) {
  const void* bottom = nullptr;
  std::size_t size = 0;
  __sanitizer_finish_switch_fiber(fake_stack, &bottom, &size);
  if (g_switching_from_main) {
    g_main_stack_bottom = bottom;
    g_main_stack_size = size;
  }
}
#else
void before_switch(void**, const Lane*, const Lane*) {}
void after_switch(void*) {}
#endif

}  // namespace

LanePosition position_snapshot() noexcept {
  LanePosition p;
  p.running = g_position.running;
  p.block = g_position.block;
  p.block_idx = g_position.block_idx;
  // The signal handler that asks runs on the simulating thread, so its runner is this thread's.
  if (const Lane* lane = tl_runner != nullptr ? tl_runner->running_lane() : nullptr; lane != nullptr) {
    p.thread = lane->thread;
    p.warp = lane->warp;
    p.lane = lane->lane;
    p.last_file = lane->where_file;
    p.last_line = lane->where.line;
  }
  return p;
}

BlockRunner* BlockRunner::current() { return tl_runner; }

BlockRunner::BlockRunner(const LaunchOptions& options, const std::function<void()>& thread_body,
                         Trace& trace, std::uint64_t& steps)
    : options_(options),
      thread_body_(thread_body),
      trace_(trace),
      steps_(steps),
      stacks_(StackPool::for_this_thread()),
      maximal_(options.policy == ConvergencePolicy::maximal),
      rng_(options.seed) {
  threads_ = static_cast<std::uint32_t>(options.block.count());
  const std::uint32_t warps = (threads_ + kWarpSize - 1) / kWarpSize;
  lanes_.resize(std::size_t{warps} * kWarpSize);
  warps_.resize(warps);
  const std::uint32_t bx = options.block.x, by = options.block.y;
  for (std::uint32_t t = 0; t < lanes_.size(); ++t) {
    Lane& l = lanes_[t];
    l.thread = t;
    l.warp = t / kWarpSize;
    l.lane = t % kWarpSize;
    l.env.thread_idx = {t % bx, (t / bx) % by, t / (bx * by)};
    l.env.block_dim = {options.block.x, options.block.y, options.block.z};
    l.env.grid_dim = {options.grid.x, options.grid.y, options.grid.z};
    if (t < threads_) l.stack = stacks_.take(options.stack_bytes);
  }
  for (std::uint32_t w = 0; w < warps; ++w) {
    warps_[w].index = w;
    warps_[w].lanes = &lanes_[std::size_t{w} * kWarpSize];
  }
  for (Lane& l : lanes_) l.warp_state = &warps_[l.warp];
  g_position = {};
  g_position.running = true;
}

BlockRunner::~BlockRunner() {
  for (Lane& l : lanes_) {
    if (l.stack.top != nullptr) stacks_.give_back(l.stack);
  }
  g_position = {};
  if (tl_runner == this) tl_runner = nullptr;
}

BlockOutcome BlockRunner::run(std::uint64_t block_linear, Dim3 block_idx) {
  block_linear_ = block_linear;
  outcome_ = {};
  aborted_ = unwinding_ = false;
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
    l.started = false;
    if (l.thread < threads_) {
      // Stagger stack tops: every stack starts at the same page offset, so without this the
      // lanes' hot frames all compete for the same few cache sets (measured: 10x slower steps).
      const std::size_t colour = (l.thread * 9 % 64) * 64;
      l.context = fiber::prepare({static_cast<char*>(l.stack.top) - colour, l.stack.size - colour},
                                 &lane_entry, &l);
    }
  }

  BlockRunner* const outer = tl_runner;
  tl_runner = this;
  switch_to(pick_next());
  // Back in the launching context: the block finished, or the launch was stopped.
  if (aborted_) unwind_suspended_lanes();
  tl_runner = outer;
  set_running(nullptr);
  return outcome_;
}

void BlockRunner::lane_entry(void* lane) {
  after_switch(nullptr);
  BlockRunner& r = *tl_runner;
  Lane& self = *static_cast<Lane*>(lane);
  self.started = true;
  r.lane_main(self);
  if (r.unwinding_) r.leave_for_good(self, nullptr);
  Warp& w = r.warps_[self.warp];
  w.exited |= lane_bit(static_cast<int>(self.lane));
  r.leave_for_good(self, r.pick_next());
}

void BlockRunner::lane_main(Lane& lane) {
  (void)lane;
  try {
    thread_body_();
  } catch (const LaneUnwind&) {
    // The launch is being torn down; this lane's stack is now unwound.
  } catch (const std::exception& e) {
    abort_launch(LaunchStatus::kernel_exception, "kernel code threw: " + std::string(e.what()));
  } catch (...) {
    abort_launch(LaunchStatus::kernel_exception, "kernel code threw a non-standard exception");
  }
}

void BlockRunner::leave_for_good(Lane& self, Lane* next) {
  set_running(next);
  before_switch(nullptr, &self, next);  // this stack is finished: no fake stack to keep
  warpsim_fiber_switch(&self.context, next != nullptr ? next->context : main_context_);
  __builtin_unreachable();
}

void BlockRunner::set_running(Lane* lane) {
  running_ = lane;
  device::current_env = lane != nullptr ? &lane->env : nullptr;
}

void BlockRunner::switch_to(Lane* next) {
  Lane* const self = running_;
  if (next == self) return;
  set_running(next);
  void* fake_stack = nullptr;
  before_switch(&fake_stack, self, next);
  warpsim_fiber_switch(self != nullptr ? &self->context : &main_context_,
                       next != nullptr ? next->context : main_context_);
  after_switch(fake_stack);
  if (unwinding_ && self != nullptr) throw LaneUnwind{};
}

void BlockRunner::hand_over(Lane& self, Lane& next) {
  running_ = &next;
  device::current_env = &next.env;
  void* fake_stack = nullptr;
  before_switch(&fake_stack, &self, &next);
  warpsim_fiber_switch(&self.context, next.context);
  after_switch(fake_stack);
}

void BlockRunner::unwind_suspended_lanes() {
  // Every started lane that has not exited sits inside switch_to: resume it once so that it
  // throws LaneUnwind, runs the kernel's destructors, and comes straight back here.
  unwinding_ = true;
  for (Lane& l : lanes_) {
    if (!l.started || has_lane(warps_[l.warp].exited, static_cast<int>(l.lane))) continue;
    switch_to(&l);
  }
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
      return &lane_of(w, lane);
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

void BlockRunner::note_site(Lane& l, device::CallSite site) {
  l.where.file = intern_file(site.file);
  l.where_file = site.file;
  l.where.line = site.line;
}

bool BlockRunner::recall_file(Lane& l, const char* file) {
  for (const RecentFile& recent : recent_files_) {
    if (recent.name == file) {
      l.where.file = recent.id;
      l.where_file = file;
      return true;
    }
  }
  return false;
}

LaneMask BlockRunner::same_call_lanes(const Warp& w, int a) const {
  LaneMask same = lanes::equal_to(w.op.data(), w.op[a]) & lanes::equal_to(w.type.data(), w.type[a]) &
                  lanes::equal_to(w.pending.mask.data(), w.pending.mask[a]);
  // __activemask is no rendezvous: under maximal convergence it names the lanes at the same site.
  if (w.op[a] == Op::activemask) same &= lanes::equal_to(w.where.data(), w.where[a]);
  return same;
}

// The per-lane path: every lane of every warp-level call runs through here, so it only files the
// lane's operands and hands the core to the warp's next ready lane. Whether the waiting lanes
// form one call, and any diagnosis, is worked out once per step in resolve_warp. Anything less
// usual (a new source file, the warp's last lane to arrive, interleaved scheduling) goes to
// warp_op_slow as a tail call, so that this path saves almost no registers.
std::uint64_t BlockRunner::warp_op(device::WarpCall call, std::uint64_t value,
                                   device::CallSite site, bool* pred) {
  BlockRunner* const r = tl_runner;
  if (r == nullptr || !r->maximal_) [[unlikely]] return warp_op_slow(call, value, site, pred);
  Lane& l = *r->running_;
  Warp& w = *l.warp_state;
  if (site.file != l.where_file && !r->recall_file(l, site.file)) [[unlikely]] {
    return warp_op_slow(call, value, site, pred);
  }
  if (w.ready == 0) [[unlikely]] return warp_op_slow(call, value, site, pred);
  file_operands(l, w, call, value, site.line);
  const int next = lowest_lane(w.ready);
  w.ready &= w.ready - 1;
  r->hand_over(l, w.lanes[next]);
  return call_result(pred);
}

std::uint64_t BlockRunner::warp_op_slow(device::WarpCall call, std::uint64_t value,
                                        device::CallSite site, bool* pred) {
  BlockRunner* runner = tl_runner;
  if (runner == nullptr) runner = &runner_or_abort("a warp intrinsic");
  return runner->warp_op_general(call, value, site, pred);
}

std::uint64_t BlockRunner::warp_op_general(device::WarpCall call, std::uint64_t value,
                                           device::CallSite site, bool* pred) {
  Lane& l = *running_;
  if (site.file != l.where_file) note_site(l, site);
  Warp& w = *l.warp_state;
  file_operands(l, w, call, value, site.line);
  // Under maximal convergence the warp's next ready lane runs; when this was the last lane to
  // arrive, it completes the call first and the warp's lanes run on at once, lowest first, as
  // pick_next would choose (this warp stays the current one).
  if (maximal_ && (w.ready != 0 || (resolve_warp(w) && !aborted_))) {
    const int next = lowest_lane(w.ready);
    w.ready &= w.ready - 1;
    if (&w.lanes[next] != &l) hand_over(l, w.lanes[next]);
  } else {
    wait_in_call(w, call.op, lane_bit(static_cast<int>(l.lane)));
  }
  return call_result(pred);
}

void BlockRunner::file_operands(Lane& l, Warp& w, device::WarpCall call, std::uint64_t value,
                                std::uint32_t line) {
  l.where.line = line;
  const int i = static_cast<int>(l.lane);
  w.op[i] = call.op;
  w.type[i] = call.type;
  w.where[i] = l.where;
  w.pending.mask[i] = call.mask;  // 0 for __activemask, which takes none (device_abi.hpp)
  w.pending.value[i] = value;
  w.pending.arg[i] = call.arg;
  w.pending.width[i] = call.width;
  w.at_op |= lane_bit(i);
}

std::uint64_t BlockRunner::call_result(bool* pred) {
  // Read back through the thread's runner rather than `this`, so that the per-lane path keeps
  // almost nothing live across the switch (fewer registers to save and restore per lane).
  const BlockRunner& r = *tl_runner;
  if (r.unwinding_) [[unlikely]] throw LaneUnwind{};
  const Lane& l = *r.running_;
  const Warp& w = *l.warp_state;
  if (pred != nullptr) *pred = has_lane(w.pred, static_cast<int>(l.lane));
  return w.result[l.lane];
}

void BlockRunner::wait_in_call(Warp& w, Op op, LaneMask me) {
  if (op == Op::activemask && options_.policy == ConvergencePolicy::interleaved) {
    // Independent scheduling may run this lane alone: the smallest answer hardware may give.
    complete_group(w, me, false);
    w.ready &= ~me;
    return;
  }
  switch_to(pick_next());
}

int BlockRunner::block_barrier(Op op, int predicate, device::CallSite site) {
  Lane& l = *running_;
  if (site.file != l.where_file) note_site(l, site);
  l.where.line = site.line;
  Warp& w = warps_[l.warp];
  const int i = static_cast<int>(l.lane);
  w.op[i] = op;
  w.where[i] = l.where;
  w.pending.value[i] = predicate != 0 ? 1 : 0;
  w.at_barrier |= lane_bit(i);
  switch_to(pick_next());
  return static_cast<int>(w.result[i]);
}

void BlockRunner::lane_printf(std::string text) {
  trace_.printf_records.push_back({block_linear_, running_->thread, std::move(text)});
}

bool BlockRunner::resolve_warp(Warp& w) {
  assert(w.ready == 0);
  LaneMask remaining = w.at_op;
  bool progress = false;
  while (remaining != 0 && !aborted_) {
    const int first = lowest_lane(remaining);
    const LaneMask group = same_call_lanes(w, first) & remaining;  // usually every waiting lane
    remaining &= ~group;
    const LaneMask required = w.pending.mask[first] & ~w.exited;
    if (w.op[first] == Op::activemask || (required & ~group) == 0) {
      complete_group(w, group, false);
      progress = true;
    }
  }
  return progress;
}

void BlockRunner::complete_group(Warp& w, LaneMask group, bool masks_disagree) {
  const int first = lowest_lane(group);
  const Op op = w.op[first];
  const ValueType type = w.type[first];
  w.pending.callers = group;
  w.pending.exited = w.exited;
  evaluate(op, type, w.pending, out_, options_.semantics);

  if (group == kFullMask) {
    w.result = out_.value;
  } else {
    for (LaneMask m = group; m != 0; m &= m - 1) {
      const int i = lowest_lane(m);
      w.result[i] = out_.value[i];
    }
  }
  w.pred = (w.pred & ~group) | (out_.pred & group);
  w.at_op &= ~group;
  w.ready |= group;

  StepLog::Source step;
  step.op = op;
  step.type = type;
  step.block = block_linear_;
  step.warp = w.index;
  step.sequence = w.sequence++;
  step.mask = w.pending.mask[first];
  step.participants = group;
  step.exited = w.exited;
  step.undefined = out_.undefined;
  step.pred = out_.pred;
  step.input = w.pending.value.data();
  step.arg = w.pending.arg.data();
  step.width = w.pending.width.data();
  step.src_lane = out_.src_lane.data();
  step.output = out_.value.data();
  step.lane_mask = w.pending.mask.data();
  step.where = w.where.data();
  // A shuffle with no undefined result read every value from a lane that supplied it.
  step.output_is_source_input = is_shuffle(op) && out_.undefined == 0;
  std::int64_t index = -1;
  if (options_.record_steps) {
    index = static_cast<std::int64_t>(trace_.steps.size());
    trace_.steps.append(step);
  }
  if (masks_disagree) {
    diagnose(DiagnosticKind::mask_mismatch,
             cuda_name(op) + ": lanes met with different masks; simulated as one call over "
                             "the lanes that arrived",
             w, group, w.where[first], index);
  }
  record_step_diagnostics(w, step, index, masks_disagree);
  count_step(w, w.where[first]);
}

void BlockRunner::count_step(const Warp& w, SourceLine where) {
  if (++steps_ <= options_.max_steps) return;
  abort_launch(LaunchStatus::step_budget_exceeded,
               "step budget of " + std::to_string(options_.max_steps) +
                   " warp-level operations exceeded (a runaway loop?) in block " +
                   std::to_string(block_linear_) + " warp " + std::to_string(w.index) + " at " +
                   site_text(where));
}

bool BlockRunner::resolve_barrier() {
  // Every warp is quiescent here. The barrier completes once every live thread waits in it.
  bool any_waiting = false;
  for (const Warp& w : warps_) {
    if ((w.at_barrier | w.exited) != kFullMask) return false;
    any_waiting = any_waiting || w.at_barrier != 0;
  }
  if (!any_waiting) return false;

  int count = 0;
  bool all = true, any = false, split_sites = false, mixed_ops = false;
  const Warp* first_warp = nullptr;
  int first_lane = 0;
  for (const Warp& w : warps_) {
    for (LaneMask m = w.at_barrier; m != 0; m &= m - 1) {
      const int i = lowest_lane(m);
      const bool p = w.pending.value[i] != 0;
      count += p ? 1 : 0;
      all = all && p;
      any = any || p;
      if (first_warp == nullptr) {
        first_warp = &w;
        first_lane = i;
      }
      split_sites = split_sites || !(w.where[i] == first_warp->where[first_lane]);
      mixed_ops = mixed_ops || w.op[i] != first_warp->op[first_lane];
    }
  }
  const Op first_op = first_warp->op[first_lane];
  const SourceLine first_where = first_warp->where[first_lane];
  std::uint64_t missing_threads = 0;
  for (const Warp& w : warps_) {
    const std::uint32_t base = w.index * kWarpSize;
    for (LaneMask m = w.exited; m != 0; m &= m - 1) {
      if (base + static_cast<std::uint32_t>(lowest_lane(m)) < threads_) ++missing_threads;
    }
  }

  for (Warp& w : warps_) {
    if (w.at_barrier == 0) continue;
    TraceStep step;
    const std::int64_t index =
        options_.record_steps ? static_cast<std::int64_t>(trace_.steps.size()) : -1;
    step.op = first_op;
    step.block = block_linear_;
    step.warp = w.index;
    step.participants = w.at_barrier;
    step.exited = w.exited;
    step.sequence = w.sequence++;
    for (LaneMask m = w.at_barrier; m != 0; m &= m - 1) {
      const int i = lowest_lane(m);
      switch (w.op[i]) {
        case Op::syncthreads_count: w.result[i] = static_cast<std::uint64_t>(count); break;
        case Op::syncthreads_and: w.result[i] = all ? 1 : 0; break;
        case Op::syncthreads_or: w.result[i] = any ? 1 : 0; break;
        default: w.result[i] = 0; break;
      }
      step.input[i] = w.pending.value[i];
      step.output[i] = w.result[i];
      step.where[i] = w.where[i];
      step.src_lane[i] = -1;
    }
    if (&w == first_warp) {
      if (split_sites || mixed_ops) {
        diagnose(DiagnosticKind::divergent_syncthreads,
                 "threads of the block reached this barrier from different lines or forms of "
                 "__syncthreads (divergent code): CUDA requires every thread to reach the same one",
                 w, w.at_barrier, first_where, index);
      }
      if (missing_threads > 0) {
        diagnose(DiagnosticKind::divergent_syncthreads,
                 std::to_string(missing_threads) +
                     " thread(s) of the block exited before this __syncthreads; hardware "
                     "releases the barrier without them, but CUDA leaves this undefined",
                 w, w.at_barrier, first_where, index);
      }
    }
    w.ready = w.at_barrier;
    w.at_barrier = 0;
    if (options_.record_steps) trace_.steps.push_back(step);
    count_step(w, first_where);
  }
  return true;
}

bool BlockRunner::resolve_stuck() {
  // Nothing can complete by the rules. Hardware still runs lanes that meet at the same operation
  // with different masks as one instruction; anything else is a hang.
  for (Warp& w : warps_) {
    LaneMask remaining = w.at_op;
    while (remaining != 0) {
      const int first = lowest_lane(remaining);
      LaneMask same_op = 0;
      LaneMask named = 0;
      for (LaneMask m = remaining; m != 0; m &= m - 1) {
        const int i = lowest_lane(m);
        if (w.op[i] == w.op[first] && w.type[i] == w.type[first]) {
          same_op |= lane_bit(i);
          named |= w.pending.mask[i];
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
  for (const Warp& w : warps_) {
    if (w.at_op == 0) continue;
    const int first = lowest_lane(w.at_op);
    const LaneMask waiting = same_call_lanes(w, first) & w.at_op;
    const LaneMask missing = w.pending.mask[first] & ~w.exited & ~waiting;
    std::string text = "warp " + std::to_string(w.index) + " lanes " + format_lanes(waiting) +
                       " wait in " + cuda_name(w.op[first]) + " at " + site_text(w.where[first]) +
                       " with mask " + format_mask(w.pending.mask[first]) + ", but lane(s) " +
                       format_lanes(missing) + " named in it ";
    if (missing != 0) {
      const int other = lowest_lane(missing);
      if (has_lane(w.at_barrier, other)) {
        text += "wait in " + cuda_name(w.op[other]) + " at " + site_text(w.where[other]);
      } else if (has_lane(w.at_op, other)) {
        text += "wait in " + cuda_name(w.op[other]) + " at " + site_text(w.where[other]) +
                (w.op[other] == w.op[first]
                     ? " with mask " + format_mask(w.pending.mask[other])
                     : " (different operations never meet: hardware hangs)");
      } else {
        text += "never arrive";
      }
    }
    if (missing != 0) {
      const int other = lowest_lane(missing);
      diagnose(DiagnosticKind::missing_lane,
               "lane(s) " + format_lanes(missing) + " named in the mask of " +
                   cuda_name(w.op[first]) + " never arrive; they are at " + site_text(w.where[other]),
               w, missing, w.where[other], -1);
    }
    diagnose(DiagnosticKind::deadlock, text, w, missing != 0 ? missing : waiting, w.where[first], -1);
    abort_launch(LaunchStatus::deadlock, message + text);
    return;
  }
  // Only barriers wait, and some live thread is in none: cannot happen, since every thread is
  // in a call, at a barrier or exited once all warps are quiescent. Kept so no state ends silently.
  message += "threads wait in __syncthreads that other threads never reach";
  diagnose(DiagnosticKind::deadlock, message, warps_.front(), 0, {}, -1);
  abort_launch(LaunchStatus::deadlock, message);
}

void BlockRunner::abort_launch(LaunchStatus status, std::string message) {
  if (aborted_) return;
  aborted_ = true;
  outcome_.status = status;
  outcome_.message = std::move(message);
}

void BlockRunner::record_step_diagnostics(const Warp& w, const StepLog::Source& step,
                                          std::int64_t step_index, bool masks_disagree) {
  if (step.op == Op::activemask) return;
  const int first = lowest_lane(step.participants);
  // Lanes that met with one mask (the rule, unless resolve_stuck grouped them) share step.mask.
  const LaneMask outside =
      step.participants &
      ~(masks_disagree ? lanes::naming_themselves(step.lane_mask) : step.mask);
  const bool split = !lanes::same_in(step.where, step.participants);
  if (outside != 0) {
    diagnose(DiagnosticKind::caller_not_in_mask,
             cuda_name(step.op) + " called by lane(s) " + format_lanes(outside) + " whose mask " +
                 format_mask(step.lane_mask[lowest_lane(outside)]) +
                 " does not name them (undefined in CUDA; hardware lets converged lanes take part)",
             w, outside, step.where[lowest_lane(outside)], step_index);
  }
  if (split) {
    diagnose(DiagnosticKind::split_call_sites,
             cuda_name(step.op) + " completed with lanes at different source lines (legal on "
                                  "Volta and later, where the calls combine; fragile code)",
             w, step.participants, step.where[first], step_index);
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
             w, step.undefined, step.where[reader], step_index);
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
  // Kernel code passes the same few string literals again and again (a helper in a header and
  // the kernel's own calls alternate): remember them by address.
  std::uint32_t id = 0;
  if (const auto it = file_ids_.find(file); it != file_ids_.end()) {
    id = it->second;
  } else {
    id = trace_.file_index(file);
    file_ids_.emplace(file, id);
  }
  // The per-lane path looks in the few most recent names before taking the slow path.
  std::move_backward(recent_files_.begin(), recent_files_.end() - 1, recent_files_.end());
  recent_files_.front() = {file, id};
  return id;
}

std::string BlockRunner::site_text(SourceLine where) const {
  const std::string file = where.file < trace_.files.size() ? trace_.files[where.file] : "?";
  return file + ":" + std::to_string(where.line);
}

}  // namespace warpsim::runtime

// What warpsim_warp_op (sim/runtime/warp_call_return.cpp) calls. Defined here, beside BlockRunner::warp_op,
// so that the whole per-lane path inlines into it.
extern "C" __attribute__((visibility("hidden"))) std::uint64_t warpsim_warp_op_body(
    warpsim::device::WarpCall call, std::uint64_t value, warpsim::device::CallSite site,
    bool* pred) {
  return warpsim::runtime::BlockRunner::warp_op(call, value, site, pred);
}
