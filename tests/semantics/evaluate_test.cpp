// evaluate(): dispatch, activemask, syncwarp, the output it leaves, and the types it accepts.
#include <doctest/doctest.h>

#include <array>

#include "warp_inputs.hpp"

using namespace warpsim;
using namespace warpsim::test;

TEST_CASE("activemask gives every caller the mask of callers") {
  SUBCASE("8 lanes, the rest exited") {
    const StepOutputs out = run(Op::activemask, ValueType::none, warp_inputs(0xff, 0));
    for (int lane = 0; lane < 8; ++lane) {
      CAPTURE(lane);
      CHECK(out.value[lane] == 0xffu);
    }
    CHECK(out.value[8] == 0u);
    CHECK(out.undefined == 0u);  // no mask, nothing undefined
  }
  SUBCASE("both arms of if (lane < 10) as two steps") {
    StepInputs then_arm = warp_inputs(0x3ff, 0);
    then_arm.exited = 0;
    StepInputs else_arm = warp_inputs(0xffff'fc00, 0);
    else_arm.exited = 0;
    CHECK(run(Op::activemask, ValueType::none, then_arm).value[9] == 0x3ffu);
    CHECK(run(Op::activemask, ValueType::none, else_arm).value[10] == 0xffff'fc00u);
  }
}

TEST_CASE("syncwarp returns no value") {
  StepInputs in = warp_inputs();
  const StepOutputs out = run(Op::syncwarp, ValueType::none, in);
  for (int lane = 0; lane < kWarpSize; ++lane) {
    CAPTURE(lane);
    CHECK(out.value[lane] == 0u);
    CHECK(out.src_lane[lane] == -1);
  }
  CHECK(out.pred == 0u);
  CHECK(out.undefined == 0u);
}

TEST_CASE("syncwarp by a lane left out of its own mask is flagged") {
  StepInputs in = warp_inputs(0x3, 0x1);
  CHECK(run(Op::syncwarp, ValueType::none, in).undefined == 0x2u);
}

TEST_CASE("evaluate overwrites every field of a reused output") {
  StepOutputs out;
  out.value.fill(0x5555);
  out.src_lane.fill(7);
  out.pred = kFullMask;
  out.undefined = kFullMask;
  StepInputs in = warp_inputs(0xf, 0xf);
  set_values(in, [](int) { return 1; });
  evaluate(Op::ballot, ValueType::none, in, out);
  CHECK(out.value[0] == 0xfu);
  CHECK(out.value[4] == 0u);
  CHECK(out.src_lane[0] == -1);
  CHECK(out.src_lane[31] == -1);
  CHECK(out.pred == 0u);
  CHECK(out.undefined == 0u);

  set_uniform(in, 1);
  evaluate(Op::shfl_down, ValueType::i32, in, out);
  CHECK(out.src_lane[0] == 1);
  CHECK(out.src_lane[3] == 4);
  CHECK(out.src_lane[4] == -1);  // not a caller
  CHECK(out.undefined == 0x8u);  // lane 3 read exited lane 4
}

TEST_CASE("no callers means no results") {
  StepInputs in = warp_inputs(0, 0);
  for (Op op : {Op::shfl_idx, Op::ballot, Op::match_all, Op::reduce_min, Op::activemask}) {
    CAPTURE(to_string(op));
    const StepOutputs out = run(op, op == Op::shfl_idx ? ValueType::i32 : ValueType::none, in);
    CHECK(out.value == std::array<std::uint64_t, kWarpSize>{});
    CHECK(out.pred == 0u);
    CHECK(out.undefined == 0u);
  }
}

TEST_CASE("each op accepts the types CUDA has overloads for") {
  using enum ValueType;
  struct Row {
    Op op;
    std::array<bool, 11> accepts;  // none i32 u32 f32 i64 u64 f64 f16 bf16 f16x2 bf16x2
  };
  const std::array<Row, 9> rows{{
      {Op::shfl_xor, {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
      {Op::match_any, {1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0}},
      {Op::reduce_add, {1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0}},
      {Op::reduce_max, {1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0}},
      {Op::reduce_xor, {1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0}},
      {Op::ballot, {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
      {Op::activemask, {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
      {Op::syncwarp, {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
      {Op::syncthreads_count, {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
  }};
  for (const Row& row : rows) {
    CAPTURE(to_string(row.op));
    for (std::size_t t = 0; t < row.accepts.size(); ++t) {
      const auto type = static_cast<ValueType>(t);
      CAPTURE(to_string(type));
      CHECK(accepts_type(row.op, type) == row.accepts[t]);
    }
  }
}
