#include "run_report.hpp"

#include <algorithm>
#include <ostream>
#include <string_view>

#include "gpu_report.hpp"

namespace warpsim::cli {

using json = nlohmann::ordered_json;

namespace {

std::string dims(Dim3 d) {
  return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

json dims_json(Dim3 d) { return json::array({d.x, d.y, d.z}); }

// Element `i` of `buffer` as format_element and element_json take it.
runner::ShownElement shown(const runner::OutputBuffer& buffer, std::uint64_t i) {
  return runner::shown_element(buffer.type, buffer.element(i));
}

// "lane 3", "lanes 0-15,17", "no lanes".
std::string lanes_text(LaneMask lanes) {
  if (lanes == 0) return "no lanes";
  return ((lanes & (lanes - 1)) == 0 ? "lane " : "lanes ") + format_lanes(lanes);
}

}  // namespace

// Up to `head` values, "...", then the last `tail` ones.
std::string buffer_text(const runner::OutputBuffer& buffer, std::uint64_t head, std::uint64_t tail) {
  const std::uint64_t count = buffer.count();
  std::string out = "[";
  auto append = [&](std::uint64_t i) {
    if (out.size() > 1) out += ", ";
    const runner::ShownElement element = shown(buffer, i);
    out += format_element(element.bits, element.type);
  };
  if (count <= head + tail) {
    for (std::uint64_t i = 0; i < count; ++i) append(i);
  } else {
    for (std::uint64_t i = 0; i < head; ++i) append(i);
    out += ", ...";
    for (std::uint64_t i = count - tail; i < count; ++i) append(i);
  }
  return out + "]";
}

namespace {

std::string file_of(const Trace& trace, SourceLine where) {
  return where.line != 0 && where.file < trace.files.size() ? trace.files[where.file] : "";
}

// Diagnostics without lanes are not tied to a lane (a crash the simulator could not place).
bool has_position(const Diagnostic& d) { return d.lanes != 0; }

}  // namespace

std::string shape_text(Dim3 d) {
  if (d.y == 1 && d.z == 1) return std::to_string(d.x);
  return std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z);
}

Dim3 coordinates(std::uint64_t linear, Dim3 extent) {
  const std::uint64_t plane = std::uint64_t{extent.x} * extent.y;
  return {static_cast<std::uint32_t>(linear % extent.x),
          static_cast<std::uint32_t>((linear / extent.x) % extent.y),
          static_cast<std::uint32_t>(linear / plane)};
}

json buffer_values_json(const runner::OutputBuffer& buffer) {
  json values = json::array();
  for (std::uint64_t i = 0; i < buffer.count(); ++i) {
    const runner::ShownElement element = shown(buffer, i);
    values.push_back(element_json(element.bits, element.type));
  }
  return values;
}

json diagnostics_json(const Trace& trace, Dim3 grid) {
  json list = json::array();
  for (const Diagnostic& d : trace.diagnostics) {
    const std::string file = file_of(trace, d.where);
    json diagnostic = {{"kind", to_string(d.kind)},
                       {"message", d.message},
                       {"lanes", format_mask(d.lanes)},
                       {"file", file.empty() ? json() : json(file)},
                       {"line", d.where.line == 0 ? json() : json(d.where.line)},
                       {"occurrences", d.occurrences}};
    if (has_position(d)) {
      diagnostic["block"] = dims_json(coordinates(d.block, grid));
      diagnostic["warp"] = d.warp;
    }
    if (d.step >= 0) diagnostic["step"] = d.step;
    list.push_back(std::move(diagnostic));
  }
  return list;
}

json run_json(const runner::KernelFileResult& r, const GpuOutcome* gpu) {
  json out;
  out["kernel"] = r.kernel;
  out["status"] = runner::to_string(r.status);
  out["buffers"] = json::array();
  for (const runner::OutputBuffer& buffer : r.buffers) {
    json entry = {{"arg", buffer.arg}};
    if (buffer.field >= 0) entry["field"] = buffer.field;
    entry["type"] = runner::to_string(buffer.type);
    entry["values"] = buffer_values_json(buffer);
    out["buffers"].push_back(std::move(entry));
  }
  out["diagnostics"] = diagnostics_json(r.trace, r.grid);
  out["steps"] = r.steps;
  if (!r.message.empty()) out["message"] = r.message;
  if (!r.warnings.empty()) out["warnings"] = r.warnings;
  out["printf"] = json::array();
  for (const PrintfRecord& p : r.trace.printf_records) {
    out["printf"].push_back({{"block", dims_json(coordinates(p.block, r.grid))},
                             {"thread", dims_json(coordinates(p.thread, r.block))},
                             {"text", p.text}});
  }
  if (gpu == nullptr) return out;
  if (gpu->comparison) {
    json g = gpu_comparison_json(*gpu->comparison);
    json outputs = json::array();
    for (const GpuBuffer& b : gpu->run->buffers) {
      runner::OutputBuffer as_output{b.arg, *runner::element_type_from_string(to_string(b.type)),
                                     b.bytes, b.field};
      json entry = {{"arg", b.arg}};
      if (b.field >= 0) entry["field"] = b.field;
      entry["type"] = to_string(b.type);
      entry["values"] = buffer_values_json(as_output);
      outputs.push_back(std::move(entry));
    }
    g["outputs"] = std::move(outputs);
    json lines = json::array();
    const std::string& text = gpu->run->printf_output;
    for (std::size_t start = 0; start < text.size();) {
      std::size_t end = text.find('\n', start);
      end = end == std::string::npos ? text.size() : end + 1;
      lines.push_back({{"text", text.substr(start, end - start)}});
      start = end;
    }
    g["printf"] = std::move(lines);
    if (!gpu->run->compile_log.empty()) g["compile_log"] = gpu->run->compile_log;
    out["gpu"] = std::move(g);
  } else if (gpu->error) {
    out["gpu"] = {{"error", to_string(gpu->error->kind)}, {"message", gpu->error->message}};
  } else if (!gpu->skipped.empty()) {
    out["gpu"] = {{"skipped", gpu->skipped}};
  }
  return out;
}

void write_run_text(std::ostream& out, const runner::KernelFileResult& r, const GpuOutcome* gpu) {
  const std::uint64_t threads = r.block.count();
  const std::uint64_t warps = (threads + kWarpSize - 1) / kWarpSize;
  out << r.kernel << " from " << r.file << ": grid " << shape_text(r.grid) << ", block "
      << shape_text(r.block) << " (" << r.grid.count() << " block"
      << (r.grid.count() == 1 ? "" : "s") << " of " << threads << " threads, " << warps << " warp"
      << (warps == 1 ? "" : "s") << " each)\n";
  out << runner::to_string(r.status) << ", " << r.steps << " warp-level step"
      << (r.steps == 1 ? "" : "s") << "\n";
  const bool message_in_diagnostics =
      std::any_of(r.trace.diagnostics.begin(), r.trace.diagnostics.end(),
                  [&](const Diagnostic& d) { return d.message == r.message; });
  if (!r.message.empty() && !message_in_diagnostics) out << r.message << "\n";

  if (!r.buffers.empty()) out << "\nbuffers after the launch:\n";
  for (const runner::OutputBuffer& buffer : r.buffers) {
    const std::uint64_t count = buffer.count();
    out << "  " << runner::buffer_name(buffer.arg, buffer.field) << "  "
        << runner::to_string(buffer.type) << "[" << count
        << "]  " << buffer_text(buffer, 16, 4);
    if (count > 20) out << "  (--json shows all " << count << ")";
    out << "\n";
  }

  out << "\n";
  if (r.trace.diagnostics.empty()) {
    out << "diagnostics: none\n";
  } else {
    out << "diagnostics (" << r.trace.diagnostics.size() << "):\n";
  }
  for (const Diagnostic& d : r.trace.diagnostics) {
    out << "  " << to_string(d.kind);
    const std::string file = file_of(r.trace, d.where);
    if (!file.empty()) out << " at " << file << ":" << d.where.line;
    if (has_position(d)) {
      out << ", block " << dims(coordinates(d.block, r.grid)) << " warp " << d.warp << " "
          << lanes_text(d.lanes) << " (" << format_mask(d.lanes) << ")";
    }
    if (d.occurrences > 1) out << ", " << d.occurrences << " times";
    out << "\n    " << d.message << "\n";
  }

  if (!r.trace.printf_records.empty()) {
    out << "\ndevice printf (" << r.trace.printf_records.size() << "):\n";
    for (const PrintfRecord& p : r.trace.printf_records) {
      out << "  block " << dims(coordinates(p.block, r.grid)) << " thread "
          << dims(coordinates(p.thread, r.block)) << ": " << p.text;
      if (p.text.empty() || p.text.back() != '\n') out << "\n";
    }
  }
  if (gpu == nullptr || !gpu->comparison) return;
  out << "\n" << format_gpu_comparison_text(*gpu->comparison);
  const std::string& printed = gpu->run->printf_output;
  if (!printed.empty()) {
    out << "\nGPU printf:\n";
    for (std::size_t start = 0; start < printed.size();) {
      std::size_t end = printed.find('\n', start);
      if (end == std::string::npos) end = printed.size();
      out << "  " << std::string_view(printed).substr(start, end - start) << "\n";
      start = end + 1;
    }
  }
}

}  // namespace warpsim::cli
