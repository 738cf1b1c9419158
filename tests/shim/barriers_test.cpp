// Barrier 0 under its sm_30 names and the bool block votes work; a named barrier other than 0
// stops the launch at its line; the warp votes without a mask do not compile (as with nvcc for
// sm_70 and later).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "kernel_file_helpers.hpp"

namespace {
warpsim::KernelFileResult run_rejected(const std::string& file, const std::string& kernel,
                                       warpsim::KernelArg arg) {
  warpsim::test::use_shim_test_cache();
  warpsim::KernelFileRequest request;
  request.file = std::string(WARPSIM_SOURCE_DIR) + "/tests/shim/rejected/" + file;
  request.kernel = kernel;
  request.grid = {1};
  request.block = {32};
  request.args = {std::move(arg)};
  return warpsim::run_kernel_file(request);
}
}  // namespace

TEST_CASE("__barrier_sync(0) is __syncthreads; syncthreads_count/and/or take a bool") {
  const auto r =
      warpsim::test::run_shim_kernel("barriers.cu", "barriers", {warpsim::zeros<int>(32)});
  REQUIRE_MESSAGE(r.status == warpsim::RunStatus::completed, r.message);
  CHECK(r.buffer<int>(0) == std::vector<int>(32, 10 + 100 + 1000));
}

TEST_CASE("a named barrier other than 0 stops the launch, naming barrier and line") {
  const auto r = run_rejected("named_barrier.cu", "named_barrier", warpsim::zeros<int>(32));
  CHECK(r.status == warpsim::RunStatus::kernel_exception);
  CHECK_MESSAGE((r.message + "\n" + r.details).find("named_barrier.cu:3: named barrier 1") !=
                    std::string::npos,
                r.message);
}

TEST_CASE("__ballot without a mask does not compile for sm_70 and later") {
  const auto r = run_rejected("ballot_without_mask.cu", "old_ballot", warpsim::zeros<unsigned>(32));
  CHECK(r.status == warpsim::RunStatus::bad_input);
  CHECK_MESSAGE(
      (r.message + "\n" + r.details)
              .find("__ballot() is not valid on compute_70 and above: use __ballot_sync()") !=
          std::string::npos,
      r.message);
}
