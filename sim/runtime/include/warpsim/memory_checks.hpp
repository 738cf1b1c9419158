// Memory checks of a launch: data races (two threads touch the same bytes, at least one writes,
// and nothing orders them), reads of __shared__ memory that no thread of the block wrote, and
// reads of global memory that nothing wrote since it was allocated (memory that holds the
// undefined pattern below until something writes it: `warpsim exec --check uninit` fills
// cudaMalloc'd memory with it).
//
//   warpsim::LaunchOptions options{.grid = {4}, .block = {256}};
//   options.checks.races = true;
//   options.checks.memory.push_back({out, bytes, "out", sizeof(float), false});
//   options.checks.memory += warpsim::shared_variables_of(&my_kernel);  // its __shared__ arrays
//
// Only code compiled with -fsanitize=thread is checked, and without libtsan: the simulator's
// runtime answers the compiler's __tsan_* calls itself (race_checker.cpp says how). `warpsim run
// --check races` compiles the kernel file that way; launch() refuses checks when no instrumented
// code is loaded. Happens-before, not the simulator's order of lanes, decides: __syncthreads (and
// its variants) orders a block, __syncwarp its participants, atomics do not race with atomics;
// shuffles, votes, matches and volatile order nothing (../shared/spec/warp-semantics.md, 0).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "warpsim/splitmix.hpp"

namespace warpsim {

// One range of memory to check.
struct CheckedMemory {
  const void* begin = nullptr;
  std::size_t bytes = 0;
  std::string name;                // as messages name it: "sdata", "out (argument 1)"
  std::uint32_t element_size = 0;  // for element indices in messages; 0: the access's size
  bool shared = false;             // per block: a __shared__ variable or dynamic shared memory
  // Bytes just before `begin` and just after `begin + bytes` that belong to no other checked
  // memory (a run buffer's guard pages and the slack before its first element): an access there
  // is out of bounds of this memory (MemoryChecks::bounds). 0: nothing is known there.
  std::size_t guard_before = 0;
  std::size_t guard_after = 0;
  // Global memory that held undefined_pattern_word's bytes when it was allocated: a read of bytes
  // that still hold them, and that no thread wrote in this launch, reads memory nothing wrote
  // (MemoryChecks::uninitialized_global). Whatever wrote the bytes (a copy, a memset, a kernel,
  // host code such as Thrust's) changed them, so nothing needs to say it did.
  bool undefined_pattern = false;
};

struct MemoryChecks {
  bool races = false;                 // DiagnosticKind::data_race
  bool uninitialized_shared = false;  // DiagnosticKind::uninitialized_shared_read
  bool uninitialized_global = false;  // DiagnosticKind::uninitialized_global_read
  // DiagnosticKind::out_of_bounds: an access in a guard_before/guard_after range, or one that
  // starts inside the memory and runs past its end, stops the launch before it happens
  // (LaunchStatus::out_of_bounds), keeping every finding made until then.
  bool bounds = false;
  std::vector<CheckedMemory> memory;  // only accesses inside these are checked
  bool any() const { return races || uninitialized_shared || uninitialized_global || bounds; }
};

// The bytes of memory that nothing has written yet, 8 at a time: a hash of the aligned 8-byte
// word's address, each byte of a 4-byte cell in its own range (byte 0 in 0x80..0x9e, 1 in
// 0xa0..0xbe, 2 in 0xc0..0xde, 3 in 0xe0..0xfe, even; 4 bits of hash each). A check compares
// whole aligned cells, so what was written on purpose passes for never written only where the
// cell's 4 bytes equal the hash: never for a fill of one byte or one 16-bit value (a cell's bytes
// all differ), never for 0, -1, small numbers or positive floats, and 1 in 2^16 for 4 bytes of
// exactly that shape (as an int a large negative number, as a float below -1e19).
inline std::uint64_t undefined_pattern_word(std::uintptr_t word_address) {
  return (splitmix64(word_address >> 3) & 0x1e1e1e1e1e1e1e1eull) | 0xe0c0a080e0c0a080ull;
}
// The pattern's byte at `address`.
inline std::uint8_t undefined_pattern_byte(std::uintptr_t address) {
  return static_cast<std::uint8_t>(undefined_pattern_word(address & ~std::uintptr_t{7}) >>
                                   (8 * (address & 7)));
}
// Writes the pattern over `bytes` bytes at `begin`.
void fill_undefined_pattern(void* begin, std::size_t bytes);

// The __shared__ variables (thread_local under the shim) of the loaded object that holds
// `address_in_object`, at their addresses for the calling thread, named as the kernel names them
// ("sdata"), read from the object's symbol table. Empty when it has none or cannot be read.
std::vector<CheckedMemory> shared_variables_of(const void* address_in_object);

// Whether code compiled with -fsanitize=thread has been loaded into this process (its module
// constructor announces itself): without it, checks see no access at all.
bool instrumented_code_loaded();

}  // namespace warpsim
