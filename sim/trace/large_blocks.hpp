// 2 MiB blocks of memory for the trace's records.
//
// Fresh memory is expensive on the machines warpsim runs on: on the project's VM a 4 KiB page
// costs about 2 us to fault in and zero, 160 ns for every 350-byte step recorded. So blocks that
// a finished trace gives back are kept, up to kKeptBlocks, for the next trace of the process to
// reuse. Blocks are 2 MiB-aligned, so that a kernel set to use transparent huge pages always can;
// they are not advised MADV_HUGEPAGE: where huge pages are "madvise" only, that advice made
// first traces stall in memory compaction (measured: 0.8 M steps/s some runs, 2.2 others,
// against a steady 1.7-1.8 without it).
#pragma once

#include <cstddef>

namespace warpsim::detail {

inline constexpr std::size_t kLargeBlock = std::size_t{2} << 20;
inline constexpr std::size_t kKeptBlocks = 64;  // 128 MiB kept at most

void* take_large_block();                         // throws std::bad_alloc
void give_back_large_block(void* block) noexcept;  // a block from take_large_block()

}  // namespace warpsim::detail
