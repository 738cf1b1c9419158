// A deadlock's last word on a warp, for every view: where each lane waits when the launch stopped
// (Trace::waits), as a step view that follows the warp's last step, and in words. The terminal
// walkthrough prints it as the warp's final step, the GUI draws it where the steps end, tests
// read it.
//
//   auto w = describe_wait(trace, index, {0, 0});
//   w->view.rows[0].label == "call"; w->view.rows[0].cells[1].text == "shfl_down"
//   w->lines[0] == "lanes 0,2,...,30 wait in __shfl_up_sync at kernel.cu:28 with mask 0xffffffff
//                   for lanes 1,3,...,31, which never arrive: they wait in __shfl_down_sync at
//                   kernel.cu:25 (different calls never meet)"
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "warpsim/step_view.hpp"

namespace warpsim {

struct WaitView {
  // step: the trace's step count (no step of its own); position: the warp's step count, so it
  // reads as the step after the last; waits: true. Rows "call" (the op, short), "line", "mask";
  // a lane in a call or at a barrier took part (it waits), an exited lane is exited, a lane
  // beyond the block's threads is not in the mask.
  StepView view;
  std::vector<std::string> lines;  // one sentence per group of lanes waiting in one call
  LaneMask waiting = 0;            // lanes that wait in a call or at a barrier
  LaneMask never_arrive = 0;       // lanes some waiting lane's mask names that never join it
};

// Null when the launch did not stop in a deadlock with `warp` waiting.
std::optional<WaitView> describe_wait(const Trace& trace, const TraceIndex& index, WarpKey warp);

// "where every lane waits": the wait's name, as the views title it.
inline constexpr const char* kWaitTitle = "where every lane waits";

}  // namespace warpsim
