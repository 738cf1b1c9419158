// The trace: plain data, one step per warp-level call (and per block barrier), plus diagnostics.
// Everything that shows or checks a simulation (terminal, JSON, GUI, tests, GPU comparison) reads
// this and nothing else.
#pragma once

#include <array>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string_view>
#include <string>
#include <vector>

#include "warpsim/expected.hpp"
#include "warpsim/semantics.hpp"
#include "warpsim/step_log.hpp"

namespace warpsim {

struct Dim3 {
  std::uint32_t x = 1, y = 1, z = 1;
  constexpr std::uint64_t count() const { return std::uint64_t{x} * y * z; }
  friend constexpr bool operator==(const Dim3&, const Dim3&) = default;
};

enum class DiagnosticKind : std::uint8_t {
  caller_not_in_mask,      // a lane called with a mask that does not name itself
  mask_mismatch,           // lanes that met at one collective passed different masks
  missing_lane,            // a lane named in the mask never arrived (it sat elsewhere or ran on)
  undefined_source,        // a shuffle read a lane that exited, did not call, or is outside the mask
  split_call_sites,        // lanes met at one collective from different source lines
  divergent_syncthreads,   // __syncthreads reached at different lines, or by only part of a block
  named_lane_exited_later, // a named lane had not exited at the call, skipped it and exited later
  activemask_as_mask,      // a mask that __activemask() returned, passed as a member mask
  uninitialised_value,     // a lane's never-set local went into a collective another lane read
  deadlock,                // no lane can make progress (hardware hangs); simulation stopped
  step_budget_exceeded,    // runaway kernel; simulation stopped
  out_of_bounds,           // a lane touched memory outside a buffer warpsim allocated
  kernel_fault,            // the kernel crashed (bad pointer, stack overflow, ...)
  timeout,                 // the run passed its wall-clock limit (a lane looping without calls)
  data_race,               // two threads touched the same bytes, one wrote, nothing ordered them
  uninitialized_shared_read,  // a thread read __shared__ bytes no thread of its block wrote
  uninitialized_global_read,  // a thread read cudaMalloc'd bytes nothing wrote since (exec)
  uninitialized_local_stored,  // a thread stored a value its own never-set local held to memory
};
inline constexpr int kDiagnosticKindCount =
    static_cast<int>(DiagnosticKind::uninitialized_local_stored) + 1;
std::string_view to_string(DiagnosticKind kind);
std::optional<DiagnosticKind> diagnostic_kind_from_string(std::string_view name);

struct Diagnostic {
  DiagnosticKind kind{};
  std::string message;       // one sentence a student can act on
  LaneMask lanes = 0;        // the lanes concerned, within `warp`
  std::uint64_t block = 0;   // linear block index
  std::uint32_t warp = 0;    // warp index within the block
  std::int64_t step = -1;    // index into Trace::steps, -1 when not tied to a step
  SourceLine where{};
  std::uint64_t occurrences = 1;  // same kind at the same line again (other warps, iterations)
  // When it recurred: `lanes` and `message` name the union over every occurrence; these name
  // only those of its own step (`step`), as that step's figure shows them. Empty / 0: the same
  // as `message` / `lanes`.
  std::string step_message;
  LaneMask step_lanes = 0;
  // A second line the finding names: a data race's other access (`where` is the later one).
  // Line 0: none.
  SourceLine other_where{};
  // A memory finding (a race, an uninitialised read) of a run that records steps: the last step
  // recorded before the access it names (`where`), where the views open on it. -1: none.
  std::int64_t step_before = -1;
};

// One device printf call, captured per lane.
struct PrintfRecord {
  std::uint64_t block = 0;   // linear block index
  std::uint32_t thread = 0;  // linear thread index within the block
  std::string text;
};

// Where one lane stood when a launch stopped in a deadlock.
struct LaneWait {
  enum class State : std::uint8_t {
    not_a_thread,  // beyond the block's last thread (a partial warp)
    exited,        // returned from the kernel
    in_call,       // waits in a warp-level call: `op` at `where`, with member mask `mask`
    at_barrier,    // waits at a block barrier: `op` at `where`
    running,       // in none (cannot happen once every lane is quiescent; kept so none is lost)
  };
  State state = State::not_a_thread;
  Op op{};
  SourceLine where{};
  LaneMask mask = 0;
  friend bool operator==(const LaneWait&, const LaneWait&) = default;
};

// One warp of the block a deadlock stopped, every lane as it waits: the trace's last word on it.
struct WarpWait {
  std::uint64_t block = 0;   // linear block index
  std::uint32_t warp = 0;    // warp index within the block
  std::array<LaneWait, kWarpSize> lanes{};
  friend bool operator==(const WarpWait&, const WarpWait&) = default;
};

struct Trace {
  Dim3 grid, block;
  std::vector<std::string> files;  // source files named by SourceLine::file
  StepLog steps;                   // one step per warp-level call, compactly stored
  std::vector<Diagnostic> diagnostics;
  std::vector<PrintfRecord> printf_records;  // in the order lanes printed
  // A launch stopped in a deadlock: where every lane of each warp of the stopped block waits.
  std::vector<WarpWait> waits;

  std::uint32_t file_index(const std::string& path);  // interns a file name
};

// A diagnostic as the views show it on its own step: its kind, the step's lanes and message,
// then, when it recurred, the union labelled as such: "missing_lane (lanes 1-3): ... (over 4 steps
// at this line: lanes 0-7)". Files are named by their last path component.
std::string diagnostic_at_step_text(const Trace& trace, const Diagnostic& diagnostic);
// "over 4 steps at this line: lanes 0-7" (empty when it did not recur or named no other lanes).
std::string diagnostic_union_text(const Diagnostic& diagnostic);

// "0-15,17,20-22": lanes of a mask, for messages. "none" for an empty mask.
std::string format_lanes(LaneMask lanes);
// "0x0000ffff"
std::string format_mask(LaneMask mask);
// A value as a student reads it: "3.5" for floats (shortest round-trip), "-7" for signed,
// "42" for unsigned, "0x..." for untyped bits (ValueType::none).
std::string format_value(std::uint64_t bits, ValueType type);

// `text` as a JSON string literal, quotes included: `"` and `\` escaped, \n \t \r by name, other
// control characters as \u00XX, every other byte as it is. Every JSON warpsim writes uses it.
std::string json_string(std::string_view text);

// Deterministic JSON form (hex strings for bits, stable key order). Used by --trace and tests.
void write_trace_json(std::ostream& out, const Trace& trace);

// Reads what write_trace_json wrote; malformed input is an error saying why (the file is external
// input: a user may hand over a truncated or edited trace). Per-lane arg/width/src are only in
// the JSON for shuffles; elsewhere they read back as 0/0/-1, as the simulator records them.
Expected<Trace> read_trace_json(std::istream& in);
// The same from text (e.g. as `warpsim run`'s child process sends it).
Expected<Trace> read_trace_json(std::string_view text);

}  // namespace warpsim
