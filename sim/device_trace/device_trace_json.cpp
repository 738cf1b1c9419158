// DeviceTrace <-> compact JSON: a header, then one line per traced thread.
#include <cinttypes>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "json_fields.hpp"
#include "warpsim/device_trace.hpp"

namespace warpsim {
namespace {

using device_trace_detail::Malformed;
using device_trace_detail::parse_bits;
using device_trace_detail::parse_dim3;
using device_trace_detail::parse_unsigned;
using device_trace_detail::require;
using nlohmann::json;

constexpr const char* kFormat = "warpsim-device-trace";
constexpr int kVersion = 1;

std::string hex(std::uint64_t bits, bool wide) {
  char text[24];
  if (wide) {
    std::snprintf(text, sizeof text, "\"0x%016" PRIx64 "\"", bits);
  } else {
    std::snprintf(text, sizeof text, "\"0x%08" PRIx32 "\"", static_cast<std::uint32_t>(bits));
  }
  return text;
}

std::string dim3_json(Dim3 d) {
  return "[" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + "]";
}

// Bits too wide for their type's usual width still print whole (never truncated).
bool input_is_wide(const DeviceCall& c) { return is_64bit(c.type) || c.input > 0xffffffffu; }
bool output_is_wide(const DeviceCall& c) {
  return (is_shuffle(c.op) && is_64bit(c.type)) || c.output > 0xffffffffu;
}

void write_call(std::ostream& out, const DeviceCall& c) {
  out << "[\"" << to_string(c.op) << "\",\"" << to_string(c.type) << "\"," << hex(c.mask, false)
      << ',' << hex(c.input, input_is_wide(c)) << ',' << hex(c.output, output_is_wide(c)) << ','
      << c.arg << ',' << c.width << ',' << c.line << ',' << (c.pred ? 1 : 0) << ']';
}

DeviceCall parse_call(const json& j, const std::string& where) {
  if (!j.is_array() || j.size() != 9) {
    throw Malformed{where + ": expected [op, type, mask, input, output, arg, width, line, pred]"};
  }
  DeviceCall c;
  if (!j[0].is_string()) throw Malformed{where + ": op must be a string"};
  const auto op = op_from_string(j[0].get_ref<const std::string&>());
  if (!op) throw Malformed{where + ": unknown op " + j[0].dump()};
  c.op = *op;
  const auto type =
      j[1].is_string() ? value_type_from_string(j[1].get_ref<const std::string&>()) : std::nullopt;
  if (!type) throw Malformed{where + ": unknown type " + j[1].dump()};
  c.type = *type;
  c.mask = static_cast<LaneMask>(parse_bits(j[2], 8, where + ", mask"));
  c.input = parse_bits(j[3], 16, where + ", input");
  c.output = parse_bits(j[4], 16, where + ", output");
  for (const auto& [index, target] : {std::pair{5, &c.arg}, std::pair{6, &c.width}}) {
    if (!j[index].is_number_integer()) throw Malformed{where + ": arg and width must be integers"};
    const auto value = j[index].get<std::int64_t>();
    if (value < INT32_MIN || value > INT32_MAX)
      throw Malformed{where + ": arg or width out of range"};
    *target = static_cast<std::int32_t>(value);
  }
  c.line = static_cast<std::uint32_t>(parse_unsigned(j[7], UINT32_MAX, where + ", line"));
  c.pred = parse_unsigned(j[8], 1, where + ", pred") == 1;
  return c;
}

}  // namespace

void write_device_trace_json(std::ostream& out, const DeviceTrace& t) {
  out << "{\"format\":\"" << kFormat << "\",\"version\":" << kVersion
      << ",\"device\":" << json(t.device).dump() << ",\"sm\":" << t.sm << ",\"driver\":" << t.driver
      << ",\"driver_release\":" << json(t.driver_release).dump()
      << ",\"date\":" << json(t.date).dump() << ",\"grid\":" << dim3_json(t.grid)
      << ",\"block\":" << dim3_json(t.block) << ",\"traced_blocks\":" << t.traced_blocks
      << ",\"capacity\":" << t.capacity << ",\"dropped\":" << t.dropped << ",\"threads\":[";
  for (std::size_t i = 0; i < t.threads.size(); ++i) {
    const DeviceThreadCalls& thread = t.threads[i];
    out << (i > 0 ? ",\n" : "\n") << "{\"block\":" << thread.block
        << ",\"thread\":" << thread.thread << ",\"dropped\":" << thread.dropped << ",\"calls\":[";
    for (std::size_t k = 0; k < thread.calls.size(); ++k) {
      if (k > 0) out << ',';
      write_call(out, thread.calls[k]);
    }
    out << "]}";
  }
  out << "]}\n";
}

std::string device_trace_json(const DeviceTrace& trace) {
  std::ostringstream out;
  write_device_trace_json(out, trace);
  return out.str();
}

std::optional<DeviceTrace> read_device_trace_json(std::string_view text, std::string& error) {
  try {
    json j;
    try {
      j = json::parse(text);
    } catch (const json::parse_error& e) {
      throw Malformed{std::string("not valid JSON (") + e.what() + ")"};
    }
    if (!j.is_object()) throw Malformed{"expected a JSON object"};
    const json& format = require(j, "format");
    if (!format.is_string() || format.get<std::string>() != kFormat) {
      throw Malformed{"not a warpsim device trace (\"format\" is not \"" + std::string(kFormat) +
                      "\")"};
    }
    if (parse_unsigned(require(j, "version"), INT32_MAX, "version") != kVersion) {
      throw Malformed{"unsupported device trace version " + require(j, "version").dump()};
    }
    DeviceTrace t;
    for (const auto& [name, target] :
         {std::pair{"device", &t.device}, std::pair{"driver_release", &t.driver_release},
          std::pair{"date", &t.date}}) {
      const json& field = require(j, name);
      if (!field.is_string()) throw Malformed{std::string("\"") + name + "\" must be a string"};
      *target = field.get<std::string>();
    }
    t.sm = static_cast<int>(parse_unsigned(require(j, "sm"), INT32_MAX, "sm"));
    t.driver = static_cast<int>(parse_unsigned(require(j, "driver"), INT32_MAX, "driver"));
    t.grid = parse_dim3(require(j, "grid"), "grid");
    t.block = parse_dim3(require(j, "block"), "block");
    t.traced_blocks = parse_unsigned(require(j, "traced_blocks"), UINT64_MAX, "traced_blocks");
    t.capacity =
        static_cast<std::uint32_t>(parse_unsigned(require(j, "capacity"), UINT32_MAX, "capacity"));
    t.dropped = parse_unsigned(require(j, "dropped"), UINT64_MAX, "dropped");
    const json& threads = require(j, "threads");
    if (!threads.is_array()) throw Malformed{"\"threads\" must be an array"};
    t.threads.reserve(threads.size());
    for (std::size_t i = 0; i < threads.size(); ++i) {
      const json& th = threads[i];
      const std::string where = "threads[" + std::to_string(i) + "]";
      if (!th.is_object()) throw Malformed{where + ": expected an object"};
      DeviceThreadCalls thread;
      thread.block = parse_unsigned(require(th, "block", where), UINT64_MAX, where + ", block");
      thread.thread = static_cast<std::uint32_t>(
          parse_unsigned(require(th, "thread", where), UINT32_MAX, where + ", thread"));
      thread.dropped =
          parse_unsigned(require(th, "dropped", where), UINT64_MAX, where + ", dropped");
      const json& calls = require(th, "calls", where);
      if (!calls.is_array()) throw Malformed{where + ": \"calls\" must be an array"};
      thread.calls.reserve(calls.size());
      for (std::size_t k = 0; k < calls.size(); ++k) {
        thread.calls.push_back(parse_call(calls[k], where + ", call " + std::to_string(k)));
      }
      t.threads.push_back(std::move(thread));
    }
    return t;
  } catch (const Malformed& m) {
    error = "device trace: " + m.reason;
  } catch (const json::exception& e) {
    error = std::string("device trace: ") + e.what();
  }
  return std::nullopt;
}

}  // namespace warpsim
