// Barrier 0 under its sm_30 names and the bool block votes work; named barriers (bar.sync id,
// count) let some warps meet while others run on, and their misuse stops the launch with a
// message; the warp votes without a mask do not compile (as with nvcc for
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

namespace {
std::vector<int> iota_warps(int from, int to, int (*value)(int)) {
  std::vector<int> v;
  for (int t = from; t < to; ++t) v.push_back(value(t));
  return v;
}
std::vector<int> slice(const std::vector<int>& v, int from, int to) {
  return {v.begin() + from, v.begin() + to};
}
std::vector<warpsim::TraceStep> steps_of(const warpsim::KernelFileResult& r, warpsim::Op op) {
  std::vector<warpsim::TraceStep> out;
  for (const warpsim::TraceStep& s : r.trace.steps)
    if (s.op == op) out.push_back(s);
  return out;
}
warpsim::KernelFileResult run_named(const std::string& file, const std::string& kernel) {
  return warpsim::test::run_shim_kernel(file, kernel, {warpsim::zeros<int>(96)}, 96);
}
}  // namespace

TEST_CASE("producer and consumer warps meet at barrier 1 (64 threads) while a third runs on") {
  const auto r = run_named("named_barriers.cu", "producer_consumer");
  REQUIRE_MESSAGE(r.status == warpsim::RunStatus::completed, r.message);
  const auto out = r.buffer<int>(0);
  CHECK(slice(out, 0, 32) == iota_warps(0, 32, [](int t) { return t * t + 1; }));
  CHECK(slice(out, 32, 64) == iota_warps(32, 64, [](int t) { return 1000 + (t - 32) * (t - 32) + 1; }));
  // Warp 2 spun until the consumer, released by barrier 1, raised the flag.
  CHECK(slice(out, 64, 96) == std::vector<int>(32, 2001));
  // Traced like __syncthreads: one step per warp, with the barrier's id and count per lane.
  const auto named = steps_of(r, warpsim::Op::barrier_sync);
  REQUIRE(named.size() == 2);
  for (const auto& s : named) {
    CAPTURE(s.warp);
    CHECK(s.warp < 2);
    CHECK(s.participants == warpsim::kFullMask);
    CHECK(s.arg[5] == 1);
    CHECK(s.width[5] == 64);
  }
  CHECK(r.trace.diagnostics.empty());
}

TEST_CASE("a warp's lanes may reach a named barrier at different lines (bar.sync is not .aligned)") {
  const auto r = run_named("named_barriers.cu", "diverged_arrival");
  REQUIRE_MESSAGE(r.status == warpsim::RunStatus::completed, r.message);
  const auto out = r.buffer<int>(0);
  CHECK(slice(out, 0, 64) == iota_warps(0, 64, [](int t) { return 10 * ((t ^ 32) + 7) + 1; }));
  CHECK(slice(out, 64, 96) == std::vector<int>(32, -1));
  const auto named = steps_of(r, warpsim::Op::barrier_sync);
  REQUIRE(named.size() == 2);
  CHECK(named[0].where[0].line != named[0].where[16].line);
}

TEST_CASE("__barrier_sync(id) without a count waits for the whole block") {
  const auto r = run_named("named_barriers.cu", "whole_block");
  REQUIRE_MESSAGE(r.status == warpsim::RunStatus::completed, r.message);
  CHECK(r.buffer<int>(0) == iota_warps(0, 96, [](int t) { return 3 * (95 - t) + 1; }));
  const auto named = steps_of(r, warpsim::Op::barrier_sync);
  REQUIRE(named.size() == 3);
  CHECK(named[0].arg[0] == 3);
  CHECK(named[0].width[0] == 0);
}

TEST_CASE("named barriers used wrongly stop the launch with a message, never hang") {
  struct Case {
    const char* kernel;
    warpsim::RunStatus status;
    const char* says;
  };
  using S = warpsim::RunStatus;
  for (const Case& c : {
           Case{"count_not_warps", S::kernel_exception,
                "named_barrier_misuse.cu:5: __barrier_sync_count(1, 48) in warp 0: the thread count "
                "must be a non-zero multiple of the warp size, 32"},
           Case{"id_out_of_range", S::kernel_exception,
                "__barrier_sync(16) in warp 0: barrier 16 does not exist: a block has barriers 0 to 15"},
           Case{"count_over_block", S::kernel_exception,
                "the block's 96 threads can never bring 128 to the barrier"},
           Case{"too_few_arrive", S::deadlock,
                "wait in __barrier_sync_count(1, 96) at named_barrier_misuse.cu:22, but only 2 of the "
                "3 warps barrier 1 needs arrived"},
           Case{"more_than_count", S::deadlock,
                "lanes 0-31 of warp 2 wait in __barrier_sync_count(1, 64) at named_barrier_misuse.cu:28"
                ", but only 1 of the 2 warps barrier 1 needs arrived, and no other warp can (the "
                "others have exited or wait elsewhere); barrier 1 completed 1 time already"},
           Case{"warp_split", S::deadlock,
                "in warp 0, lanes 0-15 wait in __barrier_sync(1) at named_barrier_misuse.cu:35 and "
                "lanes 16-31 wait in __barrier_sync(2) at named_barrier_misuse.cu:37"},
           Case{"counts_disagree", S::deadlock,
                "barrier 4 is waited at with two thread counts: warp 0 (lanes 0-31 wait in "
                "__barrier_sync_count(4, 64)"},
       }) {
    CAPTURE(c.kernel);
    const auto r = run_named("named_barrier_misuse.cu", c.kernel);
    CHECK(r.status == c.status);
    CHECK_MESSAGE(r.message.find(c.says) != std::string::npos, r.message);
    // The stop is among the diagnostics, saying the same (not some other deadlock).
    bool said = false;
    for (const auto& d : r.trace.diagnostics) said = said || d.message.find(c.says) != std::string::npos;
    CHECK(said);
  }
}

TEST_CASE("with memory checks on, a named barrier stops the launch rather than guess at races") {
  warpsim::test::use_shim_test_cache();
  warpsim::KernelFileRequest request;
  request.file = std::string(WARPSIM_SOURCE_DIR) + "/tests/shim/kernels/named_barriers.cu";
  request.kernel = "whole_block";
  request.grid = {1};
  request.block = {96};
  request.args = {warpsim::zeros<int>(96)};
  request.check_races = true;
  const auto r = warpsim::run_kernel_file(request);
  CHECK(r.status == warpsim::RunStatus::kernel_exception);
  CHECK_MESSAGE(r.message.find("__barrier_sync(3): the memory checks (--check) do not simulate "
                               "named barriers") != std::string::npos,
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

namespace {
warpsim::KernelFileResult run_async(const std::string& kernel, std::vector<warpsim::KernelArg> args,
                                    unsigned threads, bool check_races = false) {
  warpsim::test::use_shim_test_cache();
  warpsim::KernelFileRequest request;
  request.file = std::string(WARPSIM_SOURCE_DIR) + "/tests/shim/kernels/async_barriers.cu";
  request.kernel = kernel;
  request.grid = {1};
  request.block = {threads};
  request.args = std::move(args);
  request.check_races = check_races;
  return warpsim::run_kernel_file(request);
}
std::vector<int> reversed_iota(int n) {
  std::vector<int> v;
  for (int i = n - 1; i >= 0; --i) v.push_back(i);
  return v;
}
}  // namespace

TEST_CASE("cuda::barrier phases order the warps of a block: a waiting lane lets the others run") {
  const auto r = run_async("phases", {warpsim::zeros<int>(96)}, 96);
  REQUIRE_MESSAGE(r.status == warpsim::RunStatus::completed, r.message);
  CHECK(r.buffer<int>(0) ==
        iota_warps(0, 96, [](int t) { return 3 * ((t + 32) % 96) * 10 + 0 + 1 + 2; }));
  CHECK(r.trace.diagnostics.empty());
}

TEST_CASE("cuda::barrier phases with memory checks on: no race between the phases") {
  const auto r = run_async("phases", {warpsim::zeros<int>(96)}, 96, true);
  REQUIRE_MESSAGE(r.status == warpsim::RunStatus::completed, r.message);
  CHECK(r.trace.diagnostics.empty());
}

TEST_CASE("arrive_and_drop takes a thread out of the barrier's later phases") {
  const auto r = run_async("dropped", {warpsim::zeros<int>(64)}, 64);
  REQUIRE_MESSAGE(r.status == warpsim::RunStatus::completed, r.message);
  const auto out = r.buffer<int>(0);
  CHECK(slice(out, 0, 32) == std::vector<int>(32, 3));
  CHECK(slice(out, 32, 64) == std::vector<int>(32, 0));
}

TEST_CASE("a barrier phase or pipeline stage that can never complete stops as a named deadlock") {
  const auto barrier = run_async("never_completes", {warpsim::zeros<int>(32)}, 32);
  CHECK(barrier.status == warpsim::RunStatus::deadlock);
  CHECK_MESSAGE(barrier.message.find("wait in cuda::barrier::arrive_and_wait at "
                                     "async_barriers.cu:53 for a phase of the barrier that cannot "
                                     "complete: it awaits 1 more of its 33 arrivals") !=
                    std::string::npos,
                barrier.message);
  const auto stage = run_async("stage_never_committed", {warpsim::zeros<int>(64)}, 64);
  CHECK(stage.status == warpsim::RunStatus::deadlock);
  CHECK_MESSAGE(stage.message.find("of warp 0 wait in cuda::pipeline::consumer_wait at "
                                   "async_barriers.cu:116") != std::string::npos,
                stage.message);
  CHECK_MESSAGE(stage.message.find("32 have exited") != std::string::npos, stage.message);
}

TEST_CASE("cuda::memcpy_async with a barrier or a pipeline: the data is there after the wait") {
  for (const char* kernel : {"copy_with_barrier", "copy_with_pipeline"}) {
    CAPTURE(kernel);
    const auto r = run_async(kernel, {warpsim::iota<int>(64), warpsim::zeros<int>(64)}, 64);
    REQUIRE_MESSAGE(r.status == warpsim::RunStatus::completed, r.message);
    CHECK(r.buffer<int>(1) == reversed_iota(64));
  }
  // The copy is the calling lane's: with the checks on, the barrier orders it before the reads.
  const auto checked = run_async("copy_with_barrier",
                                 {warpsim::iota<int>(64), warpsim::zeros<int>(64)}, 64, true);
  REQUIRE_MESSAGE(checked.status == warpsim::RunStatus::completed, checked.message);
  CHECK(checked.trace.diagnostics.empty());
}

TEST_CASE("a block pipeline: a producer warp fills two stages ahead of a consumer warp") {
  const auto r = run_async("producer_consumer", {warpsim::iota<int>(6 * 32), warpsim::zeros<int>(32)},
                           64);
  REQUIRE_MESSAGE(r.status == warpsim::RunStatus::completed, r.message);
  CHECK(r.buffer<int>(1) == iota_warps(0, 32, [](int lane) {
          int sum = 0;
          for (int batch = 0; batch < 6; ++batch) sum += batch * 32 + (lane + 1) % 32;
          return sum;
        }));
  // With the checks on, a phase only the producers arrive in cannot be ordered by the checks'
  // block-wide clocks: the launch stops, saying so.
  const auto checked = run_async(
      "producer_consumer", {warpsim::iota<int>(6 * 32), warpsim::zeros<int>(32)}, 64, true);
  CHECK(checked.status == warpsim::RunStatus::kernel_exception);
  CHECK_MESSAGE(checked.message.find("cuda::pipeline::producer_commit: a phase completed with 32 "
                                     "of the block's 64 live threads arriving") != std::string::npos,
                checked.message);
}
