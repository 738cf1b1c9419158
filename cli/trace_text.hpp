// Terminal view of a Trace: each step as a lane table (8 lanes a row), diagnostics as lines.
// Reads the trace only; the walkthrough and `warpsim run` both print through it.
#pragma once

#include <cstddef>
#include <iosfwd>

#include "warpsim/trace.hpp"

namespace warpsim::cli {

struct TextStyle {
  bool color = false;  // ANSI colours for undefined results and diagnostics
};

// "step 2 of 5 · __shfl_xor_sync · mask 0xffffffff · laneMask 8 · kernel.cu:6 · block 0 warp 0"
// then rows: lane / in / from (shuffles) / out. Lanes that did not take part show "·", exited
// lanes "x", undefined results "?value".
void print_step(std::ostream& out, const Trace& trace, std::size_t index, const TextStyle& style);

// One line per diagnostic: kind, message, lanes, file:line, how often it recurred.
void print_diagnostics(std::ostream& out, const Trace& trace, const TextStyle& style);

}  // namespace warpsim::cli
