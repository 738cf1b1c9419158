// The subcommands of the `warpsim` command. Each takes the arguments after its name and returns
// the process exit status; usage errors print one line and return 2.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "warpsim/runner.hpp"

namespace warpsim::cli {

using Args = std::vector<std::string>;

inline constexpr int kExitUsage = 2;
// `--gpu` or `vectors record` where no CUDA device (or no GPU support) is available.
inline constexpr int kExitNoGpu = 3;

int run_command(const Args& args);
int vectors_command(const Args& args);
int walkthrough_command(const Args& args);

// GPU hooks (gpu_hooks.cpp): real in builds with warpsim::gpu (WARPSIM_HAVE_GPU), a one-line
// refusal with kExitNoGpu otherwise.
int vectors_record_command(const Args& args);
// `run --gpu`: says in one line why there is no GPU run (no GPU support, or no device) and
// returns kExitNoGpu.
int gpu_run_unavailable();

// `run --gpu`'s own flags.
struct GpuRunFlags {
  std::uint64_t trace_blocks = 4;     // --gpu-trace-blocks: blocks traced on the device; 0: none
  std::uint32_t trace_calls = 256;    // --gpu-trace-calls: calls recorded per thread
  std::uint64_t tolerance_ulps = 0;   // --tolerance-ulps: floats within N ulps count as equal
  std::string trace_out;              // --gpu-trace-out: where the device trace goes; empty: none
};

// Checks for a CUDA device (before anything is simulated) and sets options.gpu_stage to run the
// kernel file on it and compare. Returns 0, or the exit status after one line on stderr
// (kExitNoGpu without GPU support or device).
int attach_gpu_stage(const GpuRunFlags& flags, runner::RunOptions& options);

void print_run_help();
void print_vectors_help();

}  // namespace warpsim::cli
