// The vector case generator (gpu/vector_cases.hpp): coverage, legality, determinism and the
// placement of undefined (null) results. No device needed.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <map>
#include <set>
#include <string>

#include "vector_cases.hpp"
#include "warpsim/semantics.hpp"

using namespace warpsim;
using namespace warpsim::gpu;

namespace {

std::string pair_name(const OpType& p) {
  std::string name(to_string(p.op));
  if (p.type != ValueType::none) name += " " + std::string(to_string(p.type));
  return name;
}

bool per_lane_args(const VectorCase& c) {
  const std::int32_t first = c.arg[static_cast<std::size_t>(std::countr_zero(c.lanes))];
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (has_lane(c.lanes, lane) && c.arg[static_cast<std::size_t>(lane)] != first) return true;
  }
  return false;
}

bool any_arg(const VectorCase& c, bool (*pred)(std::int32_t)) {
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (has_lane(c.lanes, lane) && pred(c.arg[static_cast<std::size_t>(lane)])) return true;
  }
  return false;
}

bool has_value(const VectorCase& c, std::uint64_t v) {
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (has_lane(c.lanes, lane) && c.value[static_cast<std::size_t>(lane)] == v) return true;
  }
  return false;
}

bool has_tie(const VectorCase& c) {
  std::set<std::uint64_t> seen;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (has_lane(c.lanes, lane) && !seen.insert(c.value[static_cast<std::size_t>(lane)]).second) return true;
  }
  return false;
}

bool all_equal(const VectorCase& c) {
  const std::uint64_t first = c.value[static_cast<std::size_t>(std::countr_zero(c.lanes))];
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (has_lane(c.lanes, lane) && c.value[static_cast<std::size_t>(lane)] != first) return false;
  }
  return std::popcount(c.lanes) > 1;
}

bool is_nan_with_payload(ValueType t, std::uint64_t v) {
  if (t == ValueType::f32) return (v & 0x7f800000u) == 0x7f800000u && (v & 0x003fffffu) != 0;
  return (v & 0x7ff0000000000000u) == 0x7ff0000000000000u && (v & 0x0007ffffffffffffu) != 0;
}

GeneratorOptions options_for(std::uint64_t seed, std::size_t cases, int sm = 90) {
  GeneratorOptions o;
  o.seed = seed;
  o.cases = cases;
  o.sm = sm;
  return o;
}

}  // namespace

TEST_CASE("the format's 16 operations, spelled as vectors.md spells them") {
  std::vector<std::string> names;
  for (const Op op : vector_ops()) names.emplace_back(to_string(op));
  const std::vector<std::string> expected = {
      "shfl_sync",       "shfl_up_sync",    "shfl_down_sync",  "shfl_xor_sync",  "ballot_sync",   "any_sync",
      "all_sync",        "match_any_sync",  "match_all_sync",  "reduce_add_sync", "reduce_min_sync",
      "reduce_max_sync", "reduce_and_sync", "reduce_or_sync",  "reduce_xor_sync", "activemask"};
  CHECK(names == expected);
}

TEST_CASE("each operation takes the types the format gives it") {
  const std::vector<ValueType> all = {ValueType::i32, ValueType::u32, ValueType::f32,
                                      ValueType::i64, ValueType::u64, ValueType::f64};
  const std::vector<ValueType> ints = {ValueType::i32, ValueType::u32};
  const std::vector<ValueType> none = {ValueType::none};
  for (const Op op : vector_ops()) {
    CAPTURE(to_string(op));
    const auto span = vector_types(op);
    const std::vector<ValueType> types(span.begin(), span.end());
    if (is_shuffle(op) || op == Op::match_any || op == Op::match_all) CHECK(types == all);
    else if (op == Op::reduce_add || op == Op::reduce_min || op == Op::reduce_max) CHECK(types == ints);
    else CHECK(types == none);
    for (const ValueType t : types) CHECK(accepts_type(op, t));  // the simulator agrees
  }
  CHECK(vector_op_types(90).size() == 4 * 6 + 3 + 2 * 6 + 3 * 2 + 3 + 1);
  CHECK(vector_op_types(75).size() == 4 * 6 + 3 + 2 * 6 + 1);  // no redux.sync before sm_80
  CHECK(vector_op_types(60).size() == 4 * 6 + 3 + 1);          // no match.sync before sm_70
}

TEST_CASE("shuffle_source_lane reproduces the edge cases of spec section 10") {
  const Op idx = Op::shfl_idx, up = Op::shfl_up, down = Op::shfl_down, bfly = Op::shfl_xor;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    CAPTURE(lane);
    const int base16 = lane & ~15, base8 = lane & ~7;
    CHECK(shuffle_source_lane(idx, lane, -1, 32) == 31);                              // 1
    CHECK(shuffle_source_lane(idx, lane, 32, 32) == 0);                               // 2
    CHECK(shuffle_source_lane(idx, lane, 33, 32) == 1);
    CHECK(shuffle_source_lane(idx, lane, -1, 16) == base16 + 15);                     // 3
    CHECK(shuffle_source_lane(idx, lane, 32, 16) == base16);                          // 4
    CHECK(shuffle_source_lane(idx, lane, 17, 16) == base16 + 1);
    for (const Op op : {idx, up, down}) {                                              // 5
      CHECK(shuffle_source_lane(op, lane, 5, 1) == lane);
    }
    // xor with width 1: laneMask bits at or above the width may read an earlier segment (1.3).
    CHECK(shuffle_source_lane(bfly, lane, 5, 1) == ((lane ^ 5) < lane ? lane ^ 5 : lane));
    for (const int w : {0, 64}) {                                                      // 7
      CHECK(shuffle_source_lane(idx, lane, lane + 3, w) == shuffle_source_lane(idx, lane, lane + 3, 32));
      CHECK(shuffle_source_lane(down, lane, 3, w) == shuffle_source_lane(down, lane, 3, 32));
    }
    CHECK(shuffle_source_lane(down, lane, 1, 33) == lane);                            // 8
    CHECK(shuffle_source_lane(up, lane, 0, 32) == lane);                              // 9
    CHECK(shuffle_source_lane(up, lane, 16, 16) == lane);                             // 10
    CHECK(shuffle_source_lane(up, lane, 32, 32) == lane);                             // 11
    CHECK(shuffle_source_lane(up, lane, 33, 32) == (lane == 0 ? 0 : lane - 1));       // 12
    CHECK(shuffle_source_lane(down, lane, 33, 32) == (lane == 31 ? 31 : lane + 1));   // 13
    CHECK(shuffle_source_lane(down, lane, -1, 32) == (lane == 0 ? 31 : lane));        // 14
    CHECK(shuffle_source_lane(up, lane, -1, 32) == (lane == 31 ? 0 : lane));          // 15
    CHECK(shuffle_source_lane(down, lane, 4, 8) == (lane - base8 >= 4 ? lane : lane + 4));  // 16
    CHECK(shuffle_source_lane(bfly, lane, 16, 8) == (lane < 16 ? lane : lane - 16));  // 17
    CHECK(shuffle_source_lane(bfly, lane, 32, 32) == lane);                           // 18
    CHECK(shuffle_source_lane(bfly, lane, -1, 32) == (lane ^ 31));
  }
  CHECK(shuffle_source_lane(idx, 7, 8, 12) == 12);  // 6: odd permutation of width 12
  CHECK(shuffle_source_lane(idx, 3, 4, 12) == 0);
  CHECK(shuffle_source_lane(idx, 5, 6, 48) == 6);   // width 48 acts like 16
  CHECK(shuffle_source_lane(idx, 21, 22, 48) == 22);
  CHECK(shuffle_source_lane(idx, 21, 1, 48) == 17);
}

TEST_CASE("shuffle_source_lane agrees with the closed forms of spec section 1.3") {
  const std::int32_t extremes[] = {INT32_MIN, INT32_MIN + 1, -65, 63, 64, 65, 1000, INT32_MAX};
  for (const int w : {1, 2, 4, 8, 16, 32}) {
    for (int lane = 0; lane < kWarpSize; ++lane) {
      const int base = lane & ~(w - 1);
      auto check = [&](std::int32_t arg) {
        CAPTURE(w);
        CAPTURE(lane);
        CAPTURE(arg);
        const int d = static_cast<int>(static_cast<std::uint32_t>(arg) & 31u);
        CHECK(shuffle_source_lane(Op::shfl_idx, lane, arg, w) == base + (arg & (w - 1)));
        CHECK(shuffle_source_lane(Op::shfl_up, lane, arg, w) == (lane - d >= base ? lane - d : lane));
        CHECK(shuffle_source_lane(Op::shfl_down, lane, arg, w) == (lane + d <= base + w - 1 ? lane + d : lane));
        const int j = lane ^ d;
        CHECK(shuffle_source_lane(Op::shfl_xor, lane, arg, w) == (j <= base + w - 1 ? j : lane));
      };
      for (std::int32_t arg = -70; arg <= 70; ++arg) check(arg);
      for (const std::int32_t arg : extremes) check(arg);
    }
  }
}

TEST_CASE("a shuffle result is undefined exactly where the source lane has exited") {
  VectorCase c;
  c.op = Op::shfl_idx;
  c.type = ValueType::i32;
  c.lanes = 0x000fffff;  // lanes 20..31 exited
  c.mask = kFullMask;
  for (int lane = 0; lane < 20; ++lane) c.arg[static_cast<std::size_t>(lane)] = lane + 1;
  CHECK(undefined_result_lanes(c) == lane_bit(19));  // lane 19 reads lane 20

  c.op = Op::shfl_up;  // 8-lane example: lanes 0x0f0f0f0f call shfl_up(1)
  c.lanes = c.mask = 0x0f0f0f0f;
  c.arg.fill(1);
  // lane 8 reads lane 7 (exited); lane 0 keeps its own value (out of range is defined).
  CHECK(undefined_result_lanes(c) == (lane_bit(8) | lane_bit(16) | lane_bit(24)));

  c.op = Op::ballot;
  c.type = ValueType::none;
  CHECK(undefined_result_lanes(c) == 0);
}

TEST_CASE("the same seed gives the same cases; another seed, other cases") {
  const auto a = generate_cases(options_for(777, 3000));
  const auto b = generate_cases(options_for(777, 3000));
  const auto other = generate_cases(options_for(778, 3000));
  REQUIRE(a.size() == 3000);
  auto same = [](const VectorCase& x, const VectorCase& y) {
    return x.op == y.op && x.type == y.type && x.mask == y.mask && x.lanes == y.lanes && x.width == y.width &&
           x.value == y.value && x.arg == y.arg;
  };
  CHECK(std::equal(a.begin(), a.end(), b.begin(), same));
  CHECK_FALSE(std::equal(a.begin(), a.end(), other.begin(), same));
  // Pinned: the first case of seed 777, so that a change to the generator is a deliberate one.
  CHECK(a.front().op == Op::shfl_idx);
  CHECK(a.front().lanes == kFullMask);
  CHECK(a.front().width == 1);
}

TEST_CASE("every generated call is legal and carries only the fields its op uses") {
  for (const int sm : {90, 75}) {
    const auto cases = generate_cases(options_for(777, 24000, sm));
    REQUIRE(cases.size() == 24000);
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const VectorCase& c = cases[i];
      CAPTURE(i);
      REQUIRE(c.lanes != 0);
      REQUIRE((c.mask & c.lanes) == c.lanes);  // every caller is in the mask
      REQUIRE(min_sm(c.op) <= sm);
      const auto types = vector_types(c.op);
      REQUIRE(std::find(types.begin(), types.end(), c.type) != types.end());
      if (!is_shuffle(c.op)) REQUIRE(c.width == 32);
      for (int lane = 0; lane < kWarpSize; ++lane) {
        const auto l = static_cast<std::size_t>(lane);
        if (!has_lane(c.lanes, lane) || !is_shuffle(c.op)) REQUIRE(c.arg[l] == 0);
        if (!has_lane(c.lanes, lane) || c.op == Op::activemask) REQUIRE(c.value[l] == 0);
        if (value_bits(c.type) == 32) REQUIRE(c.value[l] <= 0xffffffffu);
      }
      REQUIRE(c.expect_defined == 0);  // the recorder fills it
    }
  }
}

TEST_CASE("every (op, type) pair covers widths, arguments, lanes, masks and value edge cases") {
  for (const std::size_t count : {min_cases_for_full_coverage(90), std::size_t{24000}}) {
    CAPTURE(count);
    const auto cases = generate_cases(options_for(777, count));
    std::map<std::string, std::vector<const VectorCase*>> by_pair;
    for (const VectorCase& c : cases) by_pair[pair_name({c.op, c.type})].push_back(&c);
    REQUIRE(by_pair.size() == vector_op_types(90).size());

    for (const OpType& pair : vector_op_types(90)) {
      const std::string name = pair_name(pair);
      CAPTURE(name);
      const auto& list = by_pair[name];
      std::set<LanesKind> lanes_kinds;
      bool exact_mask = false, mask_names_exited = false;
      for (const VectorCase* c : list) {
        lanes_kinds.insert(lanes_kind(c->lanes));
        exact_mask = exact_mask || c->mask == c->lanes;
        mask_names_exited = mask_names_exited || (c->mask & ~c->lanes) != 0;
      }
      CHECK(lanes_kinds.size() == 4);
      CHECK(exact_mask);
      CHECK(mask_names_exited);

      if (is_shuffle(pair.op)) {
        std::set<std::int32_t> widths;
        bool uniform = false, per_lane = false, negative = false, large = false, undefined = false;
        for (const VectorCase* c : list) {
          widths.insert(c->width);
          uniform = uniform || (!per_lane_args(*c) && std::popcount(c->lanes) > 1);
          per_lane = per_lane || per_lane_args(*c);
          negative = negative || any_arg(*c, [](std::int32_t a) { return a < 0; });
          large = large || any_arg(*c, [](std::int32_t a) { return a >= 32; });
          undefined = undefined || undefined_result_lanes(*c) != 0;
        }
        for (const std::int32_t w : swept_widths()) CHECK(widths.count(w) == 1);
        for (std::int32_t w = 1; w <= 32; ++w) CHECK(widths.count(w) == 1);
        for (const std::int32_t w : {0, 12, 33, 64, -1, 48}) CHECK(widths.count(w) == 1);
        CHECK(uniform);
        CHECK(per_lane);
        CHECK(negative);
        CHECK(large);
        CHECK(undefined);
      }

      if (pair.op == Op::activemask) continue;
      bool ties = false, equal = false;
      for (const VectorCase* c : list) {
        ties = ties || has_tie(*c);
        equal = equal || all_equal(*c);
      }
      CHECK(ties);
      CHECK(equal);
      if (pair.op == Op::ballot || pair.op == Op::any || pair.op == Op::all) {
        bool all_false = false, all_true = false, mixed = false;
        for (const VectorCase* c : list) {
          int truths = 0;
          for (int lane = 0; lane < kWarpSize; ++lane) {
            if (has_lane(c->lanes, lane) && c->value[static_cast<std::size_t>(lane)] != 0) ++truths;
          }
          all_false = all_false || truths == 0;
          all_true = all_true || truths == std::popcount(c->lanes);
          mixed = mixed || (truths > 0 && truths < std::popcount(c->lanes));
        }
        CHECK(all_false);
        CHECK(all_true);
        CHECK(mixed);
        continue;
      }
      if (count < 24000) continue;  // value edge cases are random draws: check them on a full file
      const ValueType t = pair.type == ValueType::none ? ValueType::u32 : pair.type;
      auto seen = [&](std::uint64_t v) {
        return std::any_of(list.begin(), list.end(), [&](const VectorCase* c) { return has_value(*c, v); });
      };
      if (t == ValueType::f32 || t == ValueType::f64) {
        const bool wide = t == ValueType::f64;
        CHECK(seen(0));
        CHECK(seen(wide ? 0x8000000000000000u : 0x80000000u));  // -0
        bool payload = false;
        for (const VectorCase* c : list) {
          for (int lane = 0; lane < kWarpSize; ++lane) {
            payload = payload || (has_lane(c->lanes, lane) && is_nan_with_payload(t, c->value[static_cast<std::size_t>(lane)]));
          }
        }
        CHECK(payload);
      } else if (value_bits(t) == 64) {
        CHECK(seen(0x8000000000000000u));
        CHECK(seen(0x7fffffffffffffffu));
        CHECK(seen(0xffffffffffffffffu));
        CHECK(seen(0x00000000ffffffffu));
      } else {
        CHECK(seen(0x80000000u));  // INT_MIN
        CHECK(seen(0x7fffffffu));  // INT_MAX
        CHECK(seen(0xffffffffu));
      }
    }
  }
}

TEST_CASE("null placement agrees with the simulator's undefined flags") {
  const auto cases = generate_cases(options_for(777, 24000));
  std::size_t shuffles = 0, undefined_lanes = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const VectorCase& c = cases[i];
    if (!is_shuffle(c.op)) continue;
    ++shuffles;
    StepInputs in;
    in.callers = c.lanes;
    in.exited = ~c.lanes;
    in.mask.fill(c.mask);
    in.value = c.value;
    in.arg = c.arg;
    in.width.fill(c.width);
    StepOutputs out;
    evaluate(c.op, c.type, in, out);
    CAPTURE(i);
    CHECK(undefined_result_lanes(c) == (out.undefined & c.lanes));
    for (int lane = 0; lane < kWarpSize; ++lane) {
      if (!has_lane(c.lanes, lane)) continue;
      CHECK(out.src_lane[static_cast<std::size_t>(lane)] ==
            shuffle_source_lane(c.op, lane, c.arg[static_cast<std::size_t>(lane)], c.width));
    }
    undefined_lanes += static_cast<std::size_t>(std::popcount(undefined_result_lanes(c)));
  }
  CHECK(shuffles > 10000);
  CHECK(undefined_lanes > 1000);  // nulls are common enough to matter, not the rule
  CHECK(undefined_lanes < shuffles * 8);
}
