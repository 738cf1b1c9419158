// A value's bits as the text views print them: 0x and 8 hex digits, or 16 for a wide value.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace warpsim::cli {

inline std::string hex(std::uint64_t bits, bool wide) {
  char text[24];
  if (wide) {
    std::snprintf(text, sizeof text, "0x%016llx", static_cast<unsigned long long>(bits));
  } else {
    std::snprintf(text, sizeof text, "0x%08x", static_cast<unsigned>(bits));
  }
  return text;
}

}  // namespace warpsim::cli
