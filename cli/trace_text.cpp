#include "trace_text.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <ostream>
#include <string>

namespace warpsim::cli {
namespace {

constexpr int kLanesPerRow = 8;  // without a known width

// Lanes a line: the most of 32, 16, ..., 1 whose cells fit `columns` after the label.
int lanes_per_row(int columns, std::size_t label_width, std::size_t width) {
  if (columns <= 0) return kLanesPerRow;
  for (int n = kWarpSize; n > 1; n /= 2) {
    const std::size_t line = 2 + label_width + 2 + static_cast<std::size_t>(n) * (width + 1);
    if (line <= static_cast<std::size_t>(columns)) return n;
  }
  return 1;
}

std::string pad(const std::string& text, std::size_t width) {
  // Width in characters as a terminal shows them: "·" is one column but two bytes.
  std::size_t columns = 0;
  for (const char c : text) columns += (static_cast<unsigned char>(c) & 0xc0) != 0x80;
  return columns >= width ? text : std::string(width - columns, ' ') + text;
}

std::string absent(LaneState state) { return state == LaneState::exited ? "x" : "·"; }

}  // namespace

int terminal_columns() {
  winsize size{};
  if (isatty(STDOUT_FILENO) != 0 && ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) {
    return size.ws_col;
  }
  if (const char* columns = std::getenv("COLUMNS")) {
    const int n = std::atoi(columns);
    if (n > 0) return n;
  }
  return 0;
}

void print_step(std::ostream& out, const StepView& v, const TextStyle& style) {
  const std::string red = style.color ? "\033[31m" : "", magenta = style.color ? "\033[35m" : "",
                    dim = style.color ? "\033[2m" : "", reset = style.color ? "\033[0m" : "";
  if (v.waits) {
    out << (v.warp_steps == 0 ? std::string("before any step")
                              : "after step " + std::to_string(v.warp_steps) + " of " +
                                    std::to_string(v.warp_steps))
        << " · " << v.name;
  } else {
    out << "step " << v.position + 1 << " of " << v.warp_steps << " · " << v.name;
  }
  for (const auto& [name, value] : v.facts) out << " · " << name << " " << value;
  out << " · " << v.site << " · block " << v.warp.block << " warp " << v.warp.warp << '\n';

  std::size_t width = 3, label_width = 4;
  for (const StepRow& row : v.rows) {
    for (const LaneCell& cell : row.cells) width = std::max(width, cell.text.size() + 1);
    label_width = std::max(label_width, row.label.size());
  }
  const int per_row = lanes_per_row(style.columns, label_width, width);
  for (int begin = 0; begin < kWarpSize; begin += per_row) {
    out << "  " << pad("lane", label_width) << " |";
    for (int lane = begin; lane < begin + per_row; ++lane) {
      out << ' ' << pad(std::to_string(lane), width);
    }
    out << '\n';
    for (const StepRow& row : v.rows) {
      out << "  " << pad(row.label, label_width) << " |";
      for (int lane = begin; lane < begin + per_row; ++lane) {
        const LaneCell& cell = row.cells[static_cast<std::size_t>(lane)];
        const LaneState state = v.lanes[static_cast<std::size_t>(lane)];
        if (cell.text.empty()) {
          out << ' ' << dim << pad(absent(state), width) << reset;
        } else if (cell.undefined) {
          out << ' ' << red << pad("?" + cell.text, width) << reset;
        } else if (cell.differs) {
          out << ' ' << magenta << pad("!" + cell.text, width) << reset;
        } else {
          out << ' ' << pad(cell.text, width);
        }
      }
      out << '\n';
    }
  }
}

void print_legend(std::ostream& out) {
  out << "  (· no value here: diverged elsewhere or not in the mask · x exited · ?undefined "
         "result · !differs from the GPU)\n";
}

void print_diagnostic(std::ostream& out, const Trace& trace, const Diagnostic& d,
                      const TextStyle& style) {
  const std::string yellow = style.color ? "\033[33m" : "", reset = style.color ? "\033[0m" : "";
  out << yellow << to_string(d.kind) << reset;
  if (d.where.line != 0) out << " at " << site_text(trace, d.where);
  // No lanes: a finding made after the launch (a write before an allocation), naming no thread.
  if (d.lanes != 0) {
    out << " (block " << d.block << ", warp " << d.warp << ", lanes " << format_lanes(d.lanes) << ")";
  }
  if (d.occurrences > 1) out << ", " << d.occurrences << " times";
  out << ": " << d.message << '\n';
}

void print_step_diagnostic(std::ostream& out, const Trace& trace, const Diagnostic& d,
                           const TextStyle& style) {
  const std::string yellow = style.color ? "\033[33m" : "", reset = style.color ? "\033[0m" : "";
  const std::string text = diagnostic_at_step_text(trace, d);
  const std::string kind(to_string(d.kind));
  out << yellow << kind << reset << text.substr(kind.size()) << '\n';
}

void print_diagnostics(std::ostream& out, const Trace& trace, const TextStyle& style) {
  for (const Diagnostic& d : trace.diagnostics) print_diagnostic(out, trace, d, style);
}

}  // namespace warpsim::cli
