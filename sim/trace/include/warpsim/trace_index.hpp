// An index over a Trace, for everything that navigates one (the terminal walkthrough, the GUI's
// timeline and warp list, lessons that anchor notes to source lines, the grader): the steps of
// each warp, where each step sits in its warp and how many times its warp has run that line, the
// diagnostics of each step, and searches (next diagnostic, next step where a lane's value changes).
// Built once per trace; plain data, no GUI types.
//
//   TraceIndex index(trace);
//   for (std::size_t s : index.steps_of({0, 0})) ...          // block 0, warp 0, in order
//   auto step = index.find({0, 0}, {file, 9}, 2);             // the 2nd pass over line 9
//   index.info(*step).pass == 2
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "warpsim/trace.hpp"

namespace warpsim {

struct WarpKey {
  std::uint64_t block = 0;  // linear block index
  std::uint32_t warp = 0;   // warp index within the block
  friend constexpr auto operator<=>(const WarpKey&, const WarpKey&) = default;
};

// What the index knows of one step without decoding it again.
struct StepInfo {
  WarpKey warp;
  Op op{};
  SourceLine where{};          // the call site of its lowest participant
  LaneMask participants = 0;
  std::uint32_t position = 0;  // 0-based position among its warp's steps
  std::uint32_t pass = 0;      // 1-based: how many times its warp has run a step at `where`
};

struct WarpSummary {
  WarpKey warp;
  std::size_t steps = 0;        // steps of this warp
  std::size_t diagnostics = 0;  // diagnostics naming this warp
  bool deadlocked = false;      // a deadlock stopped it: lanes of it wait for good (Trace::waits)
};

class TraceIndex {
 public:
  TraceIndex() = default;
  explicit TraceIndex(const Trace& trace);

  std::size_t step_count() const { return info_.size(); }
  const StepInfo& info(std::size_t step) const { return info_.at(step); }

  // Every warp with steps or diagnostics, in (block, warp) order.
  std::span<const WarpSummary> warps() const { return warps_; }
  // The steps of `warp` in trace order (empty for an unknown warp).
  std::span<const std::size_t> steps_of(WarpKey warp) const;
  // Steps of `warp` in which `lane` took part.
  std::vector<std::size_t> steps_of_lane(WarpKey warp, int lane) const;
  // Steps at `line` in any warp, in trace order.
  std::vector<std::size_t> steps_at(SourceLine line) const;
  // The `pass`-th (1-based) step of `warp` at `line`.
  std::optional<std::size_t> find(WarpKey warp, SourceLine line, std::uint32_t pass) const;
  // Source lines that hold steps, each once, in (file, line) order.
  std::vector<SourceLine> lines() const;

  // Where every lane of `warp` waits when a deadlock stopped the launch (after its last step);
  // null when it did not stop there.
  const WarpWait* wait_of(WarpKey warp) const;

  // Indices into trace.diagnostics tied to `step`; those tied to no step.
  std::vector<std::size_t> diagnostics_of(std::size_t step) const;
  std::span<const std::size_t> unplaced_diagnostics() const { return unplaced_; }
  // Steps that carry diagnostics, in order.
  std::span<const std::size_t> diagnostic_steps() const { return diagnostic_steps_; }
  // The first step after `step` (or at or after it, with `inclusive`) that carries a diagnostic,
  // optionally only in `warp`.
  std::optional<std::size_t> next_diagnostic(std::size_t step, std::optional<WarpKey> warp = {},
                                              bool inclusive = false) const;
  std::optional<std::size_t> previous_diagnostic(std::size_t step,
                                                 std::optional<WarpKey> warp = {}) const;
  // The first step of `warp` after `step` in which `lane` took part and received a value whose
  // bits differ from what it passed in ("break when lane 5's value changes").
  std::optional<std::size_t> next_change(const Trace& trace, WarpKey warp, int lane,
                                         std::size_t step) const;

 private:
  struct WarpSteps {
    WarpKey warp;
    std::vector<std::size_t> steps;
  };
  const WarpSteps* warp_steps(WarpKey warp) const;

  std::vector<StepInfo> info_;
  std::vector<WarpSteps> by_warp_;  // sorted by warp
  std::vector<WarpSummary> warps_;
  std::vector<std::pair<std::size_t, std::size_t>> placed_;  // (step, diagnostic), sorted
  std::vector<std::size_t> unplaced_;
  std::vector<std::size_t> diagnostic_steps_;
  std::vector<WarpWait> waits_;  // as Trace::waits
};

}  // namespace warpsim
