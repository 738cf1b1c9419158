// The sync family (warpsim/sync.hpp): the 8-lane examples of its contracts, and the cases around
// them that decide whether a misuse is named.
#include <doctest/doctest.h>

#include <array>
#include <vector>

#include "warpsim/sync.hpp"

using namespace warpsim;

namespace {

constexpr LaneMask kLanes0to7 = 0xff;
constexpr LaneMask kBeyond8 = ~kLanes0to7;  // an 8-lane warp: lanes 8-31 do not exist

}  // namespace

TEST_CASE("a warp-level call waits for the named lanes that have neither arrived nor exited") {
  constexpr LaneMask exited = kBeyond8 | 0xc0;  // lanes 6-7 exited
  CHECK(sync::awaited_lanes(0xff, exited, 0x0f) == 0x30);
  CHECK(sync::call_completes(Op::shfl_xor, 0xff, exited, 0x3f));
  CHECK_FALSE(sync::call_completes(Op::shfl_xor, 0xff, exited, 0x1f));
  SUBCASE("__activemask takes no mask and never waits") {
    CHECK(sync::call_completes(Op::activemask, 0, exited, 0x01));
  }
  SUBCASE("lanes that met with different masks complete once no lane any of them names is missing") {
    CHECK(sync::mismatched_call_completes(0x0f | 0xff, kBeyond8, 0xff));
    CHECK_FALSE(sync::mismatched_call_completes(0x0f | 0xff, kBeyond8, 0x7f));
  }
}

TEST_CASE("named lanes that took no part and have exited are the ones rule 2 may excuse") {
  CHECK(sync::named_absent_exited(0xff, kBeyond8 | 0xf0, 0x0f) == 0xf0);
  CHECK(sync::named_absent_exited(0x0f, kBeyond8 | 0xf0, 0x0f) == 0);  // not named
  CHECK(sync::named_absent_exited(0xff, kBeyond8, 0x0f) == 0);         // not exited: still awaited
}

TEST_CASE("named lanes exited later: read from the call's place in the source") {
  constexpr LaneMask absent = 0xf0;  // lanes 4-7 named, exited, never called
  struct Row {
    const char* name;
    LaneMask last_call_in_loop;
    sync::CallShape shape;
    LaneMask left_loop, skipped;
  };
  const std::array<Row, 8> rows{{
      {"if (lane < 4) v = __shfl_sync(0xff, ...): they went past it", 0,
       {.known = true, .in_branch = true}, 0, 0xf0},
      {"if (lane >= 4) return; v = __shfl_sync(0xff, ...): they returned before it", 0,
       {.known = true}, 0, 0},
      {"a return before the branch may be where they left", 0,
       {.known = true, .in_branch = true, .return_before = true}, 0, 0},
      {"a loop whose trip count varies: lanes 4-7 called in it, then left it", 0xf0,
       {.known = true, .loop_first_line = 3, .loop_last_line = 6}, 0xf0, 0},
      {"the loop has a return of its own: they may have left the kernel through it", 0xf0,
       {.known = true, .return_in_loop = true, .loop_first_line = 3, .loop_last_line = 6}, 0, 0},
      {"lanes 4-5 left the loop, lanes 6-7 never entered it (no branch: not named)", 0x30,
       {.known = true, .loop_first_line = 3, .loop_last_line = 6}, 0x30, 0},
      {"source unknown: only the loop evidence counts", 0xf0, {}, 0xf0, 0},
      {"source unknown, no loop evidence: nothing is named", 0, {}, 0, 0},
  }};
  for (const Row& row : rows) {
    SUBCASE(row.name) {
      const sync::ExitedLater later =
          sync::named_lanes_exited_later(absent, row.last_call_in_loop, row.shape);
      CHECK(later.left_loop == row.left_loop);
      CHECK(later.skipped == row.skipped);
      CHECK(later.lanes() == (row.left_loop | row.skipped));
    }
  }
}

TEST_CASE("masks that came straight from __activemask() are found lane by lane") {
  std::array<LaneMask, kWarpSize> masks{}, got{};
  masks.fill(0xff);
  got.fill(0xff);
  SUBCASE("lanes 0-7 got 0xff and pass it to __ballot_sync") {
    CHECK(sync::masks_from_activemask(0xff, 0xff, masks.data(), got.data(), true) == 0xff);
  }
  SUBCASE("lane 3 passed 0x0f instead; lane 5 made another call in between") {
    masks[3] = 0x0f;
    CHECK(sync::masks_from_activemask(0xff, 0xff & ~0x20u, masks.data(), got.data(), true) ==
          (0xff & ~0x08u & ~0x20u));
  }
  SUBCASE("a lane alone on its path gets only itself from any schedule") {
    masks[2] = got[2] = 0x04;
    CHECK(sync::masks_from_activemask(0x04, 0x04, masks.data(), got.data(), true) == 0);
    // ... unless the scheduler ran it alone on purpose (interleaved): then it is named.
    CHECK(sync::masks_from_activemask(0x04, 0x04, masks.data(), got.data(), false) == 0x04);
  }
}

TEST_CASE("a block barrier of two 8-thread warps completes once every live thread waits") {
  // Threads 0-7 in warp 0, 8-15 in warp 1 (lanes 0-7 of each); lanes 8-31 are no threads.
  std::array<std::uint64_t, kWarpSize> p0{}, p1{};
  const std::array<std::uint64_t, 8> pred0{1, 0, 1, 1, 0, 0, 1, 1};
  for (int lane = 0; lane < 8; ++lane) p0[lane] = pred0[lane];
  p1.fill(1);
  std::vector<sync::WarpAtBarrier> warps{{0xff, kBeyond8, kLanes0to7, p0.data()},
                                         {0x3f, kBeyond8 | 0xc0, kLanes0to7, p1.data()}};
  CHECK(sync::barrier_completes(warps));
  const sync::BarrierTally tally = sync::tally_barrier(warps);
  CHECK(tally.count == 5 + 6);
  CHECK_FALSE(tally.all);
  CHECK(tally.any);
  CHECK(tally.exited_threads == 2);
  CHECK(sync::barrier_result(Op::syncthreads_count, tally) == 11);
  CHECK(sync::barrier_result(Op::syncthreads_and, tally) == 0);
  CHECK(sync::barrier_result(Op::syncthreads_or, tally) == 1);
  CHECK(sync::barrier_result(Op::syncthreads, tally) == 0);

  SUBCASE("one thread still running holds it") {
    warps[1].waiting = 0x1f;  // lane 5 of warp 1 neither waits nor exited
    CHECK_FALSE(sync::barrier_completes(warps));
  }
  SUBCASE("nobody waiting is no barrier") {
    warps[0].waiting = 0;
    warps[0].exited = kFullMask;
    warps[1].waiting = 0;
    warps[1].exited = kFullMask;
    CHECK_FALSE(sync::barrier_completes(warps));
  }
  SUBCASE("the example of the contract: 8 threads, lanes 6-7 exited") {
    const std::vector<sync::WarpAtBarrier> one{{0x3f, kBeyond8 | 0xc0, kLanes0to7, p0.data()}};
    const sync::BarrierTally t = sync::tally_barrier(one);
    CHECK(t.count == 3);
    CHECK_FALSE(t.all);
    CHECK(t.any);
    CHECK(t.exited_threads == 2);
  }
}

TEST_CASE("waiting lanes at another line or form of __syncthreads are divergent") {
  std::array<Op, kWarpSize> forms{};
  std::array<std::uint32_t, kWarpSize> lines{};
  forms.fill(Op::syncthreads);
  for (int lane = 0; lane < kWarpSize; ++lane) lines[lane] = lane < 4 ? 10u : 12u;
  CHECK(sync::lanes_elsewhere(0xffu, forms.data(), lines.data(), Op::syncthreads, 10u) == 0xf0);
  CHECK(sync::lanes_elsewhere(0x0fu, forms.data(), lines.data(), Op::syncthreads, 10u) == 0);
  forms[1] = Op::syncthreads_count;
  CHECK(sync::lanes_elsewhere(0x0fu, forms.data(), lines.data(), Op::syncthreads, 10u) == 0x02);
}

TEST_CASE("named barrier operands: ids 0-15, counts of whole warps the block can bring") {
  using M = sync::NamedBarrierMisuse;
  CHECK(sync::check_named_barrier(1, 64, true, 96) == M::none);
  CHECK(sync::check_named_barrier(15, 0, false, 32) == M::none);  // no count: the whole block
  CHECK(sync::check_named_barrier(16, 0, false, 96) == M::id_out_of_range);
  CHECK(sync::check_named_barrier(1, 48, true, 96) == M::count_not_warps);
  CHECK(sync::check_named_barrier(1, 0, true, 96) == M::count_not_warps);
  CHECK(sync::check_named_barrier(1, 128, true, 96) == M::count_over_block);
  CHECK(sync::check_named_barrier(1, 96, true, 96) == M::none);
}
