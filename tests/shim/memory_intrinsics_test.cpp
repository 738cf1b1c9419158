// Address-space predicates, shared-window conversions, cache-hinted loads and stores, clocks,
// through `warpsim run`'s C++ API (the kernel runs in its own process, dynamic shared memory in
// front of a guard page); and what warpsim cannot tell fails to compile, saying so.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "kernel_file_helpers.hpp"

TEST_CASE("__isShared knows static, file-scope and dynamic shared memory from local and global") {
  std::vector<int> in(32);
  for (int t = 0; t < 32; ++t) in[static_cast<std::size_t>(t)] = t + 1;
  const auto r = warpsim::test::run_shim_kernel("memory_intrinsics.cu", "memory_intrinsics",
                                                {warpsim::buffer(in), warpsim::zeros<int>(8 * 32)});
  REQUIRE_MESSAGE(r.status == warpsim::RunStatus::completed, r.message);
  const std::vector<int> out = r.buffer<int>(1);
  for (int t = 0; t < 32; ++t) {
    CAPTURE(t);
    const std::vector<int> expected{1, 1, 1, 0, 0, 1, 6 * (t + 1), 1};
    CHECK(std::vector<int>(out.begin() + 8 * t, out.begin() + 8 * t + 8) == expected);
  }
}

TEST_CASE("an address-space question warpsim cannot answer fails to compile, saying why") {
  warpsim::test::use_shim_test_cache();
  warpsim::KernelFileRequest request;
  request.file = std::string(WARPSIM_SOURCE_DIR) + "/tests/shim/rejected/is_local.cu";
  request.kernel = "ask_local";
  request.grid = {1};
  request.block = {1};
  request.args = {warpsim::zeros<int>(1)};
  const auto r = warpsim::run_kernel_file(request);
  CHECK(r.status == warpsim::RunStatus::bad_input);
  CHECK((r.message + "\n" + r.details)
            .find("__isLocal is not simulated: local, constant and grid-constant memory are "
                  "ordinary host memory in warpsim") != std::string::npos);
}
