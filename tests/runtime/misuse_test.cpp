// Misuse that is named, in both convergence policies, and code that looks like it but is not.
#include <doctest/doctest.h>

#include "support/launch_helpers.hpp"

#include <fstream>
#include <numeric>
#include <string>
#include <vector>

#include "warpsim/cuda_shim.hpp"
#include "warpsim/launch.hpp"
#include "misuse_kernels.cuh"

using warpsim::ConvergencePolicy;
using warpsim::Diagnostic;
using warpsim::DiagnosticKind;
using warpsim::LaunchResult;
using warpsim::LaunchStatus;
using warpsim::test::shape;

namespace {

unsigned line_of(const std::string& marker) {
  std::ifstream file(std::string(WARPSIM_SOURCE_DIR) + "/tests/runtime/misuse_kernels.cuh");
  std::string text;
  for (unsigned line = 1; std::getline(file, text); ++line) {
    if (text.find("// @" + marker) != std::string::npos) return line;
  }
  FAIL("no marker @" << marker << " in misuse_kernels.cuh");
  return 0;
}

const Diagnostic* find(const LaunchResult& r, DiagnosticKind kind) {
  for (const Diagnostic& d : r.trace.diagnostics) {
    if (d.kind == kind) return &d;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("a diagnostic repeated at one line keeps the union of its lanes and the count") {
  std::vector<int> out(32, -1);
  const auto r = warpsim::launch(shape(1, 32), [&] { misuse::tail_reduce(out.data()); });
  REQUIRE(r.status == LaunchStatus::completed);
  const Diagnostic* d = find(r, DiagnosticKind::undefined_source);
  REQUIRE(d != nullptr);
  // offset 16: lanes 4-15 read lanes 20-31; 8: 12-19; 4: 16-19; 2: 18-19; 1: lane 19.
  CHECK(d->occurrences == 5);
  CHECK(d->lanes == 0x000ffff0u);
  CHECK(d->message.find("lanes 4-19 read a lane that has exited") != std::string::npos);
  CHECK(d->step == 0);  // anchored at its first occurrence
  CHECK(d->where.line == line_of("tail"));
}

