// Names and properties of Op and ValueType.
#include <doctest/doctest.h>

#include <array>
#include <set>
#include <string>

#include "warpsim/semantics.hpp"

using namespace warpsim;

TEST_CASE("every op name round-trips and is spelled as the vector format spells it") {
  for (int i = 0; i < kOpCount; ++i) {
    const auto op = static_cast<Op>(i);
    CAPTURE(intrinsic_for(op).name);
    CHECK(op_from_string(to_string(op)) == op);
    CHECK("__" + std::string(to_string(op)) == intrinsic_for(op).name);
  }
  const std::pair<Op, const char*> names[] = {
      {Op::shfl_idx, "shfl_sync"},
      {Op::shfl_up, "shfl_up_sync"},
      {Op::shfl_down, "shfl_down_sync"},
      {Op::shfl_xor, "shfl_xor_sync"},
      {Op::ballot, "ballot_sync"},
      {Op::any, "any_sync"},
      {Op::all, "all_sync"},
      {Op::uni, "uni_sync"},
      {Op::match_any, "match_any_sync"},
      {Op::match_all, "match_all_sync"},
      {Op::reduce_add, "reduce_add_sync"},
      {Op::reduce_min, "reduce_min_sync"},
      {Op::reduce_max, "reduce_max_sync"},
      {Op::reduce_and, "reduce_and_sync"},
      {Op::reduce_or, "reduce_or_sync"},
      {Op::reduce_xor, "reduce_xor_sync"},
      {Op::activemask, "activemask"},
      {Op::syncwarp, "syncwarp"},
      {Op::syncthreads, "syncthreads"},
      {Op::syncthreads_count, "syncthreads_count"},
      {Op::syncthreads_and, "syncthreads_and"},
      {Op::syncthreads_or, "syncthreads_or"},
      {Op::barrier_sync, "barrier_sync"},
  };
  for (const auto& [op, name] : names) {
    CAPTURE(name);
    CHECK(to_string(op) == name);
    CHECK(op_from_string(name) == op);
  }
}

TEST_CASE("every value type name round-trips") {
  std::set<std::string> seen;
  for (int i = 0; i < kValueTypeCount; ++i) {
    const auto t = static_cast<ValueType>(i);
    CAPTURE(i);
    CHECK(value_type_from_string(to_string(t)) == t);
    CHECK(seen.insert(std::string(to_string(t))).second);
  }
  CHECK(to_string(ValueType::f64) == "f64");
  CHECK(to_string(ValueType::bf16x2) == "bf16x2");
}

TEST_CASE("unknown names are rejected") {
  for (const char* name : {"", "shfl", "__shfl_sync", "SHFL_SYNC", "shfl_sync ", "reduce_add"}) {
    CAPTURE(name);
    CHECK_FALSE(op_from_string(name).has_value());
  }
  for (const char* name : {"", "int", "I32", "f128", "u32 "}) {
    CAPTURE(name);
    CHECK_FALSE(value_type_from_string(name).has_value());
  }
}

TEST_CASE("op and type properties") {
  for (Op op : {Op::shfl_idx, Op::shfl_up, Op::shfl_down, Op::shfl_xor}) {
    CAPTURE(to_string(op));
    CHECK(is_shuffle(op));
    CHECK_FALSE(is_block_barrier(op));
  }
  for (Op op : {Op::syncthreads, Op::syncthreads_count, Op::syncthreads_and, Op::syncthreads_or,
                Op::barrier_sync}) {
    CAPTURE(to_string(op));
    CHECK(is_block_barrier(op));
    CHECK_FALSE(is_shuffle(op));
  }
  for (Op op : {Op::ballot, Op::uni, Op::match_all, Op::reduce_xor, Op::activemask, Op::syncwarp}) {
    CAPTURE(to_string(op));
    CHECK_FALSE(is_shuffle(op));
    CHECK_FALSE(is_block_barrier(op));
  }
  CHECK(result_is_mask(Op::ballot));
  CHECK(result_is_mask(Op::match_any));
  CHECK(result_is_mask(Op::match_all));
  CHECK(result_is_mask(Op::activemask));
  CHECK_FALSE(result_is_mask(Op::any));
  CHECK_FALSE(result_is_mask(Op::reduce_or));
  CHECK_FALSE(result_is_mask(Op::shfl_xor));
  CHECK(is_64bit(ValueType::i64));
  CHECK(is_64bit(ValueType::u64));
  CHECK(is_64bit(ValueType::f64));
  for (ValueType t : {ValueType::none, ValueType::i32, ValueType::u32, ValueType::f32,
                      ValueType::f16, ValueType::bf16, ValueType::f16x2, ValueType::bf16x2}) {
    CAPTURE(to_string(t));
    CHECK_FALSE(is_64bit(t));
  }
}
