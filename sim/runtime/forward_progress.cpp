// Forward progress, as Volta+ independent thread scheduling gives it: a lane that spins waiting
// for another lane of its warp, or for another warp of its block, must let them run.
//
// Kernel code counts ticks (device::spin_tick: each loop iteration of a kernel file, each atomic)
// against the running lane's slice; a lane that spends a whole slice without reaching a warp-level
// call or barrier yields here. A lane that yielded is `yielded`, neither ready nor waiting:
//  - it runs again within its warp as soon as the warp's other lanes have run and one of them
//    settled (arrived at a call or barrier, exited, or completed a step), so that the warp still
//    regroups at its next call (maximal convergence keeps its meaning);
//  - otherwise the other warps run first, and only when nothing else can run do all spinning
//    lanes run again, each for one more slice.
// The order is that of the policy in force (lane order, or the seeded choices), so a run is as
// deterministic as before. When the block spins LaunchOptions::spin_limit ticks with no step,
// barrier or exit anywhere, nothing can change any more: the run stops as a livelock naming the
// spinning lanes and their loops. (In a cooperative launch, whose blocks are all resident, only
// once no block of the grid has progressed either: resident_grid.hpp.)
#include <algorithm>
#include <bit>
#include <cstdint>
#include <string>
#include <thread>

#include "block_runner.hpp"
#include "resident_grid.hpp"

namespace warpsim::device {

__thread std::int32_t spin_budget __attribute__((tls_model("initial-exec"))) = kSpinSliceTicks;

void spin_preempt(CallSite site) {
  runtime::BlockRunner* const runner = runtime::BlockRunner::current();
  if (runner == nullptr || runner->running_lane() == nullptr) {
    spin_budget = kSpinSliceTicks;  // host code: loops and atomics outside a launch
    return;
  }
  runner->spin_preempt(site);
}

}  // namespace warpsim::device

namespace warpsim::runtime {

namespace {

Warp::Settled settled_state(const Warp& w) { return {w.at_op, w.at_barrier, w.exited, w.sequence}; }

// Lanes that spun since the block last progressed and now neither wait nor exited.
LaneMask spinning_lanes(const Warp& w) {
  LaneMask spun = w.yielded;
  for (int i = 0; i < kWarpSize; ++i) {
    if (w.spin_where[i].line != 0) spun |= lane_bit(i);
  }
  return spun & ~(w.at_op | w.at_barrier | w.exited);
}

}  // namespace

void BlockRunner::spin_preempt(device::CallSite site) {
  device::spin_budget = device::kSpinSliceTicks;
  Lane& l = *running_;
  Warp& w = *l.warp_state;
  if (steps_ != spun_since_steps_ || exits_ != spun_since_exits_) {
    // The block progressed: only what spins from now on counts (and is named in reports).
    spun_since_steps_ = steps_;
    spun_since_exits_ = exits_;
    spun_ticks_ = 0;
    for (Warp& x : warps_) x.spin_where.fill({});
    if (grid_ != nullptr) grid_->note_progress();
  }
  spun_in_block_ = true;
  if (site.line != 0) {
    if (site.file != l.where_file) note_site(l, site);
    w.spin_where[l.lane] = {l.where.file, site.line};
    w.spin_file[l.lane] = site.file;
  }
  spun_ticks_ += static_cast<std::uint64_t>(device::kSpinSliceTicks);
  w.yielded |= lane_bit(static_cast<int>(l.lane));
  if (past_deadline()) stop_at_time_limit();
  if (spun_ticks_ >= spin_limit_of_block()) {
    if (grid_ != nullptr && grid_->progress() != grid_progress_seen_) {
      // Resident blocks: another block progressed meanwhile, and may yet set what this one awaits.
      grid_progress_seen_ = grid_->progress();
      spun_ticks_ = 0;
    } else {
      stop_livelock();
    }
  }
  if (grid_ != nullptr) {
    // Another block stopped the launch, which says why: this one stops with it.
    if (grid_->launch_stopped()) {
      stop_launch(LaunchStatus::kernel_exception, "stopped with the launch");
      return;
    }
    // Resident blocks share the cores with the block this one may wait for: let it run.
    std::this_thread::yield();
  }
  switch_to(pick_next());  // after a livelock: back to the launch, which unwinds this lane
}

std::uint64_t BlockRunner::spin_limit_of_block() const noexcept {
  // LaunchOptions::spin_limit ticks per thread: the lanes share the core, so a block of 256
  // threads that each loop 10^8 times before any of them finishes is computing, not stuck (a
  // budget for the whole block named such kernels livelocks after 262,144 iterations a thread).
  const std::uint64_t threads = std::max<std::uint64_t>(options_.block.count(), 1);
  return options_.spin_limit > UINT64_MAX / threads ? UINT64_MAX : options_.spin_limit * threads;
}

void BlockRunner::spin_snapshot(LanePosition& p) const noexcept {
  p.steps = steps_;
  // Lanes that spun since the block last progressed and neither wait nor exited: the running
  // lane's group when it is one of them, else the first such group.
  const Warp* warp = nullptr;
  int reference = -1;
  LaneMask spinning = 0;
  if (running_ != nullptr) {
    const Warp& w = *running_->warp_state;
    const int lane = static_cast<int>(running_->lane);
    if (has_lane(spinning_lanes(w), lane)) {
      warp = &w;
      reference = lane;
      spinning = spinning_lanes(w);
    }
  }
  for (std::size_t k = 0; warp == nullptr && k < warps_.size(); ++k) {
    spinning = spinning_lanes(warps_[k]);
    if (spinning == 0) continue;
    warp = &warps_[k];
    reference = std::countr_zero(spinning);
  }
  if (warp == nullptr) return;
  LaneMask same = 0;
  for (LaneMask m = spinning; m != 0; m &= m - 1) {
    const int i = std::countr_zero(m);
    if (warp->spin_where[i] == warp->spin_where[reference]) same |= lane_bit(i);
  }
  p.spin_warp = warp->index;
  p.spin_lanes = same;
  p.spin_file = warp->spin_file[reference] != nullptr ? warp->spin_file[reference] : "";
  p.spin_line = warp->spin_where[reference].line;
}

bool BlockRunner::rejoin_spinners(Warp& w) {
  const Warp::Settled now = settled_state(w);
  if (now == w.settled_when_spun) return false;
  w.settled_when_spun = now;
  w.ready |= w.yielded;
  w.yielded = 0;
  return true;
}

bool BlockRunner::rejoin_all_spinners() {
  bool any = false;
  for (Warp& w : warps_) {
    if (w.yielded == 0) continue;
    w.settled_when_spun = settled_state(w);
    w.ready |= w.yielded;
    w.yielded = 0;
    if (!any) current_warp_ = w.index;
    any = true;
  }
  return any;
}

std::vector<LivelockSpinner> BlockRunner::spinners() const {
  std::vector<LivelockSpinner> spinners;
  for (const Warp& w : warps_) {
    LaneMask left = spinning_lanes(w);
    while (left != 0) {
      const int first = std::countr_zero(left);
      LaneMask same = 0;
      for (LaneMask m = left; m != 0; m &= m - 1) {
        const int i = std::countr_zero(m);
        if (w.spin_where[i] == w.spin_where[first]) same |= lane_bit(i);
      }
      left &= ~same;
      spinners.push_back({w.index, same, w.spin_where[first]});
    }
  }
  return spinners;
}

void BlockRunner::stop_livelock() {
  std::uint64_t waiting = 0;
  for (const Warp& w : warps_) {
    waiting += static_cast<std::uint64_t>(std::popcount(w.at_op | w.at_barrier));
  }
  abort_launch(LaunchStatus::deadlock,
               livelock_stop_message(block_linear_, spin_limit_of_block(), spinners(), waiting,
                                     trace_.files, grid_ != nullptr));
}

void BlockRunner::stop_at_time_limit() {
  const std::vector<LivelockSpinner> looping = spinners();
  abort_launch(LaunchStatus::time_limit,
               time_limit_stop_message(block_linear_, looping, trace_.files));
  if (outcome_.status != LaunchStatus::time_limit) return;  // stopped for another reason first
  Diagnostic stop;
  stop.kind = DiagnosticKind::timeout;
  stop.message = outcome_.message;
  stop.block = block_linear_;
  if (!looping.empty()) {
    stop.warp = looping.front().warp;
    stop.lanes = looping.front().lanes;
    stop.where = looping.front().where;
  } else if (running_ != nullptr) {
    stop.warp = running_->warp;
    stop.lanes = lane_bit(static_cast<int>(running_->lane));
    stop.where = running_->where;
  }
  outcome_.stop = std::move(stop);
}

}  // namespace warpsim::runtime
