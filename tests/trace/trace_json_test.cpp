#include <doctest/doctest.h>

#include <numeric>
#include <sstream>
#include <vector>

#include "warpsim/cuda_shim.hpp"
#include "warpsim/launch.hpp"
#include "../runtime/kernels.cuh"

TEST_CASE("a trace written as JSON reads back step for step") {
  std::vector<int> out(32, -1);
  warpsim::LaunchOptions options;
  options.grid = {1};
  options.block = {32};
  const auto r = warpsim::launch(options, [&] { shuffle_from_exited(out.data()); });
  std::stringstream json;
  warpsim::write_trace_json(json, r.trace);

  const auto read = warpsim::read_trace_json(json);
  REQUIRE(read);
  const warpsim::Trace& back = *read;
  REQUIRE(back.steps.size() == r.trace.steps.size());
  const auto& a = r.trace.steps[0];
  const auto& b = back.steps[0];
  CHECK(b.op == a.op);
  CHECK(b.type == a.type);
  CHECK(b.participants == a.participants);
  CHECK(b.undefined == a.undefined);
  for (int lane = 0; lane < 20; ++lane) {
    CAPTURE(lane);
    CHECK(b.input[lane] == a.input[lane]);
    CHECK(b.output[lane] == a.output[lane]);
    CHECK(b.src_lane[lane] == a.src_lane[lane]);
    CHECK(b.where[lane] == a.where[lane]);
  }
  CHECK(back.files == r.trace.files);
  REQUIRE(back.diagnostics.size() == r.trace.diagnostics.size());
  CHECK(back.diagnostics[0].kind == warpsim::DiagnosticKind::undefined_source);

  std::stringstream again;
  warpsim::write_trace_json(again, back);
  std::stringstream first;
  warpsim::write_trace_json(first, r.trace);
  CHECK(again.str() == first.str());

  // A race's other line goes with it, where there is one.
  warpsim::Trace raced = r.trace;
  raced.diagnostics[0].other_where = {0, 17};
  std::stringstream with_other;
  warpsim::write_trace_json(with_other, raced);
  const auto other = warpsim::read_trace_json(with_other);
  REQUIRE(other);
  CHECK(other->diagnostics[0].other_where == warpsim::SourceLine{0, 17});
  CHECK(back.diagnostics[0].other_where.line == 0);
  // So does the step a memory finding came after.
  CHECK(other->diagnostics[0].step_before == -1);
  raced.diagnostics[0].step_before = 3;
  std::stringstream with_step;
  warpsim::write_trace_json(with_step, raced);
  const auto stepped = warpsim::read_trace_json(with_step);
  REQUIRE(stepped);
  CHECK(stepped->diagnostics[0].step_before == 3);
}

TEST_CASE("a truncated or foreign trace file is refused with a reason") {
  std::stringstream truncated("{\"format\":\"warpsim-trace\",\"version\":1,\"grid\":[1,1");
  const auto cut = warpsim::read_trace_json(truncated);
  REQUIRE_FALSE(cut);
  CHECK(cut.error().message.find("malformed trace") != std::string::npos);
  std::stringstream foreign("{\"hello\":1}");
  const auto other = warpsim::read_trace_json(foreign);
  REQUIRE_FALSE(other);
  CHECK(other.error().message.find("not a warpsim trace") != std::string::npos);
}
