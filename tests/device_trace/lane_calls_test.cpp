// One lane's calls cut out of a simulator trace: the sequence a device-side recorder logs.
#include <doctest/doctest.h>

#include <bit>
#include <cstring>
#include <numeric>
#include <vector>

#include "helpers.hpp"
#include "kernels.hpp"

using namespace warpsim;
using device_trace_test::shape;

namespace {

std::uint64_t f32_bits(float f) { return std::bit_cast<std::uint32_t>(f); }

}  // namespace

TEST_CASE("a butterfly lane: five xor shuffles with its own operands, results and line") {
  std::vector<float> in(32), out(32);
  std::iota(in.begin(), in.end(), 1.0f);
  const auto r = launch(shape(1, 32), [&] { dt_butterfly(in.data(), out.data()); });
  REQUIRE(r.status == LaunchStatus::completed);

  const auto calls = lane_calls(r.trace, 0, 3);
  REQUIRE(calls.size() == 5);
  float v = in[3];
  for (int k = 0; k < 5; ++k) {
    CAPTURE(k);
    const DeviceCall& c = calls[static_cast<std::size_t>(k)].call;
    CHECK(calls[static_cast<std::size_t>(k)].step == static_cast<std::uint64_t>(k));
    CHECK(c.op == Op::shfl_xor);
    CHECK(c.type == ValueType::f32);
    CHECK(c.mask == kFullMask);
    CHECK(c.arg == 16 >> k);
    CHECK(c.width == 32);
    CHECK(c.line == 7);
    CHECK(c.input == f32_bits(v));
    const int source = 3 ^ (16 >> k);
    CHECK(c.output ==
          r.trace.steps[static_cast<std::size_t>(k)].input[static_cast<std::size_t>(source)]);
    CHECK_FALSE(c.pred);  // a shuffle's in-range bit stays in the step: a GPU cannot observe it
    float got = 0;
    const auto bits = static_cast<std::uint32_t>(c.output);
    std::memcpy(&got, &bits, sizeof got);
    v += got;
  }
  CHECK(v == out[3]);
}

TEST_CASE("block barriers are in a lane's calls, with mask 0 and the predicate as input") {
  std::vector<int> in(64), out(64);
  for (int i = 0; i < 64; ++i) in[static_cast<std::size_t>(i)] = i % 3 == 0 ? 1 : 0;
  const auto r = launch(shape(1, 64), [&] { dt_ballot_barrier(in.data(), out.data()); });
  REQUIRE(r.status == LaunchStatus::completed);

  const auto calls = lane_calls(r.trace, 0, 34);  // warp 1, lane 2
  REQUIRE(calls.size() == 3);
  CHECK(calls[0].call.op == Op::ballot);
  CHECK(calls[0].call.line == 12);
  CHECK(calls[0].call.input == 0);  // 34 % 3 != 0
  CHECK(r.trace.steps[calls[0].step].warp == 1);
  CHECK(calls[1].call.op == Op::syncthreads_count);
  CHECK(calls[1].call.mask == 0);
  CHECK(calls[1].call.output == 22);  // threads 0, 3, ..., 63
  CHECK(calls[1].call.line == 13);
  CHECK(calls[2].call.op == Op::syncthreads);
  CHECK(calls[2].call.input == 1);
  CHECK(calls[2].call.output == 0);
  CHECK(calls[2].call.line == 14);
  CHECK(lane_calls(r.trace, 0, 0)[0].call.input == 1);
  CHECK(lane_calls(r.trace, 1, 0).empty());  // no such block
}

TEST_CASE("a lane that exited has no calls; lanes that read it are marked undefined") {
  std::vector<int> in(32), out(32);
  std::iota(in.begin(), in.end(), 100);
  const auto r = launch(shape(1, 32), [&] { dt_tail_shfl_down(in.data(), out.data(), 20); });
  REQUIRE(r.status == LaunchStatus::completed);
  CHECK(lane_calls(r.trace, 0, 25).empty());
  const auto reader = lane_calls(r.trace, 0, 17);  // reads lane 21, which exited
  REQUIRE(reader.size() == 1);
  CHECK(reader[0].undefined);
  CHECK(reader[0].call.arg == 4);
  const auto fine = lane_calls(r.trace, 0, 3);
  REQUIRE(fine.size() == 1);
  CHECK_FALSE(fine[0].undefined);
  CHECK(fine[0].call.output == 107);
}

TEST_CASE("match_all carries *pred; 64-bit operands travel whole") {
  std::vector<long long> in(32, -1);
  std::vector<unsigned> out(32);
  std::vector<int> pred(32);
  const auto r = launch(shape(1, 32), [&] { dt_match_all(in.data(), out.data(), pred.data()); });
  REQUIRE(r.status == LaunchStatus::completed);
  const auto calls = lane_calls(r.trace, 0, 9);
  REQUIRE(calls.size() == 1);
  CHECK(calls[0].call.type == ValueType::i64);
  CHECK(calls[0].call.input == 0xffffffffffffffffull);
  CHECK(calls[0].call.output == kFullMask);
  CHECK(calls[0].call.pred);
  CHECK(calls[0].call.line == 28);
}
