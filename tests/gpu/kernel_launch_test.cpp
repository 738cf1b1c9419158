// The parts of `run --gpu` that need no device: request checks, decoding what the recorder wrote,
// the driver's release string, and the comparison built from a GPU run.
#include <doctest/doctest.h>

#include "support/expected_text.hpp"

#include <cstring>
#include <regex>
#include <span>
#include <vector>

#include "kernel_launch.hpp"

using namespace warpsim;
using namespace warpsim::gpu;

namespace {

runner::ArgSpec arg(const char* spec) {
  auto parsed = runner::parse_arg_spec(spec);
  REQUIRE_MESSAGE(parsed, parsed.error().message);
  return *parsed;
}

KernelParam pointer_to_float() {
  KernelParam p;
  p.is_pointer = true;
  p.kind = ValueKind::floating;
  p.size = 4;
  p.type_name = "float*";
  return p;
}

KernelParam int_scalar() {
  KernelParam p;
  p.kind = ValueKind::signed_integer;
  p.size = 4;
  p.type_name = "int";
  return p;
}

struct Request {
  std::vector<float> in = std::vector<float>(32, 1.0f);
  GpuRunRequest request;
  Request() {
    request.source = "__global__ void k(float* x, int n) {}";
    request.path = "k.cu";
    request.kernel_expression = "::k";
    request.kernel_name = "k";
    request.args = {arg("f32[32]:zeros"), arg("i32:7")};
    request.params = {pointer_to_float(), int_scalar()};
    request.initial = {std::as_bytes(std::span(in)), {}};
    request.grid = {1, 1, 1};
    request.block = {32, 1, 1};
  }
};

}  // namespace

TEST_CASE("a request is checked as the simulator checks its arguments, and for its initial bytes") {
  Request r;
  CHECK(warpsim::test::problem(check_request(r.request)).empty());

  Request wrong_type;
  wrong_type.request.args[0] = arg("i32[32]:zeros");
  CHECK(warpsim::test::problem(check_request(wrong_type.request)).find("parameter 0 of 'k' (--arg 1)") == 0);

  Request too_few;
  too_few.request.args.pop_back();
  too_few.request.initial.pop_back();
  CHECK(warpsim::test::problem(check_request(too_few.request)).find("takes 2 parameters but 1 --arg was given") !=
        std::string::npos);

  Request short_buffer;
  short_buffer.request.initial[0] = short_buffer.request.initial[0].first(64);
  CHECK(warpsim::test::problem(check_request(short_buffer.request)) ==
        "--arg 1 (f32[32]) needs 128 initial bytes, 64 given");

  Request no_params;  // the caller has no parameter list: nothing to check against
  no_params.request.params.clear();
  no_params.request.args[0] = arg("i32[32]:zeros");
  CHECK(warpsim::test::problem(check_request(no_params.request)).empty());

  Request shape;
  shape.request.block = {2048, 1, 1};
  CHECK_FALSE(warpsim::test::problem(check_request(shape.request)).empty());

  Request trace;
  trace.request.trace.enabled = true;
  trace.request.trace.capacity = 0;
  CHECK_FALSE(warpsim::test::problem(check_request(trace.request)).empty());
}

TEST_CASE(
    "decoding the recorder's output: calls per thread, counts past capacity, corrupt records") {
  // Two traced blocks of 2 threads, capacity 2.
  std::vector<std::uint64_t> counts = {2, 0, 5, 1};
  std::vector<DeviceCallRecord> records(counts.size() * 2);
  auto record = [](Op op, std::uint64_t in, std::uint64_t out, std::uint32_t line) {
    DeviceCallRecord r;
    r.op = static_cast<std::uint8_t>(op);
    r.type = static_cast<std::uint8_t>(ValueType::i32);
    r.mask = kFullMask;
    r.input = in;
    r.output = out;
    r.line = line;
    return r;
  };
  records[0] = record(Op::shfl_down, 1, 2, 10);
  records[1] = record(Op::shfl_down, 2, 3, 11);
  records[4] = record(Op::ballot, 1, 0xf, 20);
  records[5] = record(Op::ballot, 0, 0xf, 21);
  records[6] = record(Op::match_all, 5, 0x3, 30);
  records[6].pred = 1;
  auto trace = decode_device_trace(counts, records, 2, Dim3{3, 1, 1}, Dim3{2, 1, 1}, 2);
  REQUIRE_MESSAGE(trace, (trace ? "" : to_string(trace.error())));
  REQUIRE(trace->threads.size() == 4);
  CHECK(trace->capacity == 2);
  CHECK(trace->traced_blocks == 2);
  CHECK(trace->dropped == 3);
  CHECK(trace->threads[0].calls.size() == 2);
  CHECK(trace->threads[0].calls[1].line == 11);
  CHECK(trace->threads[1].calls.empty());
  CHECK(trace->threads[2].block == 1);
  CHECK(trace->threads[2].thread == 0);
  CHECK(trace->threads[2].dropped == 3);
  CHECK(trace->threads[2].calls.size() == 2);
  CHECK(trace->threads[3].calls[0].op == Op::match_all);
  CHECK(trace->threads[3].calls[0].pred);

  records[1].op = 200;
  auto corrupt = decode_device_trace(counts, records, 2, Dim3{3, 1, 1}, Dim3{2, 1, 1}, 2);
  REQUIRE_FALSE(corrupt);
  CHECK(corrupt.error().kind == ErrorKind::internal);
  CHECK_FALSE(decode_device_trace(counts, records, 3, Dim3{3, 1, 1}, Dim3{2, 1, 1}, 2));
}

TEST_CASE("the driver's release string from /proc/driver/nvidia/version, and the date in UTC") {
  CHECK(driver_release_from("NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.65.06  Sun Jul 27 "
                            "06:54:38 UTC 2025\n"
                            "GCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n") ==
        "580.65.06");
  CHECK(driver_release_from(
            "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  570.124.06  Release Build  "
            "(dvs-builder@U16-I3-B03-4-3)  Thu Feb 20 22:12:04 UTC 2025\n") == "570.124.06");
  CHECK(driver_release_from("something else entirely\n").empty());
  CHECK(driver_release_from("").empty());
  CHECK(std::regex_match(utc_now(), std::regex(R"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z)")));
}

TEST_CASE("compare_run: buffers by argument, steps when both traces are there") {
  GpuRun run;
  run.device.name = "NVIDIA H100 80GB HBM3";
  run.device.sm = 90;
  run.device.driver = 13000;
  std::vector<float> values = {1.0f, 2.0f, 3.0f};
  GpuBuffer buffer;
  buffer.arg = 0;
  buffer.type = ValueType::f32;
  buffer.bytes.resize(12);
  std::memcpy(buffer.bytes.data(), values.data(), 12);
  run.buffers.push_back(buffer);

  values[2] = 4.0f;
  const BufferData sim{0, ValueType::f32, std::as_bytes(std::span(values))};
  GpuComparison c = compare_run(run, nullptr, std::span(&sim, 1));
  REQUIRE(c.buffers.size() == 1);
  CHECK(c.buffers[0].differing == 1);
  CHECK(*c.buffers[0].first_index == 2);
  CHECK_FALSE(c.steps);
  CHECK(c.steps_note == "no device trace was recorded");
  CHECK(c.device.name == "NVIDIA H100 80GB HBM3");

  run.trace_note =
      "the device-side recorder does not compile with this file (a warpsim limitation): ...";
  CHECK(compare_run(run, nullptr, std::span(&sim, 1)).steps_note == run.trace_note);

  run.trace = DeviceTrace{};
  run.trace->grid = run.trace->block = Dim3{1, 1, 1};
  CHECK(compare_run(run, nullptr, std::span(&sim, 1)).steps_note ==
        "the simulator's trace is not available");
  Trace sim_trace;
  sim_trace.grid = sim_trace.block = Dim3{1, 1, 1};
  c = compare_run(run, &sim_trace, std::span(&sim, 1));
  REQUIRE(c.steps);
  CHECK(c.steps->incomparable == "the GPU trace holds no threads");
  CHECK(value_type_of(runner::ElementType::u64) == ValueType::u64);
}
