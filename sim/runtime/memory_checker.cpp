#include "memory_checker.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "warpsim/code_lines.hpp"
#include "warpsim/crash_note.hpp"

namespace warpsim::runtime {
namespace {

constexpr std::size_t kMaxSites = 0xfff;
constexpr std::size_t kMaxPendingReads = std::size_t{1} << 22;
constexpr std::size_t kHugeShadowBytes = std::size_t{8} << 20;

}  // namespace

__thread MemoryChecker* tl_checker __attribute__((tls_model("initial-exec"))) = nullptr;

MemoryChecker::MemoryChecker(const MemoryChecks& checks, std::uint32_t block_threads)
    : checks_(checks), threads_(block_threads) {
  for (const CheckedMemory& memory : checks_.memory) {
    if (memory.begin == nullptr || memory.bytes == 0) continue;
    Region region;
    region.begin = reinterpret_cast<std::uintptr_t>(memory.begin);
    region.end = region.begin + memory.bytes;
    region.guard_begin = region.begin - std::min<std::uintptr_t>(memory.guard_before, region.begin);
    region.guard_end = region.end + memory.guard_after;
    region.base = region.begin & ~(kCellBytes - 1);
    region.cells = (region.end - region.base + kCellBytes - 1) / kCellBytes;
    region.mapped = region.cells * 3 * sizeof(Stamp);
    // Untouched pages cost nothing: a large buffer's shadow is paid for as it is used.
    void* shadow = mmap(nullptr, region.mapped, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (shadow == MAP_FAILED) {
      throw std::invalid_argument("cannot map the race checker's shadow of " + memory.name +
                                  " (" + std::to_string(memory.bytes) + " bytes)");
    }
    // A large shadow is touched page by page as the kernel sweeps its buffer (two to six bytes of
    // shadow per byte): in huge pages, where the system offers them, it costs 1/512 of the faults
    // (measured: most of the checked grid-stride sum's time went to faulting 4 KiB pages in).
    if (region.mapped >= kHugeShadowBytes) madvise(shadow, region.mapped, MADV_HUGEPAGE);
    region.shadow = static_cast<Stamp*>(shadow);
    region.chunks = (region.cells + kChunkCells - 1) / kChunkCells;
    region.stored.assign(3 * region.chunks, 0);
    region.memory = memory;
    region.pattern = memory.undefined_pattern && !memory.shared && checks_.uninitialized_global;
    regions_.push_back(std::move(region));
  }
  start_clocks();
  barrier_clock_.assign(threads_, 0);
  warp_view_.assign(std::size_t{threads_} * kWarpSize, 0);
}

MemoryChecker::~MemoryChecker() {
  make_current(false);
  for (Region& region : regions_) munmap(region.shadow, region.mapped);
}

void MemoryChecker::make_current(bool on) {
  if (on && tl_checker != this) {
    outer_ = tl_checker;
    tl_checker = this;
  } else if (!on && tl_checker == this) {
    tl_checker = outer_;
  }
}

void MemoryChecker::begin_block(std::uint64_t block) {
  end_block();
  block_ = block;
  start_clocks();
  std::fill(barrier_clock_.begin(), barrier_clock_.end(), 0);
  std::fill(warp_view_.begin(), warp_view_.end(), 0);
}

void MemoryChecker::start_clocks() {
  thread_stamp_.assign(threads_, Stamp{});
  for (std::uint32_t t = 0; t < threads_; ++t) {
    Stamp& s = thread_stamp_[t];
    s.clock = 1;
    s.thread = t & 1023u;
    s.block = block_ & ((std::uint64_t{1} << kBlockBits) - 1);
  }
}

void MemoryChecker::tick(std::uint32_t thread) {
  Stamp& s = thread_stamp_[thread];
  if (s.clock < kMaxClock) {
    s.clock = (s.clock + 1) & kMaxClock;
  } else {
    clock_overflow_ = true;
  }
}

void MemoryChecker::block_barrier() {
  for (std::uint32_t t = 0; t < threads_; ++t) {
    barrier_clock_[t] = static_cast<std::uint32_t>(thread_stamp_[t].clock);
    tick(t);
  }
}

std::uint32_t MemoryChecker::barrier_arrival(std::uint32_t thread) {
  if (thread >= threads_) return 0;
  const auto clock = static_cast<std::uint32_t>(thread_stamp_[thread].clock);
  tick(thread);
  return clock;
}

void MemoryChecker::barrier_phase(
    const std::vector<std::pair<std::uint32_t, std::uint32_t>>& arrivals) {
  for (const auto& [thread, clock] : arrivals) {
    if (thread < threads_) barrier_clock_[thread] = std::max(barrier_clock_[thread], clock);
  }
}

void MemoryChecker::warp_sync(std::uint32_t warp, LaneMask participants) {
  const std::uint32_t first = warp * kWarpSize;
  std::uint32_t joined[kWarpSize] = {};
  for (LaneMask m = participants; m != 0; m &= m - 1) {
    const std::uint32_t lane = static_cast<std::uint32_t>(std::countr_zero(m));
    if (first + lane >= threads_) continue;
    const std::uint32_t* view = &warp_view_[std::size_t{first + lane} * kWarpSize];
    for (std::uint32_t k = 0; k < kWarpSize; ++k) joined[k] = std::max(joined[k], view[k]);
    joined[lane] = std::max(joined[lane], static_cast<std::uint32_t>(thread_stamp_[first + lane].clock));
  }
  for (LaneMask m = participants; m != 0; m &= m - 1) {
    const std::uint32_t lane = static_cast<std::uint32_t>(std::countr_zero(m));
    const std::uint32_t thread = first + lane;
    if (thread >= threads_) continue;
    std::copy(joined, joined + kWarpSize, &warp_view_[std::size_t{thread} * kWarpSize]);
    tick(thread);
  }
}

MemoryChecker::Region* MemoryChecker::find(std::uintptr_t address) {
  if (last_region_ != nullptr && address >= last_region_->begin && address < last_region_->end) {
    return last_region_;
  }
  for (Region& region : regions_) {
    if (address >= region.guard_begin && address < region.guard_end) {
      // An address in a guard is no region's to remember: the next access is checked again.
      return address >= region.begin && address < region.end ? last_region_ = &region : &region;
    }
  }
  return nullptr;
}

std::uint16_t MemoryChecker::site_of_slow(std::uintptr_t pc) {
  SiteCacheEntry& cached = site_cache_[(pc ^ (pc >> 8)) % site_cache_.size()];
  if (const auto it = site_index_.find(pc); it != site_index_.end()) {
    cached = {pc, it->second};
    return it->second;
  }
  if (sites_.size() >= kMaxSites) return static_cast<std::uint16_t>(kMaxSites);  // shares the last
  sites_.push_back(pc);
  const auto index = static_cast<std::uint16_t>(sites_.size());
  site_index_.emplace(pc, index);
  return index;
}

std::uint64_t MemoryChecker::full_block(Stamp stamp) const {
  const std::uint64_t mask = (std::uint64_t{1} << kBlockBits) - 1;
  return (block_ & mask) == stamp.block ? block_ : stamp.block;
}

bool MemoryChecker::access_general(std::uintptr_t address, std::size_t size, bool write,
                                   bool atomic, std::uintptr_t pc, std::uint32_t thread) {
  Region* region = find(address);
  if (region == nullptr || thread >= threads_) return true;
  const bool outside = address < region->begin || address >= region->end;
  if (outside || (region->guard_end != region->end && region->end - address < size)) [[unlikely]] {
    // In a guard before or after the memory, or starting inside and running into the guard.
    if (checks_.bounds) {
      report_out_of_bounds(*region, address, size, write, site_of(pc), thread);
      return false;
    }
    if (outside) return true;
  }
  if (clock_overflow_) return true;
  Stamp now = stamp(site_of(pc), atomic, thread);
  if (region->pattern && !write) note_pattern_read(*region, address, size, now);
  const std::uintptr_t last = std::min(address + std::max<std::size_t>(size, 1), region->end) - 1;
  bool reported = false;
  bool unwritten = false;
  for (std::uintptr_t cell_address = address & ~(kCellBytes - 1); cell_address <= last;
       cell_address += kCellBytes) {
    const std::size_t cell = (cell_address - region->base) / kCellBytes;
    const std::uintptr_t from = std::max(address, cell_address);
    const std::uintptr_t to = std::min(last, cell_address + kCellBytes - 1);
    now.bytes = (((1u << (to - from + 1)) - 1) << (from - cell_address)) & 0xfu;
    if (check_cell(*region, cell, now, address, size, write, reported)) unwritten = true;
  }
  if (unwritten) note_unwritten_read(*region, address, size, now);
  return true;
}

void MemoryChecker::note_unwritten_read(const Region& region, std::uintptr_t address,
                                        std::size_t size, Stamp now) {
  if (checks_.uninitialized_shared && pending_reads_.size() < kMaxPendingReads) {
    pending_reads_.push_back({&region, address, size, now, last_step()});
  }
}

void MemoryChecker::note_pattern_read(const Region& region, std::uintptr_t address,
                                      std::size_t size, Stamp now) {
  // Whole cells, clipped to the memory: a char read next to a written char is not reported.
  const std::uintptr_t from = std::max(address & ~(kCellBytes - 1), region.begin);
  const std::uintptr_t to =
      std::min((address + std::max<std::size_t>(size, 1) + kCellBytes - 1) & ~(kCellBytes - 1),
               region.end);
  for (std::uintptr_t cell_address = from & ~(kCellBytes - 1); cell_address < to;
       cell_address += kCellBytes) {
    if (region.load(kWrites, (cell_address - region.base) / kCellBytes).site != 0) return;
  }
  for (std::uintptr_t byte = from; byte < to; ++byte) {
    if (*reinterpret_cast<const volatile std::uint8_t*>(byte) != undefined_pattern_byte(byte)) return;
  }
  report_uninitialized(region, address, size, now, last_step());
}

void MemoryChecker::report_out_of_bounds(const Region& region, std::uintptr_t address,
                                         std::size_t size, bool write, std::uint16_t site,
                                         std::uint32_t thread) {
  const std::size_t index = static_cast<std::size_t>(&region - regions_.data());
  for (BoundsRecord& known : out_of_bounds_) {
    if (known.site == site && known.region == index) {
      ++known.count;
      return;
    }
  }
  BoundsRecord record;
  record.region = index;
  record.offset = static_cast<std::int64_t>(address) - static_cast<std::int64_t>(region.begin);
  record.access_size = static_cast<std::uint32_t>(size);
  record.write = write;
  record.site = site;
  record.thread = thread;
  record.block = block_;
  record.count = 1;
  out_of_bounds_.push_back(record);
}

void MemoryChecker::settle_pending_reads() {
  for (const PendingRead& read : pending_reads_) {
    const Region& region = *read.region;
    const std::uintptr_t last = std::min(read.address + std::max<std::size_t>(read.size, 1), region.end) - 1;
    bool written = true;
    for (std::uintptr_t cell_address = read.address & ~(kCellBytes - 1); cell_address <= last;
         cell_address += kCellBytes) {
      const Stamp write = region.load(kWrites, (cell_address - region.base) / kCellBytes);
      if (write.site == 0 || write.block != read.stamp.block) written = false;
    }
    if (!written) report_uninitialized(region, read.address, read.size, read.stamp, read.step_before);
  }
  pending_reads_.clear();
}

void MemoryChecker::report_race(const Region& region, std::uintptr_t address, std::size_t size,
                                Stamp earlier, bool earlier_write, Stamp now, bool now_write) {
  const std::uint64_t low = std::min(earlier.site, now.site);
  const std::uint64_t high = std::max(earlier.site, now.site);
  const std::uint64_t key = low << 16 | high;
  auto [it, inserted] = races_.try_emplace(key);
  RaceRecord& record = it->second;
  ++record.count;
  // Each pair of sites keeps its widest example: threads of two blocks, else of two warps.
  const auto scope = [](Stamp a, Stamp b) {
    return a.block != b.block ? 2 : a.thread / kWarpSize != b.thread / kWarpSize ? 1 : 0;
  };
  if (!inserted && scope(earlier, now) <= scope(record.first, record.second)) return;
  if (inserted) race_order_.push_back(key);
  record.region = static_cast<std::size_t>(&region - regions_.data());
  record.offset = address - region.begin;
  record.access_size = static_cast<std::uint32_t>(size);
  record.first = earlier;
  record.second = now;
  record.first_write = earlier_write;
  record.second_write = now_write;
  record.first_block = full_block(earlier);
  record.second_block = block_;
  record.step_before = last_step();
}

namespace {
// Where an access fell, as the messages name it: in elements of the memory's type, else of the
// access's size.
facts::MemoryPlace memory_place(const CheckedMemory& memory, std::uint64_t byte_offset,
                                std::uint32_t access_size) {
  facts::MemoryPlace p;
  p.memory = memory.name;
  p.shared = memory.shared;
  p.byte_offset = byte_offset;
  p.element_size = memory.element_size != 0 ? memory.element_size : access_size;
  return p;
}

// The line of code site `site` (1-based into `lines`, as Stamp::site), its file entered in the
// trace; line 0 where unknown.
SourceLine line_of_site(std::uint64_t site, const std::vector<CodeLine>& lines, Trace& trace) {
  SourceLine at{};
  if (site != 0 && site - 1u < lines.size() && !lines[site - 1u].file.empty()) {
    at.file = trace.file_index(lines[site - 1u].file);
    at.line = lines[site - 1u].line;
  }
  return at;
}

// A memory finding at `at`'s lane and line, `count` times.
Diagnostic memory_diagnostic(DiagnosticKind kind, std::string message, const facts::MemoryAccess& at,
                             LaneMask lanes, std::uint64_t count) {
  Diagnostic d;
  d.kind = kind;
  d.message = std::move(message);
  d.lanes = lanes;
  d.block = at.block;
  d.warp = at.thread / kWarpSize;
  d.where = at.where;
  d.occurrences = count;
  return d;
}

char g_undefined_read_note[768];
std::atomic<bool> g_undefined_read_claimed{false};
std::atomic<bool> g_undefined_read_ready{false};
}  // namespace

const char* undefined_read_note() noexcept {
  return g_undefined_read_ready.load(std::memory_order_acquire) ? g_undefined_read_note : "";
}

void clear_undefined_read_note() noexcept {
  g_undefined_read_ready.store(false, std::memory_order_relaxed);
  g_undefined_read_claimed.store(false, std::memory_order_release);
}

// The launch's first read of undefined global memory, written out now (crash_note.hpp says why):
// the sentence of its diagnostic, with its line found at once.
void MemoryChecker::note_for_a_crash(const Region& region, std::uintptr_t address,
                                     std::size_t size, Stamp now) {
  if (g_undefined_read_claimed.exchange(true, std::memory_order_acq_rel)) return;
  facts::UninitializedRead read;
  read.place = memory_place(region.memory, address - region.begin, static_cast<std::uint32_t>(size));
  std::vector<std::string> files;
  SourceLine at{};
  if (now.site != 0 && now.site - 1u < sites_.size()) {
    const std::vector<CodeLine> lines = code_lines({sites_[now.site - 1u]});
    if (!lines.empty() && !lines[0].file.empty()) {
      files.push_back(lines[0].file);
      at.line = lines[0].line;
    }
  }
  read.read = {full_block(now), static_cast<std::uint32_t>(now.thread), false, now.atomic != 0, at};
  read.lanes = lane_bit(static_cast<int>(now.thread % kWarpSize));
  std::string text = uninitialized_read_message(read, files);
  for (char& c : text) {
    if (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20) c = '\'';  // a JSON string as it is
  }
  std::snprintf(g_undefined_read_note, sizeof g_undefined_read_note, "%s", text.c_str());
  g_undefined_read_ready.store(true, std::memory_order_release);
}

void MemoryChecker::report_uninitialized(const Region& region, std::uintptr_t address,
                                         std::size_t size, Stamp now, std::int64_t step_before) {
  const std::uint32_t key =
      static_cast<std::uint32_t>(now.site) | std::uint32_t{region.memory.shared} << 16;
  auto [it, inserted] = uninitialized_.try_emplace(key);
  RaceRecord& record = it->second;
  ++record.count;
  if (!inserted) {
    if (record.second_block == block_ && record.second.thread / kWarpSize == now.thread / kWarpSize) {
      record.lanes |= lane_bit(static_cast<int>(now.thread % kWarpSize));
    }
    return;
  }
  record.lanes = lane_bit(static_cast<int>(now.thread % kWarpSize));
  uninitialized_order_.push_back(key);
  if (!region.memory.shared) note_for_a_crash(region, address, size, now);
  record.region = static_cast<std::size_t>(&region - regions_.data());
  record.offset = address - region.begin;
  record.access_size = static_cast<std::uint32_t>(size);
  record.second = now;
  record.second_block = full_block(now);
  record.step_before = step_before;
}

void MemoryChecker::add_diagnostics(Trace& trace) {
  end_block();
  const std::vector<CodeLine> lines = code_lines(sites_);
  const auto where = [&](Stamp stamp) { return line_of_site(stamp.site, lines, trace); };
  const auto place = [&](const RaceRecord& record) {
    return memory_place(regions_[record.region].memory, record.offset, record.access_size);
  };
  const auto diagnostic = memory_diagnostic;

  // One diagnostic per pair of lines, whichever ran first, with the widest example (threads of
  // two blocks, else of two warps): that says which barrier is missing.
  struct Found {
    std::uint64_t lines = 0;
    facts::DataRace race;
    std::uint64_t count = 0;
    std::int64_t step_before = -1;  // race's
  };
  const auto scope = [](const facts::DataRace& race) {
    return race.first.block != race.second.block                            ? 2
           : race.first.thread / kWarpSize != race.second.thread / kWarpSize ? 1
                                                                             : 0;
  };
  std::vector<Found> found;
  for (const std::uint64_t key : race_order_) {
    const RaceRecord& record = races_.at(key);
    facts::DataRace race;
    race.place = place(record);
    race.first = {record.first_block, static_cast<std::uint32_t>(record.first.thread),
                  record.first_write, record.first.atomic != 0, where(record.first)};
    race.second = {record.second_block, static_cast<std::uint32_t>(record.second.thread),
                   record.second_write, record.second.atomic != 0, where(record.second)};
    const auto line_key = [](SourceLine s) { return std::uint64_t{s.file} << 32 | s.line; };
    const std::uint64_t a = line_key(race.first.where), b = line_key(race.second.where);
    const std::uint64_t pair = std::min(a, b) * 0x9e3779b97f4a7c15ull ^ std::max(a, b);
    const auto known = std::find_if(found.begin(), found.end(),
                                    [&](const Found& f) { return f.lines == pair; });
    if (known == found.end()) {
      found.push_back({pair, race, record.count, record.step_before});
    } else {
      known->count += record.count;
      if (scope(race) > scope(known->race)) {
        known->race = race;
        known->step_before = record.step_before;
      }
    }
  }
  for (const Found& f : found) {
    LaneMask lanes = lane_bit(static_cast<int>(f.race.second.thread % kWarpSize));
    if (scope(f.race) == 0) lanes |= lane_bit(static_cast<int>(f.race.first.thread % kWarpSize));
    trace.diagnostics.push_back(diagnostic(DiagnosticKind::data_race,
                                           data_race_message(f.race, trace.files), f.race.second,
                                           lanes, f.count));
    trace.diagnostics.back().step_before = f.step_before;
    if (!(f.race.first.where == f.race.second.where)) {
      trace.diagnostics.back().other_where = f.race.first.where;
    }
  }
  const std::size_t first_uninitialized = trace.diagnostics.size();
  std::vector<facts::UninitializedRead> uninitialized_reads;  // one per diagnostic
  for (const std::uint32_t key : uninitialized_order_) {
    const RaceRecord& record = uninitialized_.at(key);
    facts::UninitializedRead read;
    read.place = place(record);
    read.read = {record.second_block, static_cast<std::uint32_t>(record.second.thread), false,
                 record.second.atomic != 0, where(record.second)};
    read.lanes = record.lanes;
    const auto same_line = std::find_if(
        trace.diagnostics.begin() + static_cast<std::ptrdiff_t>(first_uninitialized),
        trace.diagnostics.end(), [&](const Diagnostic& d) {
          return d.where == read.read.where &&
                 (d.kind == DiagnosticKind::uninitialized_shared_read) == read.place.shared;
        });
    if (same_line != trace.diagnostics.end()) {
      // Another code address of the same line (an unrolled copy): one diagnostic, its lanes
      // joined where they are of the same warp.
      const std::size_t index =
          static_cast<std::size_t>(same_line - trace.diagnostics.begin()) - first_uninitialized;
      same_line->occurrences += record.count;
      facts::UninitializedRead& known = uninitialized_reads[index];
      if (known.read.block == read.read.block &&
          known.read.thread / kWarpSize == read.read.thread / kWarpSize &&
          (known.lanes | read.lanes) != known.lanes) {
        known.lanes |= read.lanes;
        same_line->lanes = known.lanes;
        same_line->message = uninitialized_read_message(known, trace.files);
      }
      continue;
    }
    uninitialized_reads.push_back(read);
    trace.diagnostics.push_back(diagnostic(read.place.shared
                                               ? DiagnosticKind::uninitialized_shared_read
                                               : DiagnosticKind::uninitialized_global_read,
                                           uninitialized_read_message(read, trace.files),
                                           read.read, read.lanes, record.count));
    trace.diagnostics.back().step_before = record.step_before;
  }
  if (checks_.uninitialized_shared && never_set_fill_ != 0) add_never_set_stores(trace, lines);
  for (const BoundsRecord& record : out_of_bounds_) {
    const CheckedMemory& memory = regions_[record.region].memory;
    facts::OutOfBounds oob;
    oob.memory = memory.name;
    oob.shared = memory.shared;
    oob.bytes = memory.bytes;
    oob.byte_offset = record.offset;
    oob.access_size = record.access_size;
    oob.element_size = memory.element_size;
    Stamp stamp{};
    stamp.site = record.site & 0xfffu;
    oob.access = {record.block, record.thread, record.write, false, where(stamp)};
    trace.diagnostics.push_back(diagnostic(DiagnosticKind::out_of_bounds,
                                           out_of_bounds_message(oob, trace.files), oob.access,
                                           lane_bit(static_cast<int>(record.thread % kWarpSize)),
                                           record.count));
  }
  if (clock_overflow_) {
    Diagnostic d;
    d.kind = DiagnosticKind::data_race;
    d.message = "the memory checks stopped: a thread took part in more than " +
                std::to_string(kMaxClock) +
                " barriers or __syncwarp calls in one block, more than the checker counts; "
                "accesses after that were not checked";
    trace.diagnostics.push_back(std::move(d));
  }
}

void MemoryChecker::end_block() {
  settle_pending_reads();
  if (!checks_.uninitialized_shared || never_set_fill_ == 0) return;
  for (Region& region : regions_) {
    if (!region.memory.shared) continue;
    if (region.written_low < region.written_high) {
      note_never_set_stores(region, region.written_low, region.written_high);
    }
    region.written_low = SIZE_MAX;
    region.written_high = 0;
  }
}

void MemoryChecker::note_never_set_stores(const Region& region, std::size_t from_cell,
                                          std::size_t to_cell) {
  // A float, int or pointer of the fill's bytes (0xfe: -1.69e38, -16843010) that a thread stored
  // whole, with nothing written over it since: a local nothing had set.
  if (region.shadow == nullptr) return;
  const std::uint32_t fill = std::uint32_t{never_set_fill_} * 0x01010101u;
  const std::uint64_t this_block = block_ & ((std::uint64_t{1} << kBlockBits) - 1);
  const auto index = static_cast<std::size_t>(&region - regions_.data());
  for (std::size_t chunk = from_cell / kChunkCells; chunk * kChunkCells < to_cell; ++chunk) {
    if (region.stored[kWrites * region.chunks + chunk] == 0) continue;
    const std::size_t last = std::min(to_cell, (chunk + 1) * kChunkCells);
    for (std::size_t cell = std::max(from_cell, chunk * kChunkCells); cell < last; ++cell) {
      const Stamp write = region.shadow[kWrites * region.cells + cell];
      if (write.site == 0 || write.bytes != 0xf || write.atomic != 0) continue;
      if (region.memory.shared && write.block != this_block) continue;  // another block's
      const std::uintptr_t address = region.base + cell * kCellBytes;
      if (address < region.begin || address + kCellBytes > region.end) continue;
      std::uint32_t value = 0;
      std::memcpy(&value, reinterpret_cast<const void*>(address), sizeof value);
      if (value != fill) continue;
      auto known = std::find_if(never_set_stores_.begin(), never_set_stores_.end(),
                                [&](const NeverSetStore& s) {
                                  return s.site == write.site && s.region == index;
                                });
      if (known == never_set_stores_.end()) {
        never_set_stores_.push_back({static_cast<std::uint16_t>(write.site), index,
                                     address - region.begin, full_block(write),
                                     static_cast<std::uint32_t>(write.thread), 0, 0});
        known = never_set_stores_.end() - 1;
      }
      ++known->count;
      if (full_block(write) == known->block && write.thread / kWarpSize == known->thread / kWarpSize) {
        known->lanes |= lane_bit(static_cast<int>(write.thread % kWarpSize));
      }
    }
  }
}

void MemoryChecker::add_never_set_stores(Trace& trace, const std::vector<CodeLine>& lines) {
  for (const Region& region : regions_) {
    if (!region.memory.shared) note_never_set_stores(region, 0, region.cells);
  }
  const std::uint32_t fill = std::uint32_t{never_set_fill_} * 0x01010101u;
  for (const NeverSetStore& s : never_set_stores_) {
    facts::UninitializedRead stored;
    stored.place = memory_place(regions_[s.region].memory, s.offset, kCellBytes);
    stored.read = {s.block, s.thread, true, false, line_of_site(s.site, lines, trace)};
    stored.lanes = s.lanes;
    trace.diagnostics.push_back(memory_diagnostic(
        DiagnosticKind::uninitialized_local_stored,
        uninitialized_local_stored_message(stored, fill, trace.files), stored.read, stored.lanes,
        s.count));
  }
}

}  // namespace warpsim::runtime

namespace warpsim {

void fill_undefined_pattern(void* begin, std::size_t bytes) {
  auto* byte = static_cast<unsigned char*>(begin);
  unsigned char* const end = byte + bytes;
  const auto address = [](const unsigned char* at) { return reinterpret_cast<std::uintptr_t>(at); };
  for (; byte < end && (address(byte) & 7) != 0; ++byte) *byte = undefined_pattern_byte(address(byte));
  for (; end - byte >= 8; byte += 8) {
    const std::uint64_t word = undefined_pattern_word(address(byte));
    std::memcpy(byte, &word, 8);
  }
  for (; byte < end; ++byte) *byte = undefined_pattern_byte(address(byte));
}

}  // namespace warpsim
