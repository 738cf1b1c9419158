// The memory checks of one launch (warpsim/memory_checks.hpp): a shadow of every checked byte
// range, four bytes per cell (with a byte mask per access, so neighbouring chars do not clash), holding the last write and up to two reads as stamps (block,
// thread, the thread's clock, the code address, atomic or not), and the clocks that say which
// accesses happen before which:
//   - each thread's clock counts the synchronisations it took part in during its block;
//   - a __syncthreads completes every thread's current clock (barrier_clock_), so an access
//     whose clock is at most its thread's barrier clock happened before anything that runs now;
//   - a __syncwarp joins its participants' views of their warp (a 32-entry vector clock each);
//   - two blocks of one launch are never ordered; atomics never race with atomics.
// So a race is found whatever order the simulator ran the lanes in. Instrumented code reaches
// `access` through the compiler's __tsan_* calls (tsan_callbacks.cpp).
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "warpsim/code_lines.hpp"
#include "warpsim/diagnostic_text.hpp"
#include "warpsim/memory_checks.hpp"
#include "warpsim/trace.hpp"

namespace warpsim::runtime {

class MemoryChecker;
// The checker of the launch running on this thread (initial-exec: the access callbacks read it
// without a __tls_get_addr call).
extern __thread MemoryChecker* tl_checker __attribute__((tls_model("initial-exec")));

class MemoryChecker {
 public:
  MemoryChecker(const MemoryChecks& checks, std::uint32_t block_threads);
  ~MemoryChecker();
  MemoryChecker(const MemoryChecker&) = delete;
  MemoryChecker& operator=(const MemoryChecker&) = delete;

  // The checker of the launch running on this thread, or nullptr.
  static MemoryChecker* current() { return tl_checker; }
  void make_current(bool on);

  void begin_block(std::uint64_t block);
  // The launch's recorded steps: each finding notes how many there were when its access ran
  // (Diagnostic::step_before). nullptr (the default): steps are not recorded.
  void watch_steps(const StepLog* steps) { steps_ = steps; }
  // The byte the kernel's compiler fills never-set locals with (LaunchOptions::never_set_fill; 0:
  // unknown): with the uninitialised-read check, a store of that pattern to global or shared memory is
  // named (uninitialized_local_stored).
  void set_never_set_fill(std::uint8_t fill) { never_set_fill_ = fill; }
  void block_barrier();
  void warp_sync(std::uint32_t warp, LaneMask participants);
  // An arrival of `thread` at an asynchronous barrier (cuda::barrier): returns the clock its
  // accesses so far carry, and moves the clock on.
  std::uint32_t barrier_arrival(std::uint32_t thread);
  // A phase of such a barrier completed with every live thread of the block among its arrivals
  // (thread, clock at arrival): what each did before arriving happens before what runs from now
  // on, as with a __syncthreads. (Accesses made between a thread's arrive and its wait that the
  // simulator ran after the completion count as ordered: such a race is missed, never invented.)
  void barrier_phase(const std::vector<std::pair<std::uint32_t, std::uint32_t>>& arrivals);
  // An access of `size` bytes at `address` by `thread` of the current block, from code at `pc`.
  // false: it is out of bounds of a checked memory (checks.bounds); it is recorded and must not
  // happen: the caller stops the lane before it does (LaunchStatus::out_of_bounds).
  // Every load and store of instrumented code comes here, so the common case is inline: an
  // access within one shadow cell of the memory the previous access was in.
  [[nodiscard, gnu::always_inline]] bool access(std::uintptr_t address, std::size_t size, bool write, bool atomic,
                            std::uintptr_t pc, std::uint32_t thread) {
    Region* const region = last_region_;
    if (region != nullptr && address >= region->begin && size - 1 < kCellBytes &&
        (address & (kCellBytes - 1)) + size <= kCellBytes && address + size <= region->end &&
        thread < threads_ && !clock_overflow_) [[likely]] {
      const std::size_t cell = (address - region->base) / kCellBytes;
      const Stamp now = stamp(site_of(pc), atomic, thread,
                              ((1u << size) - 1) << (address & (kCellBytes - 1)));
      if (!write && !region->memory.shared && region->load(kWrites, cell).site == 0) {
        // A read of bytes that no thread wrote in this launch (a kernel's input): nothing to
        // race with yet; kept for the writes to come (check_cell's read, in short).
        if (region->pattern) [[unlikely]] note_pattern_read(*region, address, size, now);
        const Stamp read0 = region->load(kFirstReads, cell);
        region->store(read0.site == 0 || ordered(read0, now) ? kFirstReads : kSecondReads, cell,
                      now);
        return true;
      }
      bool reported = false;
      if (check_cell(*region, cell, now, address, size, write, reported)) {
        note_unwritten_read(*region, address, size, now);
      }
      return true;
    }
    return access_general(address, size, write, atomic, pc, thread);
  }

  // The races and uninitialised reads found, one diagnostic per pair of lines (per line for
  // reads), with their counts.
  void add_diagnostics(Trace& trace);

 private:
  static constexpr std::uint32_t kMaxClock = (1u << 17) - 1;
  static constexpr std::uint64_t kBlockBits = 20;

  // 64 bits: which access, by whom, when. site 0: no access.
  struct Stamp {
    std::uint64_t site : 12;    // index + 1 into sites_
    std::uint64_t bytes : 4;    // which bytes of the cell's 4
    std::uint64_t atomic : 1;
    std::uint64_t clock : 17;   // the thread's clock in its block
    std::uint64_t thread : 10;  // linear thread index within the block
    std::uint64_t block : 20;   // linear block index, modulo 2^20
  };
  // A cell's last write and up to two reads, kept in three planes of the shadow (one Stamp per
  // cell each), so that a sweep that only reads a buffer stores into one of them: 8 bytes of
  // shadow per 4 bytes read, not 24. A chunk of a plane that nothing was stored in reads as
  // empty without being touched (untouched pages of the mapping cost nothing; a load would
  // fault them in, zeroed, on a system without a zero page for huge pages).
  enum Plane : std::size_t { kWrites = 0, kFirstReads = 1, kSecondReads = 2 };
  static constexpr std::size_t kChunkCells = std::size_t{1} << 18;  // 2 MiB of a plane
  struct Region {
    std::uintptr_t begin = 0, end = 0;  // the checked bytes
    std::uintptr_t guard_begin = 0, guard_end = 0;  // begin - guard_before, end + guard_after
    std::uintptr_t base = 0;            // begin rounded down to a cell
    std::size_t cells = 0;
    Stamp* shadow = nullptr;            // the three planes, `cells` stamps each
    std::size_t mapped = 0;
    std::size_t chunks = 0;             // per plane
    std::vector<std::uint8_t> stored;   // per plane and chunk: whether any stamp was stored there
    Stamp load(Plane plane, std::size_t cell) const {
      return stored[plane * chunks + cell / kChunkCells] != 0 ? shadow[plane * cells + cell]
                                                              : Stamp{};
    }
    void store(Plane plane, std::size_t cell, Stamp stamp) {
      stored[plane * chunks + cell / kChunkCells] = 1;
      shadow[plane * cells + cell] = stamp;
    }
    void clear(Plane plane, std::size_t cell) {  // without touching a chunk never stored in
      if (load(plane, cell).site != 0) shadow[plane * cells + cell] = Stamp{};
    }
    CheckedMemory memory;
    bool pattern = false;  // memory.undefined_pattern, and uninitialized_global is checked
    // Shared memory: the cells written since the block began lie in [written_low, written_high)
    // (what end_block looks through; a block that writes 32 cells of 48 KiB costs 32 looks).
    std::size_t written_low = SIZE_MAX, written_high = 0;
  };
  struct RaceRecord {
    std::size_t region = 0;
    std::uint64_t offset = 0;
    std::uint32_t access_size = 0;
    Stamp first{}, second{};
    bool first_write = false, second_write = false;
    std::uint64_t first_block = 0, second_block = 0;
    std::uint64_t count = 0;
    LaneMask lanes = 0;  // uninitialised reads: the lanes of second's warp and block that read
    std::int64_t step_before = -1;  // the last step recorded before `second` ran
  };

  // An access out of bounds of a region: the first of each code site, with the count.
  struct BoundsRecord {
    std::size_t region = 0;
    std::int64_t offset = 0;  // from the region's begin, negative before it
    std::uint32_t access_size = 0;
    bool write = false;
    std::uint16_t site = 0;
    std::uint32_t thread = 0;
    std::uint64_t block = 0;
    std::uint64_t count = 0;
  };
  void report_out_of_bounds(const Region& region, std::uintptr_t address, std::size_t size,
                            bool write, std::uint16_t site, std::uint32_t thread);

  static constexpr std::uintptr_t kCellBytes = 4;

  bool access_general(std::uintptr_t address, std::size_t size, bool write, bool atomic,
                      std::uintptr_t pc, std::uint32_t thread);
  // The stamp of an access by `thread` touching `bytes` of a cell (built as one word: the
  // per-field stores of a bit-field cost several instructions each, on every access).
  Stamp stamp(std::uint16_t site, bool atomic, std::uint32_t thread, std::uint32_t bytes = 0) const {
    static_assert(std::bit_cast<std::uint64_t>(Stamp{.site = 1, .bytes = 2, .atomic = 1, .clock = 0, .thread = 0, .block = 0}) ==
                  (1u | 2u << 12 | 1u << 16));
    return std::bit_cast<Stamp>(std::bit_cast<std::uint64_t>(thread_stamp_[thread]) |
                                (site & 0xfffu) | (bytes & 0xfu) << 12 |
                                std::uint64_t{atomic} << 16);
  }
  // One cell's part of an access `now` (whose `bytes` are the cell's bytes it touches): a race
  // with what the cell holds is reported (once per access: `reported`), then the cell records it.
  // true: a read of shared memory that no write of this block precedes in the cell.
  [[gnu::always_inline]] bool check_cell(Region& region, std::size_t cell, Stamp now, std::uintptr_t address,
                  std::size_t size, bool write, bool& reported) {
    // Each block has its own shared memory: what another block left here is not there (for
    // every later block: stale stamps may stay in the shadow, each access reads past them).
    const bool shared = region.memory.shared;
    const auto current = [&](Stamp s) {
      return shared && s.site != 0 && s.block != now.block ? Stamp{} : s;
    };
    const auto races_with = [&](Stamp earlier) {
      return earlier.site != 0 && (earlier.bytes & now.bytes) != 0 &&
             !(earlier.atomic && now.atomic) && !ordered(earlier, now);
    };
    const Stamp written = current(region.load(kWrites, cell));
    if (!write) {
      const bool unwritten = shared && written.site == 0;
      if (checks_.races && !reported && races_with(written)) [[unlikely]] {
        report_race(region, address, size, written, true, now, false);
        reported = true;
      }
      // Keep a read that the new one does not follow (it may race with a later write).
      const Stamp read0 = current(region.load(kFirstReads, cell));
      region.store(read0.site == 0 || ordered(read0, now) ? kFirstReads : kSecondReads, cell, now);
      return unwritten;
    }
    if (checks_.races && !reported) {
      const Stamp read0 = current(region.load(kFirstReads, cell));
      if (races_with(written)) [[unlikely]] {
        report_race(region, address, size, written, true, now, true);
        reported = true;
      } else if (races_with(read0)) [[unlikely]] {
        report_race(region, address, size, read0, false, now, true);
        reported = true;
      } else if (const Stamp read1 = current(region.load(kSecondReads, cell)); races_with(read1))
          [[unlikely]] {
        report_race(region, address, size, read1, false, now, true);
        reported = true;
      }
    }
    region.store(kWrites, cell, now);
    if (shared) {
      region.written_low = std::min(region.written_low, cell);
      region.written_high = std::max(region.written_high, cell + 1);
    }
    region.clear(kFirstReads, cell);
    region.clear(kSecondReads, cell);
    return false;
  }
  // A read of shared bytes not written (yet) in this block: settled at the block's end.
  void note_unwritten_read(const Region& region, std::uintptr_t address, std::size_t size,
                           Stamp now);
  // A read of global memory that holds the undefined pattern (Region::pattern): reported when
  // every cell it touches still holds the pattern and no thread wrote any of them in this launch.
  void note_pattern_read(const Region& region, std::uintptr_t address, std::size_t size,
                         Stamp now);

  bool ordered(Stamp earlier, Stamp now) const {
    if (earlier.block != now.block) return false;  // blocks of one launch are never ordered
    if (earlier.thread == now.thread) return true;
    if (earlier.thread >= threads_) return false;
    if (earlier.clock <= barrier_clock_[earlier.thread]) return true;
    if (earlier.thread / kWarpSize != now.thread / kWarpSize) return false;
    return warp_view_[std::size_t{now.thread} * kWarpSize + earlier.thread % kWarpSize] >=
           earlier.clock;
  }
  void report_race(const Region& region, std::uintptr_t address, std::size_t size, Stamp earlier,
                   bool earlier_write, Stamp now, bool now_write);
  void note_for_a_crash(const Region& region, std::uintptr_t address, std::size_t size, Stamp now);
  void report_uninitialized(const Region& region, std::uintptr_t address, std::size_t size,
                            Stamp now, std::int64_t step_before);
  std::uint16_t site_of(std::uintptr_t pc) {  // 1 to kMaxSites
    const SiteCacheEntry& cached = site_cache_[(pc ^ (pc >> 8)) % site_cache_.size()];
    return cached.pc == pc ? cached.site : site_of_slow(pc);
  }
  std::uint16_t site_of_slow(std::uintptr_t pc);
  Region* find(std::uintptr_t address);
  std::uint64_t full_block(Stamp stamp) const;

  MemoryChecks checks_;
  std::uint32_t threads_;
  std::vector<Region> regions_;
  std::uint64_t block_ = 0;
  const StepLog* steps_ = nullptr;
  std::uint8_t never_set_fill_ = 0;
  // Stores of never_set_fill_'s pattern whole: a 4-byte cell whose last write in this launch (in
  // shared memory: in this block) wrote all of it, plainly, and which holds the pattern when its
  // memory is looked at: shared memory at each block's end (end_block), global memory at the
  // launch's. One record per store site (and memory), the first store's place and thread, with
  // the lanes of that thread's warp and block that stored it too.
  struct NeverSetStore {
    std::uint16_t site = 0;
    std::size_t region = 0;
    std::uint64_t offset = 0;
    std::uint64_t block = 0;
    std::uint32_t thread = 0;
    LaneMask lanes = 0;
    std::uint64_t count = 0;
  };
  std::vector<NeverSetStore> never_set_stores_;
  void note_never_set_stores(const Region& region, std::size_t from_cell, std::size_t to_cell);
  void add_never_set_stores(Trace& trace, const std::vector<CodeLine>& lines);
  // What a block leaves to be settled when it ends: its pending shared reads, and the never-set
  // values stored to its shared memory (which the next block's start or the launch's end ends).
  void end_block();
  // The last step recorded so far (-1: none, or no steps recorded).
  std::int64_t last_step() const {
    return steps_ != nullptr ? static_cast<std::int64_t>(steps_->size()) - 1 : -1;
  }
  // Per thread of the block: its stamp but for the access (no site, bytes, atomic), whose
  // `clock` is the thread's clock, counting the synchronisations it took part in.
  std::vector<Stamp> thread_stamp_;
  void start_clocks();  // every thread's clock at 1, in block_
  void tick(std::uint32_t thread);  // the thread's clock, one on
  std::vector<std::uint32_t> barrier_clock_;  // each thread's clock at the last __syncthreads
  std::vector<std::uint32_t> warp_view_;      // per thread, 32 entries: what it knows of its warp
  bool clock_overflow_ = false;
  std::vector<std::uintptr_t> sites_;  // code addresses (return addresses of the calls)
  std::unordered_map<std::uintptr_t, std::uint16_t> site_index_;
  struct SiteCacheEntry {
    std::uintptr_t pc = 0;
    std::uint16_t site = 0;
  };
  std::array<SiteCacheEntry, 256> site_cache_{};  // direct-mapped, in front of site_index_
  Region* last_region_ = nullptr;                 // where the previous access was
  std::unordered_map<std::uint64_t, RaceRecord> races_;  // by the pair of sites
  std::vector<std::uint64_t> race_order_;                // keys in order found
  // Reads of shared bytes not written (yet) in this block; at the block's end, those whose bytes
  // no thread of the block wrote at all become reports, whatever order the lanes ran in.
  struct PendingRead {
    const Region* region = nullptr;
    std::uintptr_t address = 0;
    std::size_t size = 0;
    Stamp stamp{};
    std::int64_t step_before = -1;
  };
  std::vector<PendingRead> pending_reads_;
  void settle_pending_reads();
  std::vector<BoundsRecord> out_of_bounds_;  // in order found
  // Uninitialised reads by site and memory (site | shared << 16), in order found.
  std::unordered_map<std::uint32_t, RaceRecord> uninitialized_;
  std::vector<std::uint32_t> uninitialized_order_;
  MemoryChecker* outer_ = nullptr;
};

}  // namespace warpsim::runtime
