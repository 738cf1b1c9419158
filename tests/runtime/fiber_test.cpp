// The lane fiber switch on its own (sim/runtime/fiber.cpp, compiled into this test).
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdlib>
#include <vector>

#include "fiber.hpp"

namespace fiber = warpsim::runtime::fiber;

namespace {

constexpr int kFibers = 8;
constexpr int kRounds = 1000;

struct Ring {
  fiber::Context main{};
  fiber::Context contexts[kFibers]{};
  int turn = 0;                  // the fiber that runs
  std::uint64_t sums[kFibers]{};
  bool aligned = true;
};
Ring g_ring;

// Each fiber keeps values in locals (integer and floating point) across many switches, and
// hands over to the next fiber each round; the last fiber returns to main when done.
void run_fiber(void* arg) {
  const int me = static_cast<int>(reinterpret_cast<std::intptr_t>(arg));
  alignas(16) volatile unsigned char probe[16] = {};
  g_ring.aligned = g_ring.aligned && reinterpret_cast<std::uintptr_t>(probe) % 16 == 0;
  std::uint64_t sum = 0;
  double scaled = 0.5 * me;
  for (int round = 0; round < kRounds; ++round) {
    sum += static_cast<std::uint64_t>(me + 1) * static_cast<std::uint64_t>(round);
    scaled += 1.0;
    const int next = (me + 1) % kFibers;
    g_ring.turn = next;
    warpsim_fiber_switch(&g_ring.contexts[me], g_ring.contexts[next]);
    CHECK(g_ring.turn == me);  // resumed only when it is this fiber's turn
  }
  g_ring.sums[me] = sum + static_cast<std::uint64_t>(scaled);
  // Finished: the fiber after this one may still be waiting for its last turn.
  const int next = (me + 1) % kFibers;
  g_ring.turn = next;
  fiber::Context dead{};
  warpsim_fiber_switch(&dead, me == kFibers - 1 ? g_ring.main : g_ring.contexts[next]);
  std::abort();  // never resumed
}

}  // namespace

TEST_CASE("fibers hand over in a ring, keep their locals, and return to main") {
  std::vector<std::vector<unsigned char>> stacks(kFibers, std::vector<unsigned char>(64 * 1024));
  for (int i = 0; i < kFibers; ++i) {
    // Stack tops at odd offsets: prepare() must align them itself.
    const std::size_t size = std::size_t{64 * 1024} - 8 * static_cast<std::size_t>(i) - 8;
    fiber::Stack stack{stacks[static_cast<std::size_t>(i)].data() + size, size};
    g_ring.contexts[i] = fiber::prepare(stack, &run_fiber, reinterpret_cast<void*>(std::intptr_t{i}));
  }
  g_ring.turn = 0;
  warpsim_fiber_switch(&g_ring.main, g_ring.contexts[0]);
  for (int me = 0; me < kFibers; ++me) {
    CAPTURE(me);
    const std::uint64_t expected = static_cast<std::uint64_t>(me + 1) * (kRounds * (kRounds - 1) / 2) +
                                   static_cast<std::uint64_t>(0.5 * me + kRounds);
    CHECK(g_ring.sums[me] == expected);
  }
  CHECK(g_ring.aligned);
}
