// Fiber stacks, pooled per OS thread and reused across blocks and launches: creating a block's
// lanes must cost no mmap. Each stack has a guard page below it (a guard region where the kernel
// has them, else PROT_NONE), so a lane that overflows its stack faults instead of corrupting its
// neighbour. New stacks come several to a mapping.
//
// A slab pool (slab_for_this_thread()) is for a grid whose blocks are all resident at once (a
// cooperative launch: resident_grid.hpp): a mapping per stack would need two of the kernel's
// mappings per lane, and 264 blocks of 1024 lanes pass its limit (vm.max_map_count, 65530 by
// default). Its stacks lie in one mapping with a guard page below the lowest only; each holds a
// canary in its lowest bytes instead, which canary_intact() checks once the block has run.
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
  // This OS thread's slab pool with room for `count` stacks of `size` bytes, all free: one
  // mapping, made when no earlier one is large enough and kept for the thread's next launch (its
  // pages stay faulted in: a cooperative launch run again costs no fresh memory).
  static StackPool& slab_for_this_thread(std::size_t count, std::size_t size);
  // A slab's pages may go back to the system when it needs memory (MADV_FREE): they stay mapped,
  // and the next launch that writes them before then finds them still there.
  void offer_slab_pages();
  // Whether the lane on `stack` never reached its lowest bytes, where the next stack down begins
  // (slab stacks; always true for guarded ones, whose guard page faults instead).
  bool canary_intact(fiber::Stack stack) const;

 private:
  struct Stack {
    void* base;         // lowest address of the mapping (the guard page)
    std::size_t bytes;  // whole mapping, guard included
  };
  // A new mapping of several stacks of `bytes` (guard included): the first, the others to free_.
  void* map_batch(std::size_t bytes);
  std::vector<Stack> free_;
  // Slab mode: the mapping (guard page first), its stacks' size and count, how many are taken.
  char* slab_ = nullptr;
  std::size_t slab_bytes_ = 0, slab_stack_ = 0, slab_count_ = 0, slab_taken_ = 0;
};

}  // namespace warpsim::runtime
