// `warpsim run --gpu`: the user's kernel file compiled with NVRTC exactly as written, launched on
// the GPU with the same arguments and initial buffer bytes the simulator used, optionally with a
// device-side trace of every warp-level call (device_trace_prelude.hpp), and compared with the
// simulator's run.
//
//   GpuRunRequest request;
//   request.source = text;  request.path = "kernels/reduce.cu";
//   request.kernel_expression = choice.expression;  request.kernel_name = choice.name;
//   request.args = options.args;  request.initial = {...};   // one span per arg (empty: scalar)
//   request.field_initial = {...};   // one span per buffer field of a struct argument
//   request.grid = options.grid;  request.block = options.block;
//   request.dynamic_shared_bytes = options.shared_bytes;
//   request.trace.enabled = true;
//   auto run = run_on_gpu(request);
//   if (!run) return report(run.error());  // no_device: exit 3; compile: 2; otherwise 1
//   GpuComparison comparison = compare_run(*run, &sim_trace, sim_buffers);   // device_trace.hpp
//
// The simulator's run has already resolved the kernel and checked every --arg against its
// parameters; this side takes that result (args, and the parameter list when the caller has it)
// and, where the driver can say (CUDA 12.4+), checks the parameter sizes of the kernel NVRTC built.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuda_driver.hpp"
#include "device_trace_prelude.hpp"
#include "warpsim/expected.hpp"
#include "nvrtc_compile.hpp"
#include "warpsim/device_trace.hpp"
#include "warpsim/kernel_registry.hpp"
#include "warpsim/runner.hpp"

namespace warpsim::gpu {

struct DeviceTraceOptions {
  bool enabled = false;
  std::uint64_t blocks = 4;      // trace the blocks with linear index below this
  std::uint32_t capacity = 256;  // calls recorded per thread; later ones are only counted
};

struct GpuRunRequest {
  std::string source;                 // the kernel file's text, exactly as read
  std::string path;                   // the file as messages name it (also #line and its -I folder)
  std::string kernel_expression;      // runner::KernelChoice::expression, e.g. "::ns::reduce<256>"
  std::string kernel_name;            // runner::KernelChoice::name, for messages
  std::vector<runner::ArgSpec> args;  // one per parameter, as the simulator run accepted them
  // The kernel's parameters as the simulator resolved them (KernelDescriptor::params); when given,
  // the args are checked against them with the simulator's own check. Empty: not checked again.
  std::vector<KernelParam> params;
  // One entry per arg: a buffer's initial bytes (exactly count * element size, the bytes the
  // simulator's buffer started with); empty for scalars and structs.
  std::vector<std::span<const std::byte>> initial;
  // One entry per buffer field of the struct arguments, in runner::buffer_slots order: its
  // initial bytes, as `initial`.
  std::vector<std::span<const std::byte>> field_initial;
  // For NVRTC as for the simulator's compiler (KernelFileRequest): -I DIR (searched after the
  // file's folder) and -D NAME[=VALUE].
  std::vector<std::string> include_dirs;
  std::vector<std::string> defines;
  Dim3 grid{}, block{};
  std::size_t dynamic_shared_bytes = 0;
  DeviceTraceOptions trace{};
  std::chrono::milliseconds timeout{60'000};  // a kernel that hangs (deadlocked warp) fails here
  int device = 0;                             // CUDA device ordinal
};

// The GPU run of what the simulator ran: `source` (the file's text) with the request's kernel,
// arguments, shape and time limit, starting from the bytes the simulator's buffers started with
// (sim.initial_buffers, which `initial` points into: keep `sim` alive). No trace unless asked.
GpuRunRequest gpu_request_for(const runner::KernelFileRequest& request,
                              const runner::KernelFileResult& sim, std::string source);

// Compiles, launches and downloads. A traced kernel the driver refuses to launch (the recorder's
// registers can exceed a 1024-thread block's limit) runs again as written, with `trace_note`
// saying so. Errors: no_device (no driver or device: one line to print),
// compile (NVRTC's log, naming the user's file and lines, in `details`), invalid_argument (the
// request does not fit the kernel or the device), driver (launch failure, a fault in the kernel,
// or the kernel still running after `timeout`).
Expected<GpuRun> run_on_gpu(const GpuRunRequest& request);

// ---- The parts of run_on_gpu that need no device (tested offline) ----

// Whether the request is well formed; if not, one line saying what is wrong.
Expected<void> check_request(const GpuRunRequest& request);

// The NVRTC options for the request: --std=c++17, -I the file's folder, then the request's -I
// (absolute) and -D as runner::user_compiler_flags spells them; the standard-header stand-ins;
// the kernel's name expression (and the recorder's when `traced`). The error names a bad -I/-D.
Expected<CompileOptions> compile_options(const GpuRunRequest& request, int sm, bool traced);

// What cuLaunchKernel's kernelParams[i] points at, parameter by parameter: a buffer argument's
// device address, a scalar's bits (its element size), a struct's bytes laid out by
// runner::struct_layout with its buffer fields' device addresses. `buffer_addresses[k]` is the
// device address of runner::buffer_slots(args)[k].
std::vector<std::vector<std::byte>> kernel_param_bytes(
    const std::vector<runner::ArgSpec>& args, std::span<const DevicePtr> buffer_addresses);

// The initial bytes of runner::buffer_slots(request.args)[k], from `initial` or `field_initial`.
std::vector<std::span<const std::byte>> slot_initial_bytes(const GpuRunRequest& request);

struct DeviceProgram {
  CompiledProgram program;
  std::string kernel_symbol;  // lowered name of request.kernel_expression
  std::string trace_symbol;   // lowered name of the recorder's state; empty when not traced
  std::string trace_note;     // why the program is not traced although tracing was asked for
};
// NVRTC for architecture `sm`: the user's file as written (-I its folder, --std=c++17, the
// standard-header stand-ins of device_std_headers.hpp), or with the trace prelude when
// request.trace.enabled. Should the prelude fail where the plain file compiles, the plain program
// comes back with `trace_note` saying so.
Expected<DeviceProgram> compile_for_device(const GpuRunRequest& request, int sm);

// Turns what the recorder wrote into a DeviceTrace (device fields left for the caller): counts
// holds one entry per traced thread, records `capacity` records per thread.
Expected<DeviceTrace> decode_device_trace(std::span<const std::uint64_t> counts,
                                          std::span<const DeviceCallRecord> records,
                                          std::uint32_t capacity, Dim3 grid, Dim3 block,
                                          std::uint64_t traced_blocks);

// "580.65.06" out of /proc/driver/nvidia/version's text; empty when it names none.
std::string driver_release_from(std::string_view proc_version);
// The present driver's release, or empty.
std::string driver_release();
// Now, in UTC: "2025-06-01T12:00:00Z".
std::string utc_now();

// The type GPU buffers of `type` come back as (runner::shown_buffer: 8- and 16-bit elements as
// 32-bit ones).
ValueType value_type_of(runner::ElementType type);
// "NVIDIA H100 ..." with its sm and driver, for a GpuRun.
GpuDevice gpu_device(const DeviceInfo& device);

}  // namespace warpsim::gpu
