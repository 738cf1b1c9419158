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

namespace {

DeviceTrace device_trace_from(const json& j) {
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
}

json parse_json(std::string_view text) {
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    throw Malformed{std::string("not valid JSON (") + e.what() + ")"};
  }
}

constexpr const char* kGpuRunFormat = "warpsim-gpu-run";

std::string bytes_hex(const std::vector<std::byte>& bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const std::byte b : bytes) {
    out += digits[std::to_integer<unsigned>(b) >> 4];
    out += digits[std::to_integer<unsigned>(b) & 15];
  }
  return out;
}

std::vector<std::byte> hex_bytes(const std::string& text, const std::string& where) {
  if (text.size() % 2 != 0) throw Malformed{where + ": odd number of hex digits"};
  std::vector<std::byte> out(text.size() / 2);
  const auto digit = [&](char c) -> unsigned {
    if (c >= '0' && c <= '9') return static_cast<unsigned>(c - '0');
    if (c >= 'a' && c <= 'f') return static_cast<unsigned>(c - 'a' + 10);
    throw Malformed{where + ": not a hex digit"};
  };
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i] = static_cast<std::byte>(digit(text[2 * i]) << 4 | digit(text[2 * i + 1]));
  }
  return out;
}

}  // namespace

Expected<DeviceTrace> read_device_trace_json(std::string_view text) {
  try {
    return device_trace_from(parse_json(text));
  } catch (const Malformed& m) {
    return fail("device trace: " + m.reason);
  } catch (const json::exception& e) {
    return fail(std::string("device trace: ") + e.what());
  }
}

void write_gpu_run_json(std::ostream& out, const GpuRun& run) {
  json j;
  j["format"] = kGpuRunFormat;
  j["version"] = 1;
  j["device"] = {{"name", run.device.name},     {"sm", run.device.sm},
                 {"driver", run.device.driver}, {"driver_release", run.device.driver_release},
                 {"cuda", run.device.cuda},     {"date", run.device.date}};
  j["buffers"] = json::array();
  for (const GpuBuffer& b : run.buffers) {
    json buffer = {{"arg", b.arg}, {"type", to_string(b.type)}, {"hex", bytes_hex(b.bytes)}};
    if (b.field >= 0) buffer["field"] = b.field;
    j["buffers"].push_back(std::move(buffer));
  }
  j["printf"] = run.printf_output;
  j["compile_log"] = run.compile_log;
  j["trace_note"] = run.trace_note;
  j["trace"] = run.trace ? json::parse(device_trace_json(*run.trace)) : json();
  out << j.dump() << '\n';
}

Expected<GpuRun> read_gpu_run_json(std::string_view text) {
  try {
    const json j = parse_json(text);
    if (!j.is_object() || j.value("format", "") != kGpuRunFormat) {
      throw Malformed{std::string("not a warpsim GPU run (\"format\" is not \"") + kGpuRunFormat + "\")"};
    }
    if (j.value("version", 0) != 1) throw Malformed{"unsupported GPU run version " + j.value("version", json()).dump()};
    GpuRun run;
    const json& d = require(j, "device");
    run.device.name = d.at("name").get<std::string>();
    run.device.sm = d.at("sm").get<int>();
    run.device.driver = d.at("driver").get<int>();
    run.device.driver_release = d.at("driver_release").get<std::string>();
    run.device.cuda = d.at("cuda").get<int>();
    run.device.date = d.at("date").get<std::string>();
    for (const json& b : require(j, "buffers")) {
      const auto type = value_type_from_string(b.at("type").get<std::string>());
      if (!type) throw Malformed{"unknown buffer type " + b.at("type").dump()};
      run.buffers.push_back({b.at("arg").get<std::size_t>(), *type,
                             hex_bytes(b.at("hex").get<std::string>(), "buffer"),
                             b.value("field", std::int32_t{-1})});
    }
    run.printf_output = j.value("printf", "");
    run.compile_log = j.value("compile_log", "");
    run.trace_note = j.value("trace_note", "");
    if (const json& t = require(j, "trace"); !t.is_null()) run.trace = device_trace_from(t);
    return run;
  } catch (const Malformed& m) {
    return fail("GPU run: " + m.reason);
  } catch (const json::exception& e) {
    return fail(std::string("GPU run: ") + e.what());
  }
}

}  // namespace warpsim
