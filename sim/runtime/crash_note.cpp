#include "warpsim/crash_note.hpp"

#include <ucontext.h>

#include <cstdio>
#include <initializer_list>

namespace warpsim::runtime {

std::uint64_t never_set_register(const void* context, std::uint8_t fill) noexcept {
#if defined(__x86_64__)
  if (fill == 0 || context == nullptr) return 0;
  const std::uint64_t low = std::uint64_t{fill} * 0x01010101u;
  const auto* uc = static_cast<const ucontext_t*>(context);
  for (const int r : {REG_RAX, REG_RBX, REG_RCX, REG_RDX, REG_RSI, REG_RDI, REG_RBP, REG_R8, REG_R9,
                      REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15}) {
    const auto value = static_cast<std::uint64_t>(uc->uc_mcontext.gregs[r]);
    const std::uint64_t high = value >> 32;
    if ((value & 0xffffffffu) == low && (high == 0 || high == 0xffffffffu || high == low)) return value;
  }
#else
  (void)context;
  (void)fill;
#endif
  return 0;
}

void never_set_register_text(std::uint64_t value, char* out, std::size_t size) noexcept {
  std::snprintf(out, size,
                "a register held 0x%llx, the pattern of a local nothing set: the address may come "
                "from a variable read before it was set (an index or a pointer)",
                static_cast<unsigned long long>(value));
}

}  // namespace warpsim::runtime
