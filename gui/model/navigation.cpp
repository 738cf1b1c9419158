#include "model/navigation.hpp"

#include <algorithm>

namespace warpsim::gui {

Scope::Scope(const TraceIndex& index, WarpKey warp, bool all_warps)
    : all_(all_warps), warp_(warp), count_(index.step_count()), steps_(index.steps_of(warp)) {}

std::size_t Scope::step_at(std::size_t position) const {
  const std::size_t last = size() - 1;
  position = std::min(position, last);
  return all_ ? position : steps_[position];
}

std::size_t Scope::position_of(std::size_t step) const {
  if (all_) return std::min(step, count_ == 0 ? 0 : count_ - 1);
  if (steps_.empty()) return 0;
  const auto it = std::lower_bound(steps_.begin(), steps_.end(), step);
  if (it == steps_.end()) return steps_.size() - 1;
  return static_cast<std::size_t>(it - steps_.begin());
}

std::optional<WarpKey> first_warp(const TraceIndex& index) {
  for (const WarpSummary& w : index.warps()) {
    if (w.steps > 0) return w.warp;
  }
  return std::nullopt;
}

std::size_t step_by(const Scope& scope, std::size_t step, long delta) {
  if (scope.empty()) return step;
  const auto position = static_cast<long>(scope.position_of(step));
  const long last = static_cast<long>(scope.size()) - 1;
  return scope.step_at(static_cast<std::size_t>(std::clamp(position + delta, 0L, last)));
}

std::optional<std::size_t> next_diagnostic(const TraceIndex& index, const Scope& scope,
                                           std::size_t step, bool backward,
                                           std::span<const std::size_t> also) {
  const std::optional<WarpKey> warp =
      scope.all_warps() ? std::nullopt : std::optional<WarpKey>(scope.warp());
  std::optional<std::size_t> found =
      backward ? index.previous_diagnostic(step, warp) : index.next_diagnostic(step, warp);
  const auto in_scope = [&](std::size_t s) { return !warp || index.info(s).warp == *warp; };
  std::optional<std::size_t> other;
  if (backward) {
    for (auto it = std::lower_bound(also.begin(), also.end(), step); it != also.begin();) {
      if (in_scope(*--it)) {
        other = *it;
        break;
      }
    }
  } else {
    for (auto it = std::upper_bound(also.begin(), also.end(), step); it != also.end(); ++it) {
      if (in_scope(*it)) {
        other = *it;
        break;
      }
    }
  }
  if (!found) return other;
  if (!other) return found;
  return backward ? std::max(*found, *other) : std::min(*found, *other);
}

std::vector<std::size_t> history_of(const TraceIndex& index, std::size_t step, std::size_t count) {
  if (step >= index.step_count()) return {};
  const StepInfo& info = index.info(step);
  const auto steps = index.steps_of(info.warp);
  const std::size_t end = info.position;
  const std::size_t begin = end > count ? end - count : 0;
  return {steps.begin() + static_cast<long>(begin), steps.begin() + static_cast<long>(end)};
}

WarpProgress warp_progress(const TraceIndex& index, WarpKey warp, std::size_t step) {
  const auto steps = index.steps_of(warp);
  const auto done = std::upper_bound(steps.begin(), steps.end(), step) - steps.begin();
  return {static_cast<std::size_t>(done), steps.size()};
}

}  // namespace warpsim::gui
