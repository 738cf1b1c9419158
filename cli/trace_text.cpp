#include "trace_text.hpp"

#include <algorithm>
#include <bit>
#include <ostream>
#include <string>
#include <vector>

namespace warpsim::cli {
namespace {

constexpr int kLanesPerRow = 8;

std::string site(const Trace& trace, SourceLine where) {
  std::string file = where.file < trace.files.size() ? trace.files[where.file] : "?";
  const auto slash = file.find_last_of('/');
  if (slash != std::string::npos) file = file.substr(slash + 1);
  return file + ":" + std::to_string(where.line);
}

bool result_is_mask(Op op) {
  return op == Op::ballot || op == Op::match_any || op == Op::match_all || op == Op::activemask;
}

std::string arg_name(Op op) {
  switch (op) {
    case Op::shfl_idx:
      return "srcLane";
    case Op::shfl_xor:
      return "laneMask";
    default:
      return "delta";
  }
}

std::string pad(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

}  // namespace

void print_step(std::ostream& out, const Trace& trace, std::size_t index, const TextStyle& style) {
  const TraceStep& s = trace.steps.at(index);
  const int first = std::countr_zero(s.participants | (s.participants == 0 ? 1u : 0u));
  const bool shuffle = is_shuffle(s.op);
  const ValueType in_type = s.type;
  const ValueType out_type = result_is_mask(s.op) ? ValueType::none : s.type;

  out << "step " << index + 1 << " of " << trace.steps.size() << " · __" << to_string(s.op)
      << " · mask " << format_mask(s.mask);
  bool uniform_arg = true, uniform_width = true;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (!has_lane(s.participants, lane)) continue;
    uniform_arg = uniform_arg && s.arg[lane] == s.arg[first];
    uniform_width = uniform_width && s.width[lane] == s.width[first];
  }
  if (shuffle && uniform_arg) out << " · " << arg_name(s.op) << " " << s.arg[first];
  if (shuffle && uniform_width) out << " · width " << s.width[first];
  out << " · " << site(trace, s.where[first]) << " · block " << s.block << " warp " << s.warp
      << '\n';

  std::vector<std::string> in(kWarpSize), arg(kWarpSize), from(kWarpSize), result(kWarpSize);
  std::size_t width = 3;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const bool took_part = has_lane(s.participants, lane);
    const std::string absent = has_lane(s.exited, lane) ? "x" : "·";
    in[lane] = took_part ? format_value(s.input[lane], in_type) : absent;
    arg[lane] = took_part ? std::to_string(s.arg[lane]) : absent;
    from[lane] = took_part ? std::to_string(s.src_lane[lane]) : absent;
    result[lane] = took_part ? format_value(s.output[lane], out_type) : absent;
    if (took_part && has_lane(s.undefined, lane)) result[lane] = "?" + result[lane];
    for (const std::string* t : {&in[lane], &arg[lane], &from[lane], &result[lane]}) {
      width = std::max(width, t->size());
    }
  }
  const std::string red = style.color ? "\033[31m" : "", reset = style.color ? "\033[0m" : "";
  for (int row = 0; row < kWarpSize / kLanesPerRow; ++row) {
    const int begin = row * kLanesPerRow;
    const auto line = [&](const char* label, const std::vector<std::string>& cells) {
      out << "  " << label << " |";
      for (int lane = begin; lane < begin + kLanesPerRow; ++lane) {
        const bool undefined = &cells == &result && has_lane(s.undefined, lane);
        out << ' ' << (undefined ? red : "") << pad(cells[lane], width) << (undefined ? reset : "");
      }
      out << '\n';
    };
    std::vector<std::string> lanes(kWarpSize);
    for (int lane = 0; lane < kWarpSize; ++lane) lanes[lane] = std::to_string(lane);
    line("lane", lanes);
    line("in  ", in);
    if (shuffle && !uniform_arg) line("arg ", arg);
    if (shuffle) line("from", from);
    line("out ", result);
  }
}

void print_diagnostics(std::ostream& out, const Trace& trace, const TextStyle& style) {
  const std::string yellow = style.color ? "\033[33m" : "", reset = style.color ? "\033[0m" : "";
  for (const Diagnostic& d : trace.diagnostics) {
    out << yellow << to_string(d.kind) << reset << " at " << site(trace, d.where) << " (block "
        << d.block << ", warp " << d.warp << ", lanes " << format_lanes(d.lanes) << ")";
    if (d.occurrences > 1) out << ", " << d.occurrences << " times";
    out << ": " << d.message << '\n';
  }
}

}  // namespace warpsim::cli
