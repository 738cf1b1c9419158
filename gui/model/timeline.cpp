#include "model/timeline.hpp"

#include <algorithm>

namespace warpsim::gui {

std::size_t TimelineMarks::bin_start(std::size_t b) const {
  return bins() == 0 ? 0 : b * steps / bins();
}

std::size_t TimelineMarks::bin_of(std::size_t position) const {
  if (steps == 0) return 0;
  return std::min(bins() - 1, position * bins() / steps);
}

TimelineMarks make_timeline(const TraceIndex& index, const Scope& scope,
                            std::span<const std::size_t> gpu_differs) {
  TimelineMarks t;
  t.steps = scope.size();
  t.stepless_diagnostics = index.unplaced_diagnostics().size();
  t.diagnostic.assign(std::min(t.steps, kTimelineBins), 0);
  t.gpu_differs.assign(t.diagnostic.size(), 0);
  for (const std::size_t step : gpu_differs) {
    if (!scope.all_warps() && index.info(step).warp != scope.warp()) continue;
    t.gpu_differs[t.bin_of(scope.all_warps() ? step : index.info(step).position)] = 1;
  }
  for (const std::size_t step : index.diagnostic_steps()) {
    if (!scope.all_warps() && index.info(step).warp != scope.warp()) continue;
    const std::size_t position = scope.all_warps() ? step : index.info(step).position;
    t.diagnostic[t.bin_of(position)] = 1;
    if (t.diagnostic_positions.size() < 4096) t.diagnostic_positions.push_back(position);
  }
  return t;
}

std::string timeline_label(const TimelineMarks& t, std::string_view scope) {
  std::string text = std::string(scope) + " · " + std::to_string(t.steps) +
                     (t.steps == 1 ? " step · " : " steps · ") +
                     std::to_string(t.diagnostic_positions.size()) +
                     (t.diagnostic_positions.size() >= 4096 ? "+" : "") + " with diagnostics";
  if (t.stepless_diagnostics > 0) {
    // Not "of no step": a deadlock's diagnostics are drawn after the warp's last step.
    text += " · " + std::to_string(t.stepless_diagnostics) + " not on a step (Diagnostics tab)";
  }
  return text;
}

}  // namespace warpsim::gui
