// Field readers shared by the JSON readers of this folder. Each throws Malformed with a reason
// naming the field; the public readers turn that into their one-line error.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "warpsim/trace.hpp"

namespace warpsim::device_trace_detail {

struct Malformed {
  std::string reason;
};

inline const nlohmann::json& require(const nlohmann::json& object, const char* name,
                                     const std::string& where = {}) {
  const auto it = object.find(name);
  if (it == object.end()) {
    throw Malformed{(where.empty() ? std::string() : where + ": ") + "missing \"" + name + "\""};
  }
  return *it;
}

// "0x" and 1..max_digits hex digits.
inline std::uint64_t parse_bits(const nlohmann::json& j, std::size_t max_digits,
                                const std::string& what) {
  const std::string* text = j.is_string() ? &j.get_ref<const std::string&>() : nullptr;
  if (text == nullptr || text->size() < 3 || text->size() - 2 > max_digits || (*text)[0] != '0' ||
      ((*text)[1] != 'x' && (*text)[1] != 'X')) {
    throw Malformed{what + ": expected a hex string such as \"0x0000001f\", got " + j.dump()};
  }
  std::uint64_t bits = 0;
  for (std::size_t i = 2; i < text->size(); ++i) {
    const char c = (*text)[i];
    int digit = -1;
    if (c >= '0' && c <= '9') digit = c - '0';
    if (c >= 'a' && c <= 'f') digit = c - 'a' + 10;
    if (c >= 'A' && c <= 'F') digit = c - 'A' + 10;
    if (digit < 0) throw Malformed{what + ": " + j.dump() + " is not hex"};
    bits = (bits << 4) | static_cast<unsigned>(digit);
  }
  return bits;
}

inline std::uint64_t parse_unsigned(const nlohmann::json& j, std::uint64_t max,
                                    const std::string& what) {
  const bool non_negative =
      j.is_number_unsigned() || (j.is_number_integer() && j.get<std::int64_t>() >= 0);
  if (!non_negative || j.get<std::uint64_t>() > max) {
    throw Malformed{what + ": expected an integer from 0 to " + std::to_string(max) + ", got " +
                    j.dump()};
  }
  return j.get<std::uint64_t>();
}

inline std::int64_t parse_signed(const nlohmann::json& j, std::int64_t min, std::int64_t max,
                                 const std::string& what) {
  if (!j.is_number_integer() ||
      (j.is_number_unsigned() && j.get<std::uint64_t>() > static_cast<std::uint64_t>(max)) ||
      j.get<std::int64_t>() < min || j.get<std::int64_t>() > max) {
    throw Malformed{what + ": expected an integer from " + std::to_string(min) + " to " +
                    std::to_string(max) + ", got " + j.dump()};
  }
  return j.get<std::int64_t>();
}

inline Dim3 parse_dim3(const nlohmann::json& j, const std::string& what) {
  if (!j.is_array() || j.size() != 3) throw Malformed{what + ": expected [x, y, z]"};
  Dim3 d;
  d.x = static_cast<std::uint32_t>(parse_unsigned(j[0], UINT32_MAX, what));
  d.y = static_cast<std::uint32_t>(parse_unsigned(j[1], UINT32_MAX, what));
  d.z = static_cast<std::uint32_t>(parse_unsigned(j[2], UINT32_MAX, what));
  return d;
}

}  // namespace warpsim::device_trace_detail
