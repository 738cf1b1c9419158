#include "warpsim/wait_view.hpp"

#include <bit>

#include "warpsim/diagnostic_text.hpp"

namespace warpsim {
namespace {

bool waits(const LaneWait& l) {
  return l.state == LaneWait::State::in_call || l.state == LaneWait::State::at_barrier;
}

bool same_place(const LaneWait& a, const LaneWait& b) {
  return a.state == b.state && a.op == b.op && a.where == b.where && a.mask == b.mask;
}

// "shfl_up": the op in a table cell.
std::string short_op(Op op) {
  std::string name(to_string(op));
  if (name.ends_with("_sync") && name != "barrier_sync") name.resize(name.size() - 5);
  return name;
}

// Where lanes that were awaited are instead: "lanes 1,3 wait in __shfl_down_sync at k.cu:25".
std::string where_they_are(const Trace& trace, const WarpWait& w, LaneMask lanes,
                           const LaneWait& awaited_in) {
  std::string text;
  LaneMask left = lanes;
  while (left != 0) {
    const LaneWait& first = w.lanes[lane_at(std::countr_zero(left))];
    LaneMask here = 0;
    for (LaneMask m = left; m != 0; m &= m - 1) {
      const int lane = std::countr_zero(m);
      if (same_place(w.lanes[lane_at(lane)], first)) here |= LaneMask{1} << lane;
    }
    left &= ~here;
    text += text.empty() ? "" : "; ";
    const bool one = std::popcount(here) == 1;
    text += lanes_text(here) + " ";
    switch (first.state) {
      case LaneWait::State::in_call:
        text += std::string(one ? "waits" : "wait") + " in " + cuda_name(first.op) + " at " +
                site_text(trace, first.where);
        if (first.op != awaited_in.op) {
          text += " (different calls never meet)";
        } else if (first.mask != awaited_in.mask) {
          text += " with mask " + format_mask(first.mask) + " (calls with different masks never meet)";
        }
        break;
      case LaneWait::State::at_barrier:
        text += std::string(one ? "waits" : "wait") + " at " + cuda_name(first.op) + " at " +
                site_text(trace, first.where);
        break;
      case LaneWait::State::running:
      case LaneWait::State::exited:
      case LaneWait::State::not_a_thread:
        text += std::string(one ? "reaches" : "reach") + " no call";
        break;
    }
  }
  return text;
}

}  // namespace

std::optional<WaitView> describe_wait(const Trace& trace, const TraceIndex& index, WarpKey warp) {
  const WarpWait* w = index.wait_of(warp);
  if (w == nullptr) return std::nullopt;
  WaitView out;
  StepView& v = out.view;
  v.step = trace.steps.size();
  v.warp = warp;
  v.warp_steps = static_cast<std::uint32_t>(index.steps_of(warp).size());
  v.position = v.warp_steps;
  v.waits = true;
  v.name = kWaitTitle;
  v.result = ResultKind::none;
  v.source.fill(-1);
  v.group.fill(-1);
  StepRow call{RowKind::argument, "call", {}};
  StepRow line{RowKind::argument, "line", {}};
  StepRow mask{RowKind::argument, "mask", {}};
  LaneMask exited = 0, running = 0;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const LaneWait& l = w->lanes[lane_at(lane)];
    const LaneMask bit = LaneMask{1} << lane;
    if (l.state == LaneWait::State::exited) exited |= bit;
    if (l.state == LaneWait::State::running) running |= bit;
    v.lanes[lane_at(lane)] = waits(l)                                    ? LaneState::took_part
                        : l.state == LaneWait::State::exited       ? LaneState::exited
                        : l.state == LaneWait::State::not_a_thread ? LaneState::not_in_mask
                                                                   : LaneState::inactive;
    if (!waits(l)) continue;
    out.waiting |= bit;
    call.cells[lane_at(lane)].text = short_op(l.op);
    line.cells[lane_at(lane)].text = std::to_string(l.where.line);
    if (l.state == LaneWait::State::in_call) mask.cells[lane_at(lane)].text = format_mask(l.mask);
  }
  v.participants = out.waiting;
  v.exited = exited;
  v.inactive = running;
  v.rows = {call, line, mask};
  if (out.waiting == 0) return std::nullopt;
  const LaneWait& lowest = w->lanes[lane_at(std::countr_zero(out.waiting))];
  v.op = lowest.op;
  v.family = intrinsic_for(lowest.op).family;
  v.where = lowest.where;
  v.site = site_text(trace, lowest.where);
  v.facts = {{"stopped", "deadlock"}};
  v.contract = "No lane can move on: each waits for lanes that never arrive. A GPU hangs here.";

  // One sentence per place lanes wait, lowest lane first.
  LaneMask left = out.waiting;
  while (left != 0) {
    const LaneWait& first = w->lanes[lane_at(std::countr_zero(left))];
    LaneMask group = 0;
    for (LaneMask m = left; m != 0; m &= m - 1) {
      const int lane = std::countr_zero(m);
      if (same_place(w->lanes[lane_at(lane)], first)) group |= LaneMask{1} << lane;
    }
    left &= ~group;
    const bool one = std::popcount(group) == 1;
    std::string text = lanes_text(group) + (one ? " waits" : " wait");
    if (first.state == LaneWait::State::at_barrier) {
      text += " at " + cuda_name(first.op) + " at " + site_text(trace, first.where) +
              " for threads of the block that never arrive there";
    } else {
      text += " in " + cuda_name(first.op) + " at " + site_text(trace, first.where) +
              " with mask " + format_mask(first.mask);
      LaneMask threads = 0;
      for (int lane = 0; lane < kWarpSize; ++lane) {
        if (w->lanes[lane_at(lane)].state != LaneWait::State::not_a_thread) threads |= LaneMask{1} << lane;
      }
      const LaneMask missing = first.mask & threads & ~exited & ~group;
      out.never_arrive |= missing;
      if (missing != 0) {
        text += " for " + lanes_text(missing) + ", which never " +
                (std::popcount(missing) == 1 ? "arrives: " : "arrive: ") +
                where_they_are(trace, *w, missing, first);
      }
    }
    out.lines.push_back(std::move(text));
  }
  return out;
}

}  // namespace warpsim
