// Votes: the contract example of sim/semantics/vote.cpp and adversarial masks.
#include <doctest/doctest.h>

#include <array>

#include "warp_inputs.hpp"

using namespace warpsim;
using namespace warpsim::test;

namespace {

struct VoteRow {
  const char* name;
  LaneMask mask;
  bool (*pred)(int lane);
  std::uint64_t ballot, any, all, uni;
  LaneMask undefined;
};

}  // namespace

TEST_CASE("the vote contract example holds for 8 lanes") {
  const std::array<VoteRow, 3> rows{{
      {"pred = lane % 3 == 0", 0xff, [](int l) { return l % 3 == 0; }, 0x49, 1, 0, 0, 0},
      {"pred = 1", 0xff, [](int) { return true; }, 0xff, 1, 1, 1, 0},
      {"pred = 1 with mask 0x0f (UB)", 0x0f, [](int) { return true; }, 0xff, 1, 1, 1, 0xff},
  }};
  for (const VoteRow& row : rows) {
    SUBCASE(row.name) {
      StepInputs in = warp_inputs(0xff, row.mask);
      set_values(in, row.pred);
      const std::array<std::pair<Op, std::uint64_t>, 4> results{
          {{Op::ballot, row.ballot}, {Op::any, row.any}, {Op::all, row.all}, {Op::uni, row.uni}}};
      for (const auto& [op, expected] : results) {
        CAPTURE(to_string(op));
        const StepOutputs out = run(op, ValueType::none, in);
        for (int lane = 0; lane < 8; ++lane) {
          CAPTURE(lane);
          CHECK(out.value[lane] == expected);
        }
        CHECK(out.undefined == row.undefined);
        CHECK(out.pred == 0u);
      }
    }
  }
}

TEST_CASE("any and all return exactly 1 whatever non-zero predicate is passed") {
  StepInputs in = warp_inputs();
  set_values(in, [](int lane) { return lane == 0 ? 0x8000'0000u : 0xffff'ffffu; });
  CHECK(run(Op::all, ValueType::none, in).value[3] == 1u);
  CHECK(run(Op::any, ValueType::none, in).value[3] == 1u);
  CHECK(run(Op::ballot, ValueType::none, in).value[3] == kFullMask);
}

TEST_CASE("a predicate is the low 32 bits of the lane's value") {
  StepInputs in = warp_inputs(0x3, 0x3);
  set_values(in, [](int lane) { return lane == 0 ? 0x1'0000'0000ull : 1ull; });
  CHECK(run(Op::ballot, ValueType::none, in).value[0] == 0x2u);
}

TEST_CASE("votes count only the callers of a sparse mask") {
  StepInputs in = warp_inputs(0x8000'0101, 0x8000'0101);  // lanes 0, 8, 31
  set_values(in, [](int lane) { return lane == 8 ? 0 : 1; });
  CHECK(run(Op::ballot, ValueType::none, in).value[31] == 0x8000'0001u);
  CHECK(run(Op::any, ValueType::none, in).value[0] == 1u);
  CHECK(run(Op::all, ValueType::none, in).value[0] == 0u);
  CHECK(run(Op::uni, ValueType::none, in).value[8] == 0u);
  CHECK(run(Op::ballot, ValueType::none, in).undefined == 0u);
}

TEST_CASE("a vote of a single lane is unanimous") {
  StepInputs in = warp_inputs(lane_bit(17), lane_bit(17));
  set_values(in, [](int) { return 0; });
  CHECK(run(Op::ballot, ValueType::none, in).value[17] == 0u);
  CHECK(run(Op::all, ValueType::none, in).value[17] == 0u);
  CHECK(run(Op::uni, ValueType::none, in).value[17] == 1u);
  CHECK(run(Op::any, ValueType::none, in).value[17] == 0u);
}

TEST_CASE("a caller missing from its own mask is flagged undefined") {
  StepInputs in = warp_inputs(0x3, 0x3);
  in.mask[1] = 0x1;  // lane 1 leaves itself out, so it votes in a group of its own
  set_values(in, [](int) { return 1; });
  const StepOutputs out = run(Op::ballot, ValueType::none, in);
  CHECK(out.value[0] == 0x1u);
  CHECK(out.value[1] == 0x2u);
  // Lane 1 is outside its own mask; lane 0 names lane 1, which passed another mask (rule 2).
  CHECK(out.undefined == 0x3u);
}

TEST_CASE(
    "callers whose masks disagree vote in separate groups; a lane naming another group is "
    "flagged") {
  StepInputs in = warp_inputs(0xf, 0xf);
  in.mask[2] = in.mask[3] = 0xc;  // lanes 2, 3 name only themselves; lanes 0, 1 name all four
  set_values(in, [](int lane) { return lane & 1; });
  const StepOutputs out = run(Op::ballot, ValueType::none, in);
  CHECK(out.value[0] == 0x2u);
  CHECK(out.value[2] == 0x8u);
  CHECK(out.undefined == 0x3u);  // lanes 0, 1 name lanes 2, 3, which passed another mask
}

// Recorded on an H100 (sm_90, CUDA 13.0): 32 converged lanes, each tile of 8 passing its own
// mask 0xff << (lane & ~7), or each half its own 16-lane mask. ptxas emits WARPSYNC.EXCLUSIVE:
// every distinct mask runs as its own group. Shuffles read across groups.
TEST_CASE(
    "converged tiles passing their own masks vote, match and reduce per tile, as an H100 does") {
  StepInputs in = warp_inputs();
  for (int lane = 0; lane < kWarpSize; ++lane) in.mask[lane] = 0xffu << (lane & ~7);
  SUBCASE("ballot(lane & 1) -> 0xaa << tile base") {
    set_values(in, [](int lane) { return lane & 1; });
    const StepOutputs out = run(Op::ballot, ValueType::none, in);
    for (int lane = 0; lane < kWarpSize; ++lane) {
      CAPTURE(lane);
      CHECK(out.value[lane] == (0xaau << (lane & ~7)));
    }
    CHECK(out.undefined == 0u);
  }
  SUBCASE("any(lane == 0) -> 1 in tile 0 only") {
    set_values(in, [](int lane) { return lane == 0; });
    const StepOutputs out = run(Op::any, ValueType::none, in);
    CHECK(out.value[7] == 1u);
    CHECK(out.value[8] == 0u);
  }
  SUBCASE("reduce_add(1) -> 8") {
    set_values(in, [](int) { return 1; });
    CHECK(run(Op::reduce_add, ValueType::u32, in).value[31] == 8u);
  }
  SUBCASE("match_any(lane & 1) -> 0x55 << tile base on even lanes") {
    set_values(in, [](int lane) { return lane & 1; });
    const StepOutputs out = run(Op::match_any, ValueType::i32, in);
    CHECK(out.value[0] == 0x55u);
    CHECK(out.value[24] == 0x5500'0000u);
    CHECK(out.value[25] == 0xaa00'0000u);
  }
  SUBCASE("shfl(v, lane ^ 8) reads the neighbouring tile, flagged undefined") {
    set_args(in, [](int lane) { return lane ^ 8; });
    const StepOutputs out = run(Op::shfl_idx, ValueType::i32, in);
    CHECK(out.value[0] == 108u);
    CHECK(out.value[8] == 100u);
    CHECK(out.undefined == kFullMask);
  }
  SUBCASE("halves reducing their lane numbers -> 120 and 376") {
    for (int lane = 0; lane < kWarpSize; ++lane)
      in.mask[lane] = lane < 16 ? 0x0000'ffffu : 0xffff'0000u;
    set_values(in, [](int lane) { return lane; });
    const StepOutputs out = run(Op::reduce_add, ValueType::u32, in);
    CHECK(out.value[0] == 120u);
    CHECK(out.value[16] == 376u);
  }
}

TEST_CASE("a mask naming a lane that neither called nor exited flags every caller") {
  StepInputs in = warp_inputs(0xf, 0x1f);
  in.exited = 0xffff'ffe0u;  // lane 4 is still running elsewhere
  set_values(in, [](int) { return 1; });
  const StepOutputs out = run(Op::ballot, ValueType::none, in);
  CHECK(out.value[0] == 0xfu);
  CHECK(out.undefined == 0xfu);
}
