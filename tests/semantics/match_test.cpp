// Matches: the contract example of sim/semantics/match.cpp, bitwise comparison, 32 vs 64 bits.
#include <doctest/doctest.h>

#include <array>
#include <cmath>

#include "warp_inputs.hpp"

using namespace warpsim;
using namespace warpsim::test;

TEST_CASE("the match contract example holds for 8 lanes") {
  StepInputs in = warp_inputs(0xff, 0xff);
  SUBCASE("match_any of lane / 3") {
    set_values(in, [](int lane) { return lane / 3; });
    const StepOutputs out = run(Op::match_any, ValueType::i32, in);
    const std::array<std::uint64_t, 8> expected{0x07, 0x07, 0x07, 0x38, 0x38, 0x38, 0xc0, 0xc0};
    for (int lane = 0; lane < 8; ++lane) {
      CAPTURE(lane);
      CHECK(out.value[lane] == expected[lane]);
    }
    CHECK(out.pred == 0u);
    CHECK(out.undefined == 0u);
  }
  SUBCASE("match_all of lane / 3") {
    set_values(in, [](int lane) { return lane / 3; });
    const StepOutputs out = run(Op::match_all, ValueType::i32, in);
    for (int lane = 0; lane < 8; ++lane) {
      CAPTURE(lane);
      CHECK(out.value[lane] == 0u);
    }
    CHECK(out.pred == 0u);
  }
  SUBCASE("match_all of 5") {
    set_values(in, [](int) { return 5; });
    const StepOutputs out = run(Op::match_all, ValueType::i32, in);
    for (int lane = 0; lane < 8; ++lane) {
      CAPTURE(lane);
      CHECK(out.value[lane] == 0xffu);
    }
    CHECK(out.pred == 0xffu);
  }
}

TEST_CASE("a 64-bit match compares all 64 bits and a 32-bit one only the low 32") {
  StepInputs in = warp_inputs(0xf, 0xf);
  set_values(in, [](int lane) { return (std::uint64_t(lane & 1) << 32) | 7u; });
  SUBCASE("i64: high words differ") {
    const StepOutputs out = run(Op::match_any, ValueType::i64, in);
    CHECK(out.value[0] == 0x5u);
    CHECK(out.value[1] == 0xau);
    CHECK(run(Op::match_all, ValueType::u64, in).pred == 0u);
  }
  SUBCASE("u32: only the low words count") {
    CHECK(run(Op::match_any, ValueType::u32, in).value[0] == 0xfu);
    CHECK(run(Op::match_all, ValueType::u32, in).pred == 0xfu);
  }
}

TEST_CASE("doubles that differ only in the low word do not match") {
  StepInputs in = warp_inputs(0x3, 0x3);
  const std::uint64_t one = bits_of(1.0);
  set_values(in, [&](int lane) { return one | static_cast<unsigned>(lane); });
  CHECK(run(Op::match_any, ValueType::f64, in).value[0] == 0x1u);
  const StepOutputs all = run(Op::match_all, ValueType::f64, in);
  CHECK(all.value[1] == 0u);
  CHECK(all.pred == 0u);
}

TEST_CASE("match_all over sparse callers returns exactly the callers") {
  StepInputs in = warp_inputs(0x8001'0010, 0xffff'ffff);  // lanes 4, 16, 31; the rest exited
  set_values(in, [](int) { return 0xabcu; });
  const StepOutputs out = run(Op::match_all, ValueType::u32, in);
  CHECK(out.value[16] == 0x8001'0010u);
  CHECK(out.pred == 0x8001'0010u);
  CHECK(out.undefined == 0u);
  CHECK(out.value[0] == 0u);  // exited lanes get nothing
}

TEST_CASE("a float NaN matches only NaNs with the same sign and payload") {
  StepInputs in = warp_inputs(0xf, 0xf);
  const std::array<std::uint64_t, 4> values{0x7fc0'0000u, 0x7fc0'0000u, 0x7fc0'0001u,
                                            bits_of(std::nanf(""))};
  set_values(in, [&](int lane) { return lane < 4 ? values[static_cast<std::size_t>(lane)] : 0u; });
  const StepOutputs out = run(Op::match_any, ValueType::f32, in);
  CHECK(out.value[0] == (bits_of(std::nanf("")) == 0x7fc0'0000u ? 0xbu : 0x3u));
  CHECK(out.value[2] == 0x4u);
}
