// The kernel's buffer arguments, each in its own shared mapping of a memory file (the kernel host
// process maps the same files and writes, the parent reads the results back) and placed so that its last byte abuts a PROT_NONE guard page:
// a lane that reads or writes just past the end faults, and the fault address names the buffer
// and element. Before the buffer, a page can only abut it where its size is a whole number of
// pages: the bytes between the leading guard page and the first element (the slack) hold
// kSlackByte, and after the launch any that changed name a write before the buffer
// (writes_before). A read there is seen only by the memory checks (--check bounds), which also
// name the lane and line of either kind.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "warpsim/runner.hpp"

namespace warpsim::runner {

struct GuardedBuffer {
  std::size_t arg = 0;     // zero-based parameter index
  std::int32_t field = -1;  // the buffer of this field of a struct argument; -1: the argument's
  ElementType type = ElementType::i32;
  std::uint64_t count = 0;
  std::byte* data = nullptr;  // data + count * element size is the trailing guard page
  std::byte* mapping = nullptr;
  std::size_t mapping_bytes = 0;
  int fd = -1;  // the memory file behind the mapping (close-on-exec)
  bool undefined = false;  // began as the undefined pattern (`:undefined`): --check uninit watches it
};

// What the slack before a buffer holds until a kernel writes there.
inline constexpr unsigned char kSlackByte = 0xa5;

// A write before a buffer, found after the launch: the elements (negative) whose bytes changed.
struct BufferOverwrite {
  const GuardedBuffer* buffer = nullptr;
  std::int64_t first = 0;  // the lowest element written, e.g. -3
  std::int64_t last = 0;   // the highest, e.g. -1
};

// Where a faulting address lies relative to the buffers.
struct BufferHit {
  const GuardedBuffer* buffer = nullptr;  // nullptr: in none of their guard pages
  std::int64_t element = 0;               // index of the element the address falls in
};

class ArgumentBuffers {
 public:
  ArgumentBuffers() = default;
  ArgumentBuffers(const ArgumentBuffers&) = delete;
  ArgumentBuffers& operator=(const ArgumentBuffers&) = delete;
  ArgumentBuffers(ArgumentBuffers&& other) noexcept;
  ArgumentBuffers& operator=(ArgumentBuffers&& other) noexcept;
  ~ArgumentBuffers();

  // Maps and fills a buffer for every buffer spec (zeros, iota, file, list), struct fields'
  // included (buffer_slots). The error names the --arg (1-based, as the user counts them, and the
  // field) and what is wrong, e.g. a file of the wrong size.
  static Expected<ArgumentBuffers> create(const std::vector<ArgSpec>& specs);

  // The kernel host's side: maps the memory files the parent made, one per buffer (arg, type,
  // count and fd given; the layout is the same as create's). Takes ownership of the fds.
  static Expected<ArgumentBuffers> adopt(std::vector<GuardedBuffer> shapes);

  const std::vector<GuardedBuffer>& buffers() const { return buffers_; }
  // The buffer of parameter `arg` (or of its field `field`), or nullptr when there is none.
  const GuardedBuffer* for_arg(std::size_t arg, std::int32_t field = -1) const;
  // Async-signal-safe: no allocation, no locks.
  BufferHit locate(std::uintptr_t address) const;
  // The buffers whose slack no longer holds kSlackByte everywhere (create's buffers only).
  std::vector<BufferOverwrite> writes_before() const;
  // The bytes from the leading guard page to the first element.
  static std::size_t slack_bytes(const GuardedBuffer& buffer);

 private:
  void release();
  std::vector<GuardedBuffer> buffers_;
};

}  // namespace warpsim::runner
