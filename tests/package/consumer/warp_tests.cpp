// A project's own unit tests of its warp code, on the CPU, through the installed warpsim package.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include <warpsim/kernel_file.hpp>
#include <warpsim/launch.hpp>

#include "warp_reduce.cuh"

TEST_CASE("warp_sum gives every lane the sum of its warp") {
  std::vector<float> in(64), out(64);
  std::iota(in.begin(), in.end(), 0.0f);
  const auto r =
      warpsim::launch({.grid = {2}, .block = {32}}, [&] { warp_sums(in.data(), out.data()); });
  CHECK(r.status == warpsim::LaunchStatus::completed);
  CHECK(r.trace.diagnostics.empty());
  CHECK(r.trace.steps.size() == 2 * 5);  // two warps, five shuffles each
  CHECK(out[0] == 496.0f);               // 0 + 1 + ... + 31, in every lane of warp 0
  CHECK(out[63] == 1520.0f);             // 32 + ... + 63
}

TEST_CASE("a kernel file runs on given inputs and returns its buffers, trace and printf") {
  const warpsim::KernelFileResult r = warpsim::run_kernel_file(
      {.file = "kernels/warp_scan.cu",
       .kernel = "warp_inclusive_scan",
       .grid = {2},
       .block = {32},
       .args = {warpsim::iota<int>(64), warpsim::zeros<int>(64), warpsim::scalar(64)}});
  REQUIRE_MESSAGE(r.status == warpsim::RunStatus::completed, r.message << "\n" << r.details);
  std::vector<int> expected(64);  // the host reference: a running sum that restarts every warp
  for (int i = 0; i < 64; ++i) expected[i] = (i % 32 == 0 ? 0 : expected[i - 1]) + i;
  CHECK(r.buffer<int>(1) == expected);
  CHECK(r.trace.diagnostics.empty());
  CHECK(r.steps == 2 * 5);
  REQUIRE(r.trace.steps.size() == 2 * 5);
  CHECK(r.trace.steps[0].op == warpsim::Op::shfl_up);
  REQUIRE(r.trace.printf_records.size() == 1);
  CHECK(r.trace.printf_records[0].text == "scanning 64 values\n");
}

TEST_CASE("a reduction in divergent code that names the whole warp is diagnosed") {
  std::vector<float> in(32, 1.0f), out(32);
  const auto r =
      warpsim::launch({.grid = {1}, .block = {32}}, [&] { half_warp_sums(in.data(), out.data()); });
  REQUIRE_FALSE(r.trace.diagnostics.empty());
  const warpsim::Diagnostic& first = r.trace.diagnostics.front();
  // Lanes 0-15 shuffle with lanes 16-31, which have already returned: undefined on a GPU.
  CHECK(first.kind == warpsim::DiagnosticKind::undefined_source);
  CHECK(first.lanes == 0x0000ffffu);
}

TEST_CASE("a kernel file that cannot run says why, as a value") {
  const auto r = warpsim::run_kernel_file(
      {.file = "kernels/warp_scan.cu", .kernel = "warp_scan", .grid = {1}, .block = {32}});
  CHECK(r.status == warpsim::RunStatus::bad_input);
  CHECK(r.exit_status() == 2);                                        // as `warpsim run` would exit
  CHECK(r.message.find("warp_inclusive_scan") != std::string::npos);  // lists the file's kernels
  CHECK_THROWS_AS(r.buffer<int>(1), std::invalid_argument);
}
