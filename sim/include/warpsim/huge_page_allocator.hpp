// An allocator for large, growing arrays (the trace's steps): blocks of 2 MiB and more are mapped
// 2 MiB-aligned and advised as transparent huge pages, so that filling them costs one page fault
// per 2 MiB instead of one per 4 KiB. Measured on the project's machines: page faults were a third
// of the time of a traced simulation. Smaller blocks come from operator new.
#pragma once

#include <cstddef>
#include <new>

namespace warpsim {

namespace detail {
void* allocate_large(std::size_t bytes);  // throws std::bad_alloc
void free_large(void* block, std::size_t bytes) noexcept;
inline constexpr std::size_t kLargeBlock = std::size_t{2} << 20;
}  // namespace detail

template <class T>
struct HugePageAllocator {
  using value_type = T;
  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes >= detail::kLargeBlock) return static_cast<T*>(detail::allocate_large(bytes));
    return static_cast<T*>(::operator new(bytes, std::align_val_t{alignof(T)}));
  }
  void deallocate(T* block, std::size_t n) noexcept {
    const std::size_t bytes = n * sizeof(T);
    if (bytes >= detail::kLargeBlock) {
      detail::free_large(block, bytes);
    } else {
      ::operator delete(block, std::align_val_t{alignof(T)});
    }
  }
  template <class U>
  bool operator==(const HugePageAllocator<U>&) const noexcept { return true; }
};

}  // namespace warpsim
