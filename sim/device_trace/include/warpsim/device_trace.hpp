// What a GPU run recorded, and how it compares with the simulator's run of the same launch. Plain
// data and pure functions, no CUDA: CI compares recorded GPU traces on machines without a GPU.
//
// A device trace lists, for every thread of the first few blocks, the warp-level calls and block
// barriers that thread made, in order (gpu/device_trace_prelude.hpp records them). A simulator
// Trace holds the same calls as warp-wide steps; lane_calls() cuts out one lane's sequence, so
// the two line up call by call:
//
//   DeviceTrace gpu = *read_device_trace_json(text, error);
//   TraceComparison steps = compare(sim_trace, gpu);
//   if (!steps.identical()) print(steps.first_difference->field, ...);
//
// Bits are the simulator's (sim/shim/warpsim/value_bits.hpp): 32-bit operands zero-extended to 64
// bits, 64-bit operands whole, 16-bit halves in the low bits; votes carry the int predicate.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "warpsim/expected.hpp"
#include "warpsim/trace.hpp"

namespace warpsim {

// ---------------------------------------------------------------------------------------------
// Device traces

// One warp-level call (or block barrier) as one thread made it.
struct DeviceCall {
  Op op{};
  ValueType type = ValueType::none;
  LaneMask mask = 0;         // the member mask passed; 0 for __activemask and block barriers
  std::uint64_t input = 0;   // operand bits; the predicate for votes; 1/0 for barriers (plain: 1)
  std::uint64_t output = 0;  // result bits (masks for ballot/match/activemask)
  std::int32_t arg = 0;      // shuffles: srcLane / delta / laneMask; 0 otherwise
  std::int32_t width = 0;    // shuffles: width; 0 otherwise
  std::uint32_t line = 0;    // call site; on the device 0 means "inside CUDA's headers" (unknown)
  bool pred = false;         // match_all: *pred. Shuffles' in-range bit is not observable on a GPU.
  friend bool operator==(const DeviceCall&, const DeviceCall&) = default;
};

// The calls of one thread, in the order it made them.
struct DeviceThreadCalls {
  std::uint64_t block = 0;    // linear block index
  std::uint32_t thread = 0;   // linear thread index within the block (warp = thread / 32)
  std::uint64_t dropped = 0;  // calls made after the recorder's capacity was used up
  std::vector<DeviceCall> calls;
  friend bool operator==(const DeviceThreadCalls&, const DeviceThreadCalls&) = default;
};

struct DeviceTrace {
  std::string device;          // e.g. "NVIDIA H100 80GB HBM3"
  int sm = 0;                  // compute capability times ten
  int driver = 0;              // cuDriverGetVersion, e.g. 13000
  std::string driver_release;  // the kernel driver's release, e.g. "580.65.06"; empty if unknown
  std::string date;            // UTC, "2025-06-01T12:00:00Z"
  Dim3 grid{}, block{};
  std::uint64_t traced_blocks = 0;  // blocks 0 .. traced_blocks-1 (linear index) were recorded
  std::uint32_t capacity = 0;       // calls recorded per thread at most
  std::uint64_t dropped = 0;        // calls past capacity, all threads together
  std::vector<DeviceThreadCalls> threads;  // every thread of the traced blocks, block by block
  friend bool operator==(const DeviceTrace&, const DeviceTrace&) = default;
};

// Compact JSON: a header object, then one line per thread whose calls are arrays
// [op, type, mask, input, output, arg, width, line, pred] with hex strings for bits.
void write_device_trace_json(std::ostream& out, const DeviceTrace& trace);
std::string device_trace_json(const DeviceTrace& trace);
// Reads what write_device_trace_json wrote.
Expected<DeviceTrace> read_device_trace_json(std::string_view text);


// ---------------------------------------------------------------------------------------------
// One lane's calls in a simulator trace

struct LaneCall {
  DeviceCall call;         // the lane's part of the step, in device-call form
  std::uint64_t step = 0;  // index into Trace::steps
  bool undefined = false;  // CUDA leaves this lane's result undefined (the step says so)
};

// The steps in which thread `thread` of block `block` took part, in trace order, each as that
// lane saw it (its own mask, operand, result, call site), as a GPU records it: arg/width only for
// shuffles, pred only for match_all (a shuffle's in-range bit stays in the step). Block barriers
// included.
std::vector<LaneCall> lane_calls(const Trace& trace, std::uint64_t block, std::uint32_t thread);

// ---------------------------------------------------------------------------------------------
// Comparing steps

// The first field in which two calls differ, in the order compared.
enum class CallField : std::uint8_t {
  count,  // one side made more calls than the other
  op,     // different intrinsic
  type,   // same intrinsic, different operand type
  mask,
  arg,    // shuffles only
  width,  // shuffles only
  input,
  output,  // not compared where CUDA leaves the result undefined
  pred,    // match_all only
  line,    // not compared where the device says 0 (a call inside CUDA's headers)
};
std::string_view to_string(CallField field);
// The first field in which `gpu` differs from `sim` (nullopt: they agree). `undefined`: the
// simulator marks the result undefined, so outputs are not compared. `ulps` > 0: f32/f64 inputs
// and outputs within that many ULPs agree.
std::optional<CallField> first_differing_field(const DeviceCall& sim, const DeviceCall& gpu,
                                               bool undefined, std::uint64_t ulps = 0);

struct CallDifference {
  std::uint64_t block = 0;   // linear block index
  std::uint32_t thread = 0;  // linear thread index in the block
  std::uint32_t warp = 0;
  std::uint32_t lane = 0;
  std::uint64_t call = 0;  // index in that lane's sequence of calls
  CallField field = CallField::count;
  std::optional<DeviceCall> sim, gpu;  // nullopt: that side made no such call
  std::int64_t sim_step = -1;          // Trace::steps index of the simulator's call, -1 if none
  std::string file;                    // the simulator's file of the call ("" if unknown)
  // Lanes of the same warp whose first difference is at the same place (the same simulator
  // step, or the same call index where the simulator made no call), `lane` among them.
  LaneMask lanes = 0;
};

struct TraceComparison {
  std::string incomparable;             // non-empty: why the traces cannot be compared at all
  std::uint64_t lanes = 0;              // threads compared: every thread of the traced blocks
  std::uint64_t calls = 0;              // calls compared pairwise
  std::uint64_t differing_lanes = 0;    // lanes with at least one difference
  std::uint64_t truncated_lanes = 0;    // lanes the device stopped recording (compared up to there)
  std::uint64_t undefined_outputs = 0;  // results CUDA leaves undefined: outputs not compared
  std::uint64_t unknown_lines = 0;      // device calls with line 0: lines not compared
  std::optional<CallDifference> first_difference;  // the earliest in simulator step order
  bool identical() const { return incomparable.empty() && !first_difference; }
};

// Compares every traced thread's calls with its lane in the simulator trace. Grid and block must
// agree; the simulator trace must hold steps (a run with steps recorded). With `ulp_tolerance`
// > 0, f32/f64 inputs and outputs within that many ULPs count as equal.
TraceComparison compare(const Trace& sim, const DeviceTrace& gpu, std::uint64_t ulp_tolerance = 0);

// ---------------------------------------------------------------------------------------------
// Comparing buffers

struct BufferData {
  std::size_t arg = 0;               // zero-based parameter index
  ValueType type = ValueType::none;  // i32 u32 f32 i64 u64 f64
  std::span<const std::byte> bytes;  // little-endian elements
  std::int32_t field = -1;           // the buffer of this field of a struct argument; -1: the arg's
};

struct BufferComparison {
  std::size_t arg = 0;
  std::int32_t field = -1;  // as BufferData::field
  ValueType type = ValueType::none;
  std::uint64_t count = 0;             // elements compared
  std::uint64_t differing = 0;         // elements that differ (beyond the tolerance)
  std::uint64_t within_tolerance = 0;  // elements whose bits differ within the ULP tolerance
  std::uint64_t max_ulp = 0;           // largest ULP distance among float elements that differ
  std::optional<std::uint64_t> first_index;  // first element that differs (beyond the tolerance)
  std::uint64_t sim_bits = 0, gpu_bits = 0;  // that element on each side
  std::string problem;  // non-empty: the buffers cannot be compared (size, type)
  bool identical() const { return problem.empty() && differing == 0 && within_tolerance == 0; }
  bool matches() const { return problem.empty() && differing == 0; }
};

// Distance in units in the last place between two f32 (f64) values' bits; +0 and -0 are 0
// apart. Only for finite or infinite values (NaN: UINT64_MAX).
std::uint64_t ulp_distance(std::uint64_t a, std::uint64_t b, ValueType type);

// Bit for bit; with `ulp_tolerance` > 0, f32/f64 elements within that many ULPs count as
// matching (and any NaN matches any NaN).
BufferComparison compare_buffer(const BufferData& sim, const BufferData& gpu,
                                std::uint64_t ulp_tolerance = 0);
// Pairs buffers by `arg`; a buffer on one side only is reported as a problem.
std::vector<BufferComparison> compare_buffers(std::span<const BufferData> sim,
                                              std::span<const BufferData> gpu,
                                              std::uint64_t ulp_tolerance = 0);

// One element as `warpsim run --json` prints buffers: integers exactly, f32 "%.9g", f64
// "%.17g", "nan" / "inf" / "-inf".
std::string format_element(std::uint64_t bits, ValueType type);

// ---------------------------------------------------------------------------------------------
// A GPU's run of a launch, live (`--gpu`) or recorded (a lesson's gpu/ folder), and its
// comparison with the simulator's run of the same launch

struct GpuDevice {
  std::string name;            // e.g. "NVIDIA H100 80GB HBM3"
  int sm = 0;                  // compute capability times ten
  int driver = 0;              // cuDriverGetVersion, e.g. 13000
  std::string driver_release;  // the kernel driver's release, e.g. "580.65.06"; empty if unknown
  int cuda = 0;                // the CUDA toolkit that compiled the kernel (NVRTC), e.g. 13000
  std::string date;            // when the run was made, UTC "2026-11-23T12:00:00Z"
  friend bool operator==(const GpuDevice&, const GpuDevice&) = default;
};

struct GpuBuffer {
  std::size_t arg = 0;               // zero-based parameter index
  ValueType type = ValueType::none;  // i32 u32 f32 i64 u64 f64
  std::vector<std::byte> bytes;      // after the launch, little-endian
  std::int32_t field = -1;           // as BufferData::field
  friend bool operator==(const GpuBuffer&, const GpuBuffer&) = default;
};

struct GpuRun {
  GpuDevice device;
  std::vector<GpuBuffer> buffers;    // every buffer argument after the launch, in parameter order
  std::optional<DeviceTrace> trace;  // when one was asked for and recorded
  std::string trace_note;            // why there is no trace although one was asked for
  std::string printf_output;         // what the kernel's printf calls wrote
  std::string compile_log;           // the device compiler's warnings; empty when none
  friend bool operator==(const GpuRun&, const GpuRun&) = default;
};

// The run's buffers as BufferData (views into `run`).
std::vector<BufferData> buffer_data(const GpuRun& run);

// One JSON object (the device trace inside it in its own form); what a lesson's gpu/ folder holds.
void write_gpu_run_json(std::ostream& out, const GpuRun& run);
Expected<GpuRun> read_gpu_run_json(std::string_view text);

struct GpuComparison {
  GpuDevice device;
  Dim3 grid{};  // to name blocks by their coordinates
  std::vector<BufferComparison> buffers;
  std::optional<TraceComparison> steps;  // nullopt: no device trace was recorded
  std::string steps_note;                // why there is no step comparison, when there is none
  std::uint64_t traced_blocks = 0;
  std::uint64_t ulp_tolerance = 0;
  bool identical() const;  // every buffer identical and (when compared) every step
  bool matches() const;    // every buffer within the tolerance and every compared step equal
};

// Every buffer bit for bit (or within `ulp_tolerance` for floats) against `sim_buffers`, and,
// when the run has a trace and `sim_trace` holds steps, every traced lane's calls.
GpuComparison compare_run(const GpuRun& run, const Trace* sim_trace,
                          std::span<const BufferData> sim_buffers, std::uint64_t ulp_tolerance = 0);

// What the GPU's lanes received at each simulator step, for showing the two side by side: for
// every step of a traced block, each lane's output of its matching device call (the k-th call a
// lane made on the GPU against the k-th step it took part in).
class GpuStepOutputs {
 public:
  using Lanes = std::array<std::optional<std::uint64_t>, kWarpSize>;
  GpuStepOutputs() = default;
  GpuStepOutputs(const Trace& sim, const DeviceTrace& gpu);
  // nullptr where the GPU traced no lane of that step.
  const Lanes* at(std::size_t step) const;

 private:
  std::vector<std::pair<std::size_t, Lanes>> steps_;  // sorted by step
};

}  // namespace warpsim
