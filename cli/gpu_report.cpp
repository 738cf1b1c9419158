// The `warpsim run --gpu` comparison as text for people and as the "gpu" JSON object.
#include "gpu_report.hpp"

#include <cinttypes>
#include <cstdio>

#include "hex_text.hpp"
#include "warpsim/intrinsic_table.hpp"
#include "warpsim/runner.hpp"

namespace warpsim::cli {

using json = nlohmann::ordered_json;

namespace {




std::string cuda_name(Op op) { return std::string(intrinsic_for(op).name); }

// An operand or result as a student reads it, with its bits where they add something.
std::string value_text(std::uint64_t bits, const DeviceCall& c, bool output) {
  if (output && result_is_mask(c.op)) return format_mask(static_cast<LaneMask>(bits));
  const bool predicate_like =
      intrinsic_for(c.op).operand == OperandKind::predicate || is_block_barrier(c.op);
  if (predicate_like)
    return std::to_string(static_cast<std::int32_t>(static_cast<std::uint32_t>(bits)));
  if (c.type == ValueType::none) return hex(bits, bits > 0xffffffffu);
  const std::string shown = format_value(bits, c.type);
  const bool wide = is_64bit(c.type) && !(output && !is_shuffle(c.op));
  return shown.rfind("0x", 0) == 0 ? shown : shown + " (" + hex(bits, wide) + ")";
}

std::string field_text(const DeviceCall& c, CallField field) {
  switch (field) {
    case CallField::op:
      return cuda_name(c.op);
    case CallField::type:
      return std::string(to_string(c.type));
    case CallField::mask:
      return format_mask(c.mask);
    case CallField::arg:
      return std::to_string(c.arg);
    case CallField::width:
      return std::to_string(c.width);
    case CallField::input:
      return value_text(c.input, c, false);
    case CallField::output:
      return value_text(c.output, c, true);
    case CallField::pred:
      return c.pred ? "1" : "0";
    case CallField::line:
      return c.line == 0 ? "unknown" : std::to_string(c.line);
    case CallField::count:
      return cuda_name(c.op) + (c.line != 0 ? " at line " + std::to_string(c.line) : "");
  }
  return "?";
}

std::string block_text(std::uint64_t block, Dim3 grid) {
  if (grid.y <= 1 && grid.z <= 1) return "block " + std::to_string(block);
  const std::uint64_t x = block % grid.x, y = block / grid.x % grid.y, z = block / grid.x / grid.y;
  return "block (" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + ")";
}

std::string what_differs(const CallDifference& d) {
  if (d.field != CallField::count) {
    return std::string(to_string(d.field)) + ": sim " + field_text(*d.sim, d.field) + ", gpu " +
           field_text(*d.gpu, d.field);
  }
  if (d.sim && !d.gpu)
    return "the simulator calls " + field_text(*d.sim, d.field) +
           " where the GPU made no more calls";
  if (d.gpu && !d.sim)
    return "the GPU calls " + field_text(*d.gpu, d.field) +
           " where the simulator made no more calls";
  return "the GPU made more calls than the simulator (past the recorder's capacity)";
}

json call_json(const std::optional<DeviceCall>& c) {
  if (!c) return nullptr;
  const bool wide_in = is_64bit(c->type);
  const bool wide_out = is_64bit(c->type) && is_shuffle(c->op);
  return {{"op", to_string(c->op)},
          {"type", to_string(c->type)},
          {"mask", format_mask(c->mask)},
          {"input", hex(c->input, wide_in || c->input > 0xffffffffu)},
          {"output", hex(c->output, wide_out || c->output > 0xffffffffu)},
          {"arg", c->arg},
          {"width", c->width},
          {"line", c->line},
          {"pred", c->pred ? 1 : 0}};
}

std::string buffer_text(const BufferComparison& b) {
  std::string line = "  buffer " + runner::buffer_name(b.arg, b.field) + " (" +
                     std::string(to_string(b.type)) + "[" + std::to_string(b.count) + "]): ";
  if (!b.problem.empty()) return line + "not compared: " + b.problem + "\n";
  if (b.identical()) return line + "identical\n";
  if (b.differing == 0) {
    return line + "matches within tolerance (" + std::to_string(b.within_tolerance) + " of " +
           std::to_string(b.count) + " elements differ by at most " + std::to_string(b.max_ulp) +
           " ULP)\n";
  }
  line += std::to_string(b.differing) + " of " + std::to_string(b.count) +
          " elements differ; first [" + std::to_string(*b.first_index) + "]: sim " +
          format_element(b.sim_bits, b.type) + ", gpu " + format_element(b.gpu_bits, b.type);
  if (b.type == ValueType::f32 || b.type == ValueType::f64) {
    const std::uint64_t ulps = ulp_distance(b.sim_bits, b.gpu_bits, b.type);
    if (ulps != UINT64_MAX) line += " (" + std::to_string(ulps) + " ULP apart)";
  }
  return line + "\n";
}

std::string steps_text(const GpuComparison& g) {
  if (!g.steps)
    return "  steps: not compared" + (g.steps_note.empty() ? std::string() : ": " + g.steps_note) +
           "\n";
  const TraceComparison& s = *g.steps;
  if (!s.incomparable.empty()) return "  steps: not compared: " + s.incomparable + "\n";
  const std::string blocks = g.traced_blocks == 1
                                 ? "block 0 traced"
                                 : "blocks 0-" + std::to_string(g.traced_blocks - 1) + " traced";
  std::string notes;
  if (s.truncated_lanes > 0) {
    notes += "; " + std::to_string(s.truncated_lanes) +
             " lane(s) compared only up to the recorder's capacity";
  }
  if (s.undefined_outputs > 0) {
    notes += "; " + std::to_string(s.undefined_outputs) +
             " result(s) CUDA leaves undefined not compared";
  }
  if (s.identical()) {
    return "  steps: " + std::to_string(s.lanes) + " lanes x " + std::to_string(s.calls) +
           " calls identical (" + blocks + notes + ")\n";
  }
  const CallDifference& d = *s.first_difference;
  std::string where =
      d.sim_step >= 0 ? "step " + std::to_string(d.sim_step) : "call " + std::to_string(d.call);
  std::string site;
  if (d.sim || d.gpu) {  // a count difference past the recorder's capacity has neither
    const DeviceCall& call = d.sim ? *d.sim : *d.gpu;
    site = (d.file.empty() ? std::string("line ") : d.file + ":") + std::to_string(call.line) +
           ", " + cuda_name(call.op) + ", ";
  }
  return "  steps: " + std::to_string(s.differing_lanes) + " of " + std::to_string(s.lanes) +
         " lanes differ; first at " + where + " (" + block_text(d.block, g.grid) + ", warp " +
         std::to_string(d.warp) + ", lanes " + format_lanes(d.lanes) + ", " + site + "call #" +
         std::to_string(d.call) + " of lane " + std::to_string(d.lane) + "): " + what_differs(d) +
         " (" + blocks + notes + ")\n";
}

}  // namespace

std::string device_text(const GpuDevice& d) {
  std::string out = d.name + " (sm_" + std::to_string(d.sm) + ", driver " +
                    std::to_string(d.driver / 1000) + "." + std::to_string(d.driver % 1000 / 10);
  if (!d.driver_release.empty()) out += ", " + d.driver_release;
  if (d.cuda != 0) out += ", CUDA " + std::to_string(d.cuda / 1000) + "." + std::to_string(d.cuda % 1000 / 10);
  if (!d.date.empty()) out += ", " + d.date;
  return out + ")";
}

std::string format_gpu_comparison_text(const GpuComparison& g) {
  std::string out = "GPU: " + device_text(g.device) + "\n";
  for (const BufferComparison& b : g.buffers) out += buffer_text(b);
  out += steps_text(g);
  return out;
}

json element_json(std::uint64_t bits, ValueType type) {
  const std::string text = format_element(bits, type);
  if (text == "nan" || text == "inf" || text == "-inf") return text;
  if (type == ValueType::f32 || type == ValueType::f64) return std::stod(text);
  if (type == ValueType::i32 || type == ValueType::i64) return std::stoll(text);
  return std::stoull(text);
}

json gpu_device_json(const GpuDevice& d) {
  return {{"device", d.name}, {"sm", d.sm},     {"driver", d.driver},
          {"driver_release", d.driver_release}, {"cuda", d.cuda}, {"date", d.date}};
}

json gpu_comparison_json(const GpuComparison& g) {
  json out = gpu_device_json(g.device);
  out["identical"] = g.identical();
  out["ulp_tolerance"] = g.ulp_tolerance;
  out["buffers"] = json::array();
  for (const BufferComparison& b : g.buffers) {
    json buffer = {{"arg", b.arg}};
    if (b.field >= 0) buffer["field"] = b.field;
    buffer["type"] = to_string(b.type);
    buffer["count"] = b.count;
    buffer["identical"] = b.identical();
    buffer["matches"] = b.matches();
    buffer["differing"] = b.differing;
    buffer["within_tolerance"] = b.within_tolerance;
    buffer["max_ulp"] = b.max_ulp;
    if (!b.problem.empty()) buffer["problem"] = b.problem;
    buffer["first_difference"] = nullptr;
    if (b.first_index) {
      const bool wide = is_64bit(b.type);
      buffer["first_difference"] = {{"index", *b.first_index},
                                    {"sim", element_json(b.sim_bits, b.type)},
                                    {"gpu", element_json(b.gpu_bits, b.type)},
                                    {"sim_bits", hex(b.sim_bits, wide)},
                                    {"gpu_bits", hex(b.gpu_bits, wide)}};
    }
    out["buffers"].push_back(std::move(buffer));
  }
  if (!g.steps) {
    out["steps"] = nullptr;
    out["steps_note"] = g.steps_note;
    return out;
  }
  const TraceComparison& s = *g.steps;
  json steps = {{"traced_blocks", g.traced_blocks},
                {"lanes", s.lanes},
                {"compared", s.calls},
                {"identical", s.identical()},
                {"differing_lanes", s.differing_lanes},
                {"truncated_lanes", s.truncated_lanes},
                {"undefined_outputs", s.undefined_outputs},
                {"unknown_lines", s.unknown_lines}};
  if (!s.incomparable.empty()) steps["incomparable"] = s.incomparable;
  steps["first_difference"] = nullptr;
  if (s.first_difference) {
    const CallDifference& d = *s.first_difference;
    json first = {{"step", d.sim_step},
                  {"block", d.block},
                  {"warp", d.warp},
                  {"thread", d.thread},
                  {"lane", d.lane},
                  {"lanes", format_mask(d.lanes)},
                  {"call", d.call},
                  {"field", to_string(d.field)},
                  {"file", d.file},
                  {"line", d.sim ? d.sim->line : d.gpu ? d.gpu->line : 0}};
    if (d.field != CallField::count) {
      first["sim_value"] = field_text(*d.sim, d.field);
      first["gpu_value"] = field_text(*d.gpu, d.field);
    }
    first["sim"] = call_json(d.sim);
    first["gpu"] = call_json(d.gpu);
    steps["first_difference"] = std::move(first);
  }
  out["steps"] = std::move(steps);
  return out;
}

}  // namespace warpsim::cli
