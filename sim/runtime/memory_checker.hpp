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
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "warpsim/diagnostic_text.hpp"
#include "warpsim/memory_checks.hpp"
#include "warpsim/trace.hpp"

namespace warpsim::runtime {

class MemoryChecker {
 public:
  MemoryChecker(const MemoryChecks& checks, std::uint32_t block_threads);
  ~MemoryChecker();
  MemoryChecker(const MemoryChecker&) = delete;
  MemoryChecker& operator=(const MemoryChecker&) = delete;

  // The checker of the launch running on this thread, or nullptr.
  static MemoryChecker* current();
  void make_current(bool on);

  void begin_block(std::uint64_t block);
  void block_barrier();
  void warp_sync(std::uint32_t warp, LaneMask participants);
  // An access of `size` bytes at `address` by `thread` of the current block, from code at `pc`.
  // false: it is out of bounds of a checked memory (checks.bounds); it is recorded and must not
  // happen: the caller stops the lane before it does (LaunchStatus::out_of_bounds).
  [[nodiscard]] bool access(std::uintptr_t address, std::size_t size, bool write, bool atomic,
                            std::uintptr_t pc, std::uint32_t thread);

  // The races and uninitialised reads found, one diagnostic per pair of lines (per line for
  // reads), with their counts.
  void add_diagnostics(Trace& trace);

 private:
  // 64 bits: which access, by whom, when. site 0: no access.
  struct Stamp {
    std::uint64_t site : 12;    // index + 1 into sites_
    std::uint64_t bytes : 4;    // which bytes of the cell's 4
    std::uint64_t atomic : 1;
    std::uint64_t clock : 17;   // the thread's clock in its block
    std::uint64_t thread : 10;  // linear thread index within the block
    std::uint64_t block : 20;   // linear block index, modulo 2^20
  };
  struct Cell {
    Stamp write;
    Stamp read[2];
  };
  struct Region {
    std::uintptr_t begin = 0, end = 0;  // the checked bytes
    std::uintptr_t guard_begin = 0, guard_end = 0;  // begin - guard_before, end + guard_after
    std::uintptr_t base = 0;            // begin rounded down to a cell
    Cell* cells = nullptr;
    std::size_t mapped = 0;
    CheckedMemory memory;
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

  bool ordered(Stamp earlier, Stamp now) const;
  void report_race(const Region& region, std::uintptr_t address, std::size_t size, Stamp earlier,
                   bool earlier_write, Stamp now, bool now_write);
  void report_uninitialized(const Region& region, std::uintptr_t address, std::size_t size,
                            Stamp now);
  std::uint16_t site_of(std::uintptr_t pc);  // 1 to kMaxSites
  Region* find(std::uintptr_t address);
  std::uint64_t full_block(Stamp stamp) const;

  MemoryChecks checks_;
  std::uint32_t threads_;
  std::vector<Region> regions_;
  std::uint64_t block_ = 0;
  std::vector<std::uint32_t> clock_;          // per thread of the block
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
  };
  std::vector<PendingRead> pending_reads_;
  void settle_pending_reads();
  std::vector<BoundsRecord> out_of_bounds_;  // in order found
  std::unordered_map<std::uint16_t, RaceRecord> uninitialized_;  // by site
  std::vector<std::uint16_t> uninitialized_order_;
  MemoryChecker* outer_ = nullptr;
};

}  // namespace warpsim::runtime
