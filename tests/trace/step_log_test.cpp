#include <doctest/doctest.h>

#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "warpsim/step_log.hpp"

using warpsim::LaneMask;
using warpsim::Op;
using warpsim::StepLog;
using warpsim::TraceStep;
using warpsim::ValueType;

namespace {

// A step in the canonical form StepLog reads back: non-participants' entries zero (src -1),
// arg/width/src only for shuffles.
TraceStep make_step(Op op, ValueType type, LaneMask participants, std::uint32_t seed) {
  TraceStep s;
  s.op = op;
  s.type = type;
  s.block = 1000 + seed;
  s.warp = seed % 7;
  s.sequence = seed;
  s.mask = participants;
  s.participants = participants;
  s.exited = ~participants & 0x0f000000u;
  s.undefined = participants & 0x3u;
  s.pred = participants & 0x0000ffffu;
  const bool wide = warpsim::is_64bit(type);
  for (int lane = 0; lane < warpsim::kWarpSize; ++lane) {
    if (!warpsim::has_lane(participants, lane)) continue;
    const std::uint64_t v = 0x9e3779b97f4a7c15ull * (seed * 32u + static_cast<unsigned>(lane) + 1);
    s.input[lane] = wide ? v : (v & 0xffffffffu);
    s.output[lane] = wide ? ~v : (~v & 0xffffffffu);
    s.lane_mask[lane] = participants;
    s.where[lane] = {2, 40};
    if (warpsim::is_shuffle(op)) {
      s.arg[lane] = 5;
      s.width[lane] = 32;
      s.src_lane[lane] = static_cast<std::int8_t>(lane ^ 5);
    }
  }
  return s;
}

}  // namespace

TEST_CASE("steps read back exactly as pushed, in every layout") {
  std::vector<TraceStep> steps;
  steps.push_back(make_step(Op::shfl_xor, ValueType::i32, 0xffffffffu, 1));
  steps.push_back(make_step(Op::shfl_down, ValueType::f64, 0xffffffffu, 2));  // wide values
  steps.push_back(make_step(Op::ballot, ValueType::none, 0x00ff00ffu, 3));    // no shuffle fields
  steps.push_back(make_step(Op::match_any, ValueType::u64, 0x80000001u, 4));
  TraceStep per_lane = make_step(Op::shfl_idx, ValueType::f32, 0xfffffffeu, 5);  // lane 0 absent
  for (int lane = 1; lane < 32; ++lane) {
    per_lane.arg[lane] = 31 - lane;
    per_lane.width[lane] = lane % 2 == 0 ? 16 : 8;
    per_lane.lane_mask[lane] = lane < 16 ? 0x0000fffeu : 0xffff0000u;
    per_lane.where[lane] = {static_cast<std::uint32_t>(lane % 3), static_cast<std::uint32_t>(lane)};
  }
  steps.push_back(per_lane);
  TraceStep barrier;
  barrier.op = Op::syncthreads;
  barrier.participants = 0xffffu;
  for (int lane = 0; lane < 16; ++lane) barrier.input[lane] = barrier.output[lane] = 1;
  steps.push_back(barrier);
  TraceStep named = barrier;  // a named barrier keeps its id (arg) and thread count (width)
  named.op = Op::barrier_sync;
  for (int lane = 0; lane < 16; ++lane) {
    named.arg[lane] = 1;
    named.width[lane] = 64;
    named.output[lane] = 0;
  }
  steps.push_back(named);

  StepLog log;
  for (const TraceStep& s : steps) log.push_back(s);
  REQUIRE(log.size() == steps.size());
  for (std::size_t i = 0; i < steps.size(); ++i) {
    CAPTURE(i);
    CHECK(log[i] == steps[i]);
  }
  std::size_t n = 0;
  for (const TraceStep& s : log) CHECK(s == steps[n++]);
  CHECK(n == steps.size());
  CHECK(log.front() == steps.front());
  CHECK(log.back() == steps.back());
}

TEST_CASE("entries of non-participants and non-shuffle fields read back cleared") {
  TraceStep s = make_step(Op::reduce_add, ValueType::u32, 0x0000000fu, 9);
  s.input[20] = 77;          // stale data the runtime leaves in a lane that did not call
  s.lane_mask[20] = 0x1234;
  s.arg[1] = 3;              // not a shuffle: no argument
  StepLog log;
  log.push_back(s);
  const TraceStep back = log[0];
  CHECK(back.input[20] == 0u);
  CHECK(back.lane_mask[20] == 0u);
  CHECK(back.arg[1] == 0);
  CHECK(back.src_lane[1] == -1);
  CHECK(back.input[1] == s.input[1]);
}

TEST_CASE("a long log spans blocks, copies and moves intact") {
  StepLog log;
  const std::uint32_t count = 20000;  // ~6 MB of records: several blocks, one of them 2 MiB
  for (std::uint32_t i = 0; i < count; ++i) {
    log.push_back(make_step(i % 2 ? Op::shfl_xor : Op::shfl_up, i % 3 ? ValueType::i32 : ValueType::f64,
                            0xffffffffu, i));
  }
  REQUIRE(log.size() == count);
  CHECK(log.bytes() > std::size_t{count} * 300);
  CHECK(log.bytes() < std::size_t{count} * 700);  // far below 1.2 KB per step
  for (std::uint32_t i : {0u, 1u, 57u, 9999u, count - 1}) {
    CAPTURE(i);
    CHECK(log[i] == make_step(i % 2 ? Op::shfl_xor : Op::shfl_up, i % 3 ? ValueType::i32 : ValueType::f64,
                              0xffffffffu, i));
  }
  StepLog copy = log;
  CHECK(copy.size() == count);
  CHECK(copy[count - 1] == log[count - 1]);
  StepLog moved = std::move(copy);
  CHECK(moved[12345] == log[12345]);
  copy = moved;  // assigning to a moved-from log
  CHECK(copy[7] == log[7]);
  log.clear();
  CHECK(log.empty());
  log.push_back(make_step(Op::any, ValueType::none, 1u, 3));
  CHECK(log.size() == 1);
  CHECK(log[0].participants == 1u);
}

TEST_CASE("at() refuses an index past the end") {
  StepLog log;
  CHECK_THROWS_AS(static_cast<void>(log.at(0)), std::out_of_range);
  log.push_back(make_step(Op::all, ValueType::none, 0xffu, 1));
  CHECK(log.at(0).op == Op::all);
  CHECK_THROWS_AS(static_cast<void>(log.at(1)), std::out_of_range);
}

TEST_CASE("a shuffle whose lanes all got their source's input is stored without outputs") {
  TraceStep gathered = make_step(Op::shfl_xor, ValueType::i32, 0xffffffffu, 7);
  for (int lane = 0; lane < 32; ++lane) gathered.output[lane] = gathered.input[lane ^ 5];
  TraceStep from_absent = gathered;  // lane 3 read a lane that had exited: 0, not its input
  from_absent.output[3] = 0;
  from_absent.undefined = 1u << 3;

  StepLog small, large;
  small.push_back(gathered);
  large.push_back(from_absent);
  CHECK(small[0] == gathered);
  CHECK(large[0] == from_absent);

  StepLog many_gathered, many_stored;
  for (int i = 0; i < 1000; ++i) {
    many_gathered.push_back(gathered);
    many_stored.push_back(from_absent);
  }
  CHECK(many_gathered.record_bytes() == 1000 * 224);  // 40 + 128 + 4 + 4 + 32 + 4 + 8, padded
  CHECK(many_stored.record_bytes() == 1000 * 352);    // ... + 128 bytes of outputs
  CHECK(many_gathered[999] == gathered);
}

TEST_CASE("a step log survives serialize/deserialize in every layout; cut bytes are refused") {
  StepLog log;
  std::vector<TraceStep> steps;
  steps.push_back(make_step(Op::shfl_xor, ValueType::i32, 0xffffffffu, 1));
  steps.push_back(make_step(Op::shfl_down, ValueType::f64, 0xffffffffu, 2));
  steps.push_back(make_step(Op::ballot, ValueType::none, 0x00ff00ffu, 3));
  steps.push_back(make_step(Op::match_any, ValueType::u64, 0x80000001u, 4));
  TraceStep per_lane = make_step(Op::shfl_idx, ValueType::f32, 0xfffffffeu, 5);
  for (int lane = 1; lane < 32; ++lane) {
    per_lane.arg[lane] = 31 - lane;
    per_lane.width[lane] = lane % 2 == 0 ? 16 : 8;
    per_lane.lane_mask[lane] = lane % 3 == 0 ? 0xffffffffu : 0xfffffffeu;
    per_lane.where[lane] = {static_cast<std::uint32_t>(lane % 2), static_cast<std::uint32_t>(lane)};
  }
  steps.push_back(per_lane);
  for (int i = 0; i < 3000; ++i) steps.push_back(make_step(Op::shfl_xor, ValueType::i32, 0xffffffffu, 7 + i));
  for (const TraceStep& s : steps) log.push_back(s);

  const std::string bytes = log.serialize();
  const std::optional<StepLog> back = StepLog::deserialize(bytes);
  REQUIRE(back.has_value());
  REQUIRE(back->size() == steps.size());
  for (std::size_t i = 0; i < steps.size(); ++i) {
    CAPTURE(i);
    CHECK((*back)[i] == steps[i]);
  }
  CHECK(back->serialize() == bytes);
  CHECK_FALSE(StepLog::deserialize(std::string_view(bytes).substr(0, bytes.size() - 8)).has_value());
  CHECK_FALSE(StepLog::deserialize("").has_value());
  CHECK(StepLog::deserialize(StepLog().serialize())->empty());
}
