// The view model of one step: what every view of a trace shows, decided once. The terminal's lane
// table, the GUI's lane grid and arrows, SVG/PNG figures and the tests all read a StepView and
// decide nothing themselves about which lanes took part, what a cell says or how a lane is
// coloured. Plain C++, no GUI types.
//
//   TraceIndex index(trace);
//   StepView v = describe_step(trace, index, 3);
//   v.name == "__shfl_xor_sync"; v.lanes[17] == LaneState::took_part; v.source[17] == 1;
//   v.rows[0].kind == RowKind::input; v.rows[0].cells[17].text == "17"
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "warpsim/intrinsic_table.hpp"
#include "warpsim/trace.hpp"
#include "warpsim/trace_index.hpp"

namespace warpsim {

// How a lane stands at a step. Colour is never the only signal: every view also shows the name.
enum class LaneState : std::uint8_t {
  took_part,    // executed the call
  inactive,     // named in the mask but running elsewhere (diverged)
  not_in_mask,  // neither named nor at the call
  exited,       // returned from the kernel before the call
};
std::string_view to_string(LaneState state);  // "took part", "diverged elsewhere", ...

enum class ValueFormat : std::uint8_t {
  natural,  // as the step's type reads: 3.5 for floats, -7 for ints, masks in hex
  decimal,  // the bits as an integer (signed for signed types)
  hex,      // 0x0000002a (16 digits for 64-bit types)
  binary,   // 32 (or 64) binary digits
};
std::string_view to_string(ValueFormat format);
std::optional<ValueFormat> value_format_from_string(std::string_view name);

enum class RowKind : std::uint8_t {
  input,      // what each lane passed in (the predicate, for votes)
  argument,   // shuffles whose srcLane/delta/laneMask differs between lanes
  width,      // shuffles whose width differs between lanes
  source,     // shuffles: the lane each lane read
  output,     // what each lane received
  predicate,  // match_all's *pred
  other,      // the other side's output (a GPU run), when given
  after,      // what each lane holds after the step: what it passes in at the next pass of the
              // same call (StepViewOptions::after), where that differs from what it passed here
};

struct LaneCell {
  std::string text;        // empty when the lane has no value in this row
  bool undefined = false;  // CUDA leaves this result undefined
  bool changed = false;    // output row: the lane received bits other than it passed in
  bool differs = false;    // other row: differs from the simulator's output
};

struct StepRow {
  RowKind kind = RowKind::input;
  std::string label;  // "in", "laneMask", "width", "from", "out", "pred", "gpu", "after"
  std::array<LaneCell, kWarpSize> cells{};
};

struct StepView {
  std::size_t step = 0;        // index into Trace::steps
  WarpKey warp;
  std::uint32_t position = 0;  // 0-based among the warp's steps
  std::uint32_t warp_steps = 0;
  std::uint32_t pass = 0;      // 1-based: the n-th time this warp ran this line
  Op op{};
  ValueType type = ValueType::none;
  IntrinsicFamily family{};
  std::string name;            // CUDA spelling: "__shfl_xor_sync"
  std::string contract;        // what lane i receives, one line
  SourceLine where{};
  std::string site;            // "kernel.cu:9"
  // Facts shared by the participants, in order: ("mask", "0xffffffff"), ("laneMask", "16"),
  // ("width", "32"), ("type", "f32"). A shuffle argument that differs by lane is a row instead.
  std::vector<std::pair<std::string, std::string>> facts;
  LaneMask mask = 0, participants = 0, exited = 0, undefined = 0, inactive = 0;
  std::array<LaneState, kWarpSize> lanes{};
  std::array<std::int8_t, kWarpSize> source{};  // shuffles: the lane read (-1: none)
  std::array<std::int8_t, kWarpSize> group{};   // match_any: group number by lowest lane (-1: none)
  ResultKind result = ResultKind::value;
  std::vector<StepRow> rows;
  std::vector<std::size_t> diagnostics;  // indices into Trace::diagnostics tied to this step
  bool waits = false;                    // not a call: where every lane waits (wait_view.hpp)
  bool has_other = false;                // an `other` row is present
  LaneMask other_differs = 0;            // lanes whose other-side output differs
};

struct StepViewOptions {
  ValueFormat format = ValueFormat::natural;
  // The other side's output per lane (for example what the GPU's lane received at the same
  // call); nullopt for a lane the other side has no value for. Null: no other row.
  const std::array<std::optional<std::uint64_t>, kWarpSize>* other = nullptr;
  std::string other_label = "gpu";
  // An `after` row: each lane's value once the step's result is used (the butterfly's lane 0
  // holds 16 after round 1, a sort's lane its new key), read from the warp's next pass over the
  // same call, which passes the same expression. None at the last pass, or when no lane's differs.
  bool after = false;
};

// The step's row of that kind; null when it has none.
inline const StepRow* find_row(const StepView& v, RowKind kind) {
  for (const StepRow& r : v.rows) {
    if (r.kind == kind) return &r;
  }
  return nullptr;
}

StepView describe_step(const Trace& trace, const TraceIndex& index, std::size_t step,
                       const StepViewOptions& options = {});

// Whether a cell's text reads as zero in any ValueFormat ("0", "0x00000000", "000...0").
bool reads_as_zero(std::string_view text);

// One value as `format` shows it; masks (type none) in natural form are hex.
std::string format_bits(std::uint64_t bits, ValueType type, ValueFormat format);

// "kernel.cu:9": a source line with the file's last path component.
std::string site_text(const Trace& trace, SourceLine where);

}  // namespace warpsim
