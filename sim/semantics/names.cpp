// Names of ValueType, and properties of Op and ValueType. Op names come from the intrinsic table
// (intrinsic_table.cpp).
#include <array>
#include <cassert>

#include "warpsim/semantics.hpp"

namespace warpsim {
namespace {

constexpr int kValueTypeCount = static_cast<int>(ValueType::bf16x2) + 1;
constexpr std::array<std::string_view, kValueTypeCount> kValueTypeNames{
    "none", "i32", "u32", "f32", "i64", "u64", "f64", "f16", "bf16", "f16x2", "bf16x2",
};

}  // namespace

std::string_view to_string(ValueType t) {
  const auto i = static_cast<std::size_t>(t);
  assert(i < kValueTypeNames.size());
  return kValueTypeNames[i];
}

std::optional<ValueType> value_type_from_string(std::string_view name) {
  for (std::size_t i = 0; i < kValueTypeNames.size(); ++i)
    if (kValueTypeNames[i] == name) return static_cast<ValueType>(i);
  return std::nullopt;
}

bool accepts_type(Op op, ValueType t) {
  using enum ValueType;
  switch (op) {
    case Op::shfl_idx:
    case Op::shfl_up:
    case Op::shfl_down:
    case Op::shfl_xor:
      return true;  // every type, halves included
    case Op::match_any:
    case Op::match_all:
      return t == none || t == i32 || t == u32 || t == f32 || is_64bit(t);
    case Op::reduce_add:
    case Op::reduce_min:
    case Op::reduce_max:
      return t == none || t == i32 || t == u32;
    case Op::reduce_and:
    case Op::reduce_or:
    case Op::reduce_xor:
      return t == none || t == u32;
    default:
      return t == none;  // votes, activemask, syncwarp, block barriers
  }
}

}  // namespace warpsim
