#include "large_blocks.hpp"

#include <sys/mman.h>

#include <cstdint>
#include <new>

namespace warpsim::detail {
namespace {

std::size_t round_up(std::size_t bytes) { return (bytes + kLargeBlock - 1) / kLargeBlock * kLargeBlock; }

}  // namespace

void* allocate_large(std::size_t bytes) {
  const std::size_t size = round_up(bytes);
  // Map one block more, then cut the mapping down to a 2 MiB-aligned range.
  void* raw = ::mmap(nullptr, size + kLargeBlock, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const auto start = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = (start + kLargeBlock - 1) / kLargeBlock * kLargeBlock;
  if (aligned > start) ::munmap(raw, aligned - start);
  const std::uintptr_t end = start + size + kLargeBlock;
  if (end > aligned + size) ::munmap(reinterpret_cast<void*>(aligned + size), end - (aligned + size));
  ::madvise(reinterpret_cast<void*>(aligned), size, MADV_HUGEPAGE);  // advice only: may be ignored
  return reinterpret_cast<void*>(aligned);
}

void free_large(void* block, std::size_t bytes) noexcept { ::munmap(block, round_up(bytes)); }

}  // namespace warpsim::detail
