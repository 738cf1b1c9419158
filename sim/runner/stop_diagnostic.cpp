#include "stop_diagnostic.hpp"

#include <csignal>
#include <cstdio>
#include <sstream>
#include <vector>

#include "kernel_child.hpp"
#include "sandbox_process.hpp"
#include "subprocess.hpp"
#include "warpsim/code_lines.hpp"
#include "warpsim/crash_note.hpp"
#include "warpsim/diagnostic_text.hpp"

namespace warpsim::runner {
namespace {

using runtime::CodeLine;

// The innermost frame in the user's file (else any known file) of the kernel object's offsets,
// through addr2line; `unknown` says why not when the object with lines could not be had.
CodeLine locate_frames(const StopContext& context, const StopReport& report,
                       std::string& unknown) {
  if (report.frame_count == 0 || find_program("addr2line").empty() || !context.object_with_lines)
    return {};
  const Expected<std::string> with_lines = context.object_with_lines();
  if (!with_lines) {
    const std::string& why = with_lines.error().message;
    unknown = why.substr(0, why.find('\n'));
    return {};
  }
  const std::string& object = *with_lines;
  const std::string& user_file = context.user_file;
  std::vector<std::string> argv{"addr2line", "-e", object, "-i"};
  for (std::uint32_t i = 0; i < report.frame_count; ++i) {
    std::ostringstream hex;
    hex << "0x" << std::hex << report.frames[i];
    argv.push_back(hex.str());
  }
  const ProcessOutput run = run_process(argv);
  if (!run.started || run.exit_code != 0) return {};
  CodeLine fallback;
  std::istringstream lines(run.output);
  for (std::string line; std::getline(lines, line);) {
    const std::optional<CodeLine> here = runtime::parse_code_line(line);
    if (!here) continue;
    if (here->file == user_file) return *here;
    if (fallback.file.empty()) fallback = *here;
  }
  return fallback;
}

std::string signal_description(const StopReport& report, std::size_t stack_bytes) {
  const std::uint64_t address = report.fault_address;
  const std::uint64_t distance = address > report.stack_pointer ? address - report.stack_pointer
                                                                : report.stack_pointer - address;
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(address));
  switch (report.signal) {
    case SIGSEGV:
      if (address < 4096) {
        return std::string(report.write_access == 1 ? "write through" : "access through") +
               " a null pointer (address " + hex + ")";
      }
      if (distance < 64 * 1024) {
        return "stack overflow: the lane used more than its " + std::to_string(stack_bytes / 1024) +
               " KiB stack (deep recursion or large local arrays?)";
      }
      {
        std::string text = std::string("invalid memory ") +
                           (report.write_access == 1   ? "write"
                            : report.write_access == 0 ? "read"
                                                       : "access") +
                           " at address " + hex;
        if (report.never_set_register != 0) {
          char hint[200];
          runtime::never_set_register_text(report.never_set_register, hint, sizeof hint);
          text += std::string("; ") + hint;
        }
        return text;
      }
    case SIGBUS:
      return std::string("bus error (misaligned or unmapped access) at address ") + hex;
    case SIGFPE:
      return "arithmetic fault (integer division by zero?)";
    case SIGILL:
      return "illegal instruction (__trap(), or a function that ends without return?)";
    case SIGABRT:
      return "the kernel aborted (a failed assert()?)";
    case SIGSYS:
      return "the sandbox stopped it: it called " + trapped_call_name(static_cast<long>(report.syscall)) +
             ", which a sandboxed kernel may not (no new processes, programs, sockets or signals "
             "to others; no file written, created or removed)";
    case SIGXFSZ:
      return "the sandbox stopped it: it wrote a file (or its output) past the sandbox's file "
             "size limit";
    case SIGXCPU:
      return "the sandbox stopped it: it used up its CPU time limit";
    default:
      return "signal " + std::to_string(report.signal);
  }
}

std::string lane_text(const StopReport& report, Dim3 block_idx) {
  std::ostringstream text;
  text << "block (" << block_idx.x << "," << block_idx.y << "," << block_idx.z << ") warp "
       << report.warp << " lane " << report.lane;
  return text.str();
}

// "; lanes 0-31 of warp 0 spun without progress at k.cu:5 (...)", or "" when no lane spun.
std::string spin_text(const StopReport& report, Dim3 block_idx) {
  if (report.spin_lanes == 0) return {};
  std::ostringstream text;
  text << "; " << lanes_text(report.spin_lanes) << " of warp " << report.spin_warp << " in block ("
       << block_idx.x << "," << block_idx.y << "," << block_idx.z << ") spun without progress";
  if (report.spin_line != 0) text << " at " << report.spin_file << ":" << report.spin_line;
  text << " (spinning lanes yield to the other lanes and warps of their block, as on Volta and "
          "later GPUs, and nothing they waited for happened: a livelock, or a flag that a later "
          "block sets, while warpsim runs blocks one at a time)";
  return text.str();
}

// "parameter 1 (f32[32])", "the buffer of field 2 of parameter 0 (f32[32])"
std::string buffer_text(const GuardedBuffer& buffer) {
  return (buffer.field >= 0 ? "the buffer of field " + std::to_string(buffer.field) + " of " : "") +
         "parameter " + std::to_string(buffer.arg) + " (" + std::string(to_string(buffer.type)) +
         "[" + std::to_string(buffer.count) + "])";
}

}  // namespace

Diagnostic write_before_diagnostic(const BufferOverwrite& write) {
  Diagnostic d;
  d.kind = DiagnosticKind::out_of_bounds;
  const std::string elements =
      write.first == write.last
          ? "element " + std::to_string(write.first)
          : "elements " + std::to_string(write.first) + " to " + std::to_string(write.last);
  d.message = "out-of-bounds write before " + buffer_text(*write.buffer) + ": " + elements +
              (write.buffer->count > 0
                   ? " (valid: 0.." + std::to_string(write.buffer->count - 1) + ")"
                   : " (the buffer is empty)") +
              " changed during the launch; seen afterwards in the bytes before the buffer, so "
              "the lane and line are unknown (--check bounds names them, and reads there too)";
  return d;
}

Diagnostic stop_diagnostic(const StopReport& report, const StopContext& context, Trace& trace) {
  Diagnostic d;
  const Dim3 block_idx{report.block_idx[0], report.block_idx[1], report.block_idx[2]};
  const bool has_position = report.have_lane != 0;
  d.block = block_idx.x + std::uint64_t{context.grid.x} *
                              (block_idx.y + std::uint64_t{context.grid.y} * block_idx.z);
  d.warp = report.warp;
  d.lanes = has_position ? lane_bit(static_cast<int>(report.lane)) : 0;
  std::string unknown_line;
  CodeLine where = locate_frames(context, report, unknown_line);
  if (where.line == 0 && report.last_line != 0) {
    where = {report.last_file, report.last_line};  // the lane's last warp-level call
  }
  if (where.line != 0) d.where = {trace.file_index(where.file), where.line};
  const std::string who = has_position ? lane_text(report, block_idx) : "the simulator";
  // Why the frames named no line, when it is known (the object with lines could not be had).
  const std::string unknown =
      unknown_line.empty() ? std::string()
      : where.line != 0    ? " (the lane's last warp-level call; its own line is unknown: " +
                              unknown_line + ")"
                           : " (line unknown: " + unknown_line + ")";
  const std::string at =
      (where.line != 0 ? " at " + where.file + ":" + std::to_string(where.line) : std::string()) +
      unknown;

  if (report.signal == kTimeLimitSignal) {
    std::ostringstream limit;
    limit << context.timeout_seconds;
    d.kind = DiagnosticKind::timeout;
    d.message = "kernel did not finish within " + limit.str() +
                " s (a lane loops forever without a warp-level call?); last running: " + who + at +
                spin_text(report, block_idx) + "; " + std::to_string(report.steps) +
                (report.steps == 1 ? " warp-level step" : " warp-level steps") + " ran";
    return d;
  }
  const GuardedBuffer* hit =
      report.buffer_arg >= 0 && context.buffers != nullptr
          ? context.buffers->for_arg(static_cast<std::size_t>(report.buffer_arg),
                                     static_cast<std::int32_t>(report.buffer_field))
          : nullptr;
  if (hit != nullptr) {
    d.kind = DiagnosticKind::out_of_bounds;
    const char* access = report.write_access == 1   ? "write"
                         : report.write_access == 0 ? "read"
                                                    : "access";
    d.message = std::string("out-of-bounds ") + access + " of " + buffer_text(*hit) +
                " at element " + std::to_string(report.element) +
                (hit->count > 0 ? " (valid: 0.." + std::to_string(hit->count - 1) + ")"
                                : " (the buffer is empty)") +
                " by " + who + at;
    return d;
  }
  if (report.shared_offset >= 0) {
    d.kind = DiagnosticKind::out_of_bounds;
    const char* access = report.write_access == 1   ? "write"
                         : report.write_access == 0 ? "read"
                                                    : "access";
    d.message = std::string("out-of-bounds ") + access +
                " of dynamic shared memory (extern __shared__) at byte " +
                std::to_string(report.shared_offset) + ", past the " +
                std::to_string(context.shared_bytes) + " bytes the launch gave (--shared) by " +
                who + at;
    return d;
  }
  d.kind = DiagnosticKind::kernel_fault;
  d.message =
      "kernel crashed: " + signal_description(report, context.stack_bytes) + " in " + who + at;
  return d;
}

}  // namespace warpsim::runner
