// The trace's steps, stored compactly. A traced run records millions of steps, and a TraceStep
// (1.2 KB: every field for every lane) is mostly repetition: 32-bit values in 64-bit slots, one
// mask, one call site and one shuffle argument shared by all lanes. StepLog keeps each step as a
// variable-length record (220 bytes for a full-warp 32-bit shuffle) in blocks that never move,
// and hands steps back as TraceStep values. Only participants' entries are kept, so a step reads
// back with non-participants zeroed (src_lane -1), as trace_step.hpp describes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "warpsim/trace_step.hpp"

namespace warpsim {

class StepLog {
 public:
  // A step as the runtime holds it: the scalars of a TraceStep and 32-entry per-lane arrays, of
  // which only participants' entries are read (arg, width and src_lane only for shuffles).
  struct Source {
    Op op{};
    ValueType type = ValueType::none;
    std::uint64_t block = 0;
    std::uint32_t warp = 0;
    std::uint32_t sequence = 0;
    LaneMask mask = 0, participants = 0, exited = 0, undefined = 0, pred = 0;
    const std::uint64_t* input = nullptr;
    const std::int32_t* arg = nullptr;
    const std::int32_t* width = nullptr;
    const std::int8_t* src_lane = nullptr;
    const std::uint64_t* output = nullptr;
    const LaneMask* lane_mask = nullptr;
    const SourceLine* where = nullptr;
    // Shuffles: every participant received its source lane's input, output[i] ==
    // input[src_lane[i]] (true whenever no result is undefined). The outputs are then not stored.
    bool output_is_source_input = false;
  };

  StepLog() = default;
  StepLog(const StepLog& other);
  StepLog& operator=(const StepLog& other);
  StepLog(StepLog&& other) noexcept;
  StepLog& operator=(StepLog&& other) noexcept;
  ~StepLog();

  void append(const Source& step);
  void push_back(const TraceStep& step);

  std::size_t size() const noexcept { return index_.size(); }
  bool empty() const noexcept { return index_.empty(); }
  TraceStep operator[](std::size_t i) const;  // precondition: i < size()
  TraceStep at(std::size_t i) const;          // throws std::out_of_range
  TraceStep front() const { return (*this)[0]; }
  TraceStep back() const { return (*this)[size() - 1]; }
  void read(std::size_t i, TraceStep& out) const;  // operator[] into an existing step
  void clear() noexcept;
  std::size_t bytes() const noexcept;  // memory held for the records and their index
  std::size_t record_bytes() const noexcept { return record_bytes_; }  // the records alone

  // The records as one byte string and back: how a child process hands a trace to its parent
  // (a trace's JSON is ten times larger and slower to read). Same machine, same build only;
  // nullopt when the bytes are not a whole log.
  std::string serialize() const;
  static std::optional<StepLog> deserialize(std::string_view bytes);

  // Yields TraceStep values: `for (const TraceStep& s : trace.steps)` works as with a vector,
  // but a pointer or reference kept past the loop body dangles.
  class const_iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = TraceStep;
    using difference_type = std::ptrdiff_t;
    using reference = TraceStep;
    using pointer = void;
    const_iterator() = default;
    const_iterator(const StepLog* log, std::size_t i) : log_(log), i_(i) {}
    TraceStep operator*() const { return (*log_)[i_]; }
    const_iterator& operator++() {
      ++i_;
      return *this;
    }
    const_iterator operator++(int) {
      const_iterator old = *this;
      ++i_;
      return old;
    }
    friend bool operator==(const const_iterator& a, const const_iterator& b) { return a.i_ == b.i_; }

   private:
    const StepLog* log_ = nullptr;
    std::size_t i_ = 0;
  };
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size()}; }

 private:
  struct Block {
    std::byte* data = nullptr;
    std::size_t capacity = 0;
  };
  std::byte* reserve_record(std::size_t bytes);
  void release() noexcept;

  std::vector<Block> blocks_;
  std::size_t used_ = 0;                // bytes used in the last block
  std::vector<std::uint64_t> index_;    // per step: block << 32 | offset of its record
  std::size_t record_bytes_ = 0;
};

}  // namespace warpsim
