// The wording of the memory checks' diagnostics (diagnostic_text.hpp declares them).
#include <cstdio>
#include <string>

#include "warpsim/diagnostic_text.hpp"

namespace warpsim {
namespace {

// "sdata[17] (shared memory)", "sdata[17] byte 2 ...", "sdata byte 68 ...", or for global
// memory "element 17 of the buffer of --arg 2 (global memory)".
std::string place_text(const facts::MemoryPlace& place) {
  std::string where;
  if (place.element_size != 0) {
    const std::uint64_t element = place.byte_offset / place.element_size;
    const std::uint64_t byte = place.byte_offset % place.element_size;
    where = place.shared ? place.memory + "[" + std::to_string(element) + "]"
                         : "element " + std::to_string(element) + " of " + place.memory;
    if (byte != 0) where += " (byte " + std::to_string(byte) + ")";
  } else {
    where = place.shared ? place.memory + " byte " + std::to_string(place.byte_offset)
                         : "byte " + std::to_string(place.byte_offset) + " of " + place.memory;
  }
  return where + (place.shared ? " (shared memory)" : " (global memory)");
}

// "thread 17 (warp 0, lane 17)", with "of block 3" where `with_block`.
std::string thread_text(const facts::MemoryAccess& access, bool with_block) {
  std::string text = "thread " + std::to_string(access.thread) + " (warp " +
                     std::to_string(access.thread / kWarpSize) + ", lane " +
                     std::to_string(access.thread % kWarpSize) + ")";
  if (with_block) text += " of block " + std::to_string(access.block);
  return text;
}

std::string verb(const facts::MemoryAccess& access) {
  if (access.atomic) return "updates it atomically";
  return access.write ? "writes it" : "reads it";
}

std::string line_text(SourceLine where) { return "line " + std::to_string(where.line); }

}  // namespace

std::string data_race_message(const facts::DataRace& race, std::span<const std::string> files) {
  const facts::MemoryAccess& a = race.first;
  const facts::MemoryAccess& b = race.second;
  const bool same_block = a.block == b.block;
  std::string text = "data race on " + place_text(race.place) + ": " +
                     thread_text(a, !same_block) + " " + verb(a) + " at " +
                     site_text(a.where, files) + " and " + thread_text(b, !same_block) + " " +
                     verb(b) + " at " + site_text(b.where, files);
  if (!same_block) {
    return text +
           ", and nothing orders two blocks of one launch: let each block write only its own "
           "elements, use atomics, or split the work into two launches";
  }
  const bool same_warp = a.thread / kWarpSize == b.thread / kWarpSize;
  const std::string between = a.where.line == b.where.line
                                  ? "between two runs of " + line_text(a.where)
                                  : "between " + line_text(a.where) + " and " + line_text(b.where);
  if (same_warp) {
    text += ", with no __syncwarp() (or __syncthreads()) " + between +
            ": lanes of a warp do not run in lockstep since Volta, and neither volatile nor a "
            "shuffle orders memory";
  } else {
    text += ", with no __syncthreads() " + between;
  }
  if (a.where.line == b.where.line) {
    text += " (if the threads update one shared element there, an atomic such as atomicAdd is the fix)";
  }
  return text;
}

std::string uninitialized_read_message(const facts::UninitializedRead& read,
                                         std::span<const std::string> files) {
  const LaneMask others = read.lanes & ~lane_bit(static_cast<int>(read.read.thread % kWarpSize));
  const std::string who =
      others == 0 ? thread_text(read.read, true) + " reads "
                  : lanes_text(read.lanes) + " of warp " +
                        std::to_string(read.read.thread / kWarpSize) + " of block " +
                        std::to_string(read.read.block) + " read unwritten bytes; the first, " +
                        thread_text(read.read, false) + ", reads ";
  if (!read.place.shared) {
    return who + place_text(read.place) + " at " + site_text(read.read.where, files) +
           ", which nothing has written since it was allocated (no copy, memset or kernel): "
           "device memory starts undefined (cudaMalloc's, or a run buffer given as "
           "TYPE[N]:undefined; under --check uninit warpsim fills it with a pattern; a GPU's bytes "
           "are whatever was there)";
  }
  return who + place_text(read.place) + " at " + site_text(read.read.where, files) +
         ", which no thread of its block has written in this launch: shared memory starts "
         "undefined in every block (the simulator's bytes are left over from another block or "
         "zero; a GPU's are whatever was there)";
}

std::string uninitialized_local_stored_message(const facts::UninitializedRead& stored,
                                               std::uint32_t fill,
                                               std::span<const std::string> files) {
  const LaneMask others = stored.lanes & ~lane_bit(static_cast<int>(stored.read.thread % kWarpSize));
  char pattern[16];
  std::snprintf(pattern, sizeof pattern, "0x%08x", fill);
  const std::string where = place_text(stored.place) + " at " + site_text(stored.read.where, files);
  const std::string why = "(its bytes are " + std::string(pattern) +
                          ", the pattern the build gives locals until they are set; on a GPU the "
                          "register holds whatever was there)";
  if (others == 0) {
    return thread_text(stored.read, true) + " stores to " + where +
           " a value nothing assigned: a local variable read before it was set " + why;
  }
  return lanes_text(stored.lanes) + " of warp " + std::to_string(stored.read.thread / kWarpSize) +
         " of block " + std::to_string(stored.read.block) +
         " store values nothing assigned, local variables read before they were set; the first, " +
         thread_text(stored.read, false) + ", stores to " + where + " " + why;
}

std::string out_of_bounds_message(const facts::OutOfBounds& access,
                                  std::span<const std::string> files) {
  // Rounded toward minus infinity: the byte before the memory is in element -1.
  const auto floor_div = [](std::int64_t a, std::int64_t b) {
    return a >= 0 ? a / b : -((-a + b - 1) / b);
  };
  const std::int64_t size = access.element_size != 0 ? access.element_size : 1;
  const std::int64_t element = floor_div(access.byte_offset, size);
  const std::int64_t count = static_cast<std::int64_t>(access.bytes) / size;
  const char* unit = access.element_size != 0 ? "element " : "byte ";
  std::string text = std::string("out-of-bounds ") + (access.access.write ? "write" : "read") +
                     " of " + unit + std::to_string(element) + " of " + access.memory + " (" +
                     (access.shared ? "shared" : "global") + " memory, " +
                     (count > 0 ? (access.element_size != 0 ? "elements 0.." : "bytes 0..") +
                                      std::to_string(count - 1)
                                : std::string("empty")) +
                     ")";
  if (element >= 0 && element < count) {
    // Starts inside, runs past the end.
    text += ", " + std::to_string(access.access_size) + " bytes from byte " +
            std::to_string(access.byte_offset) + ", past its end,";
  }
  return text + " by " + thread_text(access.access, true) + " at " +
         site_text(access.access.where, files) +
         "; the launch stopped before the access (the memory checks saw it coming)";
}

}  // namespace warpsim
