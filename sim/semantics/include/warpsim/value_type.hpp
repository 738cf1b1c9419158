// The value types a warp-level call carries, and their names.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace warpsim {

// Value type of a step's operands. Votes and and/or/xor reductions carry `none` (32-bit predicate
// or unsigned bits); 16-bit types travel in the low bits of the 32-bit word as CUDA's headers do.
enum class ValueType : std::uint8_t { none, i32, u32, f32, i64, u64, f64, f16, bf16, f16x2, bf16x2 };
inline constexpr int kValueTypeCount = static_cast<int>(ValueType::bf16x2) + 1;

constexpr bool is_64bit(ValueType t) {
  return t == ValueType::i64 || t == ValueType::u64 || t == ValueType::f64;
}
std::string_view to_string(ValueType t);
std::optional<ValueType> value_type_from_string(std::string_view name);

}  // namespace warpsim
