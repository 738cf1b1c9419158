// Look-ups by name in the intrinsic table (the rows themselves are constexpr, in the header).
#include "warpsim/intrinsic_table.hpp"

namespace warpsim {

std::optional<Op> op_from_string(std::string_view name) {
  for (int i = 0; i < kOpCount; ++i)
    if (to_string(static_cast<Op>(i)) == name) return static_cast<Op>(i);
  return std::nullopt;
}

std::string_view to_string(IntrinsicFamily family) {
  using F = IntrinsicFamily;
  switch (family) {
    case F::shuffle:
      return "shuffle";
    case F::vote:
      return "vote";
    case F::match:
      return "match";
    case F::reduce:
      return "reduce";
    case F::activemask:
      return "activemask";
    case F::warp_barrier:
      return "warp barrier";
    case F::block_barrier:
      return "block barrier";
    case F::bit:
      return "bit";
  }
  return "?";
}

const IntrinsicInfo* find_intrinsic(std::string_view name) {
  for (const IntrinsicInfo& info : intrinsic_table())
    if (info.name == name) return &info;
  return nullptr;
}

}  // namespace warpsim
