// The trace's JSON form: stable key order, hex strings for bits, one step per line so that
// diffs between two traces read step by step.
#include <cstdio>
#include <ostream>

#include "warpsim/trace.hpp"

namespace warpsim {
namespace {

void write_bits(std::ostream& out, std::uint64_t bits, bool wide) {
  char buffer[24];
  if (wide) {
    std::snprintf(buffer, sizeof buffer, "\"0x%016llx\"", static_cast<unsigned long long>(bits));
  } else {
    std::snprintf(buffer, sizeof buffer, "\"0x%08x\"", static_cast<unsigned>(bits));
  }
  out << buffer;
}

void write_step(std::ostream& out, const TraceStep& s, std::size_t index) {
  const bool wide = is_64bit(s.type);
  out << "{\"i\":" << index << ",\"op\":";
  out << json_string(to_string(s.op));
  if (s.type != ValueType::none) {
    out << ",\"type\":";
    out << json_string(to_string(s.type));
  }
  out << ",\"block\":" << s.block << ",\"warp\":" << s.warp << ",\"seq\":" << s.sequence
      << ",\"mask\":";
  write_bits(out, s.mask, false);
  out << ",\"participants\":";
  write_bits(out, s.participants, false);
  out << ",\"exited\":";
  write_bits(out, s.exited, false);
  out << ",\"undefined\":";
  write_bits(out, s.undefined, false);
  out << ",\"pred\":";
  write_bits(out, s.pred, false);
  out << ",\"lanes\":[";
  bool first = true;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (!has_lane(s.participants, lane)) continue;
    if (!first) out << ',';
    first = false;
    out << "{\"lane\":" << lane << ",\"in\":";
    write_bits(out, s.input[lane], wide);
    if (has_argument(s.op)) {  // shuffles; a named barrier's id and count
      out << ",\"arg\":" << s.arg[lane] << ",\"width\":" << s.width[lane]
          << ",\"src\":" << static_cast<int>(s.src_lane[lane]);
    }
    out << ",\"out\":";
    write_bits(out, s.output[lane], wide && !result_is_mask(s.op));
    out << ",\"mask\":";
    write_bits(out, s.lane_mask[lane], false);
    out << ",\"file\":" << s.where[lane].file << ",\"line\":" << s.where[lane].line << '}';
  }
  out << "]}";
}

}  // namespace

std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
          out += escaped;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

void write_trace_json(std::ostream& out, const Trace& trace) {
  out << "{\"format\":\"warpsim-trace\",\"version\":1,\"grid\":[" << trace.grid.x << ','
      << trace.grid.y << ',' << trace.grid.z << "],\"block\":[" << trace.block.x << ','
      << trace.block.y << ',' << trace.block.z << "],\n\"files\":[";
  for (std::size_t i = 0; i < trace.files.size(); ++i) {
    if (i > 0) out << ',';
    out << json_string(trace.files[i]);
  }
  out << "],\n\"steps\":[";
  for (std::size_t i = 0; i < trace.steps.size(); ++i) {
    out << (i > 0 ? ",\n" : "\n");
    write_step(out, trace.steps[i], i);
  }
  out << "],\n\"diagnostics\":[";
  for (std::size_t i = 0; i < trace.diagnostics.size(); ++i) {
    const Diagnostic& d = trace.diagnostics[i];
    out << (i > 0 ? ",\n" : "\n") << "{\"kind\":";
    out << json_string(to_string(d.kind));
    out << ",\"message\":";
    out << json_string(d.message);
    out << ",\"lanes\":";
    write_bits(out, d.lanes, false);
    out << ",\"block\":" << d.block << ",\"warp\":" << d.warp << ",\"step\":" << d.step
        << ",\"file\":" << d.where.file << ",\"line\":" << d.where.line
        << ",\"occurrences\":" << d.occurrences;
    if (!d.step_message.empty()) {  // only a diagnostic that recurred with other lanes has them
      out << ",\"step_message\":" << json_string(d.step_message) << ",\"step_lanes\":";
      write_bits(out, d.step_lanes, false);
    }
    if (d.other_where.line != 0) {  // a race's other line
      out << ",\"other_file\":" << d.other_where.file << ",\"other_line\":" << d.other_where.line;
    }
    if (d.step_before >= 0) out << ",\"step_before\":" << d.step_before;
    out << '}';
  }
  out << "],\n\"printf\":[";
  for (std::size_t i = 0; i < trace.printf_records.size(); ++i) {
    const PrintfRecord& p = trace.printf_records[i];
    out << (i > 0 ? ",\n" : "\n") << "{\"block\":" << p.block << ",\"thread\":" << p.thread
        << ",\"text\":";
    out << json_string(p.text);
    out << '}';
  }
  out << ']';
  if (!trace.waits.empty()) {  // only a deadlock writes it: other traces read as they always did
    out << ",\n\"waits\":[";
    for (std::size_t i = 0; i < trace.waits.size(); ++i) {
      const WarpWait& w = trace.waits[i];
      out << (i > 0 ? ",\n" : "\n") << "{\"block\":" << w.block << ",\"warp\":" << w.warp
          << ",\"lanes\":[";
      for (std::size_t lane = 0; lane < w.lanes.size(); ++lane) {
        const LaneWait& l = w.lanes[lane];
        out << (lane > 0 ? "," : "") << "{\"state\":" << static_cast<int>(l.state)
            << ",\"op\":" << json_string(to_string(l.op)) << ",\"file\":" << l.where.file
            << ",\"line\":" << l.where.line << ",\"mask\":";
        write_bits(out, l.mask, false);
        out << '}';
      }
      out << "]}";
    }
    out << ']';
  }
  out << "}\n";
}

}  // namespace warpsim
