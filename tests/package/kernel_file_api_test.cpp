// warpsim::run_kernel_file, the C++ face of `warpsim run`, on the runner's test kernels: buffers,
// steps and trace come back as values, and so does every way a run can fail.
#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "warpsim/kernel_file.hpp"

using warpsim::DiagnosticKind;
using warpsim::KernelFileRequest;
using warpsim::KernelFileResult;
using warpsim::RunStatus;

namespace {

// `kernel` of tests/runner/kernels/`file` on one warp.
KernelFileRequest one_warp(const std::string& file, const std::string& kernel,
                           std::vector<warpsim::KernelArg> args) {
  return {.file = std::string(WARPSIM_SOURCE_DIR) + "/tests/runner/kernels/" + file,
          .kernel = kernel,
          .grid = {1},
          .block = {32},
          .args = std::move(args)};
}

// butterfly_reduce(const float* in, float* out, int n)
KernelFileRequest butterfly() {
  return one_warp("butterfly_reduce.cu", "butterfly_reduce",
                  {warpsim::iota<float>(32), warpsim::zeros<float>(32), warpsim::scalar(32)});
}

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

TEST_CASE("arguments are spelled as C++ values") {
  const warpsim::KernelArg negative = warpsim::scalar(-3);
  CHECK_FALSE(negative.is_buffer);
  CHECK(negative.type == warpsim::runner::ElementType::i32);
  CHECK(negative.scalar_bits == 0xfffffffdu);  // the value's 32 bits, zero-extended
  CHECK(warpsim::scalar(0.5f).scalar_bits == 0x3f000000u);
  CHECK(warpsim::scalar(7u).type == warpsim::runner::ElementType::u32);
  CHECK(warpsim::scalar(-1.0).scalar_bits == 0xbff0000000000000u);

  const warpsim::KernelArg list = warpsim::buffer({1.5f, -2.0f});
  CHECK(list.is_buffer);
  CHECK(list.type == warpsim::runner::ElementType::f32);
  CHECK(list.count == 2);
  CHECK(list.list == std::vector<std::uint64_t>{0x3fc00000u, 0xc0000000u});
  CHECK(warpsim::buffer(std::vector<std::int64_t>{-1}).list ==
        std::vector<std::uint64_t>{0xffffffffffffffffu});
  CHECK(warpsim::zeros<double>(8).type_text() == "f64[8]");
  CHECK(warpsim::iota<unsigned>(4).init == warpsim::runner::BufferInit::iota);
}

TEST_CASE("a kernel file's buffers, steps and trace come back as values") {
  const KernelFileResult r = warpsim::run_kernel_file(butterfly());
  REQUIRE_MESSAGE(r.status == RunStatus::completed, r.message);
  CHECK(r.exit_status() == warpsim::runner::kExitRan);
  CHECK(r.kernel == "butterfly_reduce");
  CHECK(r.message.empty());
  CHECK(r.trace.grid == warpsim::Dim3{1});
  CHECK(r.buffer<float>(1) == std::vector<float>(32, 496.0f));  // 0 + 1 + ... + 31
  CHECK(r.buffer<float>(0)[31] == 31.0f);                       // the input, as it was
  CHECK(r.steps == 5);
  REQUIRE(r.trace.steps.size() == 5);
  CHECK(r.trace.diagnostics.empty());
  const warpsim::TraceStep& first = r.trace.steps[0];
  CHECK(first.op == warpsim::Op::shfl_xor);
  CHECK(first.participants == 0xffffffffu);
  CHECK(ends_with(r.trace.files.at(first.where[0].file),
                  "/tests/runner/kernels/butterfly_reduce.cu"));
  CHECK(first.where[0].line == 7);

  // Typed access checks the parameter.
  CHECK_THROWS_WITH_AS(r.buffer<int>(1), "parameter 1 of 'butterfly_reduce' holds f32, not i32",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(r.buffer<int>(2), "parameter 2 of 'butterfly_reduce' is not a buffer",
                       std::invalid_argument);
}

TEST_CASE("a lane writing past a buffer crashes the run with an out_of_bounds diagnostic") {
  const KernelFileResult r = warpsim::run_kernel_file(
      one_warp("out_of_bounds.cu", "shifted_store", {warpsim::zeros<float>(32)}));
  CHECK(r.status == RunStatus::crashed);
  CHECK(r.exit_status() == warpsim::runner::kExitKernelFailed);
  CHECK(r.message.find("out-of-bounds write of parameter 0") != std::string::npos);
  CHECK(r.trace.steps.empty());  // the launch never returned
  REQUIRE(r.trace.diagnostics.size() == 1);
  const warpsim::Diagnostic& d = r.trace.diagnostics[0];
  CHECK(d.kind == DiagnosticKind::out_of_bounds);
  CHECK(d.lanes == 0x80000000u);  // lane 31 writes out[32]
  CHECK(d.where.line == 4);
  CHECK(ends_with(r.trace.files.at(d.where.file), "out_of_bounds.cu"));
  CHECK(r.buffer<float>(0)[31] == 30.0f);  // what the lanes wrote before the fault
}

TEST_CASE("a lane that never ends times out instead of hanging the test") {
  KernelFileRequest request = one_warp("infinite_loop.cu", "spin", {warpsim::zeros<int>(1)});
  request.timeout_seconds = 0.5;
  const KernelFileResult r = warpsim::run_kernel_file(request);
  CHECK(r.status == RunStatus::timeout);
  CHECK(r.exit_status() == warpsim::runner::kExitKernelFailed);
  CHECK(r.message.find("did not finish within 0.5 s") != std::string::npos);
  REQUIRE(r.trace.diagnostics.size() == 1);  // the timeout, as a diagnostic like every ending
  CHECK(r.trace.diagnostics[0].kind == DiagnosticKind::timeout);
  CHECK(r.trace.diagnostics[0].message == r.message);
}

TEST_CASE("a deadlock stops the run; the trace still comes back") {
  const KernelFileResult r =
      warpsim::run_kernel_file(one_warp("deadlock.cu", "stuck", {warpsim::zeros<int>(32)}));
  CHECK(r.status == RunStatus::deadlock);
  CHECK(r.exit_status() == warpsim::runner::kExitKernelFailed);
  CHECK_FALSE(r.message.empty());
  CHECK(
      std::any_of(r.trace.diagnostics.begin(), r.trace.diagnostics.end(),
                  [](const warpsim::Diagnostic& d) { return d.kind == DiagnosticKind::deadlock; }));
}

TEST_CASE("what stops a run before it starts is bad input, with warpsim run's message") {
  // The message is one line; a compile error's output (the compiler's own) is in `details`.
  KernelFileRequest request = butterfly();
  std::string expected;
  SUBCASE("a compile error, with the compiler's own output") {
    request = one_warp("compile_error.cu", "broken", {warpsim::zeros<float>(32)});
    expected = "undeclared_value";
  }
  SUBCASE("an unknown kernel, listing the file's kernels") {
    request.kernel = "reduce";
    expected = "butterfly_reduce";
  }
  SUBCASE("an argument of the wrong type") {
    request.args[1] = warpsim::zeros<int>(32);
    expected = "parameter 1 of 'butterfly_reduce'";
  }
  SUBCASE("a file that is not there") {
    request.file += ".missing";
    expected = "cannot read";
  }
  CAPTURE(expected);
  const KernelFileResult r = warpsim::run_kernel_file(request);
  CHECK(r.status == RunStatus::bad_input);
  CHECK(r.exit_status() == warpsim::runner::kExitBadInput);
  CHECK((r.message + "\n" + r.details).find(expected) != std::string::npos);
  CHECK(r.message.find('\n') == std::string::npos);
  CHECK(r.buffers.empty());
}
