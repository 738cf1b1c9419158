// What `warpsim run` prints: the run.md JSON object, or a report for people.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "argument_buffers.hpp"
#include "warpsim/trace.hpp"

namespace warpsim::runner {

struct ReportDiagnostic {
  std::string kind;  // DiagnosticKind's name, or "timeout"
  std::string message;
  LaneMask lanes = 0;
  bool has_position = false;  // whether block and warp below are known
  Dim3 block_idx{};
  std::uint32_t warp = 0;
  std::string file;  // empty when unknown
  std::uint32_t line = 0;
};

struct ReportPrintf {
  Dim3 block_idx{};
  Dim3 thread_idx{};
  std::string text;
};

struct RunReport {
  std::string kernel;
  std::string file;  // as the user named it
  Dim3 grid{}, block{};
  std::string status;   // "completed", "deadlock", "crashed", "timeout", ...
  std::string message;  // why the launch stopped; empty when it completed
  std::uint64_t steps = 0;
  std::vector<const GuardedBuffer*> buffers;  // in parameter order
  std::vector<ReportDiagnostic> diagnostics;
  std::vector<ReportPrintf> printf_lines;
  // --gpu: the "gpu" member's JSON object (empty: no member) and the readable lines, with what the
  // device's printf wrote.
  std::string gpu_json;
  std::string gpu_text;
  std::string gpu_printf;
};

// The coordinates of a linear block or thread index within `extent`.
Dim3 coordinates(std::uint64_t linear, Dim3 extent);

// One element of a buffer as JSON would write it: integers exactly, f32 with %.9g, f64 with
// %.17g; NaN and infinities as the strings "nan", "inf", "-inf" (JSON has no such numbers).
std::string format_element(const GuardedBuffer& buffer, std::uint64_t index);

void write_report_json(std::ostream& out, const RunReport& report);
void write_report_text(std::ostream& out, const RunReport& report);

}  // namespace warpsim::runner
