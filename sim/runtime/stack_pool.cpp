#include "stack_pool.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cassert>
#include <cstdint>
#include <cstring>
#include <new>

// Under valgrind, every fiber stack must be registered, or memcheck takes each switch between
// lanes for a huge stack frame and reports every access as invalid. The client-request macros
// cost a few instructions outside valgrind; where valgrind's header is missing they are left out.
#if __has_include(<valgrind/valgrind.h>) && __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#include <valgrind/valgrind.h>
#define WARPSIM_VALGRIND_STACKS 1
#endif

namespace warpsim::runtime {
namespace {

std::size_t page_size() {
  static const std::size_t size = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  return size;
}

std::size_t round_to_pages(std::size_t bytes) {
  const std::size_t page = page_size();
  return (bytes + page - 1) / page * page;
}

constexpr std::uint64_t kCanary = 0x57a9c5a11ca7a21dULL;

// Linux 6.13's guard regions: a range of a mapping that faults like PROT_NONE without becoming
// a mapping of its own. mprotect instead splits the mapping at every guard and takes the
// process's memory-map lock for writing, which stops every other thread's page faults: 16
// worker threads guarding 256 stacks each that way took 45 ms on the 16-core Xeon host, against
// 5 ms with guard regions (a C++ test of the two, 2026-11-29).
#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102
#endif
std::atomic<bool> g_guard_regions{true};  // until the kernel says it has none (EINVAL)

void guard(char* page) {
  if (g_guard_regions.load(std::memory_order_relaxed)) {
    if (::madvise(page, page_size(), MADV_GUARD_INSTALL) == 0) return;
    g_guard_regions.store(false, std::memory_order_relaxed);
  }
  ::mprotect(page, page_size(), PROT_NONE);
}

// How many stacks one mapping holds: a block's lanes take their stacks one by one.
constexpr std::size_t kStacksPerMapping = 32;

}  // namespace

StackPool::~StackPool() {
  for (const Stack& s : free_) ::munmap(s.base, s.bytes);
  if (slab_ != nullptr) ::munmap(slab_, slab_bytes_);
}

StackPool& StackPool::slab_for_this_thread(std::size_t count, std::size_t size) {
  static thread_local StackPool pool;
  const std::size_t stack = round_to_pages(size);
  if (pool.slab_ != nullptr && (pool.slab_stack_ != stack || pool.slab_count_ < count)) {
    ::munmap(pool.slab_, pool.slab_bytes_);
    pool.slab_ = nullptr;
  }
  if (pool.slab_ == nullptr) {
    pool.slab_stack_ = stack;
    pool.slab_count_ = count;
  }
  pool.slab_taken_ = 0;
  return pool;
}

void StackPool::offer_slab_pages() {
  if (slab_ != nullptr) ::madvise(slab_ + page_size(), slab_bytes_ - page_size(), MADV_FREE);
}

bool StackPool::canary_intact(fiber::Stack stack) const {
  if (slab_stack_ == 0) return true;
  const char* bottom = static_cast<const char*>(stack.top) - stack.size;
  std::uint64_t word = 0;
  std::memcpy(&word, bottom, sizeof word);
  return word == kCanary;
}

fiber::Stack StackPool::take(std::size_t size) {
  if (slab_stack_ != 0) {
    if (round_to_pages(size) != slab_stack_ || slab_taken_ == slab_count_) throw std::bad_alloc();
    if (slab_ == nullptr) {
      slab_bytes_ = page_size() + slab_stack_ * slab_count_;
      void* base = ::mmap(nullptr, slab_bytes_, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
      if (base == MAP_FAILED) throw std::bad_alloc();
      ::mprotect(base, page_size(), PROT_NONE);
      slab_ = static_cast<char*>(base);
#if defined(WARPSIM_VALGRIND_STACKS)
      for (std::size_t k = 0; k < slab_count_; ++k) {
        char* const low = slab_ + page_size() + slab_stack_ * k;
        VALGRIND_STACK_REGISTER(low, low + slab_stack_);
      }
#endif
    }
    char* const bottom = slab_ + page_size() + slab_stack_ * slab_taken_++;
    std::memcpy(bottom, &kCanary, sizeof kCanary);
    return {bottom + slab_stack_, slab_stack_};
  }
  const std::size_t usable = round_to_pages(size);
  const std::size_t bytes = usable + page_size();
  void* base = nullptr;
  for (std::size_t i = 0; i < free_.size(); ++i) {
    if (free_[i].bytes == bytes) {
      base = free_[i].base;
      free_[i] = free_.back();
      free_.pop_back();
      break;
    }
  }
  if (base == nullptr) base = map_batch(bytes);
#if defined(WARPSIM_VALGRIND_STACKS)
  // A reused stack: what its last fiber left is dead, and the next fiber's first frames are
  // written from outside it (fiber::prepare).
  VALGRIND_MAKE_MEM_UNDEFINED(static_cast<char*>(base) + page_size(), usable);
#endif
  return {static_cast<char*>(base) + bytes, usable};  // stacks grow down from `top`
}

void* StackPool::map_batch(std::size_t bytes) {
  // Stacks come a mapping of several at a time, each with its guard page below it; one is
  // returned and the others wait in free_ (munmap later takes each stack's range on its own).
  const std::size_t total = bytes * kStacksPerMapping;
  void* mapped = ::mmap(nullptr, total, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (mapped == MAP_FAILED) throw std::bad_alloc();
  char* const first = static_cast<char*>(mapped);
  for (std::size_t k = 0; k < kStacksPerMapping; ++k) {
    char* const base = first + bytes * k;
    guard(base);
#if defined(WARPSIM_VALGRIND_STACKS)
    VALGRIND_STACK_REGISTER(base + page_size(), base + bytes);
#endif
    if (k != 0) free_.push_back({base, bytes});
  }
  return first;
}

void StackPool::give_back(fiber::Stack stack) {
  if (slab_stack_ != 0) return;  // the slab goes as a whole
  const std::size_t bytes = stack.size + page_size();
  free_.push_back({static_cast<char*>(stack.top) - bytes, bytes});
}

StackPool& StackPool::for_this_thread() {
  static thread_local StackPool pool;
  return pool;
}

}  // namespace warpsim::runtime
