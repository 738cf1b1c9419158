// The device-side recorder for `warpsim run --gpu`: source text put in front of the user's kernel
// file so that every warp-level call and block barrier a traced thread makes is logged in order,
// as the simulator's trace would show that thread's lane.
//
//   std::string text = traced_source(user_source, "/abs/kernel.cu");
//   // compile `text` with NVRTC (name expression "&warpsim_trace_state"), write a
//   // DeviceTraceState into that variable, launch, then read counts and records back.
//
// How a call is recorded: the prelude is generated from the intrinsic table
// (warpsim/intrinsic_table.hpp). For every traced intrinsic it defines a struct
// `warpsim_trace_NAME { unsigned line; ... }` whose operator() overloads have exactly CUDA's
// parameter lists (so overload resolution picks the operand type CUDA would, and defaults such as
// __syncwarp's mask apply), call the real intrinsic and append {op, type, mask, input bits,
// output bits, arg, width, line, pred} to the calling thread's slot. Then it defines
// `#define __shfl_sync(...) warpsim_trace_shfl_sync{__LINE__}(__VA_ARGS__)` and the like (inside
// `#if __CUDA_ARCH__ >= ...` for intrinsics newer than sm_30), after a `#line 1 "<user file>"`, so
// __LINE__ is the user's line and compiler messages name the user's file and lines. Bits follow the
// simulator (sim/shim/warpsim/value_bits.hpp): the operand's bytes in the low bytes of a zeroed
// 64-bit word; votes carry the int predicate, block barriers 0 or 1, and the type is the one the
// table's overload records.
//
// CUDA's own headers: <cuda_fp16.h> and <cuda_bf16.h> define intrinsic overloads themselves, so
// they are included first, with no macro defined (a later `#include` of them in the user's file is
// a no-op). The cooperative-groups headers only *call* intrinsics; for a file that uses them they
// are included while the macros pass line 0, so that tile and coalesced-group collectives are
// recorded exactly as the hardware executes them (the simulator's groups make the same intrinsic
// calls) and carry line 0: "inside CUDA's headers, line unknown". compare() skips the line check
// for such calls. They cost NVRTC about a second, so files that never name them go without.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "warpsim/semantics.hpp"

namespace warpsim::gpu {

// One record as the device writes it; the prelude's WarpsimDeviceCall has the same layout.
struct DeviceCallRecord {
  std::uint64_t input = 0;
  std::uint64_t output = 0;
  std::int32_t arg = 0;
  std::int32_t width = 0;
  std::uint32_t mask = 0;
  std::uint32_t line = 0;
  std::uint8_t op = 0;    // warpsim::Op
  std::uint8_t type = 0;  // warpsim::ValueType
  std::uint8_t pred = 0;  // match_all: *pred
  std::uint8_t reserved0 = 0;
  std::uint32_t reserved1 = 0;
};
static_assert(sizeof(DeviceCallRecord) == 40);

// What the recorder reads from the `__device__` variable kTraceStateSymbol; the prelude's
// WarpsimTraceState has the same layout. All zero (the module's initial value): nothing recorded.
struct DeviceTraceState {
  std::uint64_t calls = 0;   // device address of DeviceCallRecord[traced threads * capacity]
  std::uint64_t counts = 0;  // device address of uint64[traced threads]: calls each thread made
  std::uint64_t traced_blocks = 0;      // blocks with linear index below this are traced
  std::uint32_t threads_per_block = 0;  // slot of a thread: block * threads_per_block + thread
  std::uint32_t capacity = 0;           // records per thread; later calls are only counted
};
static_assert(sizeof(DeviceTraceState) == 32);

inline constexpr const char* kTraceStateSymbol = "warpsim_trace_state";
// NVRTC name expression that yields the variable's lowered name.
inline constexpr const char* kTraceStateExpression = "&warpsim_trace_state";
// The file name NVRTC reports for errors inside the prelude itself.
inline constexpr const char* kPreludeFileName = "<warpsim-device-trace>";

// The CUDA spelling of every intrinsic the prelude redefines as a macro ("__shfl_sync", ...,
// "__syncthreads_or"), one per Op, from the simulator's intrinsic table.
std::vector<std::string_view> traced_intrinsic_names();

// The prelude alone (ends with the user-line macros defined, before any #line to the user file);
// with the cooperative-groups headers included under line-0 macros when `cooperative_groups`.
std::string device_trace_prelude(bool cooperative_groups = true);

// prelude + `#line 1 "<path>"` + source: the translation unit compiled when tracing.
std::string traced_source(std::string_view source, std::string_view path,
                          bool cooperative_groups = true);

// Whether `source`, or a header it includes with quotes (found beside the including file, or in
// `include_dirs`, followed recursively), names cooperative_groups. Unreadable headers are skipped.
bool uses_cooperative_groups(std::string_view source, std::string_view path,
                             std::span<const std::string> include_dirs = {});

// The quoted form of `path` for a #line directive (backslashes and quotes escaped).
std::string line_directive_file(std::string_view path);

}  // namespace warpsim::gpu
