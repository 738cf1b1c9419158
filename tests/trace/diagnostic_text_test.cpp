// The wording of diagnostics (warpsim/diagnostic_text.hpp): the exact text of representative
// messages, and how a repeated diagnostic widens its lanes.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "warpsim/diagnostic_text.hpp"

using namespace warpsim;

namespace {

const std::vector<std::string> kFiles{"/home/student/kernels/dot.cu", "reduce.cuh"};
constexpr SourceLine kLine12{0, 12};
constexpr SourceLine kLine15{0, 15};

std::string message(const DiagnosticFacts& facts) { return diagnostic_message(facts, kFiles); }

}  // namespace

TEST_CASE("names: CUDA spellings, lanes as ranges, sites as file:line") {
  CHECK(cuda_name(Op::shfl_xor) == "__shfl_xor_sync");
  CHECK(cuda_name(Op::activemask) == "__activemask");
  CHECK(cuda_name(Op::syncthreads_count) == "__syncthreads_count");
  CHECK(lanes_text(0) == "no lane");
  CHECK(lanes_text(0x20) == "lane 5");
  CHECK(lanes_text(0x0010ffff) == "lanes 0-15,20");
  CHECK(site_text(kLine12, kFiles) == "dot.cu:12");
  CHECK(site_text({1, 3}, kFiles) == "reduce.cuh:3");
  CHECK(site_text({7, 3}, kFiles) == "?:3");
}

TEST_CASE("a named lane that went past a call and exited later") {
  const facts::NamedLaneExitedLater f{Op::shfl_xor, 0xffff0000, 0x0000ffff, kFullMask, false};
  CHECK(kind_of(f) == DiagnosticKind::named_lane_exited_later);
  CHECK(lanes_of(f) == 0xffff0000);
  CHECK(message(f) ==
        "lanes 16-31 are named in the mask 0xffffffff of __shfl_xor_sync but had not exited when "
        "lanes 0-15 made the call: they went past it (it is in a branch they did not take) and "
        "exited later. Undefined in CUDA: every named lane that has not exited must make the "
        "call; an H100 completes it only because they exit afterwards. Name only the lanes that "
        "take this path (a __ballot_sync before the branch)");
}

TEST_CASE("a named lane that left a loop and exited later") {
  const facts::NamedLaneExitedLater f{Op::shfl_down, 0x80, 0x7f, 0xff, true};
  CHECK(message(f) ==
        "lane 7 is named in the mask 0x000000ff of __shfl_down_sync but had not exited when "
        "lanes 0-6 made the call: it had left the loop the call is in (its last call was in it) "
        "and exited later. Undefined in CUDA: every named lane that has not exited must make the "
        "call; an H100 completes it only because they exit afterwards. Give every lane the same "
        "trip count, or name only the lanes still in the loop (a __ballot_sync of the loop "
        "condition)");
}

TEST_CASE("a mask that __activemask() returned") {
  const facts::ActivemaskAsMask f{Op::ballot, 0xffffffff, 0xffffffff, {0, 11}};
  CHECK(kind_of(f) == DiagnosticKind::activemask_as_mask);
  CHECK(message(f) ==
        "lanes 0-31 passed __ballot_sync as their mask what __activemask() at dot.cu:11 returned "
        "(lane 0 got 0xffffffff): that names the lanes that happened to run together there, not "
        "the lanes that will make this call; under independent thread scheduling that set can "
        "differ (--policy interleaved shows it). Pass the lanes meant to take part (0xffffffff "
        "in converged code, a __ballot_sync of the condition before a branch), or cooperative "
        "groups' coalesced_threads() where any subset will do");
}

TEST_CASE("the misuse found in completed steps") {
  CHECK(message(facts::CallerNotInMask{Op::shfl_down, 0xffff0000, 0x0000ffff}) ==
        "lanes 16-31 called __shfl_down_sync with mask 0x0000ffff, which does not name them: "
        "undefined in CUDA (on an sm_90 GPU converged lanes take part anyway where the compiler can "
        "tell the mask is one value in every lane, a constant or a kernel argument; where it "
        "cannot, as for a mask computed from the lane index, the kernel stops with an illegal "
        "instruction)");
  CHECK(message(facts::CallerNotInMask{Op::ballot, 0x1, 0x2}) ==
        "lane 0 called __ballot_sync with mask 0x00000002, which does not name it: "
        "undefined in CUDA (on an sm_90 GPU converged lanes take part anyway where the compiler can "
        "tell the mask is one value in every lane, a constant or a kernel argument; where it "
        "cannot, as for a mask computed from the lane index, the kernel stops with an illegal "
        "instruction)");
  CHECK(message(facts::MaskMismatch{Op::shfl_idx, kFullMask, 0, 16, 0x0000ffff, kFullMask}) ==
        "lanes 0-31 met in one __shfl_sync with different masks (lane 0 passed 0x0000ffff, lane "
        "16 0xffffffff): CUDA requires one mask; simulated as one call over the lanes that "
        "arrived, as an H100 runs it");
  const facts::SplitCallSites split{Op::shfl_xor, 0xff, {0, 19}, 0xffffff00, {0, 22}, false};
  CHECK(lanes_of(split) == kFullMask);
  CHECK(message(split) ==
        "lanes 0-7 at dot.cu:19 and lanes 8-31 at dot.cu:22 met in one __shfl_xor_sync: Volta "
        "and later GPUs combine calls from different lines, so it completes, but each group "
        "passed its own line's value, at its own place in the algorithm: check that these lanes "
        "were meant to meet here");
  CHECK(message(facts::UndefinedSource{Op::shfl_down, 0x1fff, 0, 16,
                                       facts::UndefinedSource::Why::exited}) ==
        "__shfl_down_sync: lanes 0-12 read a lane that has exited (e.g. lane 0 read lane 16); "
        "the result is undefined (an H100 returns 0 for an absent lane)");
}

TEST_CASE("block barriers") {
  CHECK(message(facts::BarrierSplit{kFullMask, Op::syncthreads, {0, 10}, Op::syncthreads_count,
                                    {0, 14}}) ==
        "threads of the block reached this barrier from different lines or forms (__syncthreads "
        "at dot.cu:10, __syncthreads_count at dot.cu:14): divergent code; CUDA requires every "
        "thread to reach the same __syncthreads");
  CHECK(message(facts::BarrierAfterExit{kFullMask, Op::syncthreads, 84}) ==
        "84 threads of the block exited before this __syncthreads; hardware releases the barrier "
        "without them, but CUDA leaves this undefined");
  CHECK(message(facts::BarrierAfterExit{kFullMask, Op::syncthreads_or, 1}) ==
        "1 thread of the block exited before this __syncthreads_or; hardware releases the "
        "barrier without them, but CUDA leaves this undefined");
}

TEST_CASE("deadlocks name the waiting lanes, the missing ones and where they are") {
  facts::Deadlock d;
  d.warp = 0;
  d.waiting = 0x0000ffff;
  d.op = Op::shfl_up;
  d.where = {0, 35};
  d.mask = kFullMask;
  d.missing = 0xffff0000;
  d.missing_are = facts::Deadlock::MissingAre::at_other_op;
  d.their_op = Op::shfl_down;
  d.elsewhere = {0, 37};
  CHECK(lanes_of(d) == 0xffff0000);
  CHECK(message(d) ==
        "warp 0 lanes 0-15 wait in __shfl_up_sync at dot.cu:35 with mask 0xffffffff, but lanes "
        "16-31 named in it wait in __shfl_down_sync at dot.cu:37 (different operations never "
        "meet: hardware hangs)");
  d.missing_are = facts::Deadlock::MissingAre::at_barrier;
  d.their_op = Op::syncthreads;
  CHECK(message(d).ends_with("lanes 16-31 named in it wait in __syncthreads at dot.cu:37"));
  CHECK(deadlock_stop_message(3, "x") == "deadlock in block 3: x");
  CHECK(message(facts::MissingLane{Op::shfl_up, 0xffff0000, {0, 35}, true, Op::shfl_down,
                                   {0, 37}}) ==
        "lanes 16-31, named in the mask of __shfl_up_sync at dot.cu:35, never arrive: they wait "
        "in __shfl_down_sync at dot.cu:37");
}

TEST_CASE("stop messages") {
  CHECK(step_budget_message(1000, 2, 1, "dot.cu:9") ==
        "step budget of 1000 warp-level operations exceeded (a runaway loop?) in block 2 warp 1 "
        "at dot.cu:9");
  CHECK(kernel_exception_message("lane 5 gave up") == "kernel code threw: lane 5 gave up");
  CHECK(kernel_exception_message(nullptr) == "kernel code threw a non-standard exception");
  // The time limit: warps in a row whose same lanes loop at one line are said once.
  const std::vector<LivelockSpinner> spinners{{0, kFullMask, {0, 8}}, {1, kFullMask, {0, 8}},
                                              {2, kFullMask, {0, 8}}, {3, 0x1, {0, 12}},
                                              {5, 0x3, {}}};
  CHECK(time_limit_stop_message(4, spinners, kFiles) ==
        "the time limit passed while block 4 ran: the launch was stopped there, with what it had "
        "found so far; lanes 0-31 of warps 0-2 were looping at dot.cu:8, lane 0 of warp 3 was "
        "looping at dot.cu:12, lanes 0-1 of warp 5 were looping");
  CHECK(time_limit_stop_message(0, {}, kFiles) ==
        "the time limit passed while block 0 ran: the launch was stopped there, with what it had "
        "found so far");
}

TEST_CASE("a repeated diagnostic takes the union of the lanes of every occurrence") {
  DiagnosticFacts kept = facts::NamedLaneExitedLater{Op::shfl_xor, 0x00ff0000, 0xffff, kFullMask,
                                                     false};
  SUBCASE("new lanes widen it, and the message names them") {
    CHECK(merge_facts(kept, facts::NamedLaneExitedLater{Op::shfl_xor, 0xff000000, 0xffff,
                                                        kFullMask, false}));
    CHECK(lanes_of(kept) == 0xffff0000);
    CHECK(message(kept).starts_with("lanes 16-31 are named"));
  }
  SUBCASE("the same lanes again change nothing") {
    CHECK_FALSE(merge_facts(kept, facts::NamedLaneExitedLater{Op::shfl_xor, 0x00ff0000, 0xffff,
                                                              kFullMask, false}));
    CHECK(lanes_of(kept) == 0x00ff0000);
  }
  SUBCASE("other callers count too") {
    CHECK(merge_facts(kept, facts::NamedLaneExitedLater{Op::shfl_xor, 0x00ff0000, 0x1ffff,
                                                        kFullMask, false}));
    CHECK(message(kept).find("when lanes 0-16 made the call") != std::string::npos);
  }
  SUBCASE("split call sites widen both sides") {
    DiagnosticFacts split = facts::SplitCallSites{Op::shfl_xor, 0x1, kLine12, 0x2, kLine15, false};
    CHECK(merge_facts(split, facts::SplitCallSites{Op::shfl_xor, 0x4, kLine12, 0x8, kLine15, false}));
    CHECK(lanes_of(split) == 0xf);
  }
  SUBCASE("facts of another kind leave it as it is") {
    CHECK_FALSE(merge_facts(kept, facts::CallerNotInMask{Op::shfl_xor, 0xff, 0}));
    CHECK(lanes_of(kept) == 0x00ff0000);
  }
}
