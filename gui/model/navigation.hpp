// Moving the cursor over an immutable trace. The cursor is a step of the trace (an index into
// Trace::steps); stepping happens within a scope: the selected warp's steps (what a lesson
// narrates), or every step of the trace in the order the simulator recorded them.
//
//   const Scope scope = make_scope(index, {0, 0}, false);
//   std::size_t next = scope.step_at(scope.position_of(cursor) + 1);
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "warpsim/trace_index.hpp"

namespace warpsim::gui {

class Scope {
 public:
  Scope() = default;
  Scope(const TraceIndex& index, WarpKey warp, bool all_warps);

  bool all_warps() const { return all_; }
  WarpKey warp() const { return warp_; }
  std::size_t size() const { return all_ ? count_ : steps_.size(); }
  bool empty() const { return size() == 0; }
  // The step at `position` (clamped into the scope). Precondition: !empty().
  std::size_t step_at(std::size_t position) const;
  // Where `step` sits in the scope; a step of another warp maps to the first of the warp's steps
  // that follow it (or the last).
  std::size_t position_of(std::size_t step) const;

 private:
  bool all_ = false;
  WarpKey warp_;
  std::size_t count_ = 0;
  std::span<const std::size_t> steps_;
};

// The warp to show first: the first with steps (block 0, warp 0 for most launches).
std::optional<WarpKey> first_warp(const TraceIndex& index);

// `delta` steps on from `step` within the scope, clamped to its ends.
std::size_t step_by(const Scope& scope, std::size_t step, long delta);

// The next (or previous) step in the scope that carries a diagnostic or is one of `also` (sorted
// steps: those where the GPU disagrees, as loud as a diagnostic).
std::optional<std::size_t> next_diagnostic(const TraceIndex& index, const Scope& scope,
                                           std::size_t step, bool backward,
                                           std::span<const std::size_t> also = {});

// Up to `count` steps of `step`'s warp before it, oldest first.
std::vector<std::size_t> history_of(const TraceIndex& index, std::size_t step, std::size_t count);

// Where a warp stands when the trace's cursor is at `step`: how many of its steps are done.
struct WarpProgress {
  std::size_t done = 0;   // its steps at or before the cursor
  std::size_t total = 0;  // all its steps
};
WarpProgress warp_progress(const TraceIndex& index, WarpKey warp, std::size_t step);

}  // namespace warpsim::gui
