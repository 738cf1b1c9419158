// The undefined pattern that `exec --check uninit` leaves in device memory nothing wrote
// (warpsim/memory_checks.hpp): what was written on purpose must not pass for it.
#include <doctest/doctest.h>

#include <cstdint>

#include "warpsim/memory_checks.hpp"

TEST_CASE("no memset and no fill of one 16-bit value matches a cell of the undefined pattern") {
  int distinct_values = 0;
  bool seen[256] = {};
  for (std::uintptr_t cell = 0x7f0000001000; cell < 0x7f0000001000 + 4 * 8192; cell += 4) {
    std::uint8_t b[4];
    for (int i = 0; i < 4; ++i) b[i] = warpsim::undefined_pattern_byte(cell + static_cast<std::uintptr_t>(i));
    // Every byte in its own range: a cell's bytes all differ, so no repeated byte or 16-bit
    // value fills a cell with them.
    for (int i = 0; i < 4; ++i) {
      CHECK(b[i] >= 0x80 + 0x20 * i);
      CHECK(b[i] <= 0x9e + 0x20 * i);
      CHECK(b[i] % 2 == 0);
      if (!seen[b[i]]) ++distinct_values;
      seen[b[i]] = true;
    }
    CHECK(b[0] != b[2]);
    CHECK(b[1] != b[3]);
  }
  CHECK(distinct_values == 64);  // 16 values in each of the four ranges: the hash reaches them all
}
