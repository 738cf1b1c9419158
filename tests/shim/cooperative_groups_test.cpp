#include <doctest/doctest.h>

#include "support/launch_helpers.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <fstream>
#include <numeric>
#include <string>
#include <vector>

#include "cg_kernels.cuh"
#include "warpsim/cuda_shim.hpp"
#include "warpsim/launch.hpp"

using warpsim::DiagnosticKind;
using warpsim::LaunchOptions;
using warpsim::LaunchResult;
using warpsim::LaunchStatus;
using warpsim::Op;
using warpsim::TraceStep;

namespace {

using warpsim::test::has_diagnostic;
using warpsim::test::shape;


// Line of the "// @marker" comment in cg_kernels.cuh, so call-site checks survive edits.
unsigned line_of(const std::string& marker) {
  std::ifstream file(std::string(WARPSIM_SOURCE_DIR) + "/tests/shim/cg_kernels.cuh");
  std::string text;
  for (unsigned line = 1; std::getline(file, text); ++line) {
    if (text.find("// @" + marker) != std::string::npos) return line;
  }
  FAIL("no marker @" << marker << " in cg_kernels.cuh");
  return 0;
}

// Every lane of `step` was traced at `line` of cg_kernels.cuh.
void check_site(const LaunchResult& r, const TraceStep& step, unsigned line) {
  for (int lane = 0; lane < 32; ++lane) {
    if (((step.participants >> lane) & 1u) == 0) continue;
    CAPTURE(lane);
    CHECK(step.where[lane].line == line);
    CHECK(r.trace.files.at(step.where[lane].file).find("cg_kernels.cuh") != std::string::npos);
  }
}

std::vector<TraceStep> steps_of(const LaunchResult& r, Op op) {
  std::vector<TraceStep> found;
  for (const TraceStep& s : r.trace.steps) {
    if (s.op == op) found.push_back(s);
  }
  return found;
}


}  // namespace

TEST_CASE("coalesced group of the even lanes: spec case 44") {
  std::vector<int> shfl20(32, -1), up1(32, -1), down1(32, -1);
  std::vector<unsigned> ballot4(32), rank(32);
  const auto r = warpsim::launch(shape(1, 32), [&] {
    coalesced_even_lanes(shfl20.data(), up1.data(), down1.data(), ballot4.data(), rank.data());
  });
  REQUIRE(r.status == LaunchStatus::completed);
  for (int lane = 0; lane < 32; lane += 2) {
    CAPTURE(lane);
    CHECK(rank[lane] == static_cast<unsigned>(lane / 2));
    CHECK(shfl20[lane] == 0);  // rank 20 >= size 16: reads lane 31, which is not a member
    CHECK(up1[lane] == (lane == 0 ? 100 : 100 + lane - 2));  // rank 0 keeps its own value
    CHECK(down1[lane] == (lane == 30 ? 130 : 100 + lane + 2));
    CHECK(ballot4[lane] == 0x5555u);  // compacted to rank order
  }
  CHECK(shfl20[1] == -1);

  // activemask, then shfl, shfl(up), shfl(down), ballot: one step each over the even lanes.
  REQUIRE(r.trace.steps.size() == 5);
  CHECK(r.trace.steps[0].op == Op::activemask);
  const TraceStep& shfl = r.trace.steps[1];
  CHECK(shfl.op == Op::shfl_idx);
  CHECK(shfl.mask == 0x55555555u);
  CHECK(shfl.participants == 0x55555555u);
  CHECK(shfl.src_lane[4] == 31);
  CHECK(shfl.undefined == 0x55555555u);
  check_site(r, shfl, line_of("coalesced_shfl"));
  CHECK(r.trace.steps[2].src_lane[0] == 0);  // shfl_up at rank 0 reads its own lane
  CHECK(r.trace.steps[2].src_lane[6] == 4);
  CHECK(r.trace.steps[2].undefined == 0u);
  CHECK(r.trace.steps[4].op == Op::ballot);
  CHECK(has_diagnostic(r.trace, DiagnosticKind::undefined_source));
}

TEST_CASE("tiled_partition<8>: spec case 45") {
  std::vector<int> idx9(32), idx_minus1(32), xor8(32, -1);
  std::vector<unsigned> ballot_odd(32);
  const auto r = warpsim::launch(shape(1, 32), [&] {
    tile8_edges(idx9.data(), idx_minus1.data(), ballot_odd.data(), xor8.data());
  });
  REQUIRE(r.status == LaunchStatus::completed);
  for (int lane = 0; lane < 32; ++lane) {
    CAPTURE(lane);
    const int base = lane & ~7;
    CHECK(idx9[lane] == 100 + base + 1);        // 9 mod 8 = rank 1
    CHECK(idx_minus1[lane] == 100 + base + 7);  // -1 mod 8 = rank 7
    CHECK(ballot_odd[lane] == 0xaau);           // tile-relative bits
    // Even tiles: lane ^ 8 lies above the tile, so each keeps its own value. Odd tiles: the
    // source is the tile below, outside the mask; on an H100 the lower tile's values arrive, but
    // in the simulator each tile's call completes as its own step, so the source did not take
    // part: the value is 0 and the result is flagged undefined.
    CHECK(xor8[lane] == ((lane / 8) % 2 == 0 ? 100 + lane : 0));
  }

  // Each tile's call is its own step, with the tile's mask and width 8.
  const auto shfl = steps_of(r, Op::shfl_idx);
  REQUIRE(shfl.size() == 8);
  for (unsigned t = 0; t < 4; ++t) {
    CAPTURE(t);
    CHECK(shfl[t].participants == 0xffu << (8 * t));
    CHECK(shfl[t].mask == 0xffu << (8 * t));
    CHECK(shfl[t].width[8 * t] == 8);
    CHECK(shfl[t].undefined == 0u);
    check_site(r, shfl[t], line_of("tile_shfl9"));
  }
  const auto xors = steps_of(r, Op::shfl_xor);
  REQUIRE(xors.size() == 4);
  for (unsigned t = 0; t < 4; ++t) {
    CAPTURE(t);
    CHECK(xors[t].participants == 0xffu << (8 * t));
    CHECK(xors[t].undefined == (t % 2 == 1 ? 0xffu << (8 * t) : 0u));
    check_site(r, xors[t], line_of("tile_xor8"));
  }
  CHECK(xors[1].src_lane[8] == 0);
  CHECK(xors[0].src_lane[0] == 0);  // out of range: reads itself
  CHECK(has_diagnostic(r.trace, DiagnosticKind::undefined_source));
}

TEST_CASE_TEMPLATE("cg::reduce gives every member of a tile of 16 the tile's sum", T, int, float) {
  std::vector<T> in(64), out(64);
  for (int i = 0; i < 64; ++i) in[i] = static_cast<T>(i % 7 - 2);
  const auto r = warpsim::launch(shape(1, 64), [&] { tile_sum<T, 16>(in.data(), out.data()); });
  REQUIRE(r.status == LaunchStatus::completed);
  for (int i = 0; i < 64; ++i) {
    CAPTURE(i);
    T expected = 0;
    for (int j = i & ~15; j < (i & ~15) + 16; ++j) expected += in[j];
    CHECK(out[i] == expected);
  }
  CHECK(r.trace.diagnostics.empty());
  const unsigned line = line_of("tile_reduce");
  for (const auto& step : r.trace.steps) check_site(r, step, line);
  if constexpr (std::is_same_v<T, int>) {
    // Integer plus on a tile of 16: one redux per tile (2 tiles per warp, 2 warps).
    REQUIRE(r.trace.steps.size() == 4);
    CHECK(r.trace.steps[0].op == Op::reduce_add);
    CHECK(r.trace.steps[0].participants == 0x0000ffffu);
    CHECK(r.trace.steps[1].participants == 0xffff0000u);
  } else {
    // Float: a butterfly of 4 shfl_xor steps per tile, lane masks 8, 4, 2, 1.
    REQUIRE(r.trace.steps.size() == 16);
    const TraceStep& first = r.trace.steps[0];
    CHECK(first.op == Op::shfl_xor);
    CHECK(first.type == warpsim::ValueType::f32);
    CHECK(first.arg[0] == 8);
    CHECK(first.width[0] == 16);
  }
}

TEST_CASE("cg::reduce with less/greater uses shuffles on tiles of 4 and redux on a warp") {
  std::vector<int> in(32), min4(32), max4(32), min32(32);
  std::vector<unsigned> or32(32);
  for (int i = 0; i < 32; ++i) in[i] = (i * 13) % 32 - 10;
  const auto r = warpsim::launch(shape(1, 32), [&] {
    tile_min_max(in.data(), min4.data(), max4.data(), min32.data(), or32.data());
  });
  REQUIRE(r.status == LaunchStatus::completed);
  for (int i = 0; i < 32; ++i) {
    CAPTURE(i);
    const auto quad = in.begin() + (i & ~3);
    CHECK(min4[i] == *std::min_element(quad, quad + 4));
    CHECK(max4[i] == *std::max_element(quad, quad + 4));
    CHECK(min32[i] == *std::min_element(in.begin(), in.end()));
    CHECK(or32[i] == 0xffffffffu);
  }
  // 8 tiles x 2 butterfly rounds, twice; then one reduce_min and one reduce_or for the warp.
  CHECK(steps_of(r, Op::shfl_xor).size() == 32);
  CHECK(steps_of(r, Op::reduce_min).size() == 1);
  CHECK(steps_of(r, Op::reduce_or).size() == 1);
  CHECK(r.trace.diagnostics.empty());
}

TEST_CASE("a block reduction meets at this_thread_block().sync()") {
  std::vector<int> in(3 * 128), out(3, 0);
  std::iota(in.begin(), in.end(), 1);
  const auto r = warpsim::launch(shape(3, 128), [&] { block_sum(in.data(), out.data()); });
  REQUIRE(r.status == LaunchStatus::completed);
  for (int b = 0; b < 3; ++b) {
    CAPTURE(b);
    CHECK(out[b] == std::accumulate(in.begin() + 128 * b, in.begin() + 128 * (b + 1), 0));
  }
  CHECK(r.trace.diagnostics.empty());
  const auto barriers = steps_of(r, Op::syncthreads);
  REQUIRE(!barriers.empty());
  check_site(r, barriers[0], line_of("block_sync"));
}

TEST_CASE("ranks, sizes and meta-group numbers of tiles") {
  std::vector<GroupNumbers> t16(64), t4(64), d8(64), self(64);
  const auto r = warpsim::launch(
      shape(1, 64), [&] { group_numbers(t16.data(), t4.data(), d8.data(), self.data()); });
  REQUIRE(r.status == LaunchStatus::completed);
  for (unsigned i = 0; i < 64; ++i) {
    CAPTURE(i);
    CHECK(t16[i].rank == i % 16);
    CHECK(t16[i].size == 16);
    CHECK(t16[i].meta_rank == i / 16);  // block rank / 16
    CHECK(t16[i].meta_size == 4);       // 64 / 16
    CHECK(t4[i].rank == i % 4);
    CHECK(t4[i].size == 4);
    CHECK(t4[i].meta_rank == (i % 16) / 4);  // rank in the parent tile / 4
    CHECK(t4[i].meta_size == 4);             // 16 / 4
    CHECK(d8[i].rank == i % 8);
    CHECK(d8[i].size == 8);
    CHECK(self[i].rank == 0);
    CHECK(self[i].size == 1);
    CHECK(self[i].meta_rank == 0);
    CHECK(self[i].meta_size == 1);
  }
  CHECK(r.trace.steps.empty());  // ranks and sizes are plain arithmetic, not warp operations
}

TEST_CASE("a dynamic tile of 32 in a 48-thread block has 16 members in its second warp") {
  std::vector<unsigned> size(48), rank(48);
  const auto r =
      warpsim::launch(shape(1, 48), [&] { partial_last_tile(size.data(), rank.data()); });
  REQUIRE(r.status == LaunchStatus::completed);
  CHECK(size[0] == 32);
  CHECK(size[47] == 16);
  CHECK(rank[47] == 15);
  const auto syncs = steps_of(r, Op::syncwarp);
  REQUIRE(syncs.size() == 2);
  CHECK(syncs[0].mask == 0xffffffffu);
  CHECK(syncs[1].mask == 0x0000ffffu);
  CHECK(r.trace.diagnostics.empty());
}

TEST_CASE("inclusive and exclusive scans over a tile and over a sparse coalesced group") {
  std::vector<int> in(32), incl8(32), excl8(32);
  std::vector<float> odd_incl(32), odd_excl_max(32), odd_sum(32);
  for (int i = 0; i < 32; ++i) in[i] = i % 8 + 1;
  const auto r = warpsim::launch(shape(1, 32), [&] {
    scans(in.data(), incl8.data(), excl8.data(), odd_incl.data(), odd_excl_max.data(),
          odd_sum.data());
  });
  REQUIRE(r.status == LaunchStatus::completed);
  const int incl[8] = {1, 3, 6, 10, 15, 21, 28, 36};
  for (int i = 0; i < 32; ++i) {
    CAPTURE(i);
    CHECK(incl8[i] == incl[i % 8]);
    CHECK(excl8[i] == incl[i % 8] - in[i]);
  }
  // Odd lanes hold 2, 4, 6, 8, 2, 4, ... (16 members).
  float running = 0.0f, running_max = 0.0f, total = 0.0f;
  for (int i = 1; i < 32; i += 2) total += static_cast<float>(in[i]);
  for (int i = 1; i < 32; i += 2) {
    CAPTURE(i);
    running += static_cast<float>(in[i]);
    CHECK(odd_incl[i] == running);
    CHECK(odd_excl_max[i] == running_max);  // rank 0 gets float{} = 0
    running_max = std::max(running_max, static_cast<float>(in[i]));
    CHECK(odd_sum[i] == total);
  }
  CHECK(r.trace.diagnostics.empty());
}

TEST_CASE("a struct is shuffled as 32-bit words, one traced step per word") {
  std::vector<Triple> out(32);
  const auto r = warpsim::launch(shape(1, 32), [&] { struct_shuffle(out.data()); });
  REQUIRE(r.status == LaunchStatus::completed);
  for (int lane = 0; lane < 32; ++lane) {
    CAPTURE(lane);
    const int src = lane % 4 == 3 ? lane : lane + 1;  // the top rank keeps its own
    CHECK(out[lane].a == src);
    CHECK(out[lane].b == 0.5f * static_cast<float>(src));
    CHECK(out[lane].c == -src);
  }
  // 8 tiles of 4, each with its own three word steps.
  REQUIRE(r.trace.steps.size() == 24);
  for (const auto& s : r.trace.steps) {
    CHECK(s.op == Op::shfl_down);
    CHECK(s.type == warpsim::ValueType::i32);
    CHECK(s.arg[std::countr_zero(s.participants)] == 1);
  }
  std::vector<TraceStep> tile0;
  for (const TraceStep& s : r.trace.steps) {
    if (s.participants == 0xfu) tile0.push_back(s);
  }
  REQUIRE(tile0.size() == 3);
  CHECK(tile0[0].width[0] == 4);
  CHECK(tile0[0].input[1] == 1u);                   // word 0: a
  CHECK(tile0[1].input[1] == 0x3f000000u);          // word 1: b = 0.5f
  CHECK((tile0[2].input[1] & 0xffffu) == 0xffffu);  // word 2: c = -1, then padding
}

TEST_CASE("match and vote results are relative to the tile") {
  std::vector<int> in(32), all_pred(32), any(32), all(32);
  std::vector<unsigned> match_any(32), match_all(32);
  for (int i = 0; i < 32; ++i) in[i] = i < 8 ? i / 2 : (i < 16 ? 7 : i % 5);
  const auto r = warpsim::launch(shape(1, 32), [&] {
    tile_match_vote(in.data(), match_any.data(), match_all.data(), all_pred.data(), any.data(),
                    all.data());
  });
  REQUIRE(r.status == LaunchStatus::completed);
  CHECK(match_any[0] == 0x03u);
  CHECK(match_any[5] == 0x30u);   // lanes 4 and 5 hold 2
  CHECK(match_any[17] == 0x42u);  // tile 2 holds 1,2,3,4,0,1,2,3: ranks 1 and 6 hold 2
  CHECK(match_all[0] == 0u);
  CHECK(all_pred[0] == 0);
  CHECK(match_all[9] == 0xffu);  // tile 1 all hold 7: every tile-relative bit
  CHECK(all_pred[9] == 1);
  CHECK(any[0] == 1);  // lanes 6,7 hold 3
  CHECK(any[8] == 0);  // tile 1 holds only 7s
  CHECK(all[31] == 1);
  for (const auto& s : r.trace.steps) {
    CAPTURE(s.participants);
    CHECK(s.mask == s.participants);  // one step per tile, each with its tile's mask
    CHECK(std::popcount(s.mask) == 8);
    CHECK(std::countr_zero(s.mask) % 8 == 0);
  }
}

TEST_CASE("labeled_partition and binary_partition group lanes by label") {
  std::vector<unsigned> size(32), rank(32), meta_rank(32), meta_size(32), odd_size(32);
  const auto r = warpsim::launch(shape(1, 32), [&] {
    label_groups(size.data(), rank.data(), meta_rank.data(), meta_size.data(), odd_size.data());
  });
  REQUIRE(r.status == LaunchStatus::completed);
  for (unsigned i = 0; i < 32; ++i) {
    CAPTURE(i);
    CHECK(size[i] == (i % 3 == 2 ? 10u : 11u));
    CHECK(rank[i] == i / 3);
    CHECK(meta_rank[i] == i % 3);  // leaders are lanes 0, 1, 2
    CHECK(meta_size[i] == 3);
    CHECK(odd_size[i] == 16);
  }
  CHECK(steps_of(r, Op::match_any).size() == 1);
}

TEST_CASE("grid_group numbers threads across blocks; sync outside a cooperative launch stops it") {
  SUBCASE("one block: sync is a __syncthreads") {
    std::vector<unsigned long long> rank(64), size(64);
    const auto r = warpsim::launch(shape(1, 64), [&] { grid_ranks(rank.data(), size.data()); });
    REQUIRE(r.status == LaunchStatus::completed);
    CHECK(rank[63] == 63);
    CHECK(size[0] == 64);
    const auto barriers = steps_of(r, Op::syncthreads);
    REQUIRE(barriers.size() == 2);  // one step per warp
    for (const TraceStep& b : barriers) check_site(r, b, line_of("grid_sync"));
  }
  SUBCASE("several blocks, not cooperative: the launch stops with a message naming the line") {
    std::vector<unsigned long long> rank(128), size(128);
    const auto r = warpsim::launch(shape(2, 64), [&] { grid_ranks(rank.data(), size.data()); });
    CHECK(r.status == LaunchStatus::kernel_exception);
    CHECK(r.message.find("grid_group::sync()") != std::string::npos);
    CHECK(r.message.find("outside a cooperative launch") != std::string::npos);
    CHECK(r.message.find("cg_kernels.cuh:" + std::to_string(line_of("grid_sync"))) !=
          std::string::npos);
    CHECK(rank[0] == 0);
    CHECK(size[0] == 128);
  }
}

TEST_CASE("a cooperative launch keeps every block resident: grid.sync() holds them all") {
  constexpr unsigned kBlocks = 40, kThreads = 96, kAll = kBlocks * kThreads;
  LaunchOptions options = shape(kBlocks, kThreads);
  options.cooperative = true;
  options.record_steps = false;
  std::vector<unsigned> value(kAll, 0), seen(kAll, 0);

  SUBCASE("every thread reads what the next block wrote before the barrier") {
    const auto r = warpsim::launch(options, [&] { grid_rotate(value.data(), seen.data(), ~0u); });
    REQUIRE(r.status == LaunchStatus::completed);
    for (unsigned t = 0; t < kAll; ++t) {
      CAPTURE(t);
      CHECK(seen[t] == (t + kThreads) % kAll + 1);
      CHECK(value[t] == 0);  // the second barrier held every block too
    }
    CHECK(r.steps > 0);
  }
  SUBCASE("a block that returns before the barrier is a deadlock naming it and the line") {
    const auto r = warpsim::launch(options, [&] { grid_rotate(value.data(), seen.data(), 5); });
    CHECK(r.status == LaunchStatus::deadlock);
    CHECK(r.message.find("block 5 ended without reaching it") != std::string::npos);
    CHECK(r.message.find("cg_kernels.cuh:" + std::to_string(line_of("grid_rotate_sync"))) !=
          std::string::npos);
  }
  SUBCASE("what runs the blocks one at a time says so at the barrier") {
    options.record_steps = true;
    auto r = warpsim::launch(options, [&] { grid_rotate(value.data(), seen.data(), ~0u); });
    CHECK(r.status == LaunchStatus::kernel_exception);
    CHECK(r.message.find("records its steps") != std::string::npos);
    options.record_steps = false;
    options.order_seed = 3;
    r = warpsim::launch(options, [&] { grid_rotate(value.data(), seen.data(), ~0u); });
    CHECK(r.status == LaunchStatus::kernel_exception);
    CHECK(r.message.find("order seed") != std::string::npos);
  }
}

TEST_CASE("tiles and the block barrier give the same sums when diverged lanes interleave") {
  std::vector<int> in(2 * 96), out(2, 0);
  std::iota(in.begin(), in.end(), -50);
  auto options = shape(2, 96);
  options.policy = warpsim::ConvergencePolicy::interleaved;
  options.seed = 7;
  const auto r = warpsim::launch(options, [&] { block_sum(in.data(), out.data()); });
  REQUIRE(r.status == LaunchStatus::completed);
  CHECK(out[0] == std::accumulate(in.begin(), in.begin() + 96, 0));
  CHECK(out[1] == std::accumulate(in.begin() + 96, in.end(), 0));
  CHECK(r.trace.diagnostics.empty());
}

TEST_CASE("memcpy_async stages data that wait() makes visible to the whole block") {
  std::vector<int> in(2 * 64), out(2 * 64, -1);
  std::iota(in.begin(), in.end(), 0);
  const auto r = warpsim::launch(shape(2, 64), [&] { staged_reverse(in.data(), out.data()); });
  REQUIRE(r.status == LaunchStatus::completed);
  for (int i = 0; i < 128; ++i) {
    CAPTURE(i);
    CHECK(out[i] == (i / 64) * 64 + 63 - i % 64);
  }
  const auto barriers = steps_of(r, Op::syncthreads);
  REQUIRE(barriers.size() == 4);  // 2 blocks x 2 warps
  check_site(r, barriers[0], line_of("wait"));
}

TEST_CASE("tiles of 64 threads: ranks, sync() across their two warps, and cg::reduce") {
  std::vector<TileNumbers> numbers(256);
  std::vector<int> partner(256, -1), sum(256, -1);
  const auto r = warpsim::launch(shape(1, 256),
                                 [&] { tile64(numbers.data(), partner.data(), sum.data()); });
  REQUIRE_MESSAGE(r.status == LaunchStatus::completed, r.message);
  for (unsigned t = 0; t < 256; ++t) {
    CAPTURE(t);
    CHECK(numbers[t].rank == t % 64);
    CHECK(numbers[t].size == 64);
    CHECK(numbers[t].meta_rank == t / 64);
    CHECK(numbers[t].meta_size == 4);
    CHECK(partner[t] == static_cast<int>(t ^ 32) * 3);
    const int first = static_cast<int>(t / 64 * 64);
    CHECK(sum[t] == 64 * first + 63 * 64 / 2);
  }
  CHECK(r.trace.diagnostics.empty());
}

TEST_CASE("a tile of 64 whose second warp never reaches sync() stops as a named deadlock") {
  std::vector<int> out(64, 0);
  const auto r = warpsim::launch(shape(1, 64), [&] { tile64_missing_warp(out.data()); });
  CHECK(r.status == LaunchStatus::deadlock);
  CHECK_MESSAGE(r.message.find("lanes 0-31 of warp 0 wait in thread_block_tile::sync at "
                               "cg_kernels.cuh:" + std::to_string(line_of("tile64_deadlock")) +
                               " for a phase of the barrier that cannot complete: it awaits 32 "
                               "more of its 64 arrivals") != std::string::npos,
                r.message);
  CHECK(out == std::vector<int>(64, 0));
}
