// One line of a vector file to and from its structs (../shared/spec/vectors.md).
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <limits>
#include <nlohmann/json.hpp>

#include "warpsim/vectors.hpp"

namespace warpsim {
namespace {

using nlohmann::json;

// Thrown inside this file only; parse_* turn it into their error string.
struct Malformed {
  std::string reason;
};

bool has_value_field(Op op) { return intrinsic_for(op).operand != OperandKind::none; }

bool is_vector_type(ValueType t) { return std::ranges::count(kVectorValueTypes, t) != 0; }
bool value_is_64bit(const VectorCase& c) { return is_64bit(c.type); }
bool result_is_64bit(const VectorCase& c) {
  return result_kind(c.op) == ResultKind::value && is_64bit(c.type);
}

std::string hex(std::uint64_t bits, bool wide) {
  char text[24];
  if (wide)
    std::snprintf(text, sizeof text, "\"0x%016" PRIx64 "\"", bits);
  else
    std::snprintf(text, sizeof text, "\"0x%08" PRIx32 "\"", static_cast<std::uint32_t>(bits));
  return text;
}

// Appends ,"name":[e0,e1,...] with entry(lane) for calling lanes and null for the others.
template <class F>
void append_lanes(std::string& out, const char* name, LaneMask lanes, F&& entry) {
  out += ",\"";
  out += name;
  out += "\":[";
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (lane != 0) out += ',';
    out += has_lane(lanes, lane) ? entry(lane) : std::string("null");
  }
  out += ']';
}

const json& field(const json& object, const char* name) {
  const auto it = object.find(name);
  if (it == object.end()) throw Malformed{"missing field \"" + std::string(name) + "\""};
  return *it;
}

void require_absent(const json& object, const char* name, Op op) {
  if (object.contains(name))
    throw Malformed{"field \"" + std::string(name) + "\" does not belong to " +
                    std::string(to_string(op))};
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// "0x" and 1..max_digits hex digits.
std::uint64_t parse_hex(const json& j, std::size_t max_digits, const std::string& what) {
  const std::string example = max_digits > 8 ? "\"0x000000000000001f\"" : "\"0x0000001f\"";
  if (!j.is_string()) throw Malformed{what + ": expected a hex string such as " + example};
  const auto& text = j.get_ref<const std::string&>();
  const bool prefixed = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  if (!prefixed || text.size() - 2 > max_digits)
    throw Malformed{what + ": \"" + text + "\" is not a hex string such as " + example};
  std::uint64_t bits = 0;
  for (std::size_t i = 2; i < text.size(); ++i) {
    const int digit = hex_digit(text[i]);
    if (digit < 0)
      throw Malformed{what + ": \"" + text + "\" is not a hex string such as " + example};
    bits = (bits << 4) | static_cast<unsigned>(digit);
  }
  return bits;
}

std::int64_t parse_integer(const json& j, std::int64_t min, std::int64_t max,
                           const std::string& what) {
  const bool fits =
      j.is_number_integer() &&
      !(j.is_number_unsigned() && j.get<std::uint64_t>() > static_cast<std::uint64_t>(max));
  if (!fits)
    throw Malformed{what + ": expected an integer from " + std::to_string(min) + " to " +
                    std::to_string(max)};
  const auto value = j.get<std::int64_t>();
  if (value < min || value > max)
    throw Malformed{what + ": " + std::to_string(value) + " is outside " + std::to_string(min) +
                    ".." + std::to_string(max)};
  return value;
}

const json& lane_array(const json& object, const char* name) {
  const json& entries = field(object, name);
  if (!entries.is_array())
    throw Malformed{"field \"" + std::string(name) + "\": expected an array of 32 entries"};
  if (entries.size() != kWarpSize)
    throw Malformed{"field \"" + std::string(name) + "\": expected 32 entries, got " +
                    std::to_string(entries.size())};
  return entries;
}

// Calls parse(entry, what) for each lane's entry: non-null entries of exited lanes are an error,
// and so are null entries of calling lanes unless `nullable`.
template <class F>
void for_each_lane_entry(const json& object, const char* name, LaneMask lanes, bool nullable,
                         F&& parse) {
  const json& entries = lane_array(object, name);
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const json& entry = entries[static_cast<std::size_t>(lane)];
    const std::string what = "field \"" + std::string(name) + "\", lane " + std::to_string(lane);
    if (!has_lane(lanes, lane)) {
      if (!entry.is_null()) throw Malformed{what + ": must be null for a lane that exited"};
    } else if (entry.is_null()) {
      if (!nullable) throw Malformed{what + ": null for a calling lane"};
    } else {
      parse(lane, entry, what);
    }
  }
}

json parse_object(std::string_view line) {
  json object;
  try {
    object = json::parse(line);
  } catch (const json::parse_error& e) {
    throw Malformed{std::string("not valid JSON (") + e.what() + ")"};
  }
  if (!object.is_object()) throw Malformed{"expected a JSON object"};
  return object;
}

VectorCase parse_case_object(const json& object) {
  VectorCase c;
  const json& op_field = field(object, "op");
  if (!op_field.is_string()) throw Malformed{"field \"op\": expected a string"};
  const auto op = op_from_string(op_field.get_ref<const std::string&>());
  if (!op) throw Malformed{"field \"op\": unknown op \"" + op_field.get<std::string>() + "\""};
  if (!is_vector_op(*op))
    throw Malformed{"field \"op\": " + std::string(to_string(*op)) +
                    " cannot appear in a vector file"};
  c.op = *op;

  if (vector_case_has_type(c.op)) {
    const json& type_field = field(object, "type");
    const auto type = type_field.is_string()
                          ? value_type_from_string(type_field.get_ref<const std::string&>())
                          : std::nullopt;
    if (!type || !is_vector_type(*type) || !accepts_type(c.op, *type))
      throw Malformed{"field \"type\": " + type_field.dump() + " is not a type of " +
                      std::string(to_string(c.op))};
    c.type = *type;
  } else {
    require_absent(object, "type", c.op);
  }
  c.mask = static_cast<LaneMask>(parse_hex(field(object, "mask"), 8, "field \"mask\""));
  c.lanes = static_cast<LaneMask>(parse_hex(field(object, "lanes"), 8, "field \"lanes\""));

  // Fields in file order, so that the first error reported is the first one in the line.
  if (is_shuffle(c.op)) {
    c.width = static_cast<std::int32_t>(
        parse_integer(field(object, "width"), INT32_MIN, INT32_MAX, "field \"width\""));
  } else {
    require_absent(object, "width", c.op);
  }
  if (has_value_field(c.op)) {
    const std::size_t digits = value_is_64bit(c) ? 16 : 8;
    for_each_lane_entry(object, "value", c.lanes, false,
                        [&](int lane, const json& entry, const std::string& what) {
                          c.value[lane] = parse_hex(entry, digits, what);
                        });
  } else {
    require_absent(object, "value", c.op);
  }
  if (is_shuffle(c.op)) {
    for_each_lane_entry(
        object, "arg", c.lanes, false, [&](int lane, const json& entry, const std::string& what) {
          c.arg[lane] = static_cast<std::int32_t>(parse_integer(entry, INT32_MIN, INT32_MAX, what));
        });
  } else {
    require_absent(object, "arg", c.op);
  }
  const std::size_t result_digits = result_is_64bit(c) ? 16 : 8;
  for_each_lane_entry(object, "expect", c.lanes, true,
                      [&](int lane, const json& entry, const std::string& what) {
                        c.expect[lane] = parse_hex(entry, result_digits, what);
                      });
  if (intrinsic_for(c.op).pred_out) {
    for_each_lane_entry(object, "expect_pred", c.lanes, true,
                        [&](int lane, const json& entry, const std::string& what) {
                          c.expect_pred[lane] = parse_integer(entry, 0, 1, what) == 1;
                        });
  } else {
    require_absent(object, "expect_pred", c.op);
  }
  return c;
}

VectorHeader parse_header_object(const json& object) {
  VectorHeader h;
  const json& device = field(object, "device");
  if (!device.is_string()) throw Malformed{"field \"device\": expected a string"};
  h.device = device.get<std::string>();
  constexpr std::int64_t int_max = std::numeric_limits<int>::max();
  h.sm = static_cast<int>(parse_integer(field(object, "sm"), 0, int_max, "field \"sm\""));
  h.driver =
      static_cast<int>(parse_integer(field(object, "driver"), 0, int_max, "field \"driver\""));
  h.runtime =
      static_cast<int>(parse_integer(field(object, "runtime"), 0, int_max, "field \"runtime\""));
  const json& seed = field(object, "seed");
  if (!seed.is_number_integer() || (!seed.is_number_unsigned() && seed.get<std::int64_t>() < 0))
    throw Malformed{"field \"seed\": expected a non-negative integer"};
  h.seed = seed.get<std::uint64_t>();
  h.cases = static_cast<std::uint64_t>(
      parse_integer(field(object, "cases"), 0, INT64_MAX, "field \"cases\""));
  return h;
}

}  // namespace

bool is_vector_op(Op op) { return intrinsic_for(op).vectors != VectorCoverage::none; }

bool vector_case_has_type(Op op) {
  return std::ranges::any_of(kVectorValueTypes, [&](ValueType t) { return records_type(op, t); });
}

std::string format_vector_header(const VectorHeader& h) {
  return "{\"device\":" + json(h.device).dump() + ",\"sm\":" + std::to_string(h.sm) +
         ",\"driver\":" + std::to_string(h.driver) + ",\"runtime\":" + std::to_string(h.runtime) +
         ",\"seed\":" + std::to_string(h.seed) + ",\"cases\":" + std::to_string(h.cases) + "}";
}

std::string format_vector_case(const VectorCase& c) {
  std::string out = "{\"op\":\"" + std::string(to_string(c.op)) + "\"";
  if (vector_case_has_type(c.op)) out += ",\"type\":\"" + std::string(to_string(c.type)) + "\"";
  out += ",\"mask\":" + hex(c.mask, false) + ",\"lanes\":" + hex(c.lanes, false);
  if (is_shuffle(c.op)) out += ",\"width\":" + std::to_string(c.width);
  if (has_value_field(c.op))
    append_lanes(out, "value", c.lanes,
                 [&](int lane) { return hex(c.value[lane], value_is_64bit(c)); });
  if (is_shuffle(c.op))
    append_lanes(out, "arg", c.lanes, [&](int lane) { return std::to_string(c.arg[lane]); });
  append_lanes(out, "expect", c.lanes, [&](int lane) {
    return c.expect[lane] ? hex(*c.expect[lane], result_is_64bit(c)) : std::string("null");
  });
  if (intrinsic_for(c.op).pred_out) {
    append_lanes(out, "expect_pred", c.lanes, [&](int lane) {
      return c.expect_pred[lane] ? std::string(*c.expect_pred[lane] ? "1" : "0")
                                 : std::string("null");
    });
  }
  out += '}';
  return out;
}

Expected<VectorHeader> parse_vector_header(std::string_view line) {
  try {
    return parse_header_object(parse_object(line));
  } catch (const Malformed& m) {
    return fail("bad header: " + m.reason);
  } catch (const json::exception& e) {
    return fail(std::string("bad header: ") + e.what());
  }
}

Expected<VectorCase> parse_vector_case(std::string_view line) {
  try {
    return parse_case_object(parse_object(line));
  } catch (const Malformed& m) {
    return fail(m.reason);
  } catch (const json::exception& e) {
    return fail(e.what());
  }
}

StepInputs to_step_inputs(const VectorCase& c) {
  StepInputs in;
  in.callers = c.lanes;
  in.exited = ~c.lanes;
  in.mask.fill(c.mask);
  in.value = c.value;
  in.arg = c.arg;
  in.width.fill(c.width);
  return in;
}

}  // namespace warpsim
