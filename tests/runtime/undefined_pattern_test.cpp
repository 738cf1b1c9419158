// The undefined pattern that `exec --check uninit` leaves in device memory nothing wrote
// (warpsim/memory_checks.hpp): what was written on purpose must not pass for it; and the
// never-set locals' pattern a crash report looks for in registers (warpsim/crash_note.hpp).
#include <doctest/doctest.h>
#include <ucontext.h>

#include <cstdint>

#include "warpsim/crash_note.hpp"
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

TEST_CASE("a crash names a register that holds the never-set pattern, as an int, sign-extended or whole") {
  ucontext_t context{};
  const auto found = [&](std::uint64_t value, std::uint8_t fill = 0xfe) {
    context.uc_mcontext.gregs[REG_R9] = static_cast<greg_t>(value);
    return warpsim::runtime::never_set_register(&context, fill);
  };
  CHECK(found(0x00000000fefefefeull) == 0x00000000fefefefeull);  // a 32-bit local
  CHECK(found(0xfffffffffefefefeull) == 0xfffffffffefefefeull);  // sign-extended to an index
  CHECK(found(0xfefefefefefefefeull) == 0xfefefefefefefefeull);  // a pointer never set
  CHECK(found(0x12345678fefefefeull) == 0);                      // other high bits: not the pattern
  CHECK(found(0xfefefefe00000000ull) == 0);
  CHECK(found(0x00000000fefefefeull, 0) == 0);                   // no pattern known
  context.uc_mcontext.gregs[REG_R9] = 0;
  context.uc_mcontext.gregs[REG_RSP] = static_cast<greg_t>(0xfffffffffefefefeull);  // not searched
  CHECK(warpsim::runtime::never_set_register(&context, 0xfe) == 0);
}
