// Address-space predicates, shared-window conversions, cache-hinted loads and stores, clocks,
// through `warpsim run`'s C++ API (the kernel runs in its own process, dynamic shared memory in
// front of a guard page); and what warpsim cannot tell stops the launch, saying so.
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

TEST_CASE("local, constant, shared and global memory are told apart, and the windows round-trip") {
  std::vector<int> in(32, 7);
  const auto r = warpsim::test::run_shim_kernel("address_spaces.cu", "address_spaces",
                                                {warpsim::buffer(in), warpsim::zeros<int>(16 * 32)});
  REQUIRE_MESSAGE(r.status == warpsim::RunStatus::completed, r.message);
  const std::vector<int> out = r.buffer<int>(1);
  const std::vector<int> expected{1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 1};
  for (int t = 0; t < 32; ++t) {
    CAPTURE(t);
    CHECK(std::vector<int>(out.begin() + 16 * t, out.begin() + 16 * t + 16) == expected);
  }
}

TEST_CASE("converting a pointer that is not in the space stops the launch, saying so") {
  const auto r = warpsim::test::run_shim_kernel("address_spaces.cu", "global_as_local",
                                                {warpsim::zeros<int>(32)});
  CHECK(r.status == warpsim::RunStatus::kernel_exception);
  CHECK_MESSAGE(r.message.find("__cvta_generic_to_local: the pointer is not in the thread's local "
                               "memory (its stack)") != std::string::npos,
                r.message);
}

TEST_CASE("in a file with __grid_constant__ parameters, a stack address's space is not guessed") {
  const auto r = warpsim::test::run_shim_kernel("grid_constant_space.cu", "ask_grid_constant",
                                                {warpsim::scalar(3), warpsim::zeros<int>(32)});
  CHECK(r.status == warpsim::RunStatus::kernel_exception);
  CHECK_MESSAGE(r.message.find("__isLocal: not simulated in a file with __grid_constant__ "
                               "parameters") != std::string::npos,
                r.message);
}

TEST_CASE("the performance monitor counters read 0, as an H100's do in a plain run") {
  std::vector<unsigned> out(32 * 8, 0xffffffffu);
  const auto r = warpsim::test::run_shim_kernel("perf_counters.cu", "perf_counters",
                                                {warpsim::buffer(out), warpsim::scalar(1000)});
  REQUIRE_MESSAGE(r.status == warpsim::RunStatus::completed, r.message);
  for (const unsigned v : r.buffer<unsigned>(0)) CHECK(v == 0u);
}

TEST_CASE("clock() in a kernel reads the device clock that clock64() reads: a wait on it ends") {
  // Before, clock() was the host's (CPU microseconds, a system call a read): simpleHyperQ's
  // clock_block waited 20 s of CPU time per kernel. Now both count 4 a read.
  const int cycles = 100000;
  const auto r = warpsim::test::run_shim_kernel(
      "clock_wait.cu", "clock_wait", {warpsim::zeros<long long>(3 * 32), warpsim::scalar(cycles)});
  REQUIRE_MESSAGE(r.status == warpsim::RunStatus::completed, r.message);
  const std::vector<long long> out = r.buffer<long long>(0);
  for (int t = 0; t < 32; ++t) {
    CAPTURE(t);
    CHECK(out[static_cast<std::size_t>(3 * t)] >= cycles);
    CHECK(out[static_cast<std::size_t>(3 * t + 1)] == 4);
    CHECK(out[static_cast<std::size_t>(3 * t + 2)] == 4);
  }
}
