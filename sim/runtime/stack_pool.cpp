#include "stack_pool.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cassert>
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

}  // namespace

StackPool::~StackPool() {
  for (const Stack& s : free_) ::munmap(s.base, s.bytes);
}

fiber::Stack StackPool::take(std::size_t size) {
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
  if (base == nullptr) {
    base = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (base == MAP_FAILED) throw std::bad_alloc();
    ::mprotect(base, page_size(), PROT_NONE);
#if defined(WARPSIM_VALGRIND_STACKS)
    VALGRIND_STACK_REGISTER(static_cast<char*>(base) + page_size(), static_cast<char*>(base) + bytes);
#endif
  }
#if defined(WARPSIM_VALGRIND_STACKS)
  // A reused stack: what its last fiber left is dead, and the next fiber's first frames are
  // written from outside it (fiber::prepare).
  VALGRIND_MAKE_MEM_UNDEFINED(static_cast<char*>(base) + page_size(), usable);
#endif
  return {static_cast<char*>(base) + bytes, usable};  // stacks grow down from `top`
}

void StackPool::give_back(fiber::Stack stack) {
  const std::size_t bytes = stack.size + page_size();
  free_.push_back({static_cast<char*>(stack.top) - bytes, bytes});
}

StackPool& StackPool::for_this_thread() {
  static thread_local StackPool pool;
  return pool;
}

}  // namespace warpsim::runtime
