#include "run_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ostream>
#include <string_view>

namespace warpsim::runner {

namespace {

std::string dims(Dim3 d) {
  return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

std::string json_dims(Dim3 d) {
  return "[" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + "]";
}

// A launch extent as the user would type it: "32" or "8,4,1".
std::string shape(Dim3 d) {
  if (d.y == 1 && d.z == 1) return std::to_string(d.x);
  return std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z);
}

template <class T>
T element_at(const GuardedBuffer& buffer, std::uint64_t index) {
  T value{};
  std::memcpy(&value, buffer.data + index * sizeof(T), sizeof(T));
  return value;
}

std::string format_float(double value, int digits) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
  char text[40];
  std::snprintf(text, sizeof text, "%.*g", digits, value);
  return text;
}

// "lane 3", "lanes 0-15,17", "no lanes".
std::string lanes_text(LaneMask lanes) {
  if (lanes == 0) return "no lanes";
  return ((lanes & (lanes - 1)) == 0 ? "lane " : "lanes ") + format_lanes(lanes);
}

// Up to `head` values, "...", then the last `tail` ones.
std::string abbreviated_values(const GuardedBuffer& buffer, std::uint64_t head,
                               std::uint64_t tail) {
  std::string out = "[";
  auto append = [&](std::uint64_t i) {
    if (out.size() > 1) out += ", ";
    out += format_element(buffer, i);
  };
  if (buffer.count <= head + tail) {
    for (std::uint64_t i = 0; i < buffer.count; ++i) append(i);
  } else {
    for (std::uint64_t i = 0; i < head; ++i) append(i);
    out += ", ...";
    for (std::uint64_t i = buffer.count - tail; i < buffer.count; ++i) append(i);
  }
  return out + "]";
}

}  // namespace

Dim3 coordinates(std::uint64_t linear, Dim3 extent) {
  const std::uint64_t plane = std::uint64_t{extent.x} * extent.y;
  return {static_cast<std::uint32_t>(linear % extent.x),
          static_cast<std::uint32_t>((linear / extent.x) % extent.y),
          static_cast<std::uint32_t>(linear / plane)};
}

std::string format_element(const GuardedBuffer& buffer, std::uint64_t index) {
  switch (buffer.type) {
    case ElementType::i32:
      return std::to_string(element_at<std::int32_t>(buffer, index));
    case ElementType::u32:
      return std::to_string(element_at<std::uint32_t>(buffer, index));
    case ElementType::i64:
      return std::to_string(element_at<std::int64_t>(buffer, index));
    case ElementType::u64:
      return std::to_string(element_at<std::uint64_t>(buffer, index));
    case ElementType::f32:
      return format_float(element_at<float>(buffer, index), 9);
    case ElementType::f64:
      return format_float(element_at<double>(buffer, index), 17);
  }
  return "?";
}

void write_report_json(std::ostream& out, const RunReport& report) {
  out << "{\"kernel\":" << json_string(report.kernel)
      << ",\"status\":" << json_string(report.status) << ",\"buffers\":[";
  for (std::size_t b = 0; b < report.buffers.size(); ++b) {
    const GuardedBuffer& buffer = *report.buffers[b];
    out << (b == 0 ? "" : ",") << "{\"arg\":" << buffer.arg << ",\"type\":\""
        << to_string(buffer.type) << "\",\"values\":[";
    const bool is_float = buffer.type == ElementType::f32 || buffer.type == ElementType::f64;
    for (std::uint64_t i = 0; i < buffer.count; ++i) {
      const std::string value = format_element(buffer, i);
      const bool special = is_float && (value == "nan" || value == "inf" || value == "-inf");
      out << (i == 0 ? "" : ",") << (special ? json_string(value) : value);
    }
    out << "]}";
  }
  out << "],\"diagnostics\":[";
  for (std::size_t d = 0; d < report.diagnostics.size(); ++d) {
    const ReportDiagnostic& diagnostic = report.diagnostics[d];
    out << (d == 0 ? "" : ",") << "{\"kind\":" << json_string(diagnostic.kind)
        << ",\"message\":" << json_string(diagnostic.message)
        << ",\"lanes\":" << json_string(format_mask(diagnostic.lanes))
        << ",\"file\":" << (diagnostic.file.empty() ? "null" : json_string(diagnostic.file))
        << ",\"line\":" << (diagnostic.line == 0 ? "null" : std::to_string(diagnostic.line));
    if (diagnostic.has_position) {
      out << ",\"block\":" << json_dims(diagnostic.block_idx) << ",\"warp\":" << diagnostic.warp;
    }
    out << "}";
  }
  out << "],\"steps\":" << report.steps;
  if (!report.message.empty()) out << ",\"message\":" << json_string(report.message);
  out << ",\"printf\":[";
  for (std::size_t p = 0; p < report.printf_lines.size(); ++p) {
    const ReportPrintf& line = report.printf_lines[p];
    out << (p == 0 ? "" : ",") << "{\"block\":" << json_dims(line.block_idx)
        << ",\"thread\":" << json_dims(line.thread_idx) << ",\"text\":" << json_string(line.text)
        << "}";
  }
  out << "]";
  if (!report.gpu_json.empty()) out << ",\"gpu\":" << report.gpu_json;
  out << "}\n";
}

void write_report_text(std::ostream& out, const RunReport& report) {
  const std::uint64_t threads = report.block.count();
  const std::uint64_t warps = (threads + kWarpSize - 1) / kWarpSize;
  out << report.kernel << " from " << report.file << ": grid " << shape(report.grid) << ", block "
      << shape(report.block) << " (" << report.grid.count() << " block"
      << (report.grid.count() == 1 ? "" : "s") << " of " << threads << " threads, " << warps
      << " warp" << (warps == 1 ? "" : "s") << " each)\n";
  out << report.status << ", " << report.steps << " warp-level step"
      << (report.steps == 1 ? "" : "s") << "\n";
  const bool message_in_diagnostics =
      std::any_of(report.diagnostics.begin(), report.diagnostics.end(),
                  [&](const ReportDiagnostic& d) { return d.message == report.message; });
  if (!report.message.empty() && !message_in_diagnostics) out << report.message << "\n";

  if (!report.buffers.empty()) out << "\nbuffers after the launch:\n";
  for (const GuardedBuffer* buffer : report.buffers) {
    out << "  arg " << buffer->arg << "  " << to_string(buffer->type) << "[" << buffer->count
        << "]  " << abbreviated_values(*buffer, 16, 4);
    if (buffer->count > 20) out << "  (--json shows all " << buffer->count << ")";
    out << "\n";
  }

  out << "\n";
  if (report.diagnostics.empty()) {
    out << "diagnostics: none\n";
  } else {
    out << "diagnostics (" << report.diagnostics.size() << "):\n";
  }
  for (const ReportDiagnostic& diagnostic : report.diagnostics) {
    out << "  " << diagnostic.kind;
    if (!diagnostic.file.empty()) {
      out << " at " << diagnostic.file;
      if (diagnostic.line != 0) out << ":" << diagnostic.line;
    }
    if (diagnostic.has_position) {
      out << ", block " << dims(diagnostic.block_idx) << " warp " << diagnostic.warp << " "
          << lanes_text(diagnostic.lanes) << " (" << format_mask(diagnostic.lanes) << ")";
    }
    out << "\n    " << diagnostic.message << "\n";
  }

  if (!report.printf_lines.empty()) {
    out << "\ndevice printf (" << report.printf_lines.size() << "):\n";
    for (const ReportPrintf& line : report.printf_lines) {
      out << "  block " << dims(line.block_idx) << " thread " << dims(line.thread_idx) << ": "
          << line.text;
      if (line.text.empty() || line.text.back() != '\n') out << "\n";
    }
  }

  if (!report.gpu_text.empty()) out << "\n" << report.gpu_text;
  if (!report.gpu_printf.empty()) {
    out << "\nGPU printf:\n";
    std::size_t start = 0;
    while (start < report.gpu_printf.size()) {
      std::size_t end = report.gpu_printf.find('\n', start);
      if (end == std::string::npos) end = report.gpu_printf.size();
      out << "  " << std::string_view(report.gpu_printf).substr(start, end - start) << "\n";
      start = end + 1;
    }
  }
}

}  // namespace warpsim::runner
