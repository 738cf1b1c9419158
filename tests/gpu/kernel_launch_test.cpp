// The parts of `run --gpu` that need no device: request checks, decoding what the recorder wrote,
// the driver's release string, and the comparison built from a GPU run.
#include <doctest/doctest.h>

#include "support/expected_text.hpp"

#include <cstring>
#include <filesystem>
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

namespace {

template <class T>
T bytes_at(const std::vector<std::byte>& bytes, std::size_t offset) {
  T value{};
  std::memcpy(&value, bytes.data() + offset, sizeof value);
  return value;
}

}  // namespace

TEST_CASE("--gpu's kernel parameters: device addresses, scalar bits, structs laid out in place") {
  const std::vector<runner::ArgSpec> args{arg("{i8:-3; f64:2.5; i32[32]:zeros; i16:-300}"),
                                          arg("f32[8]:iota"), arg("u8:200"), arg("f16:1.5"),
                                          arg("{i32:5; f32[4]:zeros; f32[2]:zeros}")};
  // buffer_slots order: arg 0 field 2, arg 1, arg 4 field 1, arg 4 field 2.
  const std::vector<DevicePtr> addresses{0xA000, 0xB000, 0xC000, 0xD000};
  const std::vector<std::vector<std::byte>> params = kernel_param_bytes(args, addresses);
  REQUIRE(params.size() == 5);
  REQUIRE(params[0].size() == 32);
  CHECK(bytes_at<std::int8_t>(params[0], 0) == -3);
  CHECK(bytes_at<double>(params[0], 8) == 2.5);
  CHECK(bytes_at<std::uint64_t>(params[0], 16) == 0xA000);
  CHECK(bytes_at<std::int16_t>(params[0], 24) == -300);
  REQUIRE(params[1].size() == 8);
  CHECK(bytes_at<std::uint64_t>(params[1], 0) == 0xB000);
  REQUIRE(params[2].size() == 1);
  CHECK(bytes_at<std::uint8_t>(params[2], 0) == 200);
  REQUIRE(params[3].size() == 2);
  CHECK(bytes_at<std::uint16_t>(params[3], 0) == runner::f16_bits(1.5f));
  REQUIRE(params[4].size() == 24);
  CHECK(bytes_at<std::int32_t>(params[4], 0) == 5);
  CHECK(bytes_at<std::uint64_t>(params[4], 8) == 0xC000);
  CHECK(bytes_at<std::uint64_t>(params[4], 16) == 0xD000);
}

TEST_CASE("--gpu requests with struct arguments carry their fields' initial bytes") {
  Request r;
  std::vector<float> field(4, 2.0f);
  r.request.source = "struct P { int n; const float* in; }; __global__ void k(float* x, P p) {}";
  r.request.args = {arg("f32[32]:zeros"), arg("{i32:4; f32[4]:zeros}")};
  r.request.params.clear();
  r.request.initial = {std::as_bytes(std::span(r.in)), {}};
  CHECK(warpsim::test::problem(check_request(r.request)) ==
        "1 buffer fields of struct arguments but initial contents for 0");
  r.request.field_initial = {std::as_bytes(std::span(field)).first(8)};
  CHECK(warpsim::test::problem(check_request(r.request)) ==
        "--arg 2 field 1 (f32[4]) needs 16 initial bytes, 8 given");
  r.request.field_initial = {std::as_bytes(std::span(field))};
  CHECK(warpsim::test::problem(check_request(r.request)).empty());
  const std::vector<std::span<const std::byte>> slots = slot_initial_bytes(r.request);
  REQUIRE(slots.size() == 2);
  CHECK(slots[0].size() == 128);
  CHECK(slots[1].data() == r.request.field_initial[0].data());
}

TEST_CASE("--gpu takes the new element types: buffers come back widened to 32 bits") {
  Request r;
  r.request.args = {arg("u8[32]:iota"), arg("i16:-7")};
  r.request.params.clear();
  std::vector<std::uint8_t> bytes(32, 1);
  r.request.initial = {std::as_bytes(std::span(bytes)), {}};
  CHECK(warpsim::test::problem(check_request(r.request)).empty());
  CHECK(value_type_of(runner::ElementType::u8) == ValueType::u32);
  CHECK(value_type_of(runner::ElementType::i16) == ValueType::i32);
  CHECK(value_type_of(runner::ElementType::f16) == ValueType::f32);
  CHECK(value_type_of(runner::ElementType::bf16) == ValueType::f32);
  CHECK(value_type_of(runner::ElementType::b8) == ValueType::u32);
}

TEST_CASE("--gpu's NVRTC options carry -I (absolute) and -D after the file's own folder") {
  const std::string kernels = std::string(WARPSIM_SOURCE_DIR) + "/tests/runner/kernels/";
  Request r;
  r.request.path = kernels + "compile_options.cu";
  r.request.include_dirs = {kernels + "include_dir"};
  r.request.defines = {"OFFSET=5", "TWICE"};
  const auto options = compile_options(r.request, 90, false);
  REQUIRE_MESSAGE(options, (options ? "" : options.error().message));
  const std::vector<std::string>& o = options->options;
  REQUIRE(o.size() == 5);
  CHECK(o[0] == "--std=c++17");
  CHECK(o[1] == "-I" + std::filesystem::path(kernels).parent_path().string());
  CHECK(o[2] == "-I" + std::filesystem::absolute(kernels + "include_dir").lexically_normal().string());
  CHECK(o[3] == "-DOFFSET=5");
  CHECK(o[4] == "-DTWICE");
  CHECK(options->sm == 90);

  r.request.defines = {"2BAD"};
  CHECK_FALSE(compile_options(r.request, 90, false));
  CHECK_FALSE(warpsim::test::problem(check_request(r.request)).empty());
}

TEST_CASE("NVRTC compiles a file that needs -I and -D, and one that takes a struct (no device)") {
  const std::string kernels = std::string(WARPSIM_SOURCE_DIR) + "/tests/runner/kernels/";
  Request r;
  r.request.path = kernels + "compile_options.cu";
  r.request.source = *runner::read_text_file(r.request.path);
  r.request.kernel_expression = "::scaled";
  r.request.kernel_name = "scaled";
  r.request.include_dirs = {kernels + "include_dir"};
  r.request.defines = {"OFFSET=5"};
  const auto compiled = compile_for_device(r.request, 90);
  REQUIRE_MESSAGE(compiled, (compiled ? "" : compiled.error().message + compiled.error().details));
  CHECK_FALSE(compiled->kernel_symbol.empty());

  r.request.include_dirs.clear();  // scale.h is then not found
  CHECK_FALSE(compile_for_device(r.request, 90));

  Request s;
  s.request.path = kernels + "struct_args.cu";
  s.request.source = *runner::read_text_file(s.request.path);
  s.request.kernel_expression = "::scale_by_params";
  s.request.kernel_name = "scale_by_params";
  const auto with_struct = compile_for_device(s.request, 90);
  REQUIRE_MESSAGE(with_struct,
                  (with_struct ? "" : with_struct.error().message + with_struct.error().details));

  Request h;
  h.request.path = kernels + "element_types.cu";
  h.request.source = *runner::read_text_file(h.request.path);
  h.request.kernel_expression = "::f16_kernel";
  h.request.kernel_name = "f16_kernel";
  const auto with_f16 = compile_for_device(h.request, 90);
  REQUIRE_MESSAGE(with_f16, (with_f16 ? "" : with_f16.error().message + with_f16.error().details));
}
