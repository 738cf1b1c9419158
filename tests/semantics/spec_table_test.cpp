// Every single-step row of the edge-case table in ../shared/spec/warp-semantics.md section 10,
// with the H100 results it lists. v = 100 + lane and all 32 lanes call unless a row says otherwise.
// Rows that need the scheduler (39's divergence, 42, 43) are the runtime's; 41, 44 and 45 appear
// here in their single-step form.
#include <doctest/doctest.h>

#include <array>
#include <climits>

#include "warp_inputs.hpp"
#include "warpsim/bit_ops.hpp"

using namespace warpsim;
using namespace warpsim::test;

namespace {

constexpr std::uint64_t v(int lane) { return 100u + static_cast<unsigned>(lane); }

StepOutputs shuffle(Op op, std::int32_t arg, std::int32_t width = 32,
                    ValueType type = ValueType::i32) {
  StepInputs in = warp_inputs();
  set_uniform(in, arg, width);
  return run(op, type, in);
}

// Runs `op` with per-lane arguments from `arg_of_lane`.
template <class F>
StepOutputs shuffle_per_lane(Op op, F&& arg_of_lane, std::int32_t width = 32) {
  StepInputs in = warp_inputs();
  set_args(in, arg_of_lane);
  in.width.fill(width);
  return run(op, ValueType::i32, in);
}

// Checks lane i received v(source(i)); `keeps` lanes must also report p = 0.
template <class F>
void check_sources(const StepOutputs& out, F&& source) {
  for (int lane = 0; lane < kWarpSize; ++lane) {
    CAPTURE(lane);
    CHECK(out.value[lane] == v(source(lane)));
    CHECK(out.src_lane[lane] == source(lane));
  }
}

}  // namespace

TEST_CASE("spec case 1: shfl_sync(F, v, -1) gives v[31] everywhere") {
  const StepOutputs out = shuffle(Op::shfl_idx, -1);
  check_sources(out, [](int) { return 31; });
  CHECK(out.pred == kFullMask);
}

TEST_CASE("spec case 2: shfl_sync(F, v, 32) / (F, v, 33) give v[0] / v[1]") {
  check_sources(shuffle(Op::shfl_idx, 32), [](int) { return 0; });
  check_sources(shuffle(Op::shfl_idx, 33), [](int) { return 1; });
}

TEST_CASE("spec case 3: shfl_sync(F, v, -1, 16) gives v[15] to lanes 0-15 and v[31] to 16-31") {
  check_sources(shuffle(Op::shfl_idx, -1, 16), [](int lane) { return lane < 16 ? 15 : 31; });
}

TEST_CASE("spec case 4: shfl_sync(F, v, 32, 16) / (F, v, 17, 16) give segment base / base + 1") {
  check_sources(shuffle(Op::shfl_idx, 32, 16), [](int lane) { return lane & 16; });
  check_sources(shuffle(Op::shfl_idx, 17, 16), [](int lane) { return (lane & 16) + 1; });
}

TEST_CASE("spec case 5: idx, up and down with width 1 leave each lane its own value") {
  const StepOutputs idx = shuffle(Op::shfl_idx, 5, 1);
  check_sources(idx, [](int lane) { return lane; });
  CHECK(idx.pred == kFullMask);
  check_sources(shuffle(Op::shfl_up, 1, 1), [](int lane) { return lane; });
  check_sources(shuffle(Op::shfl_down, 1, 1), [](int lane) { return lane; });
  // xor is the exception (see shfl_test.cpp): lane ^ laneMask is read when it is lower.
}

TEST_CASE("spec case 6: shfl_sync(F, v, lane + 1, 12) is an odd permutation") {
  const StepOutputs out = shuffle_per_lane(
      Op::shfl_idx, [](int lane) { return lane + 1; }, 12);
  CHECK(out.value[7] == v(12));
  CHECK(out.value[3] == v(0));
  CHECK(out.value[0] == v(1));
  CHECK(out.value[4] == v(5));
}

TEST_CASE("spec case 7: width 0 and width 64 act as width 32") {
  for (int width : {0, 64}) {
    CAPTURE(width);
    check_sources(shuffle(Op::shfl_down, 3, width),
                  [](int lane) { return lane + 3 <= 31 ? lane + 3 : lane; });
    check_sources(shuffle(Op::shfl_idx, 20, width), [](int) { return 20; });
  }
}

TEST_CASE("spec case 8: shfl_down_sync(F, v, 1, 33) keeps every lane's own value") {
  const StepOutputs out = shuffle(Op::shfl_down, 1, 33);
  check_sources(out, [](int lane) { return lane; });
  CHECK(out.pred == 0u);
}

TEST_CASE("spec case 9: shfl_up_sync(F, v, 0) keeps own values with p = 1") {
  const StepOutputs out = shuffle(Op::shfl_up, 0);
  check_sources(out, [](int lane) { return lane; });
  CHECK(out.pred == kFullMask);
}

TEST_CASE("spec case 10: shfl_up_sync(F, v, 16, 16) keeps own values with p = 0") {
  const StepOutputs out = shuffle(Op::shfl_up, 16, 16);
  check_sources(out, [](int lane) { return lane; });
  CHECK(out.pred == 0u);
}

TEST_CASE("spec case 11: shfl_up_sync(F, v, 32) keeps own values but p = 1") {
  const StepOutputs out = shuffle(Op::shfl_up, 32);
  check_sources(out, [](int lane) { return lane; });
  CHECK(out.pred == kFullMask);
}

TEST_CASE("spec case 12: shfl_up_sync(F, v, 33) shifts by 1 and lane 0 keeps its own") {
  const StepOutputs out = shuffle(Op::shfl_up, 33);
  check_sources(out, [](int lane) { return lane == 0 ? 0 : lane - 1; });
  CHECK(out.pred == 0xffff'fffeu);
}

TEST_CASE("spec case 13: shfl_down_sync(F, v, 33) shifts by 1 and lane 31 keeps its own") {
  const StepOutputs out = shuffle(Op::shfl_down, 33);
  check_sources(out, [](int lane) { return lane == 31 ? 31 : lane + 1; });
  CHECK(out.pred == 0x7fff'ffffu);
}

TEST_CASE("spec case 14: shfl_down_sync(F, v, 0xffffffff) gives lane 0 v[31], others their own") {
  const StepOutputs out = shuffle(Op::shfl_down, static_cast<std::int32_t>(0xffff'ffffu));
  check_sources(out, [](int lane) { return lane == 0 ? 31 : lane; });
  CHECK(out.pred == 0x1u);
}

TEST_CASE("spec case 15: shfl_up_sync(F, v, 0xffffffff) gives lane 31 v[0], others their own") {
  const StepOutputs out = shuffle(Op::shfl_up, static_cast<std::int32_t>(0xffff'ffffu));
  check_sources(out, [](int lane) { return lane == 31 ? 0 : lane; });
  CHECK(out.pred == 0x8000'0000u);
}

TEST_CASE(
    "spec case 16: shfl_down_sync(F, v, 4, 8): the top 4 lanes of each octet keep their own") {
  const StepOutputs out = shuffle(Op::shfl_down, 4, 8);
  check_sources(out, [](int lane) { return (lane & 7) < 4 ? lane + 4 : lane; });
  CHECK(out.pred == 0x0f0f'0f0fu);
}

TEST_CASE("spec case 17: shfl_xor_sync(F, v, 16, 8): lanes 0-15 keep own, 16-31 get v[lane - 16]") {
  check_sources(shuffle(Op::shfl_xor, 16, 8),
                [](int lane) { return lane < 16 ? lane : lane - 16; });
}

TEST_CASE("spec case 18: shfl_xor_sync(F, v, 32) / (F, v, -1) give own / v[lane ^ 31]") {
  check_sources(shuffle(Op::shfl_xor, 32), [](int lane) { return lane; });
  check_sources(shuffle(Op::shfl_xor, -1), [](int lane) { return lane ^ 31; });
}

TEST_CASE("spec case 19: double shfl_sync(F, d, -1) takes both halves from lane 31") {
  StepInputs in = warp_inputs();
  set_values(in, [](int lane) {
    return (0x7ff0'0000ull + static_cast<unsigned>(lane)) << 32 | (0xdead'0000u + lane);
  });
  set_uniform(in, -1);
  const StepOutputs out = run(Op::shfl_idx, ValueType::f64, in);
  for (int lane = 0; lane < kWarpSize; ++lane) {
    CAPTURE(lane);
    CHECK(out.value[lane] == 0x7ff0'001f'dead'001full);
  }
}

TEST_CASE("spec case 20: long long shfl_down_sync(F, x, 3, 8) moves whole values within octets") {
  StepInputs in = warp_inputs();
  set_values(in, [](int lane) {
    return (std::uint64_t(lane) << 40) | 0xffff'ff00u | static_cast<unsigned>(lane);
  });
  set_uniform(in, 3, 8);
  const StepOutputs out = run(Op::shfl_down, ValueType::i64, in);
  for (int lane = 0; lane < kWarpSize; ++lane) {
    CAPTURE(lane);
    const int src = (lane & 7) + 3 <= 7 ? lane + 3 : lane;
    CHECK(out.value[lane] ==
          ((std::uint64_t(src) << 40) | 0xffff'ff00u | static_cast<unsigned>(src)));
  }
}

TEST_CASE("spec case 21: half types are copied bit for bit") {
  SUBCASE("__half xor 1") {
    StepInputs in = warp_inputs();
    set_values(in, [](int lane) { return 0x7c01u + static_cast<unsigned>(lane); });  // NaN payloads
    set_uniform(in, 1);
    const StepOutputs out = run(Op::shfl_xor, ValueType::f16, in);
    for (int lane = 0; lane < kWarpSize; ++lane) {
      CAPTURE(lane);
      CHECK(out.value[lane] == 0x7c01u + static_cast<unsigned>(lane ^ 1));
    }
  }
  SUBCASE("bf16 shfl_sync(F, v, 31 - lane)") {
    StepInputs in = warp_inputs();
    set_values(in, [](int lane) { return lane % 2 ? 0x8000u : 0x0000u; });  // -0 / +0
    set_args(in, [](int lane) { return 31 - lane; });
    const StepOutputs out = run(Op::shfl_idx, ValueType::bf16, in);
    for (int lane = 0; lane < kWarpSize; ++lane) {
      CAPTURE(lane);
      CHECK(out.value[lane] == ((31 - lane) % 2 ? 0x8000u : 0x0000u));
    }
  }
  SUBCASE("__half2 up 1: lane 0 keeps (+0, -0)") {
    StepInputs in = warp_inputs();
    set_values(in, [](int lane) {
      return lane == 0 ? 0x8000'0000u : 0x3c00'0000u + static_cast<unsigned>(lane);
    });
    set_uniform(in, 1);
    const StepOutputs out = run(Op::shfl_up, ValueType::f16x2, in);
    CHECK(out.value[0] == 0x8000'0000u);
    CHECK(out.value[1] == 0x8000'0000u);
    CHECK(out.value[2] == 0x3c00'0001u);
  }
}

TEST_CASE("spec case 22: a shuffle from a lane that exited gives 0 with p = 1, undefined") {
  StepInputs in = warp_inputs(lanes_from_to(0, 19));
  set_args(in, [](int lane) { return lane + 12; });
  const StepOutputs out = run(Op::shfl_idx, ValueType::i32, in);
  CHECK(out.value[7] == v(19));
  CHECK(out.value[8] == 0u);
  CHECK(out.value[19] == 0u);
  CHECK(out.pred == lanes_from_to(0, 19));
  CHECK(out.undefined == lanes_from_to(8, 19));
}

TEST_CASE("spec case 23: if (lane < 16) shfl_sync(0xFFFF, v, lane + 16) reads inactive lanes: 0") {
  StepInputs in = warp_inputs(0x0000'ffff, 0x0000'ffff);
  in.exited = 0;
  set_args(in, [](int lane) { return lane + 16; });
  const StepOutputs out = run(Op::shfl_idx, ValueType::i32, in);
  for (int lane = 0; lane < 16; ++lane) {
    CAPTURE(lane);
    CHECK(out.value[lane] == 0u);
  }
  CHECK(out.undefined == 0x0000'ffffu);
}

TEST_CASE("spec case 24: shfl_sync(0, v, 0) in converged code gives v[0] everywhere, undefined") {
  StepInputs in = warp_inputs(kFullMask, 0);
  const StepOutputs out = run(Op::shfl_idx, ValueType::i32, in);
  check_sources(out, [](int) { return 0; });
  CHECK(out.undefined == kFullMask);
}

TEST_CASE("spec case 25: ballots of odd and even lanes with their own masks") {
  StepInputs odd = warp_inputs(0xaaaa'aaaa, 0xaaaa'aaaa);
  odd.exited = 0;
  set_values(odd, [](int lane) { return lane > 10; });
  StepInputs even = warp_inputs(0x5555'5555, 0x5555'5555);
  even.exited = 0;
  set_values(even, [](int lane) { return lane < 10; });
  const StepOutputs odd_out = run(Op::ballot, ValueType::none, odd);
  const StepOutputs even_out = run(Op::ballot, ValueType::none, even);
  CHECK(odd_out.value[1] == 0xaaaa'a800u);
  CHECK(odd_out.value[31] == 0xaaaa'a800u);
  CHECK(even_out.value[0] == 0x155u);
  CHECK(even_out.value[30] == 0x155u);
  CHECK(odd_out.undefined == 0u);
  CHECK(even_out.undefined == 0u);
}

TEST_CASE("spec case 26: with lanes >= 20 exited, ballot_sync(F, 1) gives 0x000fffff") {
  StepInputs in = warp_inputs(lanes_from_to(0, 19));
  set_values(in, [](int) { return 1; });
  const StepOutputs out = run(Op::ballot, ValueType::none, in);
  CHECK(out.value[0] == 0x000f'ffffu);
  CHECK(out.value[19] == 0x000f'ffffu);
  CHECK(out.undefined == 0u);
}

TEST_CASE("spec case 27: all 32 lanes calling ballot_sync(0xFFFF, 1) give 0xffffffff (UB)") {
  StepInputs in = warp_inputs(kFullMask, 0x0000'ffff);
  set_values(in, [](int) { return 1; });
  const StepOutputs out = run(Op::ballot, ValueType::none, in);
  CHECK(out.value[0] == kFullMask);
  CHECK(out.value[31] == kFullMask);
  CHECK(out.undefined == kFullMask);
}

TEST_CASE("spec case 28: lanes < 16 calling all_sync(0xFFFF, lane < 16) / any_sync(0xFFFF, 0)") {
  StepInputs in = warp_inputs(0x0000'ffff, 0x0000'ffff);
  in.exited = 0;
  set_values(in, [](int lane) { return lane < 16; });
  CHECK(run(Op::all, ValueType::none, in).value[5] == 1u);
  set_values(in, [](int) { return 0; });
  CHECK(run(Op::any, ValueType::none, in).value[5] == 0u);
}

TEST_CASE("spec case 29: uni_sync(F, lane < 16) / uni_sync(F, 1) give 0 / 1") {
  StepInputs in = warp_inputs();
  set_values(in, [](int lane) { return lane < 16; });
  CHECK(run(Op::uni, ValueType::none, in).value[0] == 0u);
  set_values(in, [](int) { return 1; });
  CHECK(run(Op::uni, ValueType::none, in).value[0] == 1u);
}

TEST_CASE("spec case 30: match_any on floats compares bits: +0, -0 and NaNs") {
  const std::array<std::uint64_t, 8> floats{0x0000'0000u, 0x8000'0000u, 0x0000'0000u, 0x7fc0'0000u,
                                            0x7fc0'0000u, 0x7fc0'0001u, 0xffc0'0000u, 0x3f80'0000u};
  StepInputs in = warp_inputs();
  set_values(in,
             [&](int lane) { return lane < 8 ? floats[lane] : bits_of(static_cast<float>(lane)); });
  const StepOutputs out = run(Op::match_any, ValueType::f32, in);
  const std::array<std::uint64_t, 8> expected{0x5, 0x2, 0x5, 0x18, 0x18, 0x20, 0x40, 0x80};
  for (int lane = 0; lane < 8; ++lane) {
    CAPTURE(lane);
    CHECK(out.value[lane] == expected[lane]);
  }
  CHECK(out.value[9] == lane_bit(9));
}

TEST_CASE("spec case 31: match_all(F, lane ? -0 : +0) gives 0 with pred 0") {
  StepInputs in = warp_inputs();
  set_values(in, [](int lane) { return lane ? 0x8000'0000u : 0u; });
  const StepOutputs out = run(Op::match_all, ValueType::f32, in);
  CHECK(out.value[0] == 0u);
  CHECK(out.value[31] == 0u);
  CHECK(out.pred == 0u);
}

TEST_CASE("spec case 32: match_all(F, identical NaN bits) gives 0xffffffff with pred 1") {
  StepInputs in = warp_inputs();
  set_values(in, [](int) { return 0x7ff4'0000'0000'0abcull; });
  const StepOutputs out = run(Op::match_all, ValueType::f64, in);
  CHECK(out.value[0] == kFullMask);
  CHECK(out.pred == kFullMask);
}

TEST_CASE("spec case 33: match_any on doubles with equal high words and lo = lane & 3") {
  StepInputs in = warp_inputs();
  set_values(in,
             [](int lane) { return 0x4000'0000'0000'0000ull | static_cast<unsigned>(lane & 3); });
  const StepOutputs out = run(Op::match_any, ValueType::f64, in);
  for (int lane = 0; lane < kWarpSize; ++lane) {
    CAPTURE(lane);
    CHECK(out.value[lane] == (0x1111'1111u << (lane & 3)));
  }
}

TEST_CASE("spec case 34: with lanes >= 20 exited, match_all(F, 5) gives 0x000fffff with pred 1") {
  StepInputs in = warp_inputs(lanes_from_to(0, 19));
  set_values(in, [](int) { return 5; });
  const StepOutputs out = run(Op::match_all, ValueType::i32, in);
  CHECK(out.value[0] == 0x000f'ffffu);
  CHECK(out.pred == 0x000f'ffffu);
  CHECK(out.undefined == 0u);
}

TEST_CASE("spec case 35: reduce_add of INT_MAX and 1 wraps to INT_MIN on every lane") {
  StepInputs in = warp_inputs();
  set_values(in, [](int lane) { return lane == 0 ? 0x7fff'ffffu : lane == 1 ? 1u : 0u; });
  const StepOutputs out = run(Op::reduce_add, ValueType::i32, in);
  for (int lane = 0; lane < kWarpSize; ++lane) {
    CAPTURE(lane);
    CHECK(out.value[lane] == 0x8000'0000u);
  }
}

TEST_CASE("spec case 36: reduce min/max of {-1, 2..32} as int and as unsigned") {
  StepInputs in = warp_inputs();
  set_values(in,
             [](int lane) { return lane == 0 ? 0xffff'ffffu : static_cast<unsigned>(lane + 1); });
  CHECK(run(Op::reduce_min, ValueType::i32, in).value[3] == 0xffff'ffffu);  // -1
  CHECK(run(Op::reduce_max, ValueType::i32, in).value[3] == 32u);
  CHECK(run(Op::reduce_min, ValueType::u32, in).value[3] == 2u);
  CHECK(run(Op::reduce_max, ValueType::u32, in).value[3] == 0xffff'ffffu);
}

TEST_CASE("spec case 37: lanes of 0x0F0F0F0F reduce over those 16 lanes only") {
  StepInputs in = warp_inputs(0x0f0f'0f0f, 0x0f0f'0f0f);
  in.exited = 0;
  CHECK(run(Op::reduce_add, ValueType::u32, in).value[0] == 1816u);
  CHECK(run(Op::reduce_or, ValueType::none, in).value[8] == 127u);
  CHECK(run(Op::reduce_and, ValueType::none, in).value[16] == 100u);
  CHECK(run(Op::reduce_xor, ValueType::none, in).value[24] == 0u);
  CHECK(run(Op::reduce_add, ValueType::u32, in).value[4] == 0u);  // not a caller
}

TEST_CASE("spec case 38: with lanes >= 20 exited, reduce_add_sync(F, 1) gives 20") {
  StepInputs in = warp_inputs(lanes_from_to(0, 19));
  set_values(in, [](int) { return 1; });
  CHECK(run(Op::reduce_add, ValueType::i32, in).value[0] == 20u);
}

TEST_CASE("spec case 40: activemask after lanes >= 20 exited gives 0x000fffff") {
  const StepOutputs out =
      run(Op::activemask, ValueType::none, warp_inputs(lanes_from_to(0, 19), 0));
  CHECK(out.value[0] == 0x000f'ffffu);
  CHECK(out.value[19] == 0x000f'ffffu);
}

TEST_CASE("spec case 41: the same ballot in both arms with F acts as one call: 0xaaaaffff") {
  StepInputs in = warp_inputs();
  set_values(in, [](int lane) { return lane < 16 ? 1 : lane & 1; });
  CHECK(run(Op::ballot, ValueType::none, in).value[0] == 0xaaaa'ffffu);
}

TEST_CASE("spec case 44: coalesced group of even lanes, shfl(v, 20) reads lane 31: 0 (UB)") {
  const LaneMask even = 0x5555'5555u;
  const unsigned lane_of_rank_20 = fns(even, 0, 20 + 1);  // only 16 members
  CHECK(lane_of_rank_20 == 0xffff'ffffu);
  StepInputs in = warp_inputs(even, even);
  in.exited = 0;
  set_uniform(in, static_cast<std::int32_t>(lane_of_rank_20));
  const StepOutputs out = run(Op::shfl_idx, ValueType::i32, in);
  CHECK(out.src_lane[0] == 31);
  CHECK(out.value[0] == 0u);
  CHECK(out.undefined == even);
}

TEST_CASE("spec case 45: tiled_partition<8> shuffles are shuffles of width 8") {
  SUBCASE("shfl(v, 9) reads rank 1 and shfl(v, -1) rank 7") {
    check_sources(shuffle(Op::shfl_idx, 9, 8), [](int lane) { return (lane & ~7) + 1; });
    check_sources(shuffle(Op::shfl_idx, -1, 8), [](int lane) { return (lane & ~7) + 7; });
  }
  SUBCASE("shfl_xor(v, 8) reads the lower tile on odd tiles, outside the tile's mask") {
    StepInputs in = warp_inputs();
    for (int lane = 0; lane < kWarpSize; ++lane) in.mask[lane] = 0xffu << (lane & ~7);
    set_uniform(in, 8, 8);
    const StepOutputs out = run(Op::shfl_xor, ValueType::i32, in);
    check_sources(out, [](int lane) { return (lane & 8) != 0 ? lane - 8 : lane; });
    CHECK(out.undefined == 0xff00'ff00u);
  }
}
