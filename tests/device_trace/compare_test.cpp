// compare(): a simulator trace against a device trace, with differences planted in a copy.
#include <doctest/doctest.h>

#include <numeric>
#include <vector>

#include "helpers.hpp"
#include "kernels.hpp"

using namespace warpsim;
using device_trace_test::device_trace_of;
using device_trace_test::shape;

namespace {

struct BallotRun {
  std::vector<int> in, out;
  LaunchResult result;
  BallotRun() : in(64), out(64) {
    for (int i = 0; i < 64; ++i) in[static_cast<std::size_t>(i)] = i % 3 == 0 ? 1 : 0;
    result = launch(shape(3, 64), [&] { dt_ballot_barrier(in.data(), out.data()); });
    REQUIRE(result.status == LaunchStatus::completed);
  }
};

DeviceThreadCalls& thread_of(DeviceTrace& t, std::uint64_t block, std::uint32_t thread) {
  for (DeviceThreadCalls& c : t.threads) {
    if (c.block == block && c.thread == thread) return c;
  }
  FAIL("no such thread");
  return t.threads.front();
}

}  // namespace

TEST_CASE("a GPU that agrees call for call compares identical") {
  BallotRun run;
  const DeviceTrace gpu = device_trace_of(run.result.trace, 2);
  const TraceComparison c = compare(run.result.trace, gpu);
  CHECK(c.identical());
  CHECK(c.lanes == 128);
  CHECK(c.calls == 128 * 3);
  CHECK(c.differing_lanes == 0);
  CHECK_FALSE(c.first_difference);
}

TEST_CASE("a planted difference is found and named: output, mask, line") {
  BallotRun run;
  const Trace& sim = run.result.trace;
  struct Plant {
    const char* what;
    CallField field;
    void (*change)(DeviceCall&);
  };
  const Plant plants[] = {
      {"output bits", CallField::output, [](DeviceCall& c) { c.output ^= 0x10; }},
      {"mask", CallField::mask, [](DeviceCall& c) { c.mask = 0x0000ffff; }},
      {"line", CallField::line, [](DeviceCall& c) { c.line = 99; }},
      {"input", CallField::input, [](DeviceCall& c) { c.input = 7; }},
      {"op", CallField::op, [](DeviceCall& c) { c.op = Op::any; }},
  };
  for (const Plant& p : plants) {
    CAPTURE(p.what);
    DeviceTrace gpu = device_trace_of(sim, 2);
    DeviceCall& planted = thread_of(gpu, 1, 40).calls[0];  // block 1, warp 1, lane 8: its ballot
    const DeviceCall original = planted;
    p.change(planted);
    const TraceComparison c = compare(sim, gpu);
    CHECK_FALSE(c.identical());
    CHECK(c.differing_lanes == 1);
    REQUIRE(c.first_difference);
    const CallDifference& d = *c.first_difference;
    CHECK(d.field == p.field);
    CHECK(d.block == 1);
    CHECK(d.thread == 40);
    CHECK(d.warp == 1);
    CHECK(d.lane == 8);
    CHECK(d.call == 0);
    CHECK(d.lanes == lane_bit(8));
    REQUIRE(d.sim);
    REQUIRE(d.gpu);
    CHECK(*d.sim == original);
    CHECK(*d.gpu == planted);
    REQUIRE(d.sim_step >= 0);
    const TraceStep& step = sim.steps[static_cast<std::size_t>(d.sim_step)];
    CHECK(step.block == 1);
    CHECK(step.warp == 1);
    CHECK(step.op == Op::ballot);
    CHECK(d.file.find("kernels.cuh") != std::string::npos);
  }
}

TEST_CASE("the earliest difference in step order comes first, with every lane that differs there") {
  BallotRun run;
  const Trace& sim = run.result.trace;
  DeviceTrace gpu = device_trace_of(sim, 2);
  thread_of(gpu, 0, 2).calls[2].output = 1;  // block 0's __syncthreads: a later step
  for (const std::uint32_t thread : {35u, 36u, 40u})
    thread_of(gpu, 0, thread).calls[0].output = 0;  // warp 1's ballot
  thread_of(gpu, 0, 50).calls[1].output = 0;        // the barrier: later than the ballot
  const TraceComparison c = compare(sim, gpu);
  CHECK(c.differing_lanes == 5);
  REQUIRE(c.first_difference);
  const CallDifference& d = *c.first_difference;
  CHECK(d.thread == 35);
  CHECK(d.field == CallField::output);
  CHECK(d.lanes == (lane_bit(3) | lane_bit(4) | lane_bit(8)));
  CHECK(sim.steps[static_cast<std::size_t>(d.sim_step)].op == Op::ballot);
}

TEST_CASE("a missing or an extra call is a count difference; calls past capacity are not") {
  BallotRun run;
  const Trace& sim = run.result.trace;
  {
    DeviceTrace gpu = device_trace_of(sim, 1);
    thread_of(gpu, 0, 5).calls.pop_back();
    const TraceComparison c = compare(sim, gpu);
    REQUIRE(c.first_difference);
    CHECK(c.first_difference->field == CallField::count);
    CHECK(c.first_difference->call == 2);
    CHECK(c.first_difference->sim);
    CHECK_FALSE(c.first_difference->gpu);
    CHECK(c.first_difference->sim->op == Op::syncthreads);
  }
  {
    DeviceTrace gpu = device_trace_of(sim, 1);
    DeviceCall extra{};
    extra.op = Op::syncwarp;
    extra.mask = kFullMask;
    extra.line = 30;
    thread_of(gpu, 0, 5).calls.push_back(extra);
    const TraceComparison c = compare(sim, gpu);
    REQUIRE(c.first_difference);
    CHECK(c.first_difference->field == CallField::count);
    CHECK_FALSE(c.first_difference->sim);
    CHECK(c.first_difference->gpu == extra);
    CHECK(c.first_difference->sim_step == -1);
  }
  {
    DeviceTrace gpu = device_trace_of(sim, 1);
    DeviceThreadCalls& t = thread_of(gpu, 0, 5);
    t.calls.resize(1);  // capacity 1: two more calls were only counted
    t.dropped = 2;
    const TraceComparison c = compare(sim, gpu);
    CHECK(c.identical());
    CHECK(c.truncated_lanes == 1);
    t.dropped = 3;  // the GPU made one call more than the simulator
    CHECK(compare(sim, gpu).first_difference->field == CallField::count);
  }
}

TEST_CASE("line 0 (a call inside CUDA's headers) and undefined results are not compared") {
  std::vector<int> in(32), out(32);
  std::iota(in.begin(), in.end(), 100);
  const auto r = launch(shape(1, 32), [&] { dt_tail_shfl_down(in.data(), out.data(), 20); });
  REQUIRE(r.status == LaunchStatus::completed);
  DeviceTrace gpu = device_trace_of(r.trace, 1);
  thread_of(gpu, 0, 17).calls[0].output = 0xdead;  // reads exited lane 21: undefined
  for (DeviceThreadCalls& t : gpu.threads) {
    for (DeviceCall& call : t.calls) call.line = 0;
  }
  TraceComparison c = compare(r.trace, gpu);
  CHECK(c.identical());
  CHECK(c.lanes == 32);
  CHECK(c.calls == 20);
  CHECK(c.undefined_outputs == 4);  // lanes 16..19
  CHECK(c.unknown_lines == 20);
  thread_of(gpu, 0, 15).calls[0].output = 0xdead;  // lane 15 reads lane 19: defined
  c = compare(r.trace, gpu);
  REQUIRE(c.first_difference);
  CHECK(c.first_difference->lane == 15);
}

TEST_CASE("traces of different launches cannot be compared") {
  BallotRun run;
  DeviceTrace gpu = device_trace_of(run.result.trace, 1);
  gpu.block = {32, 2, 1};
  const TraceComparison c = compare(run.result.trace, gpu);
  CHECK_FALSE(c.identical());
  CHECK(c.incomparable.find("block (64,1,1)") != std::string::npos);
  CHECK(c.incomparable.find("block (32,2,1)") != std::string::npos);
}

TEST_CASE("first_differing_field: arg and width count for shuffles only, pred for match_all only") {
  DeviceCall a{};
  a.op = Op::shfl_down;
  a.type = ValueType::i32;
  a.mask = kFullMask;
  a.arg = 1;
  a.width = 32;
  DeviceCall b = a;
  CHECK_FALSE(first_differing_field(a, b, false));
  b.width = 16;
  CHECK(first_differing_field(a, b, false) == CallField::width);
  b = a;
  b.pred = true;
  CHECK_FALSE(first_differing_field(a, b, false));  // a GPU cannot observe a shuffle's in-range bit
  a.op = b.op = Op::match_all;
  CHECK(first_differing_field(a, b, false) == CallField::pred);
  b = a;
  b.output = 5;
  CHECK(first_differing_field(a, b, false) == CallField::output);
  CHECK_FALSE(first_differing_field(a, b, true));
  b = a;
  b.type = ValueType::u32;
  CHECK(first_differing_field(a, b, false) == CallField::type);
}

TEST_CASE("first_differing_field: floats within the ULP tolerance agree, integers never do") {
  DeviceCall a{};
  a.op = Op::shfl_xor;
  a.type = ValueType::f32;
  a.output = 0x3faa9156u;
  DeviceCall b = a;
  b.output = 0x3faa9155u;  // 1 ulp apart
  CHECK(first_differing_field(a, b, false) == CallField::output);
  CHECK_FALSE(first_differing_field(a, b, false, 1));
  b.output = 0x3faa9150u;  // 6 ulp apart
  CHECK(first_differing_field(a, b, false, 4) == CallField::output);
  a.type = b.type = ValueType::i32;
  b.output = 0x3faa9155u;
  CHECK(first_differing_field(a, b, false, 8) == CallField::output);
}
