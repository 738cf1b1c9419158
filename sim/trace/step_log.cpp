#include "warpsim/step_log.hpp"

#include <bit>
#include <cassert>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

#include "large_blocks.hpp"
#include "warpsim/detail/lane_compare.hpp"

namespace warpsim {
namespace {

// A record: Header, then sections in this order, each 32 entries or one shared entry:
//   input[32] and output[32] (8 bytes per lane when `wide`, else 4; no output section for a
//   shuffle whose every participant received its source lane's input),
//   shuffles only: arg (1 or 32), width (1 or 32), src_lane[32],
//   lane_mask (1 or 32), where (1 or 32);
// padded to 8 bytes. Entries of non-participants are stored but never read back.
struct Header {
  std::uint64_t block;
  std::uint32_t warp, sequence;
  LaneMask mask, participants, exited, undefined, pred;
  Op op;
  ValueType type;
  std::uint8_t layout;
  std::uint8_t unused;
};
static_assert(sizeof(Header) == 40);

enum Layout : std::uint8_t {
  kWide = 1,         // 64-bit values
  kShuffle = 2,      // has arg, width and src_lane sections
  kArgPerLane = 4,
  kWidthPerLane = 8,
  kMaskPerLane = 16,
  kSitePerLane = 32,
  kOutputIsSourceInput = 64,  // output[i] = input[src_lane[i]]: not stored
};

constexpr std::size_t kFirstBlock = std::size_t{64} << 10;  // ~180 steps: a lesson's trace
constexpr std::size_t kMaxRecord = sizeof(Header) + 2 * 8 * kWarpSize + 2 * 4 * kWarpSize +
                                   kWarpSize + 4 * kWarpSize + sizeof(SourceLine) * kWarpSize;

std::size_t padded(std::size_t bytes) { return (bytes + 7) & ~std::size_t{7}; }

template <class T>
std::byte* put(std::byte* at, const T* entries, std::size_t count) {
  std::memcpy(at, entries, count * sizeof(T));
  return at + count * sizeof(T);
}

std::byte* put_values(std::byte* at, const std::uint64_t* values, bool wide) {
  if (wide) return put(at, values, kWarpSize);
  std::uint32_t low[kWarpSize];
  for (int lane = 0; lane < kWarpSize; ++lane) low[lane] = static_cast<std::uint32_t>(values[lane]);
  return put(at, low, kWarpSize);
}

// Reads one shared entry or 32 into `lanes`.
template <class T, std::size_t N>
const std::byte* get(const std::byte* at, std::array<T, N>& lanes, bool per_lane) {
  if (per_lane) {
    std::memcpy(lanes.data(), at, sizeof(T) * N);
    return at + sizeof(T) * N;
  }
  T shared;
  std::memcpy(&shared, at, sizeof(T));
  lanes.fill(shared);
  return at + sizeof(T);
}

const std::byte* get_values(const std::byte* at, std::array<std::uint64_t, kWarpSize>& values,
                            bool wide) {
  if (wide) return get(at, values, true);
  std::uint32_t low[kWarpSize];
  std::memcpy(low, at, sizeof low);
  for (int lane = 0; lane < kWarpSize; ++lane) values[lane] = low[lane];
  return at + sizeof low;
}

// Whether every participant of a shuffle received exactly its source lane's input.
bool outputs_are_source_inputs(const StepLog::Source& s) {
  for (LaneMask m = s.participants; m != 0; m &= m - 1) {
    const int lane = std::countr_zero(m);
    const int source = s.src_lane[lane];
    if (source < 0 || source >= kWarpSize || s.output[lane] != s.input[source]) return false;
  }
  return true;
}

std::byte* allocate_block(std::size_t capacity) {
  if (capacity == detail::kLargeBlock) return static_cast<std::byte*>(detail::take_large_block());
  return static_cast<std::byte*>(::operator new(capacity, std::align_val_t{8}));
}

void free_block(std::byte* data, std::size_t capacity) noexcept {
  if (capacity == detail::kLargeBlock) {
    detail::give_back_large_block(data);
  } else {
    ::operator delete(data, std::align_val_t{8});
  }
}

}  // namespace

StepLog::StepLog(const StepLog& other)
    : used_(other.used_), index_(other.index_), record_bytes_(other.record_bytes_) {
  blocks_.reserve(other.blocks_.size());
  try {
    for (std::size_t b = 0; b < other.blocks_.size(); ++b) {
      const Block& from = other.blocks_[b];
      blocks_.push_back({allocate_block(from.capacity), from.capacity});
      const std::size_t bytes = b + 1 == other.blocks_.size() ? other.used_ : from.capacity;
      std::memcpy(blocks_.back().data, from.data, bytes);
    }
  } catch (...) {
    release();
    throw;
  }
}

StepLog& StepLog::operator=(const StepLog& other) {
  if (this != &other) {
    StepLog copy(other);
    *this = std::move(copy);
  }
  return *this;
}

StepLog::StepLog(StepLog&& other) noexcept
    : blocks_(std::exchange(other.blocks_, {})),
      used_(std::exchange(other.used_, 0)),
      index_(std::exchange(other.index_, {})),
      record_bytes_(std::exchange(other.record_bytes_, 0)) {}

StepLog& StepLog::operator=(StepLog&& other) noexcept {
  if (this != &other) {
    release();
    blocks_ = std::exchange(other.blocks_, {});
    used_ = std::exchange(other.used_, 0);
    index_ = std::exchange(other.index_, {});
    record_bytes_ = std::exchange(other.record_bytes_, 0);
  }
  return *this;
}

StepLog::~StepLog() { release(); }

void StepLog::release() noexcept {
  for (const Block& b : blocks_) free_block(b.data, b.capacity);
  blocks_.clear();
  used_ = 0;
}

void StepLog::clear() noexcept {
  release();
  index_.clear();
  record_bytes_ = 0;
}

std::size_t StepLog::bytes() const noexcept {
  std::size_t total = index_.capacity() * sizeof(std::uint64_t);
  for (const Block& b : blocks_) total += b.capacity;
  return total;
}

std::byte* StepLog::reserve_record(std::size_t bytes) {
  if (blocks_.empty() || used_ + bytes > blocks_.back().capacity) {
    // One small block, so that a short trace stays small; then 2 MiB blocks, which earlier traces
    // of the process have usually left already faulted in (large_blocks.hpp).
    const std::size_t capacity = blocks_.empty() ? kFirstBlock : detail::kLargeBlock;
    blocks_.push_back({allocate_block(capacity), capacity});
    used_ = 0;
  }
  index_.push_back(std::uint64_t{blocks_.size() - 1} << 32 | used_);
  std::byte* const at = blocks_.back().data + used_;
  used_ += bytes;
  record_bytes_ += bytes;
  return at;
}

namespace {

// The bytes of a record with this header (before padding), from its layout alone.
std::size_t record_size(std::uint8_t layout) {
  const bool wide = layout & kWide;
  const bool shuffle = layout & kShuffle;
  const std::size_t value_bytes = (wide ? 8 : 4) * std::size_t{kWarpSize};
  auto section = [](bool per_lane, std::size_t entry) { return per_lane ? entry * kWarpSize : entry; };
  std::size_t bytes = sizeof(Header) + ((layout & kOutputIsSourceInput) ? 1 : 2) * value_bytes;
  if (shuffle) {
    bytes += section(layout & kArgPerLane, 4) + section(layout & kWidthPerLane, 4) + kWarpSize;
  }
  return bytes + section(layout & kMaskPerLane, 4) + section(layout & kSitePerLane, sizeof(SourceLine));
}

}  // namespace

std::string StepLog::serialize() const {
  std::string out;
  out.reserve(record_bytes_ + 16);
  const std::uint64_t count = index_.size();
  out.append(reinterpret_cast<const char*>(&count), sizeof count);
  for (const std::uint64_t at : index_) {
    const std::byte* record = blocks_[at >> 32].data + (at & 0xffffffffu);
    Header h;
    std::memcpy(&h, record, sizeof h);
    out.append(reinterpret_cast<const char*>(record), padded(record_size(h.layout)));
  }
  return out;
}

std::optional<StepLog> StepLog::deserialize(std::string_view bytes) {
  StepLog log;
  std::uint64_t count = 0;
  if (bytes.size() < sizeof count) return std::nullopt;
  std::memcpy(&count, bytes.data(), sizeof count);
  std::size_t at = sizeof count;
  for (std::uint64_t i = 0; i < count; ++i) {
    Header h;
    if (bytes.size() - at < sizeof h) return std::nullopt;
    std::memcpy(&h, bytes.data() + at, sizeof h);
    if (static_cast<int>(h.op) >= kOpCount) return std::nullopt;
    const std::size_t size = padded(record_size(h.layout));
    if (bytes.size() - at < size) return std::nullopt;
    std::memcpy(log.reserve_record(size), bytes.data() + at, size);
    at += size;
  }
  if (at != bytes.size()) return std::nullopt;
  return log;
}

void StepLog::append(const Source& s) {
  const bool wide = is_64bit(s.type);
  // Shuffles and named barriers keep their argument and width (a barrier's id and thread count).
  const bool shuffle = has_argument(s.op);
  std::uint8_t layout = (wide ? kWide : 0) | (shuffle ? kShuffle : 0);
  if (shuffle && !lanes::same_in(s.arg, s.participants)) layout |= kArgPerLane;
  if (shuffle && !lanes::same_in(s.width, s.participants)) layout |= kWidthPerLane;
  if (!lanes::same_in(s.lane_mask, s.participants)) layout |= kMaskPerLane;
  if (!lanes::same_in(s.where, s.participants)) layout |= kSitePerLane;
  if (shuffle && s.output_is_source_input) {
    assert(outputs_are_source_inputs(s) && "the runtime's promise holds");
    layout |= kOutputIsSourceInput;
  }

  std::byte* at = reserve_record(padded(record_size(layout)));

  const Header h{s.block, s.warp,   s.sequence, s.mask,     s.participants, s.exited,
                 s.undefined, s.pred, s.op,   s.type, layout, 0};
  at = put(at, &h, 1);
  // Entries are copied from the lowest participant when shared (lane 0 may not take part).
  const std::size_t first = s.participants != 0 ? static_cast<std::size_t>(std::countr_zero(s.participants)) : 0;
  at = put_values(at, s.input, wide);
  if (!(layout & kOutputIsSourceInput)) at = put_values(at, s.output, wide);
  if (shuffle) {
    at = (layout & kArgPerLane) ? put(at, s.arg, kWarpSize) : put(at, s.arg + first, 1);
    at = (layout & kWidthPerLane) ? put(at, s.width, kWarpSize) : put(at, s.width + first, 1);
    at = put(at, s.src_lane, kWarpSize);
  }
  at = (layout & kMaskPerLane) ? put(at, s.lane_mask, kWarpSize) : put(at, s.lane_mask + first, 1);
  (layout & kSitePerLane) ? put(at, s.where, kWarpSize) : put(at, s.where + first, 1);
}

void StepLog::push_back(const TraceStep& step) {
  Source s;
  s.op = step.op;
  s.type = step.type;
  s.block = step.block;
  s.warp = step.warp;
  s.sequence = step.sequence;
  s.mask = step.mask;
  s.participants = step.participants;
  s.exited = step.exited;
  s.undefined = step.undefined;
  s.pred = step.pred;
  s.input = step.input.data();
  s.arg = step.arg.data();
  s.width = step.width.data();
  s.src_lane = step.src_lane.data();
  s.output = step.output.data();
  s.lane_mask = step.lane_mask.data();
  s.where = step.where.data();
  s.output_is_source_input = is_shuffle(step.op) && outputs_are_source_inputs(s);
  append(s);
}

void StepLog::read(std::size_t i, TraceStep& out) const {
  const std::uint64_t where = index_[i];
  const std::byte* at = blocks_[where >> 32].data + (where & 0xffffffffu);
  Header h;
  std::memcpy(&h, at, sizeof h);
  at += sizeof h;
  out.op = h.op;
  out.type = h.type;
  out.block = h.block;
  out.warp = h.warp;
  out.sequence = h.sequence;
  out.mask = h.mask;
  out.participants = h.participants;
  out.exited = h.exited;
  out.undefined = h.undefined;
  out.pred = h.pred;
  const bool wide = (h.layout & kWide) != 0;
  at = get_values(at, out.input, wide);
  const bool output_stored = (h.layout & kOutputIsSourceInput) == 0;
  if (output_stored) at = get_values(at, out.output, wide);
  if ((h.layout & kShuffle) != 0) {
    at = get(at, out.arg, (h.layout & kArgPerLane) != 0);
    at = get(at, out.width, (h.layout & kWidthPerLane) != 0);
    at = get(at, out.src_lane, true);
    if (!output_stored) {
      for (int lane = 0; lane < kWarpSize; ++lane) {
        out.output[lane] = out.input[static_cast<std::size_t>(out.src_lane[lane]) & 31];
      }
    }
  } else {
    out.arg.fill(0);
    out.width.fill(0);
    out.src_lane.fill(-1);
  }
  at = get(at, out.lane_mask, (h.layout & kMaskPerLane) != 0);
  get(at, out.where, (h.layout & kSitePerLane) != 0);
  for (LaneMask absent = ~h.participants; absent != 0; absent &= absent - 1) {
    const int lane = std::countr_zero(absent);
    out.input[lane] = out.output[lane] = 0;
    out.arg[lane] = out.width[lane] = 0;
    out.src_lane[lane] = -1;
    out.lane_mask[lane] = 0;
    out.where[lane] = {};
  }
}

TraceStep StepLog::operator[](std::size_t i) const {
  TraceStep step;
  read(i, step);
  return step;
}

TraceStep StepLog::at(std::size_t i) const {
  if (i >= size()) {
    throw std::out_of_range("trace step " + std::to_string(i) + " of " + std::to_string(size()));
  }
  return (*this)[i];
}

static_assert(kMaxRecord < kFirstBlock, "a record always fits in a fresh block");

}  // namespace warpsim
