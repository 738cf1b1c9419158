// Names of ValueType. Op names come from the intrinsic table (intrinsic_table.hpp).
#include <array>
#include <cassert>

#include "warpsim/value_type.hpp"

namespace warpsim {
namespace {

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

}  // namespace warpsim
