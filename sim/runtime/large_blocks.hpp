// Large blocks of memory for the trace's records: mapped 2 MiB-aligned and advised as transparent
// huge pages, so that filling one costs one page fault instead of 512. Measured on the project's
// machines: 4 KiB page faults were a third of the time of a traced simulation.
#pragma once

#include <cstddef>

namespace warpsim::detail {

inline constexpr std::size_t kLargeBlock = std::size_t{2} << 20;

void* allocate_large(std::size_t bytes);  // whole 2 MiB blocks; throws std::bad_alloc
void free_large(void* block, std::size_t bytes) noexcept;

}  // namespace warpsim::detail
