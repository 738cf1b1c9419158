// Fiber stacks, pooled per OS thread and reused across blocks and launches: creating a block's
// lanes must cost no mmap. Each stack has a PROT_NONE guard page below it, so a lane that
// overflows its stack faults instead of corrupting its neighbour.
#pragma once

#include <cstddef>
#include <vector>

#include "fiber.hpp"

namespace warpsim::runtime {

class StackPool {
 public:
  StackPool() = default;
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;
  ~StackPool();

  fiber::Stack take(std::size_t size);
  void give_back(fiber::Stack stack);

  static StackPool& for_this_thread();

 private:
  struct Stack {
    void* base;         // lowest address of the mapping (the guard page)
    std::size_t bytes;  // whole mapping, guard included
  };
  std::vector<Stack> free_;
};

}  // namespace warpsim::runtime
