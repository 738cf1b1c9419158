#include "large_blocks.hpp"

#include <sys/mman.h>

#include <cstdint>
#include <mutex>
#include <new>
#include <vector>

namespace warpsim::detail {
namespace {

// Traces may be made and dropped on different threads (tests, the GUI): one lock-guarded list.
struct KeptBlocks {
  std::mutex lock;
  std::vector<void*> blocks;
};

KeptBlocks& kept() {
  static KeptBlocks* const instance = new KeptBlocks;  // never destroyed: traces may outlive main
  return *instance;
}

void* map_block() {
  // Map one block more, then cut the mapping down to a 2 MiB-aligned range.
  void* raw = ::mmap(nullptr, 2 * kLargeBlock, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const auto start = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = (start + kLargeBlock - 1) / kLargeBlock * kLargeBlock;
  if (aligned > start) ::munmap(raw, aligned - start);
  const std::uintptr_t end = start + 2 * kLargeBlock;
  if (end > aligned + kLargeBlock) {
    ::munmap(reinterpret_cast<void*>(aligned + kLargeBlock), end - (aligned + kLargeBlock));
  }
  return reinterpret_cast<void*>(aligned);
}

}  // namespace

void* take_large_block() {
  {
    KeptBlocks& k = kept();
    const std::lock_guard<std::mutex> hold(k.lock);
    if (!k.blocks.empty()) {
      void* block = k.blocks.back();
      k.blocks.pop_back();
      return block;
    }
  }
  return map_block();
}

void give_back_large_block(void* block) noexcept {
  KeptBlocks& k = kept();
  {
    const std::lock_guard<std::mutex> hold(k.lock);
    if (k.blocks.size() < kKeptBlocks) {
      try {
        k.blocks.push_back(block);
        return;
      } catch (...) {  // no memory for the list itself: unmap instead
      }
    }
  }
  ::munmap(block, kLargeBlock);
}

}  // namespace warpsim::detail
