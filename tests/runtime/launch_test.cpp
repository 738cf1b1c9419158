#include <doctest/doctest.h>

#include "support/launch_helpers.hpp"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <stdexcept>
#include <thread>
#include <vector>

#include "warpsim/cuda_shim.hpp"
#include "warpsim/launch.hpp"
#include "kernels.cuh"

using warpsim::DiagnosticKind;
using warpsim::LaunchOptions;
using warpsim::LaunchStatus;

namespace {

using warpsim::test::has_diagnostic;
using warpsim::test::shape;



}  // namespace

TEST_CASE("a butterfly reduction gives every lane the warp's sum in five traced steps") {
  std::vector<float> in(32), out(32);
  std::iota(in.begin(), in.end(), 1.0f);
  const auto r = warpsim::launch(shape(1, 32), [&] { butterfly_sum(in.data(), out.data()); });
  REQUIRE(r.status == LaunchStatus::completed);
  for (int lane = 0; lane < 32; ++lane) {
    CAPTURE(lane);
    CHECK(out[lane] == 528.0f);
  }
  REQUIRE(r.trace.steps.size() == 5);
  CHECK(r.steps == 5);
  const auto& first = r.trace.steps[0];
  CHECK(first.op == warpsim::Op::shfl_xor);
  CHECK(first.participants == 0xffffffffu);
  CHECK(first.arg[3] == 16);
  CHECK(first.src_lane[3] == 19);
  CHECK(first.where[0].line == 6);
  CHECK(r.trace.files.at(first.where[0].file).find("kernels.cuh") != std::string::npos);
  CHECK(r.trace.diagnostics.empty());
}

TEST_CASE("lanes that exited are ignored by a full-mask ballot") {
  std::vector<unsigned> out(32, 0xdeadbeef);
  const auto r = warpsim::launch(shape(1, 32), [&] { tail_exit_ballot(20, out.data()); });
  REQUIRE(r.status == LaunchStatus::completed);
  CHECK(out[0] == 0x00055555u);
  CHECK(out[19] == 0x00055555u);
  CHECK(out[20] == 0xdeadbeefu);
  CHECK(r.trace.diagnostics.empty());
}

TEST_CASE("converged and early-exit code stays clean under the interleaved policy too") {
  for (const std::uint64_t seed : {1u, 5u, 9u}) {
    CAPTURE(seed);
    auto options = shape(1, 32);
    options.policy = warpsim::ConvergencePolicy::interleaved;
    options.seed = seed;
    std::vector<float> in(32), sums(32);
    std::iota(in.begin(), in.end(), 1.0f);
    const auto r = warpsim::launch(options, [&] { butterfly_sum(in.data(), sums.data()); });
    CHECK(sums[31] == 528.0f);
    CHECK(r.trace.diagnostics.empty());
    std::vector<unsigned> out(32, 0xdeadbeef);
    const auto tail = warpsim::launch(options, [&] { tail_exit_ballot(20, out.data()); });
    CHECK(out[0] == 0x00055555u);
    CHECK(tail.trace.diagnostics.empty());
  }
}

TEST_CASE("two arms with disjoint masks complete as two separate ballots") {
  std::vector<unsigned> out(32);
  const auto r = warpsim::launch(shape(1, 32), [&] { two_arm_ballot(out.data()); });
  REQUIRE(r.status == LaunchStatus::completed);
  CHECK(out[1] == 0xaaaaa800u);
  CHECK(out[0] == 0x155u);
  CHECK(r.trace.steps.size() == 2);
}

TEST_CASE("__activemask names the lanes on the same path under maximal convergence") {
  std::vector<unsigned> out(32);
  const auto r = warpsim::launch(shape(1, 32), [&] { activemask_arms(out.data()); });
  REQUIRE(r.status == LaunchStatus::completed);
  CHECK(out[0] == 0x3ffu);
  CHECK(out[31] == 0xfffffc00u);
}

TEST_CASE("__activemask names only the caller under the interleaved policy") {
  std::vector<unsigned> out(32);
  auto options = shape(1, 32);
  options.policy = warpsim::ConvergencePolicy::interleaved;
  const auto r = warpsim::launch(options, [&] { activemask_arms(out.data()); });
  REQUIRE(r.status == LaunchStatus::completed);
  for (int lane = 0; lane < 32; ++lane) {
    CAPTURE(lane);
    CHECK(out[lane] == (1u << lane));
  }
}

TEST_CASE("different shuffles under one full mask stop with a deadlock naming lanes and lines") {
  std::vector<int> out(32);
  const auto r = warpsim::launch(shape(1, 32), [&] { divergent_different_ops(out.data()); });
  CHECK(r.status == LaunchStatus::deadlock);
  CHECK(r.message.find("lanes 0-15") != std::string::npos);
  CHECK(r.message.find("16-31") != std::string::npos);
  CHECK(r.message.find("kernels.cuh:35") != std::string::npos);
  CHECK(has_diagnostic(r.trace, DiagnosticKind::deadlock));
}

TEST_CASE("a block reduction over several warps and blocks meets at __syncthreads") {
  std::vector<int> in(4 * 256, 1), out(1, 0);
  const auto r = warpsim::launch(shape(4, 256), [&] { block_sum(in.data(), out.data()); });
  REQUIRE(r.status == LaunchStatus::completed);
  CHECK(out[0] == 1024);
  CHECK(r.trace.diagnostics.empty());
}

TEST_CASE("an order seed runs blocks and warps in seeded orders; without one they run in index order") {
  const auto tickets = [](std::uint64_t order_seed) {
    std::vector<int> counter(2, 0), blocks(6), warps(6 * 4 * 2);
    LaunchOptions options = shape(6, 128);
    options.order_seed = order_seed;
    const auto r = warpsim::launch(options, [&] { take_tickets(counter.data(), blocks.data(), warps.data()); });
    REQUIRE(r.status == LaunchStatus::completed);
    CHECK(r.trace.diagnostics.empty());
    std::vector<int> sorted = blocks;
    std::sort(sorted.begin(), sorted.end());
    CHECK(sorted == std::vector<int>{0, 1, 2, 3, 4, 5});  // every block once
    blocks.insert(blocks.end(), warps.begin(), warps.end());
    return blocks;
  };
  const std::vector<int> in_order = tickets(0);
  CHECK(std::vector<int>(in_order.begin(), in_order.begin() + 6) == std::vector<int>{0, 1, 2, 3, 4, 5});
  CHECK(in_order[6] == 0);  // block 0's warp 0 runs first, and on after its shuffle
  CHECK(in_order[7] == 1);
  CHECK(tickets(7) == tickets(7));  // the same seed, the same order
  int differ = 0;
  for (std::uint64_t seed = 1; seed <= 8; ++seed) differ += tickets(seed) != in_order ? 1 : 0;
  CHECK(differ >= 7);
  // Warps interleave: another warp takes a ticket between some warp's two.
  bool interleaved = false;
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    const std::vector<int> t = tickets(seed);
    for (std::size_t w = 0; w < 24; ++w) interleaved = interleaved || t[6 + 2 * w + 1] != t[6 + 2 * w] + 1;
  }
  CHECK(interleaved);
  // The block reduction comes out the same in every order.
  for (std::uint64_t seed = 0; seed <= 4; ++seed) {
    std::vector<int> in(4 * 256, 1), out(1, 0);
    LaunchOptions options = shape(4, 256);
    options.order_seed = seed;
    options.policy = seed % 2 == 0 ? warpsim::ConvergencePolicy::maximal : warpsim::ConvergencePolicy::interleaved;
    const auto r = warpsim::launch(options, [&] { block_sum(in.data(), out.data()); });
    REQUIRE(r.status == LaunchStatus::completed);
    CHECK(out[0] == 1024);
    CHECK(r.trace.diagnostics.empty());
  }
}

TEST_CASE("__syncthreads_count counts the block's true predicates") {
  std::vector<int> in(64), out(1);
  for (int i = 0; i < 64; ++i) in[i] = i % 3 == 0 ? 1 : -1;
  const auto r = warpsim::launch(shape(1, 64), [&] { count_positive(in.data(), out.data()); });
  REQUIRE(r.status == LaunchStatus::completed);
  CHECK(out[0] == 22);
}

TEST_CASE("device printf is captured per lane") {
  const auto r = warpsim::launch(shape(2, 32), [&] { print_lanes(); });
  REQUIRE(r.trace.printf_records.size() == 4);
  CHECK(r.trace.printf_records[0].text == "lane 0 of block 0\n");
  CHECK(r.trace.printf_records[3].block == 1);
  CHECK(r.trace.printf_records[3].thread == 1);
}

TEST_CASE("a shuffle reading an exited lane gives 0, flagged undefined") {
  std::vector<int> out(32, -1);
  const auto r = warpsim::launch(shape(1, 32), [&] { shuffle_from_exited(out.data()); });
  REQUIRE(r.status == LaunchStatus::completed);
  CHECK(out[0] == 0);
  REQUIRE(r.trace.steps.size() == 1);
  CHECK(r.trace.steps[0].undefined == 0x000fffffu);
  CHECK(has_diagnostic(r.trace, DiagnosticKind::undefined_source));
}

TEST_CASE("a runaway loop of warp calls stops at the step budget") {
  std::vector<int> out(2, 0);
  auto options = shape(1, 32);
  options.max_steps = 1000;
  const auto r = warpsim::launch(options, [&] { spin_forever(out.data()); });
  CHECK(r.status == LaunchStatus::step_budget_exceeded);
  CHECK(r.message.find("1000") != std::string::npos);
}

TEST_CASE("at the deadline a running launch stops with status time_limit; after it none starts") {
  std::vector<int> out(2, 0);
  auto options = shape(1, 32);
  options.max_steps = std::uint64_t{1} << 40;  // the deadline ends it, not the budget
  options.record_steps = false;
  options.deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(200);
  const auto started = std::chrono::steady_clock::now();
  const auto running = warpsim::launch(options, [&] { spin_forever(out.data()); });
  CHECK(running.status == LaunchStatus::time_limit);
  CHECK(running.message.rfind("the time limit passed while block 0 ran: the launch was stopped "
                              "there, with what it had found so far",
                              0) == 0);
  CHECK(running.steps > 0);
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(60));

  options.deadline = std::chrono::steady_clock::now();  // already passed: no block runs
  int ran = 0;
  const auto late = warpsim::launch(options, [&] { ++ran; });
  CHECK(late.status == LaunchStatus::time_limit);
  CHECK(late.steps == 0);
  CHECK(ran == 0);
}

TEST_CASE("__syncthreads reached at different lines is diagnosed and still completes") {
  std::vector<int> out(64, 0);
  const auto r = warpsim::launch(shape(1, 64), [&] { syncthreads_in_branch(out.data()); });
  REQUIRE(r.status == LaunchStatus::completed);
  CHECK(out[63] == 1);
  CHECK(has_diagnostic(r.trace, DiagnosticKind::divergent_syncthreads));
}

TEST_CASE("a launch asking for more dynamic shared memory than the simulator has is refused") {
  auto options = shape(1, 32);
  options.dynamic_shared_bytes = warpsim::device::kDynamicSharedCapacity + 1;
  CHECK_THROWS_WITH_AS(warpsim::launch(options, [] {}),
                       doctest::Contains("dynamic shared memory"), std::invalid_argument);
  options.dynamic_shared_bytes = warpsim::device::kDynamicSharedCapacity;
  CHECK(warpsim::launch(options, [] {}).status == LaunchStatus::completed);
}

TEST_CASE("launches on several OS threads at once run independently") {
  // Each thread has its own fibers, stacks and trace; the trace memory pool is shared.
  constexpr int kThreads = 4, kLaunches = 50;
  std::vector<int> wrong(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &wrong] {
      std::vector<float> in(32), out(32);
      std::iota(in.begin(), in.end(), static_cast<float>(t));
      const float sum = 32.0f * static_cast<float>(t) + 496.0f;
      for (int k = 0; k < kLaunches; ++k) {
        const auto r = warpsim::launch(shape(1, 32), [&] { butterfly_sum(in.data(), out.data()); });
        const bool right = r.status == LaunchStatus::completed && r.trace.steps.size() == 5 &&
                           out[0] == sum && out[31] == sum;
        wrong[static_cast<std::size_t>(t)] += right ? 0 : 1;
      }
    });
  }
  for (std::thread& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) {
    CAPTURE(t);
    CHECK(wrong[static_cast<std::size_t>(t)] == 0);
  }
}

namespace {

int g_live_guards = 0;  // RAII objects alive in lanes' frames

struct LaneGuard {
  LaneGuard() { ++g_live_guards; }
  LaneGuard(const LaneGuard&) = delete;
  LaneGuard& operator=(const LaneGuard&) = delete;
  ~LaneGuard() { --g_live_guards; }
};

__global__ void throw_in_one_lane(int* out) {
  LaneGuard guard;
  int v = static_cast<int>(threadIdx.x);
  v += __shfl_xor_sync(0xffffffff, v, 1);
  if (threadIdx.x == 5) throw std::runtime_error("lane 5 gave up");
  v += __shfl_xor_sync(0xffffffff, v, 2);  // the other lanes wait here for lane 5, forever
  out[threadIdx.x] = v;
}

}  // namespace

TEST_CASE("a lane that throws stops the launch; the waiting lanes' frames are unwound") {
  std::vector<int> out(64, -1);
  g_live_guards = 0;
  const auto r = warpsim::launch(shape(1, 64), [&] { throw_in_one_lane(out.data()); });
  CHECK(r.status == LaunchStatus::kernel_exception);
  CHECK(r.message.find("lane 5 gave up") != std::string::npos);
  CHECK(g_live_guards == 0);  // every lane's LaneGuard was destroyed, waiting or not
  CHECK(out[0] == -1);
  // The simulator is usable again afterwards.
  std::vector<float> in(32, 1.0f), sums(32);
  const auto again = warpsim::launch(shape(1, 32), [&] { butterfly_sum(in.data(), sums.data()); });
  CHECK(again.status == LaunchStatus::completed);
  CHECK(sums[7] == 32.0f);
}
