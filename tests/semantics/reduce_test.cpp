// Reductions: the contract example of sim/semantics/redux.cpp, signedness, wrapping.
#include <doctest/doctest.h>

#include <array>
#include <climits>
#include <cstdint>
#include <limits>

#include "warp_inputs.hpp"

using namespace warpsim;
using namespace warpsim::test;

TEST_CASE("the reduce contract example holds for 8 lanes") {
  struct Row {
    Op op;
    ValueType type;
    std::uint64_t result;
  };
  const std::array<Row, 9> rows{{
      {Op::reduce_add, ValueType::i32, 4},
      {Op::reduce_min, ValueType::i32, 0xffff'fffd},
      {Op::reduce_min, ValueType::u32, 0},
      {Op::reduce_max, ValueType::i32, 4},
      {Op::reduce_max, ValueType::u32, 0xffff'ffff},
      {Op::reduce_and, ValueType::none, 0},
      {Op::reduce_or, ValueType::none, 0xffff'ffff},
      {Op::reduce_xor, ValueType::none, 0xffff'fff8},
      {Op::reduce_add, ValueType::u32, 4},
  }};
  StepInputs in = warp_inputs(0xff, 0xff);
  set_values(in, [](int lane) { return static_cast<std::uint32_t>(lane - 3); });
  for (const Row& row : rows) {
    CAPTURE(to_string(row.op));
    CAPTURE(to_string(row.type));
    const StepOutputs out = run(row.op, row.type, in);
    for (int lane = 0; lane < 8; ++lane) {
      CAPTURE(lane);
      CHECK(out.value[lane] == row.result);
    }
    CHECK(out.value[8] == 0u);
    CHECK(out.undefined == 0u);
  }
}

TEST_CASE_TEMPLATE("min and max follow the signedness of the overload", T, std::int32_t,
                   std::uint32_t) {
  constexpr ValueType type = std::is_signed_v<T> ? ValueType::i32 : ValueType::u32;
  StepInputs in = warp_inputs();
  // INT_MIN on lane 5, INT_MAX on lane 6, -1 on lane 7, small positives elsewhere.
  set_values(in, [](int lane) -> std::uint32_t {
    if (lane == 5) return 0x8000'0000u;
    if (lane == 6) return 0x7fff'ffffu;
    if (lane == 7) return 0xffff'ffffu;
    return static_cast<std::uint32_t>(lane + 1);
  });
  const std::uint64_t min = run(Op::reduce_min, type, in).value[0];
  const std::uint64_t max = run(Op::reduce_max, type, in).value[0];
  if constexpr (std::is_signed_v<T>) {
    CHECK(min == 0x8000'0000u);
    CHECK(max == 0x7fff'ffffu);
  } else {
    CHECK(min == 1u);
    CHECK(max == 0xffff'ffffu);
  }
}

TEST_CASE("add wraps modulo 2^32 for every overload") {
  StepInputs in = warp_inputs();
  set_values(in, [](int) { return 0x8000'0001u; });
  for (ValueType type : {ValueType::i32, ValueType::u32, ValueType::none}) {
    CAPTURE(to_string(type));
    CHECK(run(Op::reduce_add, type, in).value[31] == 0x20u);  // 32 * (2^31 + 1) mod 2^32
  }
}

TEST_CASE("a reduction over one lane returns that lane's value") {
  StepInputs in = warp_inputs(lane_bit(30), lane_bit(30));
  set_values(in, [](int lane) { return 0xf0f0'0000u + static_cast<unsigned>(lane); });
  for (Op op : {Op::reduce_add, Op::reduce_min, Op::reduce_max, Op::reduce_and, Op::reduce_or,
                Op::reduce_xor}) {
    CAPTURE(to_string(op));
    CHECK(run(op, ValueType::none, in).value[30] == 0xf0f0'001eu);
  }
}

TEST_CASE("a reduction ignores high bits of the lane values") {
  StepInputs in = warp_inputs(0x3, 0x3);
  set_values(in, [](int) { return 0xffff'ffff'0000'0001ull; });
  CHECK(run(Op::reduce_add, ValueType::u32, in).value[0] == 2u);
}

TEST_CASE("converged callers outside the mask still contribute, flagged undefined") {
  StepInputs in = warp_inputs(kFullMask, 0x0000'ffff);
  set_values(in, [](int) { return 1; });
  const StepOutputs out = run(Op::reduce_add, ValueType::u32, in);
  CHECK(out.value[0] == 32u);
  CHECK(out.undefined == kFullMask);
}
