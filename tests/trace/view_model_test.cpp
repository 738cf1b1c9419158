// The view model: TraceIndex navigation and describe_step's per-lane description, on traces of
// real launches.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <sstream>
#include <vector>

#include "warpsim/cuda_shim.hpp"
#include "warpsim/launch.hpp"
#include "warpsim/step_view.hpp"
#include "warpsim/trace_index.hpp"
#include "warpsim/wait_view.hpp"
#include "view_model_kernels.cuh"

using namespace warpsim;

namespace {

LaunchResult run(std::uint32_t blocks, std::uint32_t threads, const std::function<void()>& body) {
  LaunchOptions options;
  options.grid = {blocks};
  options.block = {threads};
  LaunchResult r = launch(options, body);
  REQUIRE(r.status == LaunchStatus::completed);
  return r;
}

const StepRow& row(const StepView& v, RowKind kind) {
  for (const StepRow& r : v.rows) {
    if (r.kind == kind) return r;
  }
  FAIL("no such row");
  return v.rows.front();
}

bool has_row(const StepView& v, RowKind kind) {
  for (const StepRow& r : v.rows) {
    if (r.kind == kind) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("the index lists each warp's steps in order, with their passes over one line") {
  std::vector<int> in(64), out(64);
  std::iota(in.begin(), in.end(), 0);
  const LaunchResult r = run(2, 32, [&] {
    vm_butterfly(in.data() + 32 * blockIdx.x, out.data() + 32 * blockIdx.x);
  });
  const TraceIndex index(r.trace);
  REQUIRE(index.warps().size() == 2);
  CHECK(index.warps()[1].warp == WarpKey{1, 0});
  CHECK(index.warps()[1].steps == 5);
  const auto steps = index.steps_of({1, 0});
  REQUIRE(steps.size() == 5);
  for (std::uint32_t k = 0; k < 5; ++k) {
    CAPTURE(k);
    CHECK(index.info(steps[k]).position == k);
    CHECK(index.info(steps[k]).pass == k + 1);  // one line, five passes
  }
  const SourceLine line = index.info(steps[0]).where;
  CHECK(index.find({1, 0}, line, 3) == steps[2]);
  CHECK_FALSE(index.find({1, 0}, line, 6).has_value());
  CHECK(index.steps_at(line).size() == 10);
  CHECK(index.lines().size() == 1);
  CHECK(index.steps_of({7, 0}).empty());
}

TEST_CASE("a butterfly step: every lane took part, read lane ^ offset, and its value changed") {
  std::vector<int> in(32), out(32);
  std::iota(in.begin(), in.end(), 0);
  const LaunchResult r = run(1, 32, [&] { vm_butterfly(in.data(), out.data()); });
  const TraceIndex index(r.trace);
  const StepView v = describe_step(r.trace, index, 0);
  CHECK(v.name == "__shfl_xor_sync");
  CHECK(v.position == 0);
  CHECK(v.warp_steps == 5);
  CHECK(v.site.find("view_model_kernels.cuh:") == 0);
  CHECK(v.facts[0] == std::pair<std::string, std::string>{"mask", "0xffffffff"});
  CHECK(v.facts[1] == std::pair<std::string, std::string>{"laneMask", "16"});
  CHECK(v.facts[2] == std::pair<std::string, std::string>{"width", "32"});
  CHECK(v.result == ResultKind::value);
  CHECK_FALSE(has_row(v, RowKind::argument));  // the argument is uniform: a fact, not a row
  for (int lane = 0; lane < 32; ++lane) {
    CAPTURE(lane);
    CHECK(v.lanes[lane] == LaneState::took_part);
    CHECK(v.source[lane] == (lane ^ 16));
    CHECK(row(v, RowKind::input).cells[lane].text == std::to_string(lane));
    CHECK(row(v, RowKind::output).cells[lane].text == std::to_string(lane ^ 16));
    CHECK(row(v, RowKind::output).cells[lane].changed);
  }
  const StepView hex = describe_step(r.trace, index, 0, {.format = ValueFormat::hex});
  CHECK(row(hex, RowKind::output).cells[1].text == "0x00000011");
}

TEST_CASE("lane states: took part, diverged elsewhere, not in the mask, exited") {
  std::vector<unsigned> out(32);
  const LaunchResult r = run(1, 32, [&] { vm_split_ballot(out.data()); });
  const TraceIndex index(r.trace);
  REQUIRE(index.step_count() == 2);
  CHECK(r.trace.diagnostics.empty());
  const StepView low = describe_step(r.trace, index, 0);
  CHECK(low.participants == 0x0000ffffu);
  CHECK(low.lanes[3] == LaneState::took_part);
  CHECK(low.lanes[20] == LaneState::exited);
  CHECK(low.lanes[28] == LaneState::not_in_mask);  // waiting at the other ballot, not named
  CHECK(low.result == ResultKind::lane_mask);
  CHECK(row(low, RowKind::input).cells[3].text == "1");
  CHECK(row(low, RowKind::input).cells[4].text == "0");
  CHECK(row(low, RowKind::output).cells[0].text == "0x00009249");
  CHECK(row(low, RowKind::output).cells[28].text.empty());
}

TEST_CASE("match_any groups lanes by value, numbered from the lowest lane") {
  std::vector<int> in(32);
  for (int lane = 0; lane < 32; ++lane) in[lane] = lane % 3 == 0 ? 7 : (lane % 3 == 1 ? 5 : 9);
  std::vector<unsigned> out(32);
  const LaunchResult r = run(1, 32, [&] { vm_match(in.data(), out.data()); });
  const TraceIndex index(r.trace);
  const StepView v = describe_step(r.trace, index, 0);
  CHECK(v.group[0] == 0);
  CHECK(v.group[3] == 0);
  CHECK(v.group[1] == 1);
  CHECK(v.group[2] == 2);
  CHECK(v.group[31] == 1);
}

TEST_CASE("a per-lane argument is a row of its own; the other side's values are compared") {
  std::vector<int> in(32), out(32);
  std::iota(in.begin(), in.end(), 100);
  const LaunchResult r = run(1, 32, [&] { vm_reverse(in.data(), out.data()); });
  const TraceIndex index(r.trace);
  std::array<std::optional<std::uint64_t>, kWarpSize> gpu{};
  for (int lane = 0; lane < 32; ++lane) gpu[lane] = static_cast<std::uint64_t>(131 - lane);
  gpu[4] = 0;         // differs
  gpu[5].reset();     // no value on that side
  const StepView v = describe_step(r.trace, index, 0, {.other = &gpu});
  CHECK(row(v, RowKind::argument).label == "srcLane");
  CHECK(row(v, RowKind::argument).cells[2].text == "29");
  CHECK(v.source[2] == 29);
  CHECK(v.has_other);
  CHECK(v.other_differs == lane_bit(4));
  CHECK(row(v, RowKind::other).cells[4].differs);
  CHECK(row(v, RowKind::other).cells[5].text.empty());
  CHECK(row(v, RowKind::other).cells[6].text == "125");
}

TEST_CASE("values in every format") {
  CHECK(format_bits(0xffffffffu, ValueType::i32, ValueFormat::natural) == "-1");
  CHECK(format_bits(0xffffffffu, ValueType::i32, ValueFormat::decimal) == "-1");
  CHECK(format_bits(0xffffffffu, ValueType::u32, ValueFormat::decimal) == "4294967295");
  CHECK(format_bits(0x3fc00000u, ValueType::f32, ValueFormat::natural) == "1.5");
  CHECK(format_bits(0x3fc00000u, ValueType::f32, ValueFormat::hex) == "0x3fc00000");
  CHECK(format_bits(5, ValueType::u32, ValueFormat::binary) == std::string(29, '0') + "101");
  CHECK(format_bits(1, ValueType::u64, ValueFormat::hex) == "0x0000000000000001");
  CHECK(format_bits(0x0000ffffu, ValueType::none, ValueFormat::natural) == "0x0000ffff");
  CHECK(value_format_from_string("hex") == ValueFormat::hex);
  CHECK_FALSE(value_format_from_string("octal").has_value());
}

TEST_CASE("a deadlock's last word: where every lane waits, the lanes that never arrive, in JSON") {
  std::vector<int> out(32);
  LaunchOptions options;
  options.grid = {1};
  options.block = {32};
  const LaunchResult r = launch(options, [&] { vm_deadlock(out.data()); });
  REQUIRE(r.status == LaunchStatus::deadlock);
  REQUIRE(r.trace.waits.size() == 1);
  const TraceIndex index(r.trace);
  REQUIRE(index.warps().size() == 1);
  CHECK(index.warps()[0].deadlocked);
  CHECK(index.warps()[0].steps == 1);
  const auto wait = describe_wait(r.trace, index, {0, 0});
  REQUIRE(wait.has_value());
  const StepView& v = wait->view;
  CHECK(v.waits);
  CHECK(v.position == 1);
  CHECK(v.warp_steps == 1);
  CHECK(v.step == r.trace.steps.size());
  CHECK(wait->waiting == 0x0fffffffu);
  // Lanes 28-31 exited: no lane waits for them.
  CHECK(wait->never_arrive == 0x0fffffffu);
  CHECK(v.lanes[3] == LaneState::took_part);
  CHECK(v.lanes[30] == LaneState::exited);
  REQUIRE(v.rows.size() == 3);
  CHECK(v.rows[0].label == "call");
  CHECK(v.rows[0].cells[0].text == "shfl_down");
  CHECK(v.rows[0].cells[20].text == "shfl_up");
  CHECK(v.rows[0].cells[30].text.empty());
  CHECK(v.rows[2].cells[0].text == "0xffffffff");
  REQUIRE(wait->lines.size() == 2);
  CHECK(wait->lines[0].starts_with("lanes 0-15 wait in __shfl_down_sync at "));
  CHECK(wait->lines[0].find("with mask 0xffffffff for lanes 16-27, which never arrive: lanes "
                            "16-27 wait in __shfl_up_sync at ") != std::string::npos);
  CHECK(wait->lines[0].ends_with("(different calls never meet)"));
  CHECK(wait->lines[1].starts_with("lanes 16-27 wait in __shfl_up_sync at "));
  CHECK_FALSE(describe_wait(r.trace, index, {0, 1}).has_value());

  std::stringstream json;
  write_trace_json(json, r.trace);
  const auto back = read_trace_json(json);
  REQUIRE(back);
  CHECK(back->waits == r.trace.waits);
}

TEST_CASE("an after row: what each lane holds once it has used the step's result") {
  std::vector<int> in(32), out(32);
  std::iota(in.begin(), in.end(), 0);
  const LaunchResult r = run(1, 32, [&] { vm_butterfly(in.data(), out.data()); });
  const TraceIndex index(r.trace);
  const StepView first = describe_step(r.trace, index, 0, {.after = true});
  REQUIRE(has_row(first, RowKind::after));
  CHECK(row(first, RowKind::after).cells[0].text == "16");  // 0 + lane 16's 16
  CHECK(row(first, RowKind::after).cells[17].text == "18");  // 17 + lane 1's 1
  CHECK(row(first, RowKind::after).cells[0].changed);
  CHECK_FALSE(has_row(describe_step(r.trace, index, 0), RowKind::after));  // only when asked
  CHECK_FALSE(has_row(describe_step(r.trace, index, 4, {.after = true}), RowKind::after));  // last
}

TEST_CASE("a diagnostic that recurs: its own step's lanes, the union labelled as one") {
  std::vector<int> out(64);
  LaunchOptions options;
  options.grid = {1};
  options.block = {64};
  const LaunchResult r = launch(options, [&] { vm_not_in_mask(out.data()); });
  const auto d = std::find_if(r.trace.diagnostics.begin(), r.trace.diagnostics.end(),
                              [](const Diagnostic& x) { return x.kind == DiagnosticKind::caller_not_in_mask; });
  REQUIRE(d != r.trace.diagnostics.end());
  CHECK(d->occurrences == 2);
  CHECK(d->lanes == 0xffffff00u);       // both warps' lanes
  CHECK(d->step_lanes == 0xffff0000u);  // warp 0's, at its own step
  const std::string text = diagnostic_at_step_text(r.trace, *d);
  CAPTURE(text);
  CHECK(text.starts_with("caller_not_in_mask (lanes 16-31): "));
  CHECK(text.ends_with(" (over 2 steps at this line: lanes 8-31)"));
  CHECK(text.find("lanes 8-31 ") == std::string::npos);  // the step's own sentence names its own
}
