// What a crash report adds about the running launch: the first read of cudaMalloc'd bytes that
// nothing wrote (`--check uninit`), whose value, the undefined pattern, is often the wild index
// or pointer the crash came from. The checker writes it when it meets that read, before any
// crash; a fault handler reads it (the report would otherwise lose the finding with the process).
#pragma once

#include <cstddef>
#include <cstdint>

namespace warpsim::runtime {

// "" or one sentence naming the read (lane, element, line); safe to call in a signal handler.
const char* undefined_read_note() noexcept;
// At the start of each launch.
void clear_undefined_read_note() noexcept;

// A general register of a fault's context (a signal handler's ucontext_t) that holds the 32-bit
// pattern of `fill` (LaunchOptions::never_set_fill), alone, sign-extended or doubled: an index or
// pointer computed from a local nothing set is the likeliest wild address. 0: none, or `fill` 0.
// Safe in a signal handler.
std::uint64_t never_set_register(const void* context, std::uint8_t fill) noexcept;
// What a crash report says of such a register's `value`, into `out` (truncated to `size`): "a
// register held 0x..., the pattern of a local nothing set: ...". Safe in a signal handler.
void never_set_register_text(std::uint64_t value, char* out, std::size_t size) noexcept;

}  // namespace warpsim::runtime
