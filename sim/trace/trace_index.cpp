#include "warpsim/trace_index.hpp"

#include <algorithm>
#include <bit>
#include <map>

namespace warpsim {

TraceIndex::TraceIndex(const Trace& trace) {
  info_.resize(trace.steps.size());
  std::map<WarpKey, WarpSteps> warps;
  // Passes per (warp, line): how often the warp has run a step there so far.
  std::map<std::pair<WarpKey, std::pair<std::uint32_t, std::uint32_t>>, std::uint32_t> passes;
  TraceStep step;
  for (std::size_t i = 0; i < trace.steps.size(); ++i) {
    trace.steps.read(i, step);
    StepInfo& info = info_[i];
    info.warp = {step.block, step.warp};
    info.op = step.op;
    info.participants = step.participants;
    const int first = step.participants == 0 ? 0 : std::countr_zero(step.participants);
    info.where = step.where[static_cast<std::size_t>(first)];
    WarpSteps& steps = warps[info.warp];
    steps.warp = info.warp;
    info.position = static_cast<std::uint32_t>(steps.steps.size());
    steps.steps.push_back(i);
    info.pass = ++passes[{info.warp, {info.where.file, info.where.line}}];
  }
  std::map<WarpKey, std::size_t> diagnostics_per_warp;
  for (std::size_t d = 0; d < trace.diagnostics.size(); ++d) {
    const Diagnostic& diagnostic = trace.diagnostics[d];
    if (diagnostic.step >= 0 && static_cast<std::size_t>(diagnostic.step) < info_.size()) {
      placed_.emplace_back(static_cast<std::size_t>(diagnostic.step), d);
    } else {
      unplaced_.push_back(d);
    }
    const WarpKey key{diagnostic.block, diagnostic.warp};
    ++diagnostics_per_warp[key];
    warps[key].warp = key;  // a warp known only from its diagnostics is still listed
  }
  waits_ = trace.waits;
  for (const WarpWait& wait : waits_) {
    const WarpKey key{wait.block, wait.warp};
    warps[key].warp = key;  // a warp that deadlocked at its first call is listed too
  }
  std::sort(placed_.begin(), placed_.end());
  for (const auto& [step_index, diagnostic] : placed_) {
    if (diagnostic_steps_.empty() || diagnostic_steps_.back() != step_index) {
      diagnostic_steps_.push_back(step_index);
    }
  }
  for (auto& [key, steps] : warps) {
    const WarpWait* wait = wait_of(key);
    const bool waiting =
        wait != nullptr && std::any_of(wait->lanes.begin(), wait->lanes.end(), [](const LaneWait& l) {
          return l.state == LaneWait::State::in_call || l.state == LaneWait::State::at_barrier;
        });
    warps_.push_back({key, steps.steps.size(), diagnostics_per_warp[key], waiting});
    by_warp_.push_back(std::move(steps));
  }
}

const WarpWait* TraceIndex::wait_of(WarpKey warp) const {
  for (const WarpWait& wait : waits_) {
    if (wait.block == warp.block && wait.warp == warp.warp) return &wait;
  }
  return nullptr;
}

const TraceIndex::WarpSteps* TraceIndex::warp_steps(WarpKey warp) const {
  const auto it = std::lower_bound(by_warp_.begin(), by_warp_.end(), warp,
                                   [](const WarpSteps& w, WarpKey key) { return w.warp < key; });
  return it != by_warp_.end() && it->warp == warp ? &*it : nullptr;
}

std::span<const std::size_t> TraceIndex::steps_of(WarpKey warp) const {
  const WarpSteps* steps = warp_steps(warp);
  return steps != nullptr ? std::span<const std::size_t>(steps->steps) : std::span<const std::size_t>();
}

std::vector<std::size_t> TraceIndex::steps_of_lane(WarpKey warp, int lane) const {
  std::vector<std::size_t> found;
  for (const std::size_t step : steps_of(warp)) {
    if (has_lane(info_[step].participants, lane)) found.push_back(step);
  }
  return found;
}

std::vector<std::size_t> TraceIndex::steps_at(SourceLine line) const {
  std::vector<std::size_t> found;
  for (std::size_t i = 0; i < info_.size(); ++i) {
    if (info_[i].where == line) found.push_back(i);
  }
  return found;
}

std::optional<std::size_t> TraceIndex::find(WarpKey warp, SourceLine line, std::uint32_t pass) const {
  for (const std::size_t step : steps_of(warp)) {
    if (info_[step].where == line && info_[step].pass == pass) return step;
  }
  return std::nullopt;
}

std::vector<SourceLine> TraceIndex::lines() const {
  std::vector<SourceLine> found;
  for (const StepInfo& info : info_) found.push_back(info.where);
  const auto order = [](SourceLine a, SourceLine b) {
    return a.file != b.file ? a.file < b.file : a.line < b.line;
  };
  std::sort(found.begin(), found.end(), order);
  found.erase(std::unique(found.begin(), found.end()), found.end());
  return found;
}

std::vector<std::size_t> TraceIndex::diagnostics_of(std::size_t step) const {
  std::vector<std::size_t> found;
  auto it = std::lower_bound(placed_.begin(), placed_.end(), std::pair<std::size_t, std::size_t>{step, 0});
  for (; it != placed_.end() && it->first == step; ++it) found.push_back(it->second);
  return found;
}

std::optional<std::size_t> TraceIndex::next_diagnostic(std::size_t step, std::optional<WarpKey> warp,
                                                       bool inclusive) const {
  auto it = inclusive ? std::lower_bound(diagnostic_steps_.begin(), diagnostic_steps_.end(), step)
                      : std::upper_bound(diagnostic_steps_.begin(), diagnostic_steps_.end(), step);
  for (; it != diagnostic_steps_.end(); ++it) {
    if (!warp || info_[*it].warp == *warp) return *it;
  }
  return std::nullopt;
}

std::optional<std::size_t> TraceIndex::previous_diagnostic(std::size_t step,
                                                           std::optional<WarpKey> warp) const {
  auto it = std::lower_bound(diagnostic_steps_.begin(), diagnostic_steps_.end(), step);
  while (it != diagnostic_steps_.begin()) {
    --it;
    if (!warp || info_[*it].warp == *warp) return *it;
  }
  return std::nullopt;
}

std::optional<std::size_t> TraceIndex::next_change(const Trace& trace, WarpKey warp, int lane,
                                                   std::size_t step) const {
  TraceStep s;
  for (const std::size_t candidate : steps_of(warp)) {
    if (candidate <= step || !has_lane(info_[candidate].participants, lane)) continue;
    trace.steps.read(candidate, s);
    const auto at = static_cast<std::size_t>(lane);
    if (s.output[at] != s.input[at]) return candidate;
  }
  return std::nullopt;
}

}  // namespace warpsim
