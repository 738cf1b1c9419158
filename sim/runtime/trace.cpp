#include "warpsim/trace.hpp"

#include <bit>
#include <cstdio>

namespace warpsim {

std::string_view to_string(DiagnosticKind kind) {
  switch (kind) {
    case DiagnosticKind::caller_not_in_mask: return "caller_not_in_mask";
    case DiagnosticKind::mask_mismatch: return "mask_mismatch";
    case DiagnosticKind::missing_lane: return "missing_lane";
    case DiagnosticKind::undefined_source: return "undefined_source";
    case DiagnosticKind::split_call_sites: return "split_call_sites";
    case DiagnosticKind::divergent_syncthreads: return "divergent_syncthreads";
    case DiagnosticKind::deadlock: return "deadlock";
    case DiagnosticKind::step_budget_exceeded: return "step_budget_exceeded";
    case DiagnosticKind::out_of_bounds: return "out_of_bounds";
    case DiagnosticKind::kernel_fault: return "kernel_fault";
  }
  return "?";
}

std::uint32_t Trace::file_index(const std::string& path) {
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (files[i] == path) return static_cast<std::uint32_t>(i);
  }
  files.push_back(path);
  return static_cast<std::uint32_t>(files.size() - 1);
}

std::string format_lanes(LaneMask lanes) {
  if (lanes == 0) return "none";
  std::string text;
  int lane = 0;
  while (lane < kWarpSize) {
    if (!has_lane(lanes, lane)) {
      ++lane;
      continue;
    }
    int last = lane;
    while (last + 1 < kWarpSize && has_lane(lanes, last + 1)) ++last;
    if (!text.empty()) text += ',';
    text += std::to_string(lane);
    if (last > lane) text += '-' + std::to_string(last);
    lane = last + 1;
  }
  return text;
}

std::string format_mask(LaneMask mask) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "0x%08x", mask);
  return buffer;
}

}  // namespace warpsim
