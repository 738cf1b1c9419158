// Small helpers for suites that launch kernels in-process with warpsim::launch.
#pragma once

#include "warpsim/launch.hpp"

namespace warpsim::test {

inline LaunchOptions shape(unsigned grid, unsigned block) {
  LaunchOptions options;
  options.grid = {grid};
  options.block = {block};
  return options;
}

inline bool has_diagnostic(const Trace& trace, DiagnosticKind kind) {
  for (const Diagnostic& d : trace.diagnostics) {
    if (d.kind == kind) return true;
  }
  return false;
}

}  // namespace warpsim::test
