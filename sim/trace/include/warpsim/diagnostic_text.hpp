// The wording of every diagnostic and stop message the simulator writes, as pure functions of
// values: what happened (one struct per kind of misuse, below) in, one sentence a student can act
// on out, naming lanes as "lanes 0-15,20" and call sites as "kernel.cu:12". The runtime keeps
// each diagnostic's facts, so that when the same misuse comes back at the same line (in another
// warp, another iteration) it widens the lanes and words the message again.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <variant>

#include "warpsim/sync.hpp"
#include "warpsim/trace.hpp"

namespace warpsim {

// The name a kernel writes for an op: "__shfl_xor_sync", "__activemask", "__syncthreads_count".
std::string cuda_name(Op op);
// "lane 5", "lanes 0-15,20", "no lane".
std::string lanes_text(LaneMask lanes);
// "kernel.cu:12": the file's last path component (of `files`, as Trace::files) and the line.
std::string site_text(SourceLine where, std::span<const std::string> files);

namespace facts {

// caller_not_in_mask: `lanes` called `op` with `mask`, which does not name them.
struct CallerNotInMask {
  Op op{};
  LaneMask lanes = 0;
  LaneMask mask = 0;
};

// mask_mismatch: `lanes` met in one `op`; lane `first` passed `first_mask`, lane `other`
// `other_mask`.
struct MaskMismatch {
  Op op{};
  LaneMask lanes = 0;
  int first = 0, other = 0;
  LaneMask first_mask = 0, other_mask = 0;
};

// split_call_sites: `lanes` at `where` and `others` at `elsewhere` (and at more lines when
// `more_sites`) met in one `op`.
struct SplitCallSites {
  Op op{};
  LaneMask lanes = 0;
  SourceLine where{};
  LaneMask others = 0;
  SourceLine elsewhere{};
  bool more_sites = false;
};

// undefined_source: shuffle readers `lanes` read a lane that gave no value, e.g. `reader` read
// `source`, which is outside the mask, had exited, or did not make the call.
struct UndefinedSource {
  enum class Why : std::uint8_t { outside_mask, exited, not_calling };
  Op op{};
  LaneMask lanes = 0;
  int reader = 0, source = 0;
  Why why = Why::outside_mask;
};

// divergent_syncthreads: threads (`lanes` of the first warp) met in one block barrier from
// different lines or forms: `form` at `where`, `other_form` at `elsewhere`.
struct BarrierSplit {
  LaneMask lanes = 0;
  Op form{};
  SourceLine where{};
  Op other_form{};
  SourceLine elsewhere{};
};

// divergent_syncthreads: `exited_threads` threads of the block exited before `form` completed
// with the others (`lanes`: the waiting lanes of the first warp).
struct BarrierAfterExit {
  LaneMask lanes = 0;
  Op form{};
  std::uint64_t exited_threads = 0;
};

// missing_lane: `lanes`, named in the mask of `op` at `where`, never arrive: they wait in
// `their_op` at `elsewhere` (`waiting`), or `elsewhere` is their last call site.
struct MissingLane {
  Op op{};
  LaneMask lanes = 0;
  SourceLine where{};
  bool waiting = false;  // they wait in `their_op` at `elsewhere` (else: their last call site)
  Op their_op{};
  SourceLine elsewhere{};
};

// deadlock: in warp `warp`, `waiting` wait in `op` at `where` with `mask`; of the lanes it names,
// `missing` are elsewhere: `missing_are` says where.
struct Deadlock {
  enum class MissingAre : std::uint8_t {
    none,             // (no lane named is missing: cannot happen, kept for completeness)
    at_barrier,       // in `their_op` (a block barrier) at `elsewhere`
    at_same_op,       // in the same op at `elsewhere`, with mask `their_mask`
    at_other_op,      // in another op, `their_op`, at `elsewhere`: different ops never meet
    never_arriving,   // neither waiting nor exited
  };
  std::uint32_t warp = 0;
  LaneMask waiting = 0;
  Op op{};
  SourceLine where{};
  LaneMask mask = 0;
  LaneMask missing = 0;
  MissingAre missing_are = MissingAre::none;
  Op their_op{};
  SourceLine elsewhere{};
  LaneMask their_mask = 0;
};

// deadlock: threads wait in __syncthreads that other threads never reach; or (op barrier_sync)
// `lanes` of `warp` wait at named barrier `id` at `where`, which `arrived` of the `needed` warps
// have reached and no other can; it completed `completions` times before in this block.
struct BarrierDeadlock {
  Op op = Op::syncthreads;
  std::uint32_t warp = 0;
  LaneMask lanes = 0;
  std::int32_t id = 0;
  std::int32_t count = 0;  // threads; 0: the whole block
  SourceLine where{};
  std::uint32_t arrived = 0;
  std::uint32_t needed = 0;
  std::uint32_t completions = 0;
};

// named_lane_exited_later: `lanes`, named in `mask` of `op`, had not exited when `callers` made
// it; they never made it and exited afterwards. `left_loop`: their last call was in the call's
// loop (they left it), else they went past the call in a branch. `other_mask`: they made this
// very call, each with a mask of its own (lane `their_lane` passed `their_mask`).
struct NamedLaneExitedLater {
  Op op{};
  LaneMask lanes = 0;
  LaneMask callers = 0;
  LaneMask mask = 0;
  bool left_loop = false;
  bool other_mask = false;
  int their_lane = 0;
  LaneMask their_mask = 0;
};

// activemask_as_mask: `lanes` passed `op` as their mask what their __activemask() at
// `activemask_at` returned; `mask` is what the lowest of them got.
struct ActivemaskAsMask {
  Op op{};
  LaneMask lanes = 0;
  LaneMask mask = 0;
  SourceLine activemask_at{};
};

// uninitialised_value: `lanes` read, through `op`, values that `sources` never set (they hold the
// fill pattern the kernel's compiler gave never-set locals); e.g. `reader` read `source`'s
// `bits`.
struct UninitialisedValue {
  Op op{};
  LaneMask lanes = 0;
  LaneMask sources = 0;
  int reader = 0, source = 0;
  std::uint64_t bits = 0;
};

// One thread's access to memory that a memory check looked at (data races, uninitialised reads).
struct MemoryAccess {
  std::uint64_t block = 0;    // linear block index
  std::uint32_t thread = 0;   // linear thread index within the block (warp and lane follow)
  bool write = false;
  bool atomic = false;
  SourceLine where{};
};

// Which bytes: `memory` ("sdata", "out (argument 1)") at `byte_offset`, an element of
// `element_size` bytes (0: unknown, the offset is named in bytes).
struct MemoryPlace {
  std::string memory;
  bool shared = false;
  std::uint64_t byte_offset = 0;
  std::uint32_t element_size = 0;
};

// data_race: `first` and `second` (in the order the simulator ran them) touched `place`, at
// least one wrote, and no barrier, __syncwarp or pair of atomics ordered them.
struct DataRace {
  MemoryPlace place;
  MemoryAccess first, second;
};

// uninitialized_shared_read: `read` read `place` (shared memory), which no thread of its block
// had written; uninitialized_global_read: `place` is global memory that nothing had written
// since it was allocated.
struct UninitializedRead {
  MemoryPlace place;
  MemoryAccess read;
  LaneMask lanes = 0;  // every lane of read's warp and block that read unwritten bytes there
};

// out_of_bounds (memory checks): `access` was about to touch `access_size` bytes at
// `byte_offset` from the start of `memory` (negative: before it), which holds `bytes`.
struct OutOfBounds {
  std::string memory;
  bool shared = false;
  std::uint64_t bytes = 0;
  std::int64_t byte_offset = 0;
  std::uint32_t access_size = 0;
  std::uint32_t element_size = 0;  // 0: name bytes, not elements
  MemoryAccess access;
};

}  // namespace facts

// "out-of-bounds write of element -1 of the buffer of --arg 1 (global memory, elements 0..31) by
// thread 0 (warp 0, lane 0) of block 0 at k.cu:6; the launch stopped before it".
std::string out_of_bounds_message(const facts::OutOfBounds& access,
                                  std::span<const std::string> files);

// The messages of the memory checks: which bytes, which threads (block, warp, lane) at which
// lines, and what would order them ("no __syncthreads() between line 14 and line 15").
std::string data_race_message(const facts::DataRace& race, std::span<const std::string> files);
std::string uninitialized_read_message(const facts::UninitializedRead& read,
                                         std::span<const std::string> files);
// uninitialized_local_stored: `stored.read` (the storing access) wrote to `stored.place` a value
// that is `fill`'s pattern whole: what the kernel's compiler puts in a local never set.
std::string uninitialized_local_stored_message(const facts::UninitializedRead& stored,
                                               std::uint32_t fill,
                                               std::span<const std::string> files);

// What a diagnostic says, as values. Its kind follows from the alternative.
using DiagnosticFacts =
    std::variant<facts::CallerNotInMask, facts::MaskMismatch, facts::SplitCallSites,
                 facts::UndefinedSource, facts::BarrierSplit, facts::BarrierAfterExit,
                 facts::MissingLane, facts::Deadlock, facts::BarrierDeadlock,
                 facts::NamedLaneExitedLater, facts::ActivemaskAsMask,
                 facts::UninitialisedValue>;

DiagnosticKind kind_of(const DiagnosticFacts& facts);
// The lanes a diagnostic is about (Diagnostic::lanes): those it names first, and for split call
// sites the lanes at the other lines too; for a deadlock the missing lanes, else the waiting ones.
LaneMask lanes_of(const DiagnosticFacts& facts);
// `into` as it reads once `more` (the same misuse again at the same line) is counted in: its lane
// sets widen to the union of both; masks, sites and examples stay those of `into`. Returns whether
// anything the message says changed. Facts of different alternatives leave `into` as it is.
bool merge_facts(DiagnosticFacts& into, const DiagnosticFacts& more);

// The message: one sentence, or two, that names the lanes, the calls and the lines.
std::string diagnostic_message(const DiagnosticFacts& facts, std::span<const std::string> files);

// Lanes of one warp that wait at a barrier, as the messages about barriers name them.
struct BarrierWait {
  std::uint32_t warp = 0;
  LaneMask lanes = 0;
  Op op = Op::syncthreads;
  std::int32_t id = 0;
  std::int32_t count = 0;  // 0: the whole block (or, `counted`, a count of 0 that was passed)
  std::string site;        // "k.cu:12"
  bool counted = false;    // __barrier_sync_count
};
// The call as the kernel wrote it: "__syncthreads()", "__barrier_sync(2)",
// "__barrier_sync_count(1, 64)".
std::string barrier_call_text(const BarrierWait& wait);
// A named barrier's operands are wrong (sync::check_named_barrier): what, and what is allowed.
std::string named_barrier_misuse_message(const BarrierWait& call, sync::NamedBarrierMisuse misuse,
                                         std::uint32_t block_threads);
// The lanes of one warp wait at two different barriers (or counts): a warp arrives whole.
std::string barrier_split_message(const BarrierWait& a, const BarrierWait& b);
// Two warps wait at one barrier with different thread counts.
std::string barrier_count_message(const BarrierWait& a, const BarrierWait& b);

// Messages of a launch that stops (LaunchResult::message).
std::string deadlock_stop_message(std::uint64_t block, const std::string& what);
std::string step_budget_message(std::uint64_t max_steps, std::uint64_t block, std::uint32_t warp,
                                const std::string& site);
std::string kernel_exception_message(const char* what);  // nullptr: not a std::exception

// Lanes of one warp that spun in the same loop until the run stopped as a livelock.
struct LivelockSpinner {
  std::uint32_t warp = 0;
  LaneMask lanes = 0;
  SourceLine where{};  // line 0: no loop of a kernel file (an atomic in a loop of compiled code)
};
// "livelock in block 0: lanes 0-31 of warp 0 spun without progress at k.cu:12 (...)"; `waiting`:
// lanes of the block that wait in warp-level calls or barriers meanwhile; `blocks_resident`: the
// launch's blocks run at once (a cooperative launch), so no other block progressed either.
std::string livelock_stop_message(std::uint64_t block, std::uint64_t spin_limit,
                                  std::span<const LivelockSpinner> spinners, std::uint64_t waiting,
                                  std::span<const std::string> files, bool blocks_resident = false);
// "the time limit passed while block 0 ran: ... lanes 0-31 of warp 0 were in the loop at k.cu:12"
// (`spinners`: the lanes that had looped since the block last progressed).
std::string time_limit_stop_message(std::uint64_t block, std::span<const LivelockSpinner> spinners,
                                    std::span<const std::string> files);

}  // namespace warpsim
