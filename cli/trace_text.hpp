// Terminal view of a trace: a step as a lane table (8 lanes a row) drawn from its StepView, and
// diagnostics as lines. Decides nothing about lanes itself: describe_step (warpsim/step_view.hpp)
// does, for this view, the GUI and figure export alike.
#pragma once

#include <iosfwd>

#include "warpsim/step_view.hpp"

namespace warpsim::cli {

struct TextStyle {
  bool color = false;  // ANSI colours (undefined results, diagnostics, differences, lane states)
  // The terminal's width in columns: a step's table puts as many lanes on a line as fit (32, 16,
  // 8, 4, 2 or 1). 0: 8 lanes a line, whatever their width (files, pipes, tests).
  int columns = 0;
};

// The width of the terminal on stdout (ioctl), else $COLUMNS, else 0 (not a terminal).
int terminal_columns();

// "step 2 of 5 · __shfl_xor_sync · mask 0xffffffff · laneMask 8 · kernel.cu:6 · block 0 warp 0"
// then rows (lane, in, from, out, ...), as many lanes a line as style.columns allows. Lanes without a value show their state: "·" diverged
// elsewhere or not in the mask, "x" exited; undefined results "?value"; a lane whose other-side
// value differs "!value".
void print_step(std::ostream& out, const StepView& view, const TextStyle& style);

// A key to the symbols print_step uses, one line.
void print_legend(std::ostream& out);

// One line per diagnostic: kind, lanes, file:line, how often it recurred, the message.
void print_diagnostic(std::ostream& out, const Trace& trace, const Diagnostic& diagnostic,
                      const TextStyle& style);
void print_diagnostics(std::ostream& out, const Trace& trace, const TextStyle& style);
// A diagnostic under its own step's table: the step's lanes and words, the union labelled.
void print_step_diagnostic(std::ostream& out, const Trace& trace, const Diagnostic& diagnostic,
                           const TextStyle& style);

}  // namespace warpsim::cli
