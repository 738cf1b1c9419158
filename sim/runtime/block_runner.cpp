#include "block_runner.hpp"
#include "memory_checker.hpp"

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

__thread BlockRunner* tl_runner __attribute__((tls_model("initial-exec"))) = nullptr;

namespace {

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
  if (tl_runner != nullptr) tl_runner->spin_snapshot(p);
  return p;
}

BlockRunner::BlockRunner(const LaunchOptions& options, const std::function<void()>& thread_body,
                         Trace& trace, std::uint64_t& steps, StackPool* stacks)
    : options_(options),
      thread_body_(thread_body),
      trace_(trace),
      steps_(steps),
      stacks_(stacks != nullptr ? *stacks : StackPool::for_this_thread()),
      maximal_(options.policy == ConvergencePolicy::maximal),
      rng_(options.seed),
      order_seeded_(options.order_seed != 0),
      order_rng_(options.order_seed),
      diagnostics_(trace) {
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
    // A lane's stack is taken when it first needs a fiber of its own (prepare_lane): lanes that
    // never wait run in place on the stack of the lane before them (lane_entry), so a block
    // without warp-level calls uses one stack however many threads it has.
    // Stagger stack tops: every stack starts at the same page offset, so without this the
    // lanes' hot frames all compete for the same few cache sets (measured: 10x slower steps).
    if (t < threads_) l.stack_colour = (t * 9 % 64) * 64;
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
  spun_ticks_ = exits_ = 0;
  spun_since_steps_ = steps_;
  spun_since_exits_ = 0;
  step_check_at_ = std::min(options_.max_steps, steps_ + kStepsBetweenClockReads);
  barrier_arrivals_ = 0;
  barrier_completions_.fill(0);
  group_barriers_.clear();
  checked_arrivals_.clear();
  g_position.block = block_linear;
  g_position.block_idx = block_idx;

  // The per-lane records of calls and spins are cleared only where the last block made any: a
  // block of lanes that never wait costs no more than its lanes.
  const bool spun = spun_in_block_;
  spun_in_block_ = false;
  for (Warp& w : warps_) {
    // Every lane that files a call or waits at a barrier leaves its warp counting a step or
    // still waiting (a stopped launch).
    if (w.sequence != 0 || w.at_op != 0 || w.at_barrier != 0) w.where.fill({});  // line 0: no call yet
    if (spun) {
      w.spin_where.fill({});
      w.spin_file.fill(nullptr);
    }
    const std::uint32_t first = w.index * kWarpSize;
    const std::uint32_t existing = std::min<std::uint32_t>(kWarpSize, threads_ - first);
    const LaneMask present = existing == kWarpSize ? kFullMask : (LaneMask{1} << existing) - 1;
    w.exited = ~present;
    w.ready = present;
    w.threads = present;
    w.at_op = w.at_barrier = w.yielded = w.parked = 0;
    w.sequence = 0;
    w.barrier_arrival = 0;
    w.settled_when_spun = {0, 0, w.exited, 0};
    w.activemask_fresh = 0;
  }
  // A lane's fiber is prepared only when something switches to it before it has started
  // (switch_to, hand_over): a lane that runs in place after another one ended (lane_entry) never
  // needs one, and preparing every lane here touched a page of every lane's stack per block.
  for (Lane& l : lanes_) {
    l.env.block_idx = {block_idx.x, block_idx.y, block_idx.z};
    l.started = false;
    l.grid_syncs = 0;
  }
  grid_syncs_ = 0;
  grid_progress_seen_ = 0;

  if (order_seeded_) current_warp_ = static_cast<std::uint32_t>(order_rng_() % warps_.size());
  if (past_deadline()) {  // no block starts after the deadline
    stop_at_time_limit();
    return outcome_;
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
  Lane* self = static_cast<Lane*>(lane);
  while (true) {
    self->started = true;
    r.lane_main(*self);
    if (r.unwinding_) r.leave_for_good(*self, nullptr);
    Warp& w = r.warps_[self->warp];
    w.exited |= lane_bit(static_cast<int>(self->lane));
    ++r.exits_;
    Lane* const next = r.pick_next();
    if (next == nullptr || next->started) r.leave_for_good(*self, next);
    // The next lane has not run yet: it runs here, on the stack this one finished on, with no
    // switch (a lane that never waits costs about a call). The two swap stacks, so that each
    // lane's `stack` is still the one it runs on (the sanitizers are told of it at switches).
    std::swap(self->stack, next->stack);
    std::swap(self->stack_colour, next->stack_colour);
    r.set_running(next);
    self = next;
  }
}

void BlockRunner::lane_main(Lane& lane) {
  (void)lane;
  try {
    thread_body_();
  } catch (const LaneUnwind&) {
    // The launch is being torn down; this lane's stack is now unwound.
  } catch (const std::exception& e) {
    abort_launch(LaunchStatus::kernel_exception, kernel_exception_message(e.what()));
  } catch (...) {
    abort_launch(LaunchStatus::kernel_exception, kernel_exception_message(nullptr));
  }
}

void BlockRunner::prepare_lane(Lane& l) {
  if (l.stack.top == nullptr) l.stack = stacks_.take(options_.stack_bytes);
  const std::size_t colour = l.stack_colour;
  l.context = fiber::prepare({static_cast<char*>(l.stack.top) - colour, l.stack.size - colour},
                             &lane_entry, &l);
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
  device::spin_budget = device::kSpinSliceTicks;
}

void BlockRunner::switch_to(Lane* next) {
  Lane* const self = running_;
  if (next == self) return;
  if (next != nullptr && !next->started) prepare_lane(*next);
  set_running(next);
  void* fake_stack = nullptr;
  before_switch(&fake_stack, self, next);
  warpsim_fiber_switch(self != nullptr ? &self->context : &main_context_,
                       next != nullptr ? next->context : main_context_);
  after_switch(fake_stack);
  if (unwinding_ && self != nullptr) throw LaneUnwind{};
}

void BlockRunner::hand_over(Lane& self, Lane& next) {
  if (!next.started) [[unlikely]] prepare_lane(next);  // its first run: once per lane and block
  running_ = &next;
  device::current_env = &next.env;
  device::spin_budget = device::kSpinSliceTicks;  // each lane runs a whole slice before it yields
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

int BlockRunner::choose_lane_at_random(LaneMask ready) {
  const int count = std::popcount(ready);
  int k = static_cast<int>(rng_() % static_cast<std::uint64_t>(count));
  while (k-- > 0) ready &= ready - 1;
  return lowest_lane(ready);
}

Lane* BlockRunner::pick_next_slow() {
  const std::uint32_t warp_count = static_cast<std::uint32_t>(warps_.size());
  while (!aborted_) {
    Warp& w = warps_[current_warp_];
    if (w.ready != 0) {
      const int lane = choose_lane(w.ready);
      w.ready &= ~lane_bit(lane);
      return &lane_of(w, lane);
    }
    if (w.yielded != 0 && rejoin_spinners(w)) continue;
    if (order_seeded_) {
      if (choose_warp()) continue;
    } else {
      if (w.at_op != 0 && resolve_warp(w)) continue;
      bool moved = false;
      for (std::uint32_t k = 1; k < warp_count && !moved; ++k) {
        const std::uint32_t index = (current_warp_ + k) % warp_count;
        Warp& other = warps_[index];
        if (other.ready != 0 || (other.yielded != 0 && rejoin_spinners(other)) ||
            (other.at_op != 0 && resolve_warp(other))) {
          current_warp_ = index;
          moved = true;
        }
      }
      if (moved) continue;
    }
    if (aborted_) break;
    if (wake_parked()) {
      if (order_seeded_) choose_warp();
      continue;
    }

    const bool all_exited = std::all_of(warps_.begin(), warps_.end(),
                                        [](const Warp& x) { return x.exited == kFullMask; });
    if (all_exited) return nullptr;
    if (resolve_barrier()) {
      current_warp_ = 0;
      if (order_seeded_) choose_warp();
      continue;
    }
    if (aborted_) break;  // barriers that can never agree stop the launch
    if (rejoin_all_spinners()) continue;
    if (resolve_stuck()) continue;
    describe_deadlock();
  }
  return nullptr;
}

bool BlockRunner::choose_warp() {
  runnable_.clear();
  for (Warp& x : warps_) {
    if (x.ready == 0 && x.yielded != 0) rejoin_spinners(x);
    if (x.ready == 0 && x.at_op != 0) resolve_warp(x);
    if (aborted_) return false;
    if (x.ready != 0) runnable_.push_back(x.index);
  }
  if (runnable_.empty()) return false;
  current_warp_ = runnable_[order_rng_() % runnable_.size()];
  return true;
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
  // Lanes that spun while the others ran on to this call try again before it completes.
  if (w.ready == 0 && w.yielded != 0) rejoin_spinners(w);
  // Under maximal convergence the warp's next ready lane runs; when this was the last lane to
  // arrive, it completes the call first and the warp's lanes run on at once, lowest first, as
  // pick_next would choose (this warp stays the current one).
  // With an order seed, a completed call goes back to pick_next: another warp may run first.
  if (maximal_ && (w.ready != 0 || (!order_seeded_ && resolve_warp(w) && !aborted_))) {
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
  w.pending.arg[i] = 0;    // barrier 0
  w.pending.width[i] = 0;  // the whole block
  w.at_barrier |= lane_bit(i);
  switch_to(pick_next());
  return static_cast<int>(w.result[i]);
}

void BlockRunner::named_barrier(std::uint32_t id, std::uint32_t count, bool counted,
                                device::CallSite site) {
  Lane& l = *running_;
  if (site.file != l.where_file) note_site(l, site);
  l.where.line = site.line;
  const auto block_threads = static_cast<std::uint32_t>(warps_.size()) * kWarpSize;
  if (const auto misuse = sync::check_named_barrier(id, count, counted, block_threads);
      misuse != sync::NamedBarrierMisuse::none) [[unlikely]] {
    const BarrierWait call{l.warp, lane_bit(static_cast<int>(l.lane)), Op::barrier_sync,
                           static_cast<std::int32_t>(id), static_cast<std::int32_t>(count),
                           site_text(l.where), counted};
    stop_launch(LaunchStatus::kernel_exception, named_barrier_misuse_message(call, misuse, threads_));
    return;
  }
  if (checker_ != nullptr) [[unlikely]] {
    // The checks' clocks know a barrier of the whole block or of a warp, not of some warps: a
    // race report (or its absence) would be a guess.
    stop_launch(LaunchStatus::kernel_exception,
                site_text(l.where) + ": " +
                    barrier_call_text({l.warp, 0, Op::barrier_sync, static_cast<std::int32_t>(id),
                                       static_cast<std::int32_t>(count), "", counted}) +
                    ": the memory checks (--check) do not simulate named barriers, which order "
                    "only some warps; run without --check");
    return;
  }
  Warp& w = warps_[l.warp];
  const int i = static_cast<int>(l.lane);
  w.op[i] = Op::barrier_sync;
  w.type[i] = ValueType::none;
  w.where[i] = l.where;
  w.pending.value[i] = 1;
  w.pending.arg[i] = static_cast<std::int32_t>(id);
  w.pending.width[i] = counted ? static_cast<std::int32_t>(count) : 0;
  w.at_barrier |= lane_bit(i);
  if ((w.at_barrier | w.exited) == kFullMask) w.barrier_arrival = ++barrier_arrivals_;
  switch_to(pick_next());
}

bool BlockRunner::stacks_intact() const {
  for (const Lane& l : lanes_) {
    if (l.stack.top != nullptr && !stacks_.canary_intact(l.stack)) return false;
  }
  return true;
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
    if (sync::call_completes(w.op[first], w.pending.mask[first], w.exited, group)) {
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
  if (checker_ != nullptr && op == Op::syncwarp) [[unlikely]] checker_->warp_sync(w.index, group);
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
  // The usual step breaks no rule: one mask naming every caller and no thread that exited (lanes
  // past the block's last thread never existed), one call site, no undefined result, no mask that
  // __activemask() gave. Anything else is looked into off this path.
  const bool usual = !masks_disagree && op != Op::activemask &&
                     (group & ~step.mask) == 0 && (step.mask & w.exited & w.threads) == 0 &&
                     (w.activemask_fresh & group) == 0 &&
                     !(is_shuffle(op) && out_.undefined != 0) && lanes::same_in(step.where, group) &&
                     (options_.never_set_fill == 0 ||
                      never_set_lanes(op, type, step.input, group) == 0);
  if (!usual) [[unlikely]] record_step_diagnostics(w, step, index, masks_disagree);
  count_step(w, w.where[first]);
}

void BlockRunner::check_step_limits(const Warp& w, SourceLine where) {
  if (steps_ > options_.max_steps) {
    abort_launch(LaunchStatus::step_budget_exceeded,
                 step_budget_message(options_.max_steps, block_linear_, w.index, site_text(where)));
    return;
  }
  if (past_deadline()) stop_at_time_limit();
  step_check_at_ = std::min(options_.max_steps, steps_ + kStepsBetweenClockReads);
}

bool BlockRunner::resolve_barrier() {
  // Every warp is quiescent here: whatever barrier can complete does.
  for (Warp& w : warps_) warp_arrived(w);
  if (!barriers_agree()) return false;
  return resolve_block_barrier() || resolve_named_barriers();
}

bool BlockRunner::warp_arrived(Warp& w) {
  // bar.sync waits for every non-exited lane of the warp (PTX ISA, barrier): the warp arrives
  // once all of them wait, and counts as a whole warp.
  if (w.at_barrier == 0 || (w.at_barrier | w.exited) != kFullMask) return false;
  if (w.barrier_arrival == 0) w.barrier_arrival = ++barrier_arrivals_;
  return true;
}

BarrierWait BlockRunner::barrier_wait(const Warp& w, LaneMask lanes) const {
  const int lane = lowest_lane(lanes);
  return {w.index,
          lanes,
          w.op[lane],
          w.pending.arg[lane],
          w.pending.width[lane],
          site_text(w.where[lane]),
          w.op[lane] == Op::barrier_sync && w.pending.width[lane] != 0};
}

bool BlockRunner::barriers_agree() {
  // The lanes of a warp wait at one barrier, and the warps at one barrier pass one count.
  std::array<const Warp*, device::kNamedBarriers> first{};
  for (const Warp& w : warps_) {
    if (w.at_barrier == 0) continue;
    const int lane = lowest_lane(w.at_barrier);
    const LaneMask same = lanes::equal_to(w.pending.arg.data(), w.pending.arg[lane]) &
                          lanes::equal_to(w.pending.width.data(), w.pending.width[lane]);
    if (const LaneMask apart = w.at_barrier & ~same; apart != 0) {
      abort_launch(LaunchStatus::deadlock,
                   deadlock_stop_message(
                       block_linear_,
                       barrier_split_message(barrier_wait(w, w.at_barrier & same),
                                             barrier_wait(w, apart))));
      return false;
    }
    const auto id = static_cast<std::size_t>(w.pending.arg[lane]);
    if (const Warp* f = first[id]; f != nullptr) {
      const int fl = lowest_lane(f->at_barrier);
      if (f->pending.width[fl] != w.pending.width[lane]) {
        abort_launch(LaunchStatus::deadlock,
                     deadlock_stop_message(
                         block_linear_,
                         barrier_count_message(barrier_wait(*f, f->at_barrier),
                                               barrier_wait(w, w.at_barrier))));
        return false;
      }
    } else {
      first[id] = &w;
    }
  }
  return true;
}

bool BlockRunner::resolve_named_barriers() {
  std::uint32_t live_warps = 0;
  for (const Warp& w : warps_) live_warps += (w.exited & w.threads) != w.threads ? 1 : 0;
  std::vector<Warp*>& arrived = named_arrivals_;
  for (std::uint32_t id = 0; id < device::kNamedBarriers; ++id) {
    arrived.clear();
    std::int32_t count = 0;
    for (Warp& w : warps_) {
      if (w.barrier_arrival == 0) continue;
      const int lane = lowest_lane(w.at_barrier);
      if (w.op[lane] != Op::barrier_sync || w.pending.arg[lane] != static_cast<std::int32_t>(id)) {
        continue;
      }
      arrived.push_back(&w);
      count = w.pending.width[lane];
    }
    if (arrived.empty()) continue;
    // Count 0: every warp with a live thread. Otherwise the first count/32 warps to arrive; the
    // barrier is then reset, and later arrivals wait for its next completion.
    const std::size_t needed = count == 0 ? live_warps : static_cast<std::size_t>(count) / kWarpSize;
    if (arrived.size() < needed) continue;
    std::sort(arrived.begin(), arrived.end(), [](const Warp* a, const Warp* b) {
      return a->barrier_arrival < b->barrier_arrival;
    });
    for (std::size_t k = 0; k < needed; ++k) release_named(*arrived[k]);
    ++barrier_completions_[id];
    return true;
  }
  return false;
}

void BlockRunner::release_named(Warp& w) {
  // A named barrier's step keeps each lane's id and count (arg, width); its lanes get 0.
  leave_barrier(w, Op::barrier_sync, w.where[lowest_lane(w.at_barrier)],
                [&](int i, TraceStep& step) {
                  step.arg[i] = w.pending.arg[i];
                  step.width[i] = w.pending.width[i];
                  return std::uint64_t{0};
                });
}

bool BlockRunner::resolve_block_barrier() {
  // __syncthreads and its forms: barrier 0 of the whole block, complete once every live thread
  // waits in it. A warp at a named barrier waits in none of these.
  barrier_view_.resize(warps_.size());
  for (std::size_t k = 0; k < warps_.size(); ++k) {
    const Warp& w = warps_[k];
    const bool named = w.at_barrier != 0 && w.op[lowest_lane(w.at_barrier)] == Op::barrier_sync;
    barrier_view_[k] = {named ? LaneMask{0} : w.at_barrier, w.exited, w.threads,
                        w.pending.value.data()};
  }
  if (!sync::barrier_completes(barrier_view_)) return false;
  const sync::BarrierTally tally = sync::tally_barrier(barrier_view_);
  if (checker_ != nullptr) checker_->block_barrier();

  const Warp* first_warp = nullptr;
  for (const Warp& w : warps_) {
    if (w.at_barrier != 0) {
      first_warp = &w;
      break;
    }
  }
  const int first_lane = lowest_lane(first_warp->at_barrier);
  const Op first_form = first_warp->op[first_lane];
  const SourceLine first_where = first_warp->where[first_lane];
  for (Warp& w : warps_) {
    if (w.at_barrier == 0) continue;
    if (&w == first_warp) {
      const std::int64_t index =
          options_.record_steps ? static_cast<std::int64_t>(trace_.steps.size()) : -1;
      record_barrier_diagnostics(w, first_lane, tally, index);
    }
    leave_barrier(w, first_form, first_where, [&](int i, TraceStep& step) {
      const std::uint64_t result = sync::barrier_result(w.op[i], tally);
      step.output[i] = result;
      return result;
    });
  }
  return true;
}

template <class PerLane>
void BlockRunner::leave_barrier(Warp& w, Op op, SourceLine where, PerLane per_lane) {
  if (!options_.record_steps) {
    // Nothing is recorded: only the lanes' results (per_lane's step is scratch).
    for (LaneMask m = w.at_barrier; m != 0; m &= m - 1) {
      const int i = lowest_lane(m);
      w.result[i] = per_lane(i, unrecorded_step_);
    }
    ++w.sequence;
  } else {
    TraceStep step;
    step.op = op;
    step.block = block_linear_;
    step.warp = w.index;
    step.participants = w.at_barrier;
    step.exited = w.exited;
    step.sequence = w.sequence++;
    for (LaneMask m = w.at_barrier; m != 0; m &= m - 1) {
      const int i = lowest_lane(m);
      w.result[i] = per_lane(i, step);
      step.input[i] = w.pending.value[i];
      step.where[i] = w.where[i];
      step.src_lane[i] = -1;
    }
    trace_.steps.push_back(step);
  }
  w.ready = w.at_barrier;
  w.at_barrier = 0;
  w.barrier_arrival = 0;
  count_step(w, where);
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
      if (sync::mismatched_call_completes(named, w.exited, same_op)) {
        complete_group(w, same_op, true);
        return true;
      }
    }
  }
  return false;
}

void BlockRunner::stop_running_lane(LaunchStatus status, std::string message) {
  Lane& self = *running_;
  abort_launch(status, std::move(message));
  warps_[self.warp].exited |= lane_bit(static_cast<int>(self.lane));  // nothing to unwind
  leave_for_good(self, pick_next());  // nullptr: the launch is aborted
}

void BlockRunner::stop_launch(LaunchStatus status, std::string message) {
  abort_launch(status, std::move(message));
  switch_to(pick_next());  // the launch is over: nothing runs again; it unwinds this lane
}

void BlockRunner::abort_launch(LaunchStatus status, std::string message) {
  if (aborted_) return;
  aborted_ = true;
  outcome_.status = status;
  outcome_.message = std::move(message);
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
  return warpsim::site_text(where, trace_.files);
}

}  // namespace warpsim::runtime

// What warpsim_warp_op (sim/runtime/warp_call_return.cpp) calls. Defined here, beside BlockRunner::warp_op,
// so that the whole per-lane path inlines into it.
extern "C" __attribute__((visibility("hidden"))) std::uint64_t warpsim_warp_op_body(
    warpsim::device::WarpCall call, std::uint64_t value, warpsim::device::CallSite site,
    bool* pred) {
  return warpsim::runtime::BlockRunner::warp_op(call, value, site, pred);
}
