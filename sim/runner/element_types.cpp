// The element types of --arg: one row per type, every fact about it in that row.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "warpsim/runner.hpp"

namespace warpsim::runner {
namespace {

using Form = ElementTypeFacts::Form;
// random:SEED:LO:HI bounds of the 32- and 64-bit types: |x| < 2^31 and |x| < 2^53.
constexpr std::int64_t k31 = std::int64_t{1} << 31, k53 = std::int64_t{1} << 53;

// The first six keep their order: messages list the types in table order.
constexpr std::array<ElementTypeFacts, 13> kElementTypes{{
    {ElementType::i32, "i32", {"int", "int32", ""}, 4, ValueKind::signed_integer, Form::integer,
     ValueType::i32, -k31, k31 - 1, -99, 99},
    {ElementType::u32, "u32", {"unsigned", "uint", "uint32"}, 4, ValueKind::unsigned_integer,
     Form::integer, ValueType::u32, -k31, k31 - 1, 0, 99},
    {ElementType::f32, "f32", {"float", "", ""}, 4, ValueKind::floating, Form::floating,
     ValueType::f32, -k31, k31 - 1, -99, 99},
    {ElementType::i64, "i64", {"long", "int64", ""}, 8, ValueKind::signed_integer, Form::integer,
     ValueType::i64, -k53, k53 - 1, -99, 99},
    {ElementType::u64, "u64", {"uint64", "", ""}, 8, ValueKind::unsigned_integer, Form::integer,
     ValueType::u64, -k53, k53 - 1, 0, 99},
    {ElementType::f64, "f64", {"double", "", ""}, 8, ValueKind::floating, Form::floating,
     ValueType::f64, -k53, k53 - 1, -99, 99},
    {ElementType::u8, "u8", {"uchar", "uint8", "unsigned char"}, 1, ValueKind::unsigned_integer,
     Form::integer, ValueType::none, 0, 255, 0, 99},
    {ElementType::i8, "i8", {"char", "int8", "signed char"}, 1, ValueKind::signed_integer,
     Form::integer, ValueType::none, -128, 127, -99, 99},
    {ElementType::u16, "u16", {"ushort", "uint16", "unsigned short"}, 2,
     ValueKind::unsigned_integer, Form::integer, ValueType::none, 0, 65535, 0, 99},
    {ElementType::i16, "i16", {"short", "int16", ""}, 2, ValueKind::signed_integer, Form::integer,
     ValueType::none, -32768, 32767, -99, 99},
    {ElementType::f16, "f16", {"__half", "half", ""}, 2, ValueKind::half, Form::half,
     ValueType::none, -2048, 2048, -99, 99},
    {ElementType::bf16, "bf16", {"__nv_bfloat16", "bfloat16", "nv_bfloat16"}, 2,
     ValueKind::bfloat16, Form::bfloat16, ValueType::none, -256, 256, -99, 99},
    {ElementType::b8, "b8", {"bool", "", ""}, 1, ValueKind::boolean, Form::boolean,
     ValueType::none, 0, 1, 0, 1},
}};

constexpr bool rows_in_enum_order() {
  for (std::size_t i = 0; i < kElementTypes.size(); ++i) {
    if (static_cast<std::size_t>(kElementTypes[i].type) != i) return false;
  }
  return true;
}
static_assert(rows_in_enum_order(), "kElementTypes is indexed by ElementType");

}  // namespace

std::span<const ElementTypeFacts> element_types() { return kElementTypes; }

const ElementTypeFacts& element_facts(ElementType type) {
  return kElementTypes.at(static_cast<std::size_t>(type));
}

std::string_view to_string(ElementType type) { return element_facts(type).name; }

std::optional<ElementType> element_type_from_string(std::string_view name) {
  for (const ElementTypeFacts& facts : kElementTypes) {
    if (facts.name == name) return facts.type;
  }
  return std::nullopt;
}

std::size_t element_size(ElementType type) { return element_facts(type).size; }
ValueKind element_kind(ElementType type) { return element_facts(type).kind; }
ValueType element_value_type(ElementType type) { return element_facts(type).value_type; }

ShownElement shown_element(ElementType type, std::uint64_t bits) {
  const ElementTypeFacts& facts = element_facts(type);
  if (facts.value_type != ValueType::none) return {facts.value_type, bits};
  const int width = facts.size * 8;
  const std::uint64_t value = bits & ((std::uint64_t{1} << width) - 1);
  switch (facts.form) {
    case Form::half:
      return {ValueType::f32, std::bit_cast<std::uint32_t>(f16_value(static_cast<std::uint16_t>(value)))};
    case Form::bfloat16:
      return {ValueType::f32, std::bit_cast<std::uint32_t>(bf16_value(static_cast<std::uint16_t>(value)))};
    case Form::integer:
      if (facts.kind == ValueKind::signed_integer) {
        const std::uint64_t sign = std::uint64_t{1} << (width - 1);
        return {ValueType::i32, static_cast<std::uint32_t>((value ^ sign) - sign)};
      }
      return {ValueType::u32, value};
    case Form::boolean:
    case Form::floating:
      break;
  }
  return {ValueType::u32, value};
}

ShownBuffer shown_buffer(ElementType type, std::span<const std::byte> bytes) {
  const std::size_t size = element_size(type);
  ShownBuffer out;
  out.type = shown_element(type, 0).type;
  const std::size_t shown_size = is_64bit(out.type) ? 8 : 4;
  const std::size_t count = bytes.size() / size;
  out.bytes.resize(count * shown_size);
  for (std::size_t i = 0; i < count; ++i) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, bytes.data() + i * size, size);  // little-endian host
    const std::uint64_t shown = shown_element(type, bits).bits;
    std::memcpy(out.bytes.data() + i * shown_size, &shown, shown_size);
  }
  return out;
}

std::uint16_t f16_bits(float value) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(value);
  const auto sign = static_cast<std::uint16_t>((x >> 16) & 0x8000u);
  const std::uint32_t magnitude = x & 0x7fffffffu;
  if (magnitude > 0x7f800000u) return sign | 0x7e00u;  // NaN
  if (magnitude >= 0x477ff000u) return sign | 0x7c00u;  // 65520 and up round to infinity
  if (magnitude < 0x38800000u) {
    // Below 2^-14: a subnormal in units of 2^-24 (the product is exact; nearbyint rounds to even).
    const float units = std::bit_cast<float>(magnitude) * 16777216.0f;
    return sign | static_cast<std::uint16_t>(std::nearbyint(units));
  }
  const std::uint32_t exponent = (magnitude >> 23) - 127 + 15;
  std::uint32_t half = (exponent << 10) | ((magnitude >> 13) & 0x3ffu);
  const std::uint32_t rest = magnitude & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u) != 0)) ++half;  // a carry moves the exponent
  return sign | static_cast<std::uint16_t>(half);
}

std::uint16_t bf16_bits(float value) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(value);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((x >> 16) | 0x40u);
  return static_cast<std::uint16_t>((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

float f16_value(std::uint16_t bits) {
  const float sign = (bits & 0x8000u) != 0 ? -1.0f : 1.0f;
  const int exponent = (bits >> 10) & 0x1f;
  const int fraction = bits & 0x3ff;
  if (exponent == 0x1f) {
    return fraction != 0 ? std::numeric_limits<float>::quiet_NaN()
                         : sign * std::numeric_limits<float>::infinity();
  }
  if (exponent == 0) return sign * std::ldexp(static_cast<float>(fraction), -24);
  return sign * std::ldexp(static_cast<float>(fraction + 1024), exponent - 25);
}

float bf16_value(std::uint16_t bits) {
  return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16);
}

}  // namespace warpsim::runner
