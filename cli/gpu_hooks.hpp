// Where the `warpsim` command reaches the GPU: real in builds with warpsim::gpu
// (WARPSIM_HAVE_GPU); elsewhere every entry says in one line that there is no GPU support.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "warpsim/device_trace.hpp"
#include "warpsim/expected.hpp"
#include "warpsim/runner.hpp"

namespace warpsim::cli {

// `run --gpu`'s own flags.
struct GpuRunFlags {
  std::uint64_t trace_blocks = 4;     // --gpu-trace-blocks: blocks traced on the device; 0: none
  std::uint32_t trace_calls = 256;    // --gpu-trace-calls: calls recorded per thread
  std::uint64_t tolerance_ulps = 0;   // --tolerance-ulps: floats within N ulps count as equal
};

// Whether a CUDA device can be used; the error (no_device) is one line to print.
Expected<void> probe_gpu();

// The kernel file of `request` on the GPU, with the arguments and initial buffer bytes the
// simulator used (`sim` must come from a run with keep_initial_buffers).
Expected<GpuRun> run_on_gpu(const runner::KernelFileRequest& request,
                            const runner::KernelFileResult& sim, const GpuRunFlags& flags);

// `warpsim vectors record`.
struct VectorRecordFlags {
  std::string out;
  std::uint64_t seed = 777;
  std::size_t cases = 24000;
  int device = 0;
};
int vectors_record(const VectorRecordFlags& flags);

}  // namespace warpsim::cli
