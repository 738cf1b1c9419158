// Shuffles: the contract example of sim/semantics/shfl.cpp, the lane formula against the closed
// forms of spec section 1.3, widths, types and undefined sources.
#include <doctest/doctest.h>

#include <array>
#include <climits>
#include <cmath>
#include <functional>
#include <limits>

#include "warp_inputs.hpp"

using namespace warpsim;
using namespace warpsim::test;

namespace {

constexpr std::array kShuffles{Op::shfl_idx, Op::shfl_up, Op::shfl_down, Op::shfl_xor};

struct ExampleRow {
  const char* name;
  Op op;
  std::function<int(int)> arg;
  int width;
  std::array<std::uint64_t, 8> value;
  LaneMask pred;
  LaneMask undefined;
};

// Closed forms of spec section 1.3, written independently of the PTX bit formula.
int closed_form_source(Op op, int lane, int arg, int w) {
  const int base = lane & ~(w - 1);
  const int d = static_cast<int>(static_cast<unsigned>(arg) & 31u);
  switch (op) {
    case Op::shfl_idx:
      return base + static_cast<int>(static_cast<unsigned>(arg) & static_cast<unsigned>(w - 1));
    case Op::shfl_up:
      return lane - d >= base ? lane - d : lane;
    case Op::shfl_down:
      return lane + d <= base + w - 1 ? lane + d : lane;
    default:
      return (lane ^ d) <= base + w - 1 ? lane ^ d : lane;
  }
}

}  // namespace

TEST_CASE("the shuffle contract example holds for 8 lanes with mask 0xff") {
  const std::array<ExampleRow, 5> rows{{
      {"shfl_sync(0xff, v, 7 - lane, 8)",
       Op::shfl_idx,
       [](int l) { return 7 - l; },
       8,
       {70, 60, 50, 40, 30, 20, 10, 0},
       0xff,
       0},
      {"shfl_up_sync(0xff, v, 1, 4)",
       Op::shfl_up,
       [](int) { return 1; },
       4,
       {0, 0, 10, 20, 40, 40, 50, 60},
       0xee,
       0},
      {"shfl_down_sync(0xff, v, 2, 8)",
       Op::shfl_down,
       [](int) { return 2; },
       8,
       {20, 30, 40, 50, 60, 70, 60, 70},
       0x3f,
       0},
      {"shfl_xor_sync(0xff, v, 1, 8)",
       Op::shfl_xor,
       [](int) { return 1; },
       8,
       {10, 0, 30, 20, 50, 40, 70, 60},
       0xff,
       0},
      {"shfl_down_sync(0xff, v, 2) reads exited lanes 8 and 9",
       Op::shfl_down,
       [](int) { return 2; },
       32,
       {20, 30, 40, 50, 60, 70, 0, 0},
       0xff,
       0xc0},
  }};
  for (const ExampleRow& row : rows) {
    SUBCASE(row.name) {
      StepInputs in = warp_inputs(0xff, 0xff);
      set_values(in, [](int lane) { return 10 * lane; });
      set_args(in, row.arg);
      in.width.fill(row.width);
      const StepOutputs out = run(row.op, ValueType::i32, in);
      for (int lane = 0; lane < 8; ++lane) {
        CAPTURE(lane);
        CHECK(out.value[lane] == row.value[lane]);
      }
      CHECK(out.pred == row.pred);
      CHECK(out.undefined == row.undefined);
    }
  }
}

TEST_CASE("the lane formula agrees with the closed forms for every power-of-two width") {
  for (Op op : kShuffles) {
    for (int w = 1; w <= 32; w *= 2) {
      for (int arg = -70; arg <= 70; ++arg) {
        for (int lane = 0; lane < kWarpSize; ++lane) {
          const ShflSource src = shfl_source_lane(op, lane, arg, w);
          const int expected = closed_form_source(op, lane, arg, w);
          if (src.lane != expected) {
            CAPTURE(to_string(op));
            CAPTURE(w);
            CAPTURE(arg);
            CAPTURE(lane);
            REQUIRE(src.lane == expected);
          }
          // p is 0 exactly when a lane falls back to itself for another reason than reading itself.
          if (op == Op::shfl_idx) REQUIRE(src.in_range);
        }
      }
    }
  }
}

TEST_CASE("out-of-range widths act like the width that shares (32 - width) & 31") {
  struct Alias {
    int width;
    int acts_like;
  };
  // -1 acts like 31, not like 1: recorded on an H100
  // (tests/vectors/data/h100_shfl_widths.jsonl.gz).
  const std::array<Alias, 10> aliases{{{0, 32},
                                       {64, 32},
                                       {96, 32},
                                       {-32, 32},
                                       {33, 1},
                                       {65, 1},
                                       {48, 16},
                                       {-16, 16},
                                       {-1, 31},
                                       {INT_MIN, 32}}};
  for (const Alias& a : aliases) {
    CAPTURE(a.width);
    for (Op op : kShuffles)
      for (int arg = -40; arg <= 40; ++arg)
        for (int lane = 0; lane < kWarpSize; ++lane) {
          const ShflSource got = shfl_source_lane(op, lane, arg, a.width);
          const ShflSource want = shfl_source_lane(op, lane, arg, a.acts_like);
          REQUIRE(got.lane == want.lane);
          REQUIRE(got.in_range == want.in_range);
        }
  }
}

TEST_CASE("width -1 splits the warp by lane parity, as an H100 does") {
  StepInputs in = warp_inputs();
  set_uniform(in, 0, -1);
  const StepOutputs out = run(Op::shfl_idx, ValueType::i32, in);
  for (int lane = 0; lane < kWarpSize; ++lane) {
    CAPTURE(lane);
    CHECK(out.value[lane] == 100u + static_cast<unsigned>(lane & 1));
  }
}

TEST_CASE("widths that are not powers of two follow the bit formula") {
  SUBCASE("width 3: seg 0b11101") {
    CHECK(shfl_source_lane(Op::shfl_idx, 7, 3, 3).lane == 7);  // (7 & 29) | (3 & 2)
    CHECK(shfl_source_lane(Op::shfl_idx, 7, 0, 3).lane == 5);
    CHECK(shfl_source_lane(Op::shfl_idx, 2, 1, 3).lane == 0);
    CHECK(shfl_source_lane(Op::shfl_down, 4, 2, 3).lane == 6);  // max lane 4 | 2 = 6
    CHECK_FALSE(shfl_source_lane(Op::shfl_down, 4, 3, 3).in_range);
  }
  SUBCASE("width 31: seg 1, one segment of odd lanes and one of even lanes") {
    CHECK(shfl_source_lane(Op::shfl_idx, 9, 6, 31).lane == 7);  // 1 | (6 & 30)
    CHECK(shfl_source_lane(Op::shfl_xor, 9, 2, 31).lane == 11);
  }
}

TEST_CASE("idx, up and down with width 1 leave every lane its own value") {
  for (Op op : {Op::shfl_idx, Op::shfl_up, Op::shfl_down}) {
    for (int arg : {-1, 0, 1, 5, 31, 32, 33}) {
      StepInputs in = warp_inputs();
      set_uniform(in, arg, 1);
      const StepOutputs out = run(op, ValueType::u32, in);
      CAPTURE(to_string(op));
      CAPTURE(arg);
      for (int lane = 0; lane < kWarpSize; ++lane) {
        CAPTURE(lane);
        CHECK(out.value[lane] == 100u + static_cast<unsigned>(lane));
        CHECK(out.src_lane[lane] == lane);
      }
      if (op == Op::shfl_idx || arg % 32 == 0)
        CHECK(out.pred == kFullMask);
      else
        CHECK(out.pred == 0u);
    }
  }
}

// Spec case 5 says "any shuffle"; an H100 shows xor is the exception: with width 1 every lane is
// its own segment, and xor may still read a lower one
// (tests/vectors/data/h100_shfl_widths.jsonl.gz).
TEST_CASE("xor with width 1 reads lane ^ laneMask whenever that lane is lower") {
  StepInputs in = warp_inputs();
  set_uniform(in, 3, 1);
  const StepOutputs out = run(Op::shfl_xor, ValueType::u32, in);
  const std::array<int, 8> source{0, 1, 1, 0, 4, 5, 5, 4};
  for (int lane = 0; lane < 8; ++lane) {
    CAPTURE(lane);
    CHECK(out.src_lane[lane] == source[lane]);
    CHECK(out.value[lane] == 100u + static_cast<unsigned>(source[lane]));
  }
  CHECK((out.pred & 0xffu) == 0b1100'1100u);  // p = 1 exactly where a lower lane is read
}

TEST_CASE("each lane may pass its own argument and width") {
  StepInputs in = warp_inputs();
  set_args(in, [](int lane) { return lane < 16 ? lane + 16 : lane - 16; });
  for (int lane = 0; lane < kWarpSize; ++lane) in.width[lane] = lane < 16 ? 32 : 16;
  const StepOutputs out = run(Op::shfl_idx, ValueType::i32, in);
  CHECK(out.value[0] == 116u);   // width 32: lane 16
  CHECK(out.value[15] == 131u);  // lane 31
  CHECK(out.value[16] == 116u);  // width 16: base 16 + (0 mod 16)
  CHECK(out.value[31] == 131u);  // 16 + 15
  CHECK(out.undefined == 0u);
}

template <class T>
constexpr ValueType value_type_of() {
  if constexpr (std::is_same_v<T, std::int32_t>) return ValueType::i32;
  if constexpr (std::is_same_v<T, std::uint32_t>) return ValueType::u32;
  if constexpr (std::is_same_v<T, float>) return ValueType::f32;
  if constexpr (std::is_same_v<T, std::int64_t>) return ValueType::i64;
  if constexpr (std::is_same_v<T, std::uint64_t>) return ValueType::u64;
  if constexpr (std::is_same_v<T, double>) return ValueType::f64;
}

template <class T>
std::uint64_t raw_bits(T v) {
  if constexpr (sizeof(T) == 4)
    return std::bit_cast<std::uint32_t>(v);
  else
    return std::bit_cast<std::uint64_t>(v);
}

// Per-lane values whose bits are easy to get wrong: signs, ±0, NaN payloads, extremes.
template <class T>
T tricky_value(int lane) {
  if constexpr (std::is_floating_point_v<T>) {
    using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
    constexpr Bits sign = Bits{1} << (8 * sizeof(T) - 1);
    constexpr Bits quiet_nan = std::bit_cast<Bits>(std::numeric_limits<T>::quiet_NaN());
    switch (lane % 8) {
      case 0:
        return T(0.0);
      case 1:
        return -T(0.0);
      case 2:
        return std::bit_cast<T>(static_cast<Bits>(quiet_nan | static_cast<Bits>(lane)));  // payload
      case 3:
        return std::bit_cast<T>(static_cast<Bits>(sign | quiet_nan | 1u));  // -NaN
      case 4:
        return std::numeric_limits<T>::infinity();
      case 5:
        return std::numeric_limits<T>::denorm_min();
      case 6:
        return std::numeric_limits<T>::lowest();
      default:
        return T(lane) + T(0.25);
    }
  } else {
    switch (lane % 4) {
      case 0:
        return std::numeric_limits<T>::min();
      case 1:
        return std::numeric_limits<T>::max();
      case 2:
        return static_cast<T>(-lane);
      default:
        return static_cast<T>(lane * 0x01010101);
    }
  }
}

TEST_CASE_TEMPLATE("a shuffle hands over the source lane's bits unchanged", T, std::int32_t,
                   std::uint32_t, float, std::int64_t, std::uint64_t, double) {
  constexpr ValueType type = value_type_of<T>();
  StepInputs in = warp_inputs();
  set_values(in, [](int lane) { return raw_bits(tricky_value<T>(lane)); });
  for (Op op : kShuffles) {
    for (int arg : {1, 3, 17, -1}) {
      set_uniform(in, arg, 32);
      const StepOutputs out = run(op, type, in);
      CAPTURE(to_string(op));
      CAPTURE(arg);
      for (int lane = 0; lane < kWarpSize; ++lane) {
        CAPTURE(lane);
        const int src = shfl_source_lane(op, lane, arg, 32).lane;
        CHECK(out.src_lane[lane] == src);
        CHECK(out.value[lane] == raw_bits(tricky_value<T>(src)));
      }
    }
  }
}

TEST_CASE("a 32-bit shuffle drops stray high bits and a 16-bit one keeps the low half") {
  StepInputs in = warp_inputs();
  set_values(in, [](int lane) { return 0xabcd'0000'1234'0000ull | static_cast<unsigned>(lane); });
  set_uniform(in, 1);
  CHECK(run(Op::shfl_xor, ValueType::u32, in).value[0] == 0x1234'0001u);
  CHECK(run(Op::shfl_xor, ValueType::f16, in).value[0] == 0x0001u);
  CHECK(run(Op::shfl_xor, ValueType::bf16x2, in).value[0] == 0x1234'0001u);
  CHECK(run(Op::shfl_xor, ValueType::u64, in).value[0] == 0xabcd'0000'1234'0001ull);
}

TEST_CASE(
    "a shuffle reading a lane that did not call gets the configured value, flagged undefined") {
  SemanticsOptions options;
  options.invalid_source_value = 0xdead'beef'cafe'f00dull;
  StepInputs in = warp_inputs(lanes_from_to(0, 19));  // lanes 20..31 exited
  set_uniform(in, 12);
  struct Row {
    ValueType type;
    std::uint64_t invalid;
  };
  for (Row row : {Row{ValueType::i32, 0xcafe'f00du}, Row{ValueType::f64, 0xdead'beef'cafe'f00dull},
                  Row{ValueType::f16, 0xf00du}}) {
    CAPTURE(to_string(row.type));
    const StepOutputs out = run(Op::shfl_down, row.type, in, options);
    for (int lane = 0; lane < 20; ++lane) {
      CAPTURE(lane);
      CHECK(out.src_lane[lane] == lane + 12);
      if (lane < 8)
        CHECK(out.value[lane] == (100u + static_cast<unsigned>(lane) + 12u));
      else
        CHECK(out.value[lane] == row.invalid);
    }
    CHECK(out.undefined == lanes_from_to(8, 19));
    CHECK(out.pred == lanes_from_to(0, 19));  // p reports the range only
    for (int lane = 20; lane < kWarpSize; ++lane) {
      CAPTURE(lane);
      CHECK(out.value[lane] == 0u);
      CHECK(out.src_lane[lane] == -1);
    }
  }
}

TEST_CASE("an inactive source lane (not exited, not calling) also reads as undefined") {
  StepInputs in = warp_inputs(0x0000'00ff, 0x0000'00ff);
  in.exited = 0;  // lanes 8..31 sit elsewhere
  set_uniform(in, 4);
  const StepOutputs out = run(Op::shfl_down, ValueType::i32, in);
  CHECK(out.value[3] == 107u);
  CHECK(out.value[4] == 0u);  // lane 8 did not call
  CHECK(out.undefined == 0xf0u);
}

TEST_CASE(
    "a shuffle reading a caller outside the reader's own mask returns its value, flagged "
    "undefined") {
  // Lanes 0..15 pass 0x0000ffff, lanes 16..31 pass 0xffff0000; all 32 meet at one call.
  StepInputs in = warp_inputs();
  for (int lane = 0; lane < kWarpSize; ++lane)
    in.mask[lane] = lane < 16 ? 0x0000ffffu : 0xffff0000u;
  set_uniform(in, 16);
  const StepOutputs out = run(Op::shfl_xor, ValueType::i32, in);
  for (int lane = 0; lane < kWarpSize; ++lane) {
    CAPTURE(lane);
    CHECK(out.value[lane] == 100u + static_cast<unsigned>(lane ^ 16));
  }
  CHECK(out.undefined == kFullMask);
}

TEST_CASE("shuffles over sparse masks read only among the callers") {
  StepInputs in = warp_inputs(0x8000'0001, 0x8000'0001);
  SUBCASE("xor 31 swaps lanes 0 and 31") {
    set_uniform(in, 31);
    const StepOutputs out = run(Op::shfl_xor, ValueType::i32, in);
    CHECK(out.value[0] == 131u);
    CHECK(out.value[31] == 100u);
    CHECK(out.undefined == 0u);
  }
  SUBCASE("idx 31 broadcasts lane 31") {
    set_uniform(in, 31);
    const StepOutputs out = run(Op::shfl_idx, ValueType::i32, in);
    CHECK(out.value[0] == 131u);
    CHECK(out.value[31] == 131u);
  }
  SUBCASE("down 1 from lane 0 reads exited lane 1") {
    set_uniform(in, 1);
    const StepOutputs out = run(Op::shfl_down, ValueType::i32, in);
    CHECK(out.value[0] == 0u);
    CHECK(out.value[31] == 131u);  // out of range: own value
    CHECK(out.undefined == 0x1u);
    CHECK(out.pred == 0x1u);
  }
  SUBCASE("a single calling lane reading itself is defined") {
    StepInputs one = warp_inputs(lane_bit(9), lane_bit(9));
    set_uniform(one, 9);
    const StepOutputs out = run(Op::shfl_idx, ValueType::i32, one);
    CHECK(out.value[9] == 109u);
    CHECK(out.undefined == 0u);
  }
}

TEST_CASE("extreme arguments keep only their low five bits") {
  for (int arg : {INT_MIN, INT_MAX, -33, 64, 1 << 20}) {
    CAPTURE(arg);
    const int bval = static_cast<int>(static_cast<unsigned>(arg) & 31u);
    for (int lane = 0; lane < kWarpSize; ++lane) {
      CAPTURE(lane);
      CHECK(shfl_source_lane(Op::shfl_idx, lane, arg, 32).lane == bval);
      CHECK(shfl_source_lane(Op::shfl_xor, lane, arg, 32).lane == (lane ^ bval));
    }
  }
}
