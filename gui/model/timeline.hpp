// The timeline's marks, computed once per trace and scope (never per frame): the scope's steps
// folded into at most kTimelineBins bins, each knowing whether a step in it carries a diagnostic,
// so that drawing a 50,000-step timeline costs as much as drawing a short one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/navigation.hpp"

namespace warpsim::gui {

inline constexpr std::size_t kTimelineBins = 2048;

struct TimelineMarks {
  std::size_t steps = 0;                   // steps in the scope
  std::vector<std::uint8_t> diagnostic;    // per bin: 1 when a step in it carries a diagnostic
  std::vector<std::uint8_t> gpu_differs;   // per bin: 1 when the GPU disagrees at a step in it
  std::vector<std::size_t> diagnostic_positions;  // positions in the scope, in order (first 4096)
  // The run's diagnostics tied to no step (the memory checks' findings name lines, not steps; a
  // stop before any step): listed in the Diagnostics tab, not marked here.
  std::size_t stepless_diagnostics = 0;

  std::size_t bins() const { return diagnostic.size(); }
  // The first position of bin `b`; the bin of `position`.
  std::size_t bin_start(std::size_t b) const;
  std::size_t bin_of(std::size_t position) const;
};

// `gpu_differs`: the steps where the GPU disagrees (sorted).
TimelineMarks make_timeline(const TraceIndex& index, const Scope& scope,
                            std::span<const std::size_t> gpu_differs = {});
// "block 0, warp 1 · 5 steps · 2 with diagnostics", and "· 2 not on a step (Diagnostics tab)"
// where the run has such (the memory checks' findings; a deadlock's, drawn after the last step):
// the timeline's own count never contradicts the Diagnostics tab's.
std::string timeline_label(const TimelineMarks& t, std::string_view scope);

}  // namespace warpsim::gui
