// 2 MiB blocks of memory for the trace's records.
//
// Fresh memory is expensive on the machines warpsim runs on: on the project's VM a 4 KiB page
// costs about 2 us to fault in and zero, 160 ns for every 320-byte step recorded, a third of a
// traced step. So blocks are mapped 2 MiB-aligned and advised as transparent huge pages (one
// fault per block where the kernel has huge pages to give), and blocks that a finished trace
// gives back are kept, up to kKeptBlocks, for the next trace of the process to reuse.
#pragma once

#include <cstddef>

namespace warpsim::detail {

inline constexpr std::size_t kLargeBlock = std::size_t{2} << 20;
inline constexpr std::size_t kKeptBlocks = 64;  // 128 MiB kept at most

void* take_large_block();                         // throws std::bad_alloc
void give_back_large_block(void* block) noexcept;  // a block from take_large_block()

}  // namespace warpsim::detail
