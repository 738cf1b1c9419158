// What a crash report adds about the running launch: the first read of cudaMalloc'd bytes that
// nothing wrote (`--check uninit`), whose value, the undefined pattern, is often the wild index
// or pointer the crash came from. The checker writes it when it meets that read, before any
// crash; a fault handler reads it (the report would otherwise lose the finding with the process).
#pragma once

namespace warpsim::runtime {

// "" or one sentence naming the read (lane, element, line); safe to call in a signal handler.
const char* undefined_read_note() noexcept;
// At the start of each launch.
void clear_undefined_read_note() noexcept;

}  // namespace warpsim::runtime
