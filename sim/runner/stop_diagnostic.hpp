// What a StopReport (a crash or the time limit, caught in the child) means for the user: one
// diagnostic naming the lane, the source line (addr2line on the kernel object's frames, else the
// lane's last warp-level call) and, for a fault in a guard page, the buffer and element.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "argument_buffers.hpp"
#include "child_protocol.hpp"
#include "warpsim/expected.hpp"
#include "warpsim/trace.hpp"

namespace warpsim::runner {

struct StopContext {
  double timeout_seconds = 0;
  std::size_t stack_bytes = 0;  // per-lane fiber stack, for stack overflow messages
  std::size_t shared_bytes = 0;  // the launch's dynamic shared memory, for overflow messages
  const ArgumentBuffers* buffers = nullptr;
  // An object with the compiled kernel's code and line information, for addr2line
  // (object_with_lines), or why there is none. Asked only when a report has frames to name.
  std::function<Expected<std::string>()> object_with_lines;
  std::string user_file;      // absolute path, as `#line` named it
  Dim3 grid{};                // to turn the report's block coordinates into a linear index
};

// timeout, out_of_bounds or kernel_fault; the diagnostic's file is interned into `trace`.
Diagnostic stop_diagnostic(const StopReport& report, const StopContext& context, Trace& trace);

// out_of_bounds for a write before a buffer found after the launch (no lane, no line).
Diagnostic write_before_diagnostic(const BufferOverwrite& write);

}  // namespace warpsim::runner
