// A lane that reaches no warp-level call or barrier runs as a plain call: the next lane starts on
// the stack the last one ended on, with no fiber prepared for it (block_runner.cpp, lane_entry).
// Fibers are prepared only for lanes that something switches to before they started. These cases
// pin the order lanes run in and the cases where lanes that ran in place meet lanes that wait.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "support/launch_helpers.hpp"
#include "warpsim/cuda_shim.hpp"
#include "warpsim/launch.hpp"
#include "lanes_in_place_kernels.cuh"

using warpsim::ConvergencePolicy;
using warpsim::LaunchStatus;
using warpsim::test::shape;

TEST_CASE("lanes that reach no warp-level call run one after another, in thread order, block after block") {
  for (const unsigned block : {1u, 32u, 70u, 256u}) {
    CAPTURE(block);
    const unsigned grid = 3;
    std::vector<unsigned> ticket(grid * block, ~0u);
    unsigned counter = 0;
    const auto r = warpsim::launch(shape(grid, block), [&] { ticket_order(&counter, ticket.data()); });
    REQUIRE(r.status == LaunchStatus::completed);
    CHECK(r.steps == 0);
    CHECK(r.trace.steps.empty());
    CHECK(r.trace.diagnostics.empty());
    std::vector<unsigned> expected(ticket.size());
    std::iota(expected.begin(), expected.end(), 0u);
    CHECK(ticket == expected);
  }
}

TEST_CASE("under the interleaved policy lanes that never wait run in a seeded order, the same each run") {
  auto order = [](std::uint64_t seed) {
    auto options = shape(2, 96);
    options.policy = ConvergencePolicy::interleaved;
    options.seed = seed;
    std::vector<unsigned> ticket(2 * 96, ~0u);
    unsigned counter = 0;
    const auto r = warpsim::launch(options, [&] { ticket_order(&counter, ticket.data()); });
    REQUIRE(r.status == LaunchStatus::completed);
    return ticket;
  };
  const std::vector<unsigned> first = order(7);
  CHECK(first == order(7));
  std::vector<unsigned> sorted = first;
  std::sort(sorted.begin(), sorted.end());
  std::vector<unsigned> all(sorted.size());
  std::iota(all.begin(), all.end(), 0u);
  CHECK(sorted == all);       // every lane ran once
  CHECK(first != all);        // not in thread order
}

TEST_CASE("lanes that wait after others ran in place keep their own stacks") {
  // first_waiting 0: every lane waits; 16: the low half ran in place and the first waiting lane
  // starts on their stack; 31: one lane waits alone.
  for (const unsigned first_waiting : {0u, 1u, 16u, 31u}) {
    CAPTURE(first_waiting);
    const unsigned grid = 2, block = 96;
    std::vector<unsigned> out(grid * block, ~0u);
    std::vector<int> intact(grid * block, 0);
    const auto r = warpsim::launch(shape(grid, block), [&] {
      some_lanes_wait(first_waiting, out.data(), intact.data());
    });
    REQUIRE(r.status == LaunchStatus::completed);
    CHECK(r.steps == grid * block / 32);
    CHECK(r.trace.diagnostics.empty());
    for (unsigned t = 0; t < out.size(); ++t) {
      CAPTURE(t);
      const unsigned lane = t % 32;
      CHECK(intact[t] == 1);
      if (lane < first_waiting) {
        CHECK(out[t] == t);
      } else {
        CHECK(out[t] == (lane == 31 ? t : t + 1));  // the last lane reads its own value
      }
    }
  }
}

TEST_CASE("lanes that run in place after others wait leave the waiting lanes' results intact") {
  for (const unsigned last_waiting : {2u, 16u, 30u}) {
    CAPTURE(last_waiting);
    std::vector<unsigned> out(64, ~0u);
    const auto r = warpsim::launch(shape(1, 64), [&] { low_lanes_wait(last_waiting, out.data()); });
    REQUIRE(r.status == LaunchStatus::completed);
    CHECK(r.steps == 2);
    for (unsigned t = 0; t < out.size(); ++t) {
      CAPTURE(t);
      CHECK(out[t] == (t % 32 < last_waiting ? (t ^ 1u) : t));
    }
  }
}

TEST_CASE("a collective on a branch no lane takes costs no step and changes nothing") {
  std::vector<float> in(128), out(128, -1.0f);
  std::iota(in.begin(), in.end(), 0.0f);
  const auto r = warpsim::launch(shape(2, 64), [&] { collective_not_taken(5, in.data(), out.data()); });
  REQUIRE(r.status == LaunchStatus::completed);
  CHECK(r.steps == 0);
  CHECK(r.trace.diagnostics.empty());
  for (int i = 0; i < 128; ++i) {
    CAPTURE(i);
    CHECK(out[i] == 2.0f * in[i]);
  }
}
