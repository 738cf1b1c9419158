// Forward progress (Volta+ independent thread scheduling): lanes and warps that spin waiting for
// each other complete, as on the GPU; a true livelock ends with the spinning lanes named.
#include <doctest/doctest.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "warpsim/cuda_shim.hpp"
#include "warpsim/kernel_file.hpp"
#include "warpsim/launch.hpp"
#include "warpsim/runner.hpp"

using warpsim::KernelFileRequest;
using warpsim::KernelFileResult;
using warpsim::RunStatus;

namespace {

const std::string kFile = std::string(WARPSIM_SOURCE_DIR) + "/tests/runner/kernels/forward_progress.cu";

KernelFileRequest request(const std::string& kernel, unsigned threads,
                          std::vector<warpsim::KernelArg> args) {
  return {.file = kFile, .kernel = kernel, .grid = {1}, .block = {threads}, .args = std::move(args)};
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// In-process: lanes that spin on atomics (no loop ticks: this file is not a kernel file).
__global__ void atomic_wait_for_later_lane(int* flag, int* out) {
  if (threadIdx.x == 0) {
    while (atomicAdd(flag, 0) == 0) {
    }
    out[0] = atomicAdd(flag, 0);
  } else if (threadIdx.x == 31) {
    atomicExch(flag, 7);
  }
}

__global__ void atomic_wait_forever(int* flag) {
  while (atomicAdd(flag, 0) == 0) {
  }
}

}  // namespace

TEST_CASE("every for, while and do loop of a kernel file ticks once per iteration, lines kept") {
  const std::string source =
      "void f(int n) {\n"
      "  for (int i = 0; i < n; ++i) g(i);\n"
      "  do { n--; } while (n > 0);\n"
      "  while (n < 3) n++;  // for (a comment)\n"
      "#define LOOP while (1) {}\n"
      "  const char* s = \"while (x)\";\n"
      "}\n";
  const std::string ticked = warpsim::runner::insert_loop_ticks(source);
  const std::string tick = " if (::warpsim::device::spin_tick(), false) {} else ";
  CHECK(ticked ==
        "void f(int n) {\n"
        "  for (int i = 0; i < n; ++i)" + tick + " g(i);\n"
        "  do" + tick + " { n--; } while (n > 0);\n"
        "  while (n < 3)" + tick + " n++;  // for (a comment)\n"
        "#define LOOP while (1) {}\n"
        "  const char* s = \"while (x)\";\n"
        "}\n");
}

TEST_CASE("loops an OpenMP collapse(N) joins stay a perfect nest: only the innermost ticks") {
  // HeCBench's gelu reference: `#pragma omp parallel for collapse(2)` over two loops.
  const std::string source =
      "void ref(float* y, int b, int n) {\n"
      "  #pragma omp parallel for collapse(2)\n"
      "  for (int i = 0; i < b; i++)\n"
      "    for (int j = 0; j < n; j++) y[i * n + j] = 0;\n"
      "  for (int k = 0; k < n; k++) y[k] += 1;\n"
      "}\n";
  const std::string tick = " if (::warpsim::device::spin_tick(), false) {} else ";
  CHECK(warpsim::runner::insert_loop_ticks(source) ==
        "void ref(float* y, int b, int n) {\n"
        "  #pragma omp parallel for collapse(2)\n"
        "  for (int i = 0; i < b; i++)\n"
        "    for (int j = 0; j < n; j++)" + tick + " y[i * n + j] = 0;\n"
        "  for (int k = 0; k < n; k++)" + tick + " y[k] += 1;\n"
        "}\n");
}

TEST_CASE("a lane that waits for a later lane of its warp completes, and the warp regroups") {
  const KernelFileResult r = warpsim::run_kernel_file(
      request("lane_waits_for_later_lane", 32, {warpsim::zeros<int>(1), warpsim::zeros<int>(33)}));
  INFO(r.message);
  REQUIRE(r.status == RunStatus::completed);
  const std::vector<int> out = r.buffer<int>(1);
  CHECK(out[0] == 43);
  for (int lane = 0; lane < 32; ++lane) {
    CAPTURE(lane);
    CHECK(out[lane + 1] == (31 - lane) * 2);
  }
  // The shuffle after the wait is one step of all 32 lanes: the spinning lane rejoined its warp.
  REQUIRE(r.trace.steps.size() == 1);
  CHECK(r.trace.steps[0].participants == 0xffffffffu);
  CHECK(r.trace.diagnostics.empty());
}

TEST_CASE("two warps of a block that wait for each other's flag take turns to the end") {
  constexpr int kRounds = 6;
  for (const auto policy : {warpsim::ConvergencePolicy::maximal, warpsim::ConvergencePolicy::interleaved}) {
    for (const std::uint64_t order_seed : {0u, 3u}) {
      CAPTURE(static_cast<int>(policy));
      CAPTURE(order_seed);
      KernelFileRequest req =
          request("warps_take_turns", 64,
                  {warpsim::zeros<int>(1), warpsim::zeros<int>(32),
                   warpsim::zeros<int>(kRounds * 32), warpsim::scalar(kRounds)});
      req.policy = policy;
      req.order_seed = order_seed;
      const KernelFileResult r = warpsim::run_kernel_file(req);
      INFO(r.message);
      REQUIRE(r.status == RunStatus::completed);
      CHECK(r.buffer<int>(0)[0] == 2 * kRounds);
      const std::vector<int> out = r.buffer<int>(2);
      for (int round = 0; round < kRounds; ++round) {
        for (int lane = 0; lane < 32; ++lane) {
          CAPTURE(round);
          CAPTURE(lane);
          CHECK(out[round * 32 + lane] == 2 * round * 100 + lane + (lane ^ 1));
        }
      }
      // The same seed and policy run the same way again.
      const KernelFileResult again = warpsim::run_kernel_file(req);
      CHECK(again.steps == r.steps);
      CHECK(again.trace.steps.size() == r.trace.steps.size());
    }
  }
}

TEST_CASE("a spin lock built from atomicCAS across the lanes of one warp completes") {
  const KernelFileResult r = warpsim::run_kernel_file(
      request("lock_per_lane", 32,
              {warpsim::zeros<int>(1), warpsim::zeros<int>(1), warpsim::scalar(10000)}));
  INFO(r.message);
  REQUIRE(r.status == RunStatus::completed);
  CHECK(r.buffer<int>(0)[0] == 0);    // released
  CHECK(r.buffer<int>(1)[0] == 528);  // 1 + 2 + ... + 32: no update lost
}

TEST_CASE("a true livelock stops at the time limit naming the spinning lanes and the steps run") {
  KernelFileRequest req = request("wait_forever", 32, {warpsim::zeros<int>(1), warpsim::zeros<int>(32)});
  req.timeout_seconds = 1;
  const KernelFileResult r = warpsim::run_kernel_file(req);
  CHECK(r.status == RunStatus::timeout);
  INFO(r.message);
  // The launch stopped itself at the limit, naming the lanes that looped and where.
  CHECK(contains(r.message, "lanes 0-31 of warp 0 were looping at forward_progress.cu:56"));
  CHECK(contains(r.message, "(1 warp-level step ran)"));
  CHECK(r.steps == 1);
  REQUIRE(r.trace.diagnostics.size() == 1);
  CHECK(r.trace.diagnostics[0].kind == warpsim::DiagnosticKind::timeout);
}

TEST_CASE("in a launch, lanes that spin on atomics make progress; a livelock ends as one") {
  int flag = 0;
  int out = 0;
  warpsim::LaunchOptions options{.grid = {1}, .block = {32}};
  const warpsim::LaunchResult done =
      warpsim::launch(options, [&] { atomic_wait_for_later_lane(&flag, &out); });
  INFO(done.message);
  CHECK(done.status == warpsim::LaunchStatus::completed);
  CHECK(out == 7);

  flag = 0;
  options.block = {64};
  options.spin_limit = std::uint64_t{1} << 22;
  const warpsim::LaunchResult stuck = warpsim::launch(options, [&] { atomic_wait_forever(&flag); });
  CHECK(stuck.status == warpsim::LaunchStatus::deadlock);
  INFO(stuck.message);
  CHECK(contains(stuck.message, "livelock in block 0: lanes 0-31 of warp 0 spun without progress; "
                                "lanes 0-31 of warp 1 spun without progress"));
  // The limit is per thread: 2^22 ticks for each of the block's 64 threads.
  CHECK(contains(stuck.message, "268435456 loop iterations and atomics"));
}

TEST_CASE("a block whose threads all compute long loops is not taken for a livelock") {
  // 64 threads, each 2^21 loop iterations before any of them exits: 2^27 ticks in the block with
  // no progress, over a whole-block budget of 2^22 but within 2^22 a thread (HeCBench's bn
  // computes so, and was named a livelock).
  warpsim::LaunchOptions options{.grid = {1}, .block = {64}};
  options.spin_limit = std::uint64_t{1} << 22;
  std::atomic<std::uint64_t> total{0};
  const warpsim::LaunchResult result = warpsim::launch(options, [&] {
    std::uint64_t sum = 0;
    for (std::uint64_t i = 0; i < (std::uint64_t{1} << 21); ++i) {
      warpsim::device::spin_tick();
      sum += i;
    }
    total += sum;
  });
  INFO(result.message);
  CHECK(result.status == warpsim::LaunchStatus::completed);
  CHECK(total == 64 * ((std::uint64_t{1} << 21) * ((std::uint64_t{1} << 21) - 1) / 2));
}
